# Crowd files (crowd_file.h, issue 12): the JSON and CSV parser's good and bad files, and its
# fuzz target (replayed over tests/fuzz/crowd in ordinary builds).
vks_add_test(NAME test_crowd_file SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_crowd_file.c LABELS anim)
vks_add_fuzz(NAME fuzz_crowd_file SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_crowd_file.c
  SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/crowd)
if(TEST fuzz_crowd_file_replay)
  set_tests_properties(fuzz_crowd_file_replay PROPERTIES LABELS anim)
endif()
