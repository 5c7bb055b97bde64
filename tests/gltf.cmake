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
# UV sets, materials, images and samplers read, written and read back (issue 26), hand-made and Fox.glb.
vks_add_test(NAME test_gltf_surface SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_gltf_surface.c
             ${CMAKE_SOURCE_DIR}/tests/unit/gltf_fixture.c LABELS gltf)
target_link_libraries(test_gltf_surface PRIVATE vkskin_deps::cjson)
vks_add_test(NAME test_gltf_hand SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_gltf_hand.c
             ${CMAKE_SOURCE_DIR}/tests/unit/gltf_fixture.c LABELS gltf)
# The program on the samples: inspect, deform, validate (validation layer on: any line from it
# fails the test), render and a crowd; the GPU half is skipped without a device.
if(VKSKIN_GPU)
  set(VKS_CLI_GLTF_PNG $<TARGET_FILE:check_png>)
else()
  set(VKS_CLI_GLTF_PNG "")
endif()
add_test(NAME cli_gltf COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_gltf.sh $<TARGET_FILE:vkskin> ${VKSKIN_REAL_DATASETS}
  ${VKS_CLI_GLTF_PNG})
set_tests_properties(cli_gltf PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;gltf" TIMEOUT 300
  FAIL_REGULAR_EXPRESSION "vkskin: validation")
# Up to 8 influences (issue 38): a tube of 5..8 joints a vertex authored at test time, every
# engine against the glTF specification's skinning evaluated independently in Python, and the
# warnings every command prints when a model or an output loses influences.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  if(VKSKIN_GPU)
    set(VKS_EIGHT_GPU gpu)
  else()
    set(VKS_EIGHT_GPU "")
  endif()
  add_test(NAME cli_eight_influences COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_eight_influences.sh
    $<TARGET_FILE:vkskin> ${VKS_EIGHT_GPU})
  set_tests_properties(cli_eight_influences PROPERTIES LABELS "cli;gltf" TIMEOUT 300)
endif()

# Rigid parts (mesh nodes without a skin: a prop on a bone, one at a root) deformed by their
# node's world on every engine, against worlds composed independently (issue 38).
add_test(NAME cli_gltf_rigid COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_gltf_rigid.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_gltf_rigid PROPERTIES LABELS "cli;gltf;gpu" TIMEOUT 300
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
# Morph targets on a skinned mesh (dense and sparse, mesh and node weights) on every engine,
# against the specification's result computed independently (issue 38).
add_test(NAME cli_gltf_morph COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_gltf_morph.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_gltf_morph PROPERTIES LABELS "cli;gltf;gpu" TIMEOUT 300)
