# GPU batch deformer (Vulkan compute) against the CPU reference, with the validation layer on;
# the fast CPU deformer against the reference. GPU tests exit 77 (skipped) without a device.
add_library(vks_gpu_check STATIC ${CMAKE_CURRENT_SOURCE_DIR}/unit/gpu_check.c)
target_link_libraries(vks_gpu_check PUBLIC vks_testutil)
foreach(t test_gpu_batch test_gpu_faults test_gpu_oom test_gpu_reduce)
  vks_add_test(NAME ${t} SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/${t}.c LABELS gpu)
  target_link_libraries(${t} PRIVATE vks_gpu_check)
  set_tests_properties(${t} PROPERTIES TIMEOUT 120)
endforeach()
# Leaked Vulkan objects are reported by the layer only when the device is destroyed, after
# the last count a test can read: fail on any validation line.
set_tests_properties(test_gpu_oom PROPERTIES FAIL_REGULAR_EXPRESSION "vkskin: validation")
# Its runs of 19 failing allocations each took 117-120 s on SwiftShader (the GPU tests' second
# pass, tools/scripts/test_swiftshader.sh) on a loaded 2-core machine, 10 s on lavapipe: the
# limit guards against a hang, not a slow device.
set_tests_properties(test_gpu_oom PROPERTIES TIMEOUT 300)

# The context as an embedded library: the host's logger and VkAllocationCallbacks (it names
# Vulkan types through gpu_vulkan.h, which a -DVKSKIN_GPU=OFF build does not have).
if(VKSKIN_GPU)
  vks_add_test(NAME test_gpu_library SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gpu_library.c LABELS gpu)
  set_tests_properties(test_gpu_library PROPERTIES TIMEOUT 120)
endif()

vks_add_test(NAME test_cpu_fast SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_cpu_fast.c
             ${CMAKE_CURRENT_SOURCE_DIR}/unit/eight_tube.c LABELS cpu)
# the baseline kernel's affine loop only for runs whose weights sum to 1: a character with
# unnormalised weights on every kernel against the reference (issue 41)
vks_add_test(NAME test_cpu_fast_affine SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_cpu_fast_affine.c LABELS cpu)
# every fast kernel on the bundled characters (datasets/) against the reference
vks_add_test(NAME test_cpu_fast_bundled SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_cpu_fast_bundled.c LABELS cpu)
# Morph targets on the CPU reference and the fast engine: the morph stage alone, weights per
# instance and default weights, against each other on every kernel (issue 38).
vks_add_test(NAME test_morph_engines SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_morph_engines.c
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/morph_fixture.c LABELS cpu)
# ... and on the GPU: weights per instance through the job and a two-model batch, both kernels.
vks_add_test(NAME test_gpu_morph SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gpu_morph.c
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/morph_fixture.c LABELS gpu)
target_link_libraries(test_gpu_morph PRIVATE vks_gpu_check)
set_tests_properties(test_gpu_morph PROPERTIES TIMEOUT 120 FAIL_REGULAR_EXPRESSION "vkskin: validation")
# validate's deform variant with the reduction folded in (compute/reduce_fold.glsl) on every
# kernel variant (morph targets, 2, 4 and 8 influences; shared palette or not), against the
# host's figures and the reduction's pass of its own (issue 41)
vks_add_test(NAME test_gpu_reduce_fused SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gpu_reduce_fused.c
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/morph_fixture.c ${CMAKE_CURRENT_SOURCE_DIR}/unit/eight_tube.c LABELS gpu)
target_link_libraries(test_gpu_reduce_fused PRIVATE vks_gpu_check)
set_tests_properties(test_gpu_reduce_fused PROPERTIES TIMEOUT 120 FAIL_REGULAR_EXPRESSION "vkskin: validation")
# the reference's AVX2 form bit for bit against its scalar loop (issue 25)
vks_add_test(NAME test_cpu_reference_simd SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_cpu_reference_simd.c
             ${CMAKE_CURRENT_SOURCE_DIR}/unit/morph_fixture.c LABELS cpu)

add_test(NAME test_gpu_cli COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gpu_cli.sh $<TARGET_FILE:vkskin>)
set_tests_properties(test_gpu_cli PROPERTIES SKIP_RETURN_CODE 77 LABELS gpu TIMEOUT 120
  ENVIRONMENT "VKSKIN_REAL_DATASETS=${VKSKIN_REAL_DATASETS}")

# bench's GPU engines: both kernels, first and steady runs, --end-to-end into a raw file
# the fast kernels bench times, the one chosen, and VKSKIN_CPU_PATH forcing a lower one
add_test(NAME test_bench_cpu_kernels COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_bench_cpu_kernels.sh
         $<TARGET_FILE:vkskin>)
set_tests_properties(test_bench_cpu_kernels PROPERTIES SKIP_RETURN_CODE 77 LABELS cpu TIMEOUT 120)
add_test(NAME test_bench_cli COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_bench_cli.sh $<TARGET_FILE:vkskin>)
set_tests_properties(test_bench_cli PROPERTIES SKIP_RETURN_CODE 77 LABELS gpu TIMEOUT 120)

# devices.h: the --device rules, the tune report from a result made by hand, and the device list
# against gpu.h's own calls (its list part where there is a Vulkan device)
vks_add_test(NAME test_devices_lib SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_devices_lib.c LABELS gpu)
target_link_libraries(test_devices_lib PRIVATE vkskin_deps::cjson)
set_tests_properties(test_devices_lib PROPERTIES TIMEOUT 120)

# bench.h's text writers (the lines vkskin bench and bench --crowd print) on results made by hand
vks_add_test(NAME test_bench_text SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_bench_text.c LABELS cpu)

