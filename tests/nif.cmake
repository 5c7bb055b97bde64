# NIF reader and writer tests (issue 4). Real samples are read in place from
# ${VKSKIN_REAL_DATASETS}/nif; tests that need them are skipped (77) where it is absent.
vks_add_test(NAME test_nif_samples SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_nif_samples.c LABELS nif)
vks_add_test(NAME test_nif_errors SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_nif_errors.c LABELS nif)
vks_add_test(NAME test_nif_units SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_nif_units.c LABELS nif)
vks_add_test(NAME test_nif_write SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_nif_write.c LABELS nif)
vks_add_fuzz(NAME fuzz_nif SOURCES ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_nif.c
             SEEDS ${CMAKE_SOURCE_DIR}/tests/fuzz/nif)
# The harness over the real samples too (vks_add_fuzz takes one seed folder).
if(NOT VKSKIN_FUZZ)
  add_test(NAME fuzz_nif_replay_real COMMAND fuzz_nif_replay ${VKSKIN_REAL_DATASETS}/nif)
  set_tests_properties(fuzz_nif_replay_real PROPERTIES SKIP_RETURN_CODE 77 LABELS nif)
endif()

# UV sets and materials (NiMaterialProperty, NiTexturingProperty's base NiSourceTexture) of the
# real samples (issue 26); skipped without them.
vks_add_test(NAME test_nif_surface SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_nif_surface.c LABELS nif)

# Rigid shapes (no skin instance, under a bone) deformed by the bone's world and their own
# transform on every engine, on the real Skyrim LE sample, against an independent golden.
add_test(NAME cli_nif_rigid COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_nif_rigid.sh $<TARGET_FILE:vkskin>
         ${VKSKIN_REAL_DATASETS})
set_tests_properties(cli_nif_rigid PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;nif;gpu" TIMEOUT 300)
