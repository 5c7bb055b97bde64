# Clip keys the float32 engines can use (issue 21, point 3): conditioned at load in double or
# refused naming the key; and no deform output holds an inf or a NaN. The CLI script plays the
# unit test's crafted files (--dump) on every engine.
vks_add_test(NAME test_clip_float32 SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_clip_float32.c
  LABELS anim robustness)

add_test(NAME cli_clip_float32 COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_clip_float32.sh $<TARGET_FILE:vkskin>
         $<TARGET_FILE:test_clip_float32>)
set_tests_properties(cli_clip_float32 PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;anim" TIMEOUT 300)
