# Fuzz targets: each tests/fuzz/fuzz_<x>.c defines LLVMFuzzerTestOneInput.
# - always: a replay executable (with tests/fuzz/replay_main.c) that runs the corpus
#   under ctest with whatever compiler builds the project;
# - with clang and CCNX_LIBFUZZER=ON: a real libFuzzer binary.
option(CCNX_LIBFUZZER "Build libFuzzer binaries (clang only)" OFF)
if(CCNX_LIBFUZZER)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "CCNX_LIBFUZZER needs clang (CC=clang)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
function(ccnx_add_fuzz_target name)
  add_executable(${name}_replay ${CMAKE_SOURCE_DIR}/tests/fuzz/${name}.c
                 ${CMAKE_SOURCE_DIR}/tests/fuzz/replay_main.c ${ARGN})
  target_link_libraries(${name}_replay PRIVATE ccnx)
  ccnx_target_warnings(${name}_replay)
  set_target_properties(${name}_replay PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
  add_test(NAME fuzz_replay_${name}
           COMMAND ${name}_replay ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus/${name}
                   ${CCNX_VECTORS_DIR})
  set_tests_properties(fuzz_replay_${name} PROPERTIES LABELS "fuzz")
  if(CCNX_LIBFUZZER)
    add_executable(${name} ${CMAKE_SOURCE_DIR}/tests/fuzz/${name}.c ${ARGN})
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    target_link_libraries(${name} PRIVATE ccnx)
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
  endif()
endfunction()
