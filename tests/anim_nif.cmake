# Gamebryo / NetImmerse clips (.kf, and keyframes in a .nif; formats/animation.md section 2):
# the reader on the real samples (${VKSKIN_REAL_DATASETS}/anim/nif and nif/dance.nif, skipped
# with 77 where absent), every key type against hand-computed values, and the writer's round
# trips.
set(VKS_NIF_KF_UTIL ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_nif_kf_util.c)
foreach(t test_nif_kf test_nif_kf_keys test_nif_kf_robust test_nif_kf_write)
  vks_add_test(NAME ${t} SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/${t}.c ${VKS_NIF_KF_UTIL} LABELS nif anim)
endforeach()
# Seeds: the hand fixture and its written forms (regenerate with
# `test_nif_kf_robust --write-seeds tests/fuzz/nif_kf`); the replay adds the real samples.
vks_add_fuzz(NAME fuzz_nif_kf SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_nif_kf.c
  SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/nif_kf ${VKSKIN_REAL_DATASETS}/anim/nif)
if(TEST fuzz_nif_kf_replay)
  set_tests_properties(fuzz_nif_kf_replay PROPERTIES LABELS "nif;anim")
endif()
# vkskin inspect on NIF clips: a .kf is a clip file; a .nif with keyframes is a model, and
# its clips show with --clips, or with --model naming a model (here itself)
set(VKS_DANCE ${VKSKIN_REAL_DATASETS}/nif/niftools_bna_4.0.0.2_dance.nif)
set(VKS_MW_KF ${VKSKIN_REAL_DATASETS}/anim/nif/nifly_TestNifFile_Sequence_MW.kf)
add_test(NAME cli_inspect_nif_clips COMMAND sh -c
  "test -f \"$1\" && test -f \"$2\" || exit 77; \"$0\" inspect \"$2\" && \"$0\" inspect --clips \"$1\" && \"$0\" inspect --model \"$1\" \"$1\""
  $<TARGET_FILE:vkskin> ${VKS_DANCE} ${VKS_MW_KF})
set_tests_properties(cli_inspect_nif_clips PROPERTIES LABELS "nif;anim;cli" SKIP_RETURN_CODE 77
  PASS_REGULAR_EXPRESSION "NiSequenceStreamHelper, 1 clip.*\"Box01\": translation 2 keys linear.*clip 0 \"Dance\": 1.533 s, cycle clamp, space local, 35 tracks, 2 events.*35 of 35 tracks bind")
# The decoded curves through the GPU crowd's pose pass against the reference (crowd_check;
# the validation layer on; 77 without a device; none in a -DVKSKIN_GPU=OFF build).
if(VKSKIN_GPU)
  vks_add_test(NAME test_gpu_clip_nif SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gpu_clip_nif.c ${VKS_NIF_KF_UTIL}
    LABELS gpu nif anim)
  target_link_libraries(test_gpu_clip_nif PRIVATE vks_crowd_check vks_gpu_check)
  set_tests_properties(test_gpu_clip_nif PROPERTIES TIMEOUT 300 FAIL_REGULAR_EXPRESSION "vkskin: validation")
endif()
