// The owner of the tests' precompiled header (tests/CMakeLists.txt, test_pch):
// CMake builds the header with this target's flags, and the test targets
// reuse it.
