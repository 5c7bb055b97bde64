# NintendoWare CTR .cmdl reader and writer tests (issue 5; formats/nw4c_cmdl.md). No public
# sample exists: hand-written documents and the project's own writer are the fixtures.
vks_add_test(NAME test_cmdl_hand SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_cmdl_hand.c LABELS cmdl)
vks_add_test(NAME test_cmdl_roundtrip SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_cmdl_roundtrip.c LABELS cmdl)
vks_add_fuzz(NAME fuzz_cmdl SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_cmdl.c
             SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/cmdl ${CMAKE_CURRENT_SOURCE_DIR}/data/cmdl)
