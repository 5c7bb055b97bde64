# glTF 2.0 reader tests (issue 14, the reader): the Khronos samples in
# ${VKSKIN_REAL_DATASETS}/gltf read in place (skipped with 77 where absent), hand-made files
# for every accessor and animation variant, and truncations / corruptions of them all.
vks_add_test(NAME test_gltf_samples SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_gltf_samples.c LABELS gltf)
vks_add_fuzz(NAME fuzz_gltf SOURCES ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_gltf.c
             SEEDS ${CMAKE_SOURCE_DIR}/tests/fuzz/gltf)
# The harness over the real samples too (a .gltf with an external .bin reads up to its buffer).
if(NOT VKSKIN_FUZZ)
  add_test(NAME fuzz_gltf_replay_real COMMAND fuzz_gltf_replay ${VKSKIN_REAL_DATASETS}/gltf)
  set_tests_properties(fuzz_gltf_replay_real PROPERTIES SKIP_RETURN_CODE 77 LABELS gltf)
endif()
vks_add_test(NAME test_gltf_hand SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_gltf_hand.c
             ${CMAKE_SOURCE_DIR}/tests/unit/gltf_fixture.c LABELS gltf)
