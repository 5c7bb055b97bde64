# Compressed glTF (issue 38, item 4): EXT_/KHR_meshopt_compression through libmeshoptimizer and
# KHR_draco_mesh_compression through libdraco.
#   cli_gltf_compressed  files made at test time by gltfpack and draco_transcoder (a generated
#                        character, and the Khronos samples where present) deformed on every
#                        engine against their originals within the encodings' quantisation
#                        bounds (tests/cli/cli_gltf_compressed.sh); --max-input-mb and
#                        truncated data refused, naming the bufferView or primitive
add_executable(compare_matched_raw ${CMAKE_CURRENT_SOURCE_DIR}/unit/compare_matched_raw.c)
target_link_libraries(compare_matched_raw PRIVATE m)
add_test(NAME cli_gltf_compressed COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_gltf_compressed.sh $<TARGET_FILE:vkskin>
  $<TARGET_FILE:compare_matched_raw> ${VKSKIN_REAL_DATASETS})
set_tests_properties(cli_gltf_compressed PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;gltf" TIMEOUT 300)
