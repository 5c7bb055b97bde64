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
