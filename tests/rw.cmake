# RenderWare DFF reader and writer tests (formats/renderware.md).
vks_add_test(NAME test_rw_tube
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_rw_tube.c ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_rw_util.c
  LABELS rw)
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_rw_write.c)
  vks_add_test(NAME test_rw_write
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_rw_write.c ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_rw_util.c
    LABELS rw)
endif()
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_rw.c)
  vks_add_fuzz(NAME fuzz_rw SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_rw.c
    SEEDS ${VKSKIN_REAL_DATASETS}/renderware ${CMAKE_SOURCE_DIR}/datasets ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/rw)
endif()

# Rigid atomics (no Skin PLG, attached to a bone's frame) deformed by the frame's world in the
# skinned atomic's space on every engine, against frames composed independently (issue 38).
add_test(NAME cli_rw_rigid COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_rw_rigid.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_rw_rigid PROPERTIES LABELS "cli;rw;gpu" TIMEOUT 300
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
