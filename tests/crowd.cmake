# The persistent crowd and adopted devices (crowd.h, gpu_vulkan.h), with the validation layer
# on; the embedding example; bench --crowd. GPU tests exit 77 (skipped) without a device; a
# -DVKSKIN_GPU=OFF build has none of them (they include Vulkan headers).
if(NOT VKSKIN_GPU)
  return()
endif()
add_library(vks_crowd_check STATIC ${CMAKE_CURRENT_SOURCE_DIR}/unit/crowd_check.c)
target_link_libraries(vks_crowd_check PUBLIC vks_testutil)
foreach(t test_gpu_crowd test_gpu_adopt test_gpu_clip test_gpu_stream test_gpu_stream_crowd test_gpu_layers
          test_gpu_stream_host)
  vks_add_test(NAME ${t} SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/${t}.c LABELS gpu)
  target_link_libraries(${t} PRIVATE vks_crowd_check vks_gpu_check)
  # leaked Vulkan objects are reported by the layer only when the device is destroyed
  set_tests_properties(${t} PROPERTIES TIMEOUT 300 FAIL_REGULAR_EXPRESSION "vkskin: validation")
endforeach()
target_link_libraries(test_gpu_adopt PRIVATE Threads::Threads)
# Crowds of two size classes in one context, the small-model class's shape forced apart
vks_add_test(NAME test_gpu_crowd_classes SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gpu_crowd_classes.c LABELS gpu)
target_link_libraries(test_gpu_crowd_classes PRIVATE vks_crowd_check vks_gpu_check)
set_tests_properties(test_gpu_crowd_classes PROPERTIES TIMEOUT 300 FAIL_REGULAR_EXPRESSION "vkskin: validation")
# Calibration at first use for crowds (VKSKIN_TEST_UNKNOWN_DEVICE, a private XDG_CACHE_HOME)
vks_add_test(NAME test_gpu_crowd_first_use SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gpu_crowd_first_use.c LABELS gpu)
target_link_libraries(test_gpu_crowd_first_use PRIVATE vks_crowd_check vks_gpu_check)
set_tests_properties(test_gpu_crowd_first_use PROPERTIES TIMEOUT 300 FAIL_REGULAR_EXPRESSION "vkskin: validation")
# the same with a 5,000-vertex character: past the small-model class, its crowds calibrate the context's shape
add_test(NAME test_gpu_crowd_first_use_large COMMAND test_gpu_crowd_first_use 5000)
set_tests_properties(test_gpu_crowd_first_use_large PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300
  ENVIRONMENT "VKSKIN_REAL_DATASETS=${VKSKIN_REAL_DATASETS};VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR};VKSKIN_BINARY_DIR=${PROJECT_BINARY_DIR}"
  FAIL_REGULAR_EXPRESSION "vkskin: validation")
# The same checks with the pose pass's nodes variant (a subgroup per instance, worlds by depth
# level; compute/pose.comp): procedural poses, host locals, roots, parts, clips of every space
# and cycle against the CPU reference; 8 and 32 instances a workgroup on lavapipe (subgroups of 8).
# And with the frames staggered (the launch shape's slices, gpu/tuning.h): each slice's pose
# pass beside the previous slice's deform, on lavapipe with slices of a few instances, with the
# serial pose pass (procedural, host locals, parts, layers) and by nodes (clips, layers).
foreach(case "pose=nodes|test_gpu_crowd test_gpu_clip test_gpu_layers"
             "pose=nodes,pose_wg=256|test_gpu_crowd test_gpu_clip test_gpu_layers"
             "slices=3,slice_min=2|test_gpu_crowd test_gpu_layers"
             "pose=nodes,slices=8,slice_min=1|test_gpu_clip test_gpu_layers")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 shape)
  list(GET case 1 tests)
  string(REPLACE " " ";" tests "${tests}")
  string(REGEX REPLACE "[^a-z0-9]+" "_" suffix "${shape}")
  foreach(t ${tests})
    add_test(NAME ${t}_${suffix} COMMAND ${t})
    set_tests_properties(${t}_${suffix} PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300
      ENVIRONMENT "VKS_TEST_LAUNCH_SHAPE=${shape};VKSKIN_REAL_DATASETS=${VKSKIN_REAL_DATASETS};VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR};VKSKIN_BINARY_DIR=${PROJECT_BINARY_DIR}"
      FAIL_REGULAR_EXPRESSION "vkskin: validation")
  endforeach()
endforeach()

# The readback in a submission of its own, linked to the compute one by a semaphore (a copy
# engine's queue where the device has one): lavapipe has one queue, so VKSKIN_TEST_SEPARATE_READBACK
# takes that path there, under the validation layer; the stream's checks run whole that way, and
# the program writes the same bytes either way.
add_test(NAME test_gpu_stream_readback_apart COMMAND test_gpu_stream)
set_tests_properties(test_gpu_stream_readback_apart PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300
  ENVIRONMENT "VKSKIN_TEST_SEPARATE_READBACK=1;VKSKIN_REAL_DATASETS=${VKSKIN_REAL_DATASETS};VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR};VKSKIN_BINARY_DIR=${PROJECT_BINARY_DIR}"
  FAIL_REGULAR_EXPRESSION "vkskin: validation")
# The crowd's own readback (vks_crowd_read) the same way: its copies on the readback queue after
# the compute queue's semaphore, the same bits as in one submission, the layer clean.
foreach(t test_gpu_crowd test_gpu_clip test_gpu_layers test_gpu_adopt)
  add_test(NAME ${t}_readback_apart COMMAND ${t})
  set_tests_properties(${t}_readback_apart PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300
    ENVIRONMENT "VKSKIN_TEST_SEPARATE_READBACK=1;VKSKIN_REAL_DATASETS=${VKSKIN_REAL_DATASETS};VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR};VKSKIN_BINARY_DIR=${PROJECT_BINARY_DIR}"
    FAIL_REGULAR_EXPRESSION "vkskin: validation")
endforeach()
add_test(NAME cli_readback_apart COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_readback_apart.sh $<TARGET_FILE:vkskin>
  ${PROJECT_SOURCE_DIR})
set_tests_properties(cli_readback_apart PROPERTIES LABELS "cli;gpu" SKIP_RETURN_CODE 77 TIMEOUT 300
  FAIL_REGULAR_EXPRESSION "vkskin: validation")

# examples/: built against vkskin::vkskin and run here
add_subdirectory(${PROJECT_SOURCE_DIR}/examples ${PROJECT_BINARY_DIR}/examples)

# bench --crowd on a small workload: runs both paths and prints the ratio (4: no device)
add_test(NAME test_bench_crowd
  COMMAND vkskin bench --crowd --instances 12 --vertices 600 --bones 24 --frames 3 --json --validation)
set_tests_properties(test_bench_crowd PROPERTIES LABELS gpu SKIP_RETURN_CODE 4 TIMEOUT 120
  PASS_REGULAR_EXPRESSION "\"per_call_over_crowd\":" FAIL_REGULAR_EXPRESSION "vkskin: validation")
