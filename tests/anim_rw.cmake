# RenderWare .anm / .ska and GTA .ifp clip readers and writers (formats/animation.md 1).
set(VKS_RWA_UTIL ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_rw_anim_util.c)
vks_add_test(NAME test_rw_anim
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_rw_anim.c ${VKS_RWA_UTIL}
  LABELS rw anim)
vks_add_test(NAME test_rw_anim_ifp
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_rw_anim_ifp.c ${VKS_RWA_UTIL}
  LABELS rw anim)
vks_add_test(NAME test_rw_anim_write
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_rw_anim_write.c ${VKS_RWA_UTIL}
          ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_rw_util.c
  LABELS rw anim)
# Seeds: the tests' own fixtures (regenerate with `test_rw_anim* --write-seeds tests/fuzz/rw_anim`).
vks_add_fuzz(NAME fuzz_rw_anim SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_rw_anim.c
  SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/rw_anim)
