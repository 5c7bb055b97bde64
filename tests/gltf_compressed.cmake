# Compressed glTF (issue 38, item 4): EXT_/KHR_meshopt_compression through libmeshoptimizer and
# KHR_draco_mesh_compression through libdraco.
#   cli_gltf_compressed  files made at test time by gltfpack and draco_transcoder (a generated
#                        character, and the Khronos samples where present) deformed on every
#                        engine against their originals within the encodings' quantisation
#                        bounds (tests/cli/cli_gltf_compressed.sh); --max-input-mb and
#                        truncated data refused, naming the bufferView or primitive
#   test_gltf_meshopt    a generated character packed losslessly by libmeshoptimizer's own
#                        encoders (tests/unit/meshopt_pack.c; every mode, both extension names)
#                        reads back bit for bit and deforms to the same bytes; broken packings
#                        and --max-input-mb's bound refused, naming the bufferView
vks_add_test(NAME test_gltf_meshopt SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gltf_meshopt.c
             ${CMAKE_CURRENT_SOURCE_DIR}/unit/meshopt_pack.c LABELS gltf)
target_link_libraries(test_gltf_meshopt PRIVATE vkskin_deps::cjson vkskin_deps::meshoptimizer)
add_executable(compare_matched_raw ${CMAKE_CURRENT_SOURCE_DIR}/unit/compare_matched_raw.c)
target_link_libraries(compare_matched_raw PRIVATE m)
add_test(NAME cli_gltf_compressed COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_gltf_compressed.sh $<TARGET_FILE:vkskin>
  $<TARGET_FILE:compare_matched_raw> ${VKSKIN_REAL_DATASETS})
set_tests_properties(cli_gltf_compressed PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;gltf" TIMEOUT 300)
# Fuzz targets, one per decoder path: the input is a view's meshopt data or a primitive's
# Draco data, wrapped in a fixed .glb (tests/fuzz/fuzz_gltf_compressed.h). The seeds are cut
# from gltfpack and draco_transcoder output of a generated character
# (tests/fuzz/make_compressed_seeds.py); *_seeds_decode replays them demanding that each
# decodes, so the harnesses are known to reach the decoders.
vks_add_fuzz(NAME fuzz_gltf_meshopt SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_gltf_meshopt.c
             SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/gltf_meshopt)
vks_add_fuzz(NAME fuzz_gltf_draco SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_gltf_draco.c
             SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/gltf_draco)
if(NOT VKSKIN_FUZZ)
  foreach(t meshopt draco)
    add_test(NAME fuzz_gltf_${t}_seeds_decode COMMAND fuzz_gltf_${t}_replay ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/gltf_${t})
    set_tests_properties(fuzz_gltf_${t}_seeds_decode fuzz_gltf_${t}_replay PROPERTIES LABELS gltf)
    set_tests_properties(fuzz_gltf_${t}_seeds_decode PROPERTIES ENVIRONMENT VKSKIN_FUZZ_SEEDS_DECODE=1)
  endforeach()
endif()
