# NIF reader and writer tests (issue 4). Real samples are read in place from
# ${VKSKIN_REAL_DATASETS}/nif; tests that need them are skipped (77) where it is absent.
vks_add_test(NAME test_nif_samples SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_nif_samples.c LABELS nif)
