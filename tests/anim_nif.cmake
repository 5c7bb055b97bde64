# Gamebryo / NetImmerse clips (.kf, and keyframes in a .nif; formats/animation.md section 2):
# the reader on the real samples (${VKSKIN_REAL_DATASETS}/anim/nif and nif/dance.nif, skipped
# with 77 where absent), every key type against hand-computed values, and the writer's round
# trips.
set(VKS_NIF_KF_UTIL ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_nif_kf_util.c)
foreach(t test_nif_kf test_nif_kf_keys test_nif_kf_robust test_nif_kf_write)
  vks_add_test(NAME ${t} SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/${t}.c ${VKS_NIF_KF_UTIL} LABELS nif anim)
endforeach()