# Which queue family batch work and rendering use, against the tables of real devices (the
# H100's vulkaninfo, lavapipe, RADV, ANV): a pure function, no device needed.
if(VKSKIN_GPU)
  vks_add_test(NAME test_queue_choice SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_queue_choice.c LABELS cpu)
  vks_add_test(NAME test_chunk_budget SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_chunk_budget.c LABELS unit)
  vks_add_test(NAME test_gpu_plan SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gpu_plan.c LABELS unit)
  vks_add_test(NAME test_tuning SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_tuning.c LABELS unit)
  vks_add_test(NAME test_tuning_cache SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_tuning_cache.c LABELS unit)
  # the cache folder trusted no further than its user: planted links, FIFOs, others' folders
  vks_add_test(NAME test_tuning_cache_folder SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_tuning_cache_folder.c LABELS unit)
  set_tests_properties(test_tuning_cache_folder PROPERTIES TIMEOUT 60)
  vks_add_test(NAME test_tuning_start SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_tuning_start.c LABELS unit)
  vks_add_test(NAME test_gpu_tune SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gpu_tune.c LABELS gpu)
  target_link_libraries(test_gpu_tune PRIVATE vks_gpu_check)
  set_tests_properties(test_gpu_tune PROPERTIES TIMEOUT 300)
  vks_add_test(NAME test_gpu_first_use SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gpu_first_use.c LABELS gpu)
  target_link_libraries(test_gpu_first_use PRIVATE vks_gpu_check)
  set_tests_properties(test_gpu_first_use PROPERTIES TIMEOUT 300)
  # 5..8 influences against the reference on every kernel path; 4-influence uploads compile no
  # 8-influence pipeline (issue 38)
  vks_add_test(NAME test_gpu_eight_influences SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gpu_eight_influences.c
               ${CMAKE_CURRENT_SOURCE_DIR}/unit/eight_tube.c LABELS gpu)
  target_link_libraries(test_gpu_eight_influences PRIVATE vks_gpu_check)
  set_tests_properties(test_gpu_eight_influences PROPERTIES TIMEOUT 300 FAIL_REGULAR_EXPRESSION "vkskin: validation")
  vks_add_test(NAME test_gpu_shapes SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gpu_shapes.c LABELS gpu)
  target_link_libraries(test_gpu_shapes PRIVATE vks_gpu_check)
  set_tests_properties(test_gpu_shapes PROPERTIES TIMEOUT 300)
endif()

# vkskin tune: the calibration from the command line, the cache it writes, bench starting with it
add_test(NAME test_tune_cli COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_tune_cli.sh $<TARGET_FILE:vkskin>)
set_tests_properties(test_tune_cli PROPERTIES SKIP_RETURN_CODE 77 LABELS gpu TIMEOUT 300)
# The cache folder from the command line (issue 37): links planted at the temporaries, FIFOs at
# the entries (bounded by timeout: a hang fails), folders others may write or own
add_test(NAME cli_cache_folder COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_cache_folder.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_cache_folder PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;gpu" TIMEOUT 600
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
# Calibration at first use from the command line: devices and bench say which shape runs and why
add_test(NAME test_first_use_cli COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_first_use_cli.sh $<TARGET_FILE:vkskin>)
set_tests_properties(test_first_use_cli PROPERTIES SKIP_RETURN_CODE 77 LABELS gpu TIMEOUT 300)

# The device's own ceilings and the readback copies' timing (what bench holds passes against)
if(VKSKIN_GPU)
  vks_add_test(NAME test_gpu_ceilings SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gpu_ceilings.c LABELS gpu)
  target_link_libraries(test_gpu_ceilings PRIVATE vks_gpu_check)
  set_tests_properties(test_gpu_ceilings PROPERTIES TIMEOUT 120)
  # the device-to-host ceiling and the staged batch's copies timed on a readback queue apart
  # (VKSKIN_TEST_SEPARATE_READBACK: lavapipe's one queue taking a copy engine's path)
  add_test(NAME test_gpu_ceilings_readback_apart COMMAND test_gpu_ceilings)
  set_tests_properties(test_gpu_ceilings_readback_apart PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 120
    ENVIRONMENT "VKSKIN_TEST_SEPARATE_READBACK=1" FAIL_REGULAR_EXPRESSION "vkskin: validation")
endif()

# validate's readback check: the GPU's per-chunk reduction in the JSON, both readback paths, and
# a bit flipped after the copy (VKSKIN_TEST_FLIP_READBACK) failing the run with exit 5; the
# same on the clip/crowd route (the stream's reduction, one check per chunk frame) and on a
# batch split across two contexts (each context's chunks, named with their context)
add_test(NAME cli_validate_readback COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_validate_readback.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_validate_readback PROPERTIES LABELS "cli;gpu" SKIP_RETURN_CODE 77 TIMEOUT 300)

# validate --sample: a seeded sample compared in full (the same instances for the same seed,
# named in JSON, text and JUnit), and a fault in one unsampled instance caught by the GPU
# reduction of every chunk against the host's bound (exit 3), as the full comparison does
add_test(NAME cli_validate_sample COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_validate_sample.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_validate_sample PROPERTIES LABELS "cli;gpu" SKIP_RETURN_CODE 77 TIMEOUT 300)
# the fast engine's crowd loops (an instance in each vector lane) give the vertex loops' bits on
# every kernel this CPU has, models of 1..8 influences and their variants (issue 41)
vks_add_test(NAME test_cpu_fast_crowd SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_cpu_fast_crowd.c
             ${CMAKE_CURRENT_SOURCE_DIR}/unit/eight_tube.c ${CMAKE_CURRENT_SOURCE_DIR}/unit/morph_fixture.c LABELS cpu)
