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
    SEEDS ${VKSKIN_REAL_DATASETS}/renderware ${CMAKE_SOURCE_DIR}/datasets)
endif()
