# Bohemia P3D reader and writer tests (issue 6; formats/p3d.md). Real samples are read in
# place from ${VKSKIN_REAL_DATASETS}/p3d; tests that need them are skipped (77) without it.
vks_add_test(NAME test_p3d_samples SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_p3d_samples.c LABELS p3d)
foreach(t test_p3d_cfg test_p3d_write test_p3d_robust test_p3d_errors test_p3d_points test_read_file)
  if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/${t}.c)
    vks_add_test(NAME ${t} SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/${t}.c LABELS p3d)
  endif()
endforeach()
# the eight-influence tube (more selections a point than Arma keeps)
target_sources(test_p3d_write PRIVATE ${CMAKE_SOURCE_DIR}/tests/unit/eight_tube.c)
# The replay test passes several seed folders (vks_add_fuzz's SEEDS takes one): ours and
# the real samples (MLOD, ODOL and model.cfg files).
foreach(f mlod odol cfg)
  if(EXISTS ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_p3d_${f}.c)
    vks_add_fuzz(NAME fuzz_p3d_${f} SOURCES ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_p3d_${f}.c)
    if(NOT VKSKIN_FUZZ)
      add_test(NAME fuzz_p3d_${f}_replay COMMAND fuzz_p3d_${f}_replay
               ${CMAKE_SOURCE_DIR}/tests/fuzz/p3d ${VKSKIN_REAL_DATASETS}/p3d)
      set_tests_properties(fuzz_p3d_${f}_replay PROPERTIES SKIP_RETURN_CODE 77 LABELS p3d)
    endif()
  endif()
endforeach()
# The CLI's CSV numbers P3D vertices by point; model.cfg errors name the config (issue 9).
add_test(NAME test_p3d_points_cli COMMAND ${CMAKE_SOURCE_DIR}/tests/unit/test_p3d_points_cli.sh $<TARGET_FILE:vkskin>)
set_tests_properties(test_p3d_points_cli PROPERTIES SKIP_RETURN_CODE 77 LABELS p3d
  ENVIRONMENT "VKSKIN_REAL_DATASETS=${VKSKIN_REAL_DATASETS}")
# UV sets and face textures of the real ODOL samples (issue 26); skipped without them.
vks_add_test(NAME test_p3d_surface SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_p3d_surface.c LABELS p3d)
