# One switch turns on ASan and UBSan for every target, so the suite can run the
# same unit and integration tests against an instrumented build.
if(PETSTORE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  # Instrumentation confuses GCC's flow analysis into false "may be used
  # uninitialized" reports inside libstdc++ (std::function in std::regex).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-Wno-maybe-uninitialized)
  endif()
endif()
