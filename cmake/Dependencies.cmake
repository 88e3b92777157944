# All third-party code comes from Debian packages; see scripts/install-deps.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
pkg_check_modules(RDKAFKA REQUIRED IMPORTED_TARGET rdkafka)
pkg_check_modules(HIREDIS REQUIRED IMPORTED_TARGET hiredis)
# The .pc file carries the feature macros the Debian library was compiled with;
# they change class layouts, so they must reach every translation unit.
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
find_package(spdlog REQUIRED)
if(PETSTORE_BUILD_TESTS)
  find_package(GTest REQUIRED)
  find_package(yaml-cpp REQUIRED)
endif()
