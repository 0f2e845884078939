#!/bin/bash
# The gst-check suite (check_elements.c) against a private ccnd.
set -u
GST_TEST_TAG=gst-check
GST_TEST_PORT_BASE=15450
. "$(dirname "$0")/lib.sh" || exit 1
start_ccnd
export CCN_LOCAL_SOCKNAME
CK_DEFAULT_TIMEOUT=120 LD_PRELOAD= timeout 300 "${CCNX_TESTS_BIN:?}/gst_check_elements" ||
    fail "gst-check suite"
echo "PASS"
