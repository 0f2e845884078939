# CCNX_SANITIZE=ON builds everything with AddressSanitizer and UndefinedBehaviorSanitizer.
option(CCNX_SANITIZE "Build with ASan+UBSan" OFF)
if(CCNX_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# Test time limits are bounds against hangs, sized for a release build on a
# busy machine; sanitized code runs several times slower, so its limits are
# scaled (CCNX_TEST_TIMEOUT_SCALE multiplies every TIMEOUT).
if(CCNX_SANITIZE)
  set(CCNX_TEST_TIMEOUT_SCALE 4)
else()
  set(CCNX_TEST_TIMEOUT_SCALE 1)
endif()
