# All third-party code comes from Debian packages; see scripts/install-deps.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
pkg_check_modules(RDKAFKA REQUIRED IMPORTED_TARGET rdkafka)
pkg_check_modules(HIREDIS REQUIRED IMPORTED_TARGET hiredis)
# The .pc file carries the feature macros the Debian library was compiled with;
# they change class layouts, so they must reach every translation unit.
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
find_package(spdlog REQUIRED)
# jemalloc for the service binaries: glibc malloc was a visible part of a
# GET's CPU with many threads (docs/performance.md, "Levers"). Not with sanitizers, which bring
# their own allocator.
if(NOT PETSTORE_SANITIZE)
  pkg_check_modules(JEMALLOC REQUIRED IMPORTED_TARGET jemalloc)
endif()

# Links a service executable with the allocator chosen above.
function(petstore_link_allocator target)
  if(NOT PETSTORE_SANITIZE)
    target_link_libraries(${target} PRIVATE PkgConfig::JEMALLOC)
  endif()
endfunction()
if(PETSTORE_BUILD_TESTS)
  find_package(GTest REQUIRED)
  find_package(yaml-cpp REQUIRED)
endif()
