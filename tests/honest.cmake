# Honest models (issue 9, points 9-12): non-finite and repaired weights, the bind-pose
# check's verdict, bones float32 cannot deform, extreme poses, duplicate pose entries. The
# CLI script runs the unit test's crafted files (--dump) through vkskin inspect and validate.
vks_add_test(NAME test_honest_models
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_honest_models.c ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_rw_util.c
  LABELS robustness)
target_link_libraries(test_honest_models PRIVATE vks_fixture)

add_test(NAME cli_honest COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_honest.sh $<TARGET_FILE:vkskin>
         $<TARGET_FILE:test_honest_models>)
set_tests_properties(cli_honest PROPERTIES SKIP_RETURN_CODE 77 LABELS cli TIMEOUT 300
  ENVIRONMENT "VKSKIN_REAL_DATASETS=${VKSKIN_REAL_DATASETS};VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
