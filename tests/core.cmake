# Core, pose, CPU reference, diff and output tests, and the command-line checks.
add_library(vks_fixture STATIC ${CMAKE_CURRENT_SOURCE_DIR}/unit/skin_fixture.c)
target_link_libraries(vks_fixture PUBLIC vks_testutil)
foreach(t test_cpu_reference test_math_pose test_diff_bake test_diff_split test_diff_sums test_error_scale_rule
        test_compare_rule test_bind_check_scaled)
  vks_add_test(NAME ${t} SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/${t}.c LABELS core)
  target_link_libraries(${t} PRIVATE vks_fixture)
endforeach()

# the comparison's one pass against its rule, copied into the test: both round alike only
# without contraction, as the library's check/ is built
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/unit/test_compare_rule.c ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_diff_sums.c
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_error_scale_rule.c PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")

add_test(NAME cli_basics COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_basics.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_basics PROPERTIES SKIP_RETURN_CODE 77 LABELS cli
  ENVIRONMENT "VKSKIN_REAL_DATASETS=${VKSKIN_REAL_DATASETS};VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}")

vks_add_fuzz(NAME fuzz_pose SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_pose.c
             SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/pose)
if(TARGET fuzz_pose)
  target_link_libraries(fuzz_pose PRIVATE vks_fixture)
elseif(TARGET fuzz_pose_replay)
  target_link_libraries(fuzz_pose_replay PRIVATE vks_fixture)
endif()

# Clip model: sampling, cycles, binding, spaces (clip.h).
vks_add_test(NAME test_clip_sample SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_clip_sample.c LABELS core anim)
target_link_libraries(test_clip_sample PRIVATE vks_fixture)
vks_add_test(NAME test_clip_layers SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_clip_layers.c LABELS core anim)
target_link_libraries(test_clip_layers PRIVATE vks_fixture)
# the float clip time both the GPU and the CPU reference sample at (issue 22)
vks_add_test(NAME test_clip_time SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_clip_time.c LABELS core anim)
# The CSV and OBJ writers' numbers: printf's bytes without printf (core/float_text.h).
vks_add_test(NAME test_float_text SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_float_text.c LABELS core)
# Text numbers inside a host that set a comma locale: the C locale's, as in a plain run.
vks_add_test(NAME test_c_locale SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_c_locale.c LABELS core)
set_tests_properties(test_c_locale PROPERTIES SKIP_RETURN_CODE 77)
# The format registry: detection, vks_read_file and vks_read_clips through one list (issue 23).
vks_add_test(NAME test_format_registry SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_format_registry.c LABELS core)
# the logger hands long messages (paths of thousands of characters) to the host whole
vks_add_test(NAME test_log SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_log.c LABELS core)
