# glTF 2.0 reader tests (issue 14, the reader): the Khronos samples in
# ${VKSKIN_REAL_DATASETS}/gltf read in place (skipped with 77 where absent), hand-made files
# for every accessor and animation variant, and truncations / corruptions of them all.
vks_add_test(NAME test_gltf_samples SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_gltf_samples.c LABELS gltf)
