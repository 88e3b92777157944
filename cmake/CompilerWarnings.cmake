# Every target of ours builds with warnings as errors; third-party headers are
# included as SYSTEM so their warnings are not ours to fix.
function(petstore_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Werror
    -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
    -Woverloaded-virtual -Wconversion -Wsign-conversion
    -Wnull-dereference -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough
    # GCC 12 reports a false -Wrestrict inside libstdc++'s std::string
    # operator+ at -O2/-O3 (GCC bug 105329); it says nothing about our code.
    $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>)
endfunction()
