# Crowd files (crowd_file.h, issue 12): the JSON and CSV parser's good and bad files, and its
# fuzz target (replayed over tests/fuzz/crowd in ordinary builds).
vks_add_test(NAME test_crowd_file SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_crowd_file.c LABELS anim)
vks_add_fuzz(NAME fuzz_crowd_file SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_crowd_file.c
  SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/crowd)
if(TEST fuzz_crowd_file_replay)
  set_tests_properties(fuzz_crowd_file_replay PROPERTIES LABELS anim)
endif()

# Clips and crowds through the program: deform (every engine), validate and render with
# --clip and --crowd, and their errors. The GPU half runs with the validation layer on (any
# line from it fails the test) and is skipped without a device or in a -DVKSKIN_GPU=OFF build.
if(VKSKIN_GPU)
  set(VKS_CLI_CLIPS_PNG $<TARGET_FILE:check_png>)
else()
  set(VKS_CLI_CLIPS_PNG "")
endif()
add_test(NAME cli_clips COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_clips.sh $<TARGET_FILE:vkskin> ${VKS_CLI_CLIPS_PNG})
set_tests_properties(cli_clips PROPERTIES LABELS "cli;anim" TIMEOUT 600 FAIL_REGULAR_EXPRESSION "vkskin: validation")

# The crowd row whose clip time lands on a STEP key change (tests/data/crowd_step_key.csv):
# the GPU and the reference must sample the same float time (4: no device)
if(VKSKIN_GPU)
  add_test(NAME cli_crowd_step_key COMMAND vkskin validate --crowd ${CMAKE_CURRENT_SOURCE_DIR}/data/crowd_step_key.csv
    --frames 8 --fps 30 --validation)
  set_tests_properties(cli_crowd_step_key PROPERTIES LABELS "gpu;anim;cli" SKIP_RETURN_CODE 4 TIMEOUT 120
    FAIL_REGULAR_EXPRESSION "vkskin: validation")
endif()

# Layered crowds (issue 27): validate on the bundled characters of the four formats and Fox.glb
# (skipped where the real datasets are absent), root motion's CSV, the errors naming the entry
add_test(NAME cli_crowd_layers COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_crowd_layers.sh $<TARGET_FILE:vkskin>
  ${PROJECT_SOURCE_DIR})
add_test(NAME cli_crowd_layers_fox COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_crowd_layers.sh $<TARGET_FILE:vkskin>
  ${PROJECT_SOURCE_DIR} ${VKSKIN_REAL_DATASETS})
set_tests_properties(cli_crowd_layers cli_crowd_layers_fox PROPERTIES LABELS "cli;anim;gpu" TIMEOUT 300
  SKIP_RETURN_CODE 77 FAIL_REGULAR_EXPRESSION "vkskin: validation")

# Layer weights at their bounds (issue 37): normal weights at float's ends, faded below its
# normal range, additive weights above 1 (refused naming the entry and layer) and an additive
# reference pose of scale 1e-30 give one result, or one refusal, on --cpu, --cpu-fast and --gpu
add_test(NAME cli_crowd_weights COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_crowd_weights.sh $<TARGET_FILE:vkskin>
  ${PROJECT_SOURCE_DIR})
set_tests_properties(cli_crowd_weights PROPERTIES LABELS "cli;anim;gpu" TIMEOUT 300
  FAIL_REGULAR_EXPRESSION "vkskin: validation")

# Yaw near an upside-down motion node (issue 37): a flip passing 1e-4 rad from upside down
# validates, every engine gives the reference's vertices, the yaw is 0 within the band
add_test(NAME cli_crowd_yaw_flip COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_crowd_yaw_flip.sh $<TARGET_FILE:vkskin>
  ${PROJECT_SOURCE_DIR})
set_tests_properties(cli_crowd_yaw_flip PROPERTIES LABELS "cli;anim;gpu" TIMEOUT 300
  FAIL_REGULAR_EXPRESSION "vkskin: validation")
