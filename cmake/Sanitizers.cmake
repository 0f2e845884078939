# CCNX_SANITIZE=ON builds everything with AddressSanitizer and UndefinedBehaviorSanitizer.
option(CCNX_SANITIZE "Build with ASan+UBSan" OFF)
if(CCNX_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
