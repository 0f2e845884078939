# Generates the DTAG enum header and the number/name table from core/dtag.csv.
# Usage: cmake -DIN=dtag.csv -DOUT_H=.../ccnx/dtag_values.h -DOUT_C=.../dtag_table.c -P gen_dtag.cmake
file(STRINGS "${IN}" lines)
set(enum "")
set(table "")
set(count 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^#" OR line STREQUAL "")
    continue()
  endif()
  if(NOT line MATCHES "^([0-9]+),([A-Za-z][A-Za-z0-9_]*)$")
    message(FATAL_ERROR "dtag.csv: bad line '${line}'")
  endif()
  set(num "${CMAKE_MATCH_1}")
  set(name "${CMAKE_MATCH_2}")
  string(APPEND enum "    CCNX_DTAG_${name} = ${num},\n")
  string(APPEND table "    {${num}u, \"${name}\"},\n")
  math(EXPR count "${count} + 1")
endforeach()
file(WRITE "${OUT_H}.tmp"
"/* Generated from core/dtag.csv by cmake/gen_dtag.cmake: do not edit. */
#ifndef CCNX_DTAG_VALUES_H
#define CCNX_DTAG_VALUES_H
enum ccnx_dtag {
${enum}};
#define CCNX_DTAG_COUNT ${count}
#endif
")
file(WRITE "${OUT_C}.tmp"
"/* Generated from core/dtag.csv by cmake/gen_dtag.cmake: do not edit. */
#include \"encoding/ccnb_internal.h\"
/* Sorted by number (the csv is kept sorted; dtag.c checks it in its test). */
const struct ccnx_dtag_entry ccnx_dtag_table[${count}] = {
${table}};
")
# Only touch outputs when they change, so dependents do not rebuild needlessly.
foreach(pair "${OUT_H}" "${OUT_C}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${pair}.tmp" "${pair}")
  file(REMOVE "${pair}.tmp")
endforeach()
