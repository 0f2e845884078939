# Compiler warnings for all project targets. CCNX_WERROR turns them into errors (CI).
option(CCNX_WERROR "Treat warnings as errors" OFF)
set(CCNX_WARNING_FLAGS -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes
    -Wmissing-prototypes -Wvla -Wno-unused-parameter)
if(CCNX_WERROR)
  list(APPEND CCNX_WARNING_FLAGS -Werror)
endif()
function(ccnx_target_warnings target)
  target_compile_options(${target} PRIVATE ${CCNX_WARNING_FLAGS})
endfunction()
