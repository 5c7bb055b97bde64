# NintendoWare CTR .cskla clip reader and writer tests (issue 13; formats/animation.md section 3).
# No public sample exists: hand-written documents with hand-computed samples, and the project's
# own writer, are the fixtures.
vks_add_test(NAME test_cskla SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_cskla.c LABELS cskla)
vks_add_test(NAME test_cskla_errors SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_cskla_errors.c LABELS cskla)
vks_add_test(NAME test_cskla_write SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_cskla_write.c LABELS cskla)
vks_add_fuzz(NAME fuzz_cskla SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_cskla.c
  SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/cskla)
if(TEST fuzz_cskla_replay)
  set_tests_properties(fuzz_cskla_replay PROPERTIES LABELS cskla)
endif()
