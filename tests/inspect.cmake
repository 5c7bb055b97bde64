# vkskin inspect as a library call (inspect.h, issue 39): the bundled characters inspected
# through the public header; the CLI's bytes are checked by the cli tests and python/tests.
vks_add_test(NAME test_inspect_lib SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_inspect_lib.c LABELS core)
