# NintendoWare CTR .cmdl reader and writer tests (issue 5; formats/nw4c_cmdl.md). No public
# sample exists: hand-written documents and the project's own writer are the fixtures.
vks_add_test(NAME test_cmdl_hand SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_cmdl_hand.c LABELS cmdl)
