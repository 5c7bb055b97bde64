# glTF out (issue 14): vkskin convert and deform --format glb|gltf, checked by the Khronos
# glTF validator and by three.js in Node (tests/node: installed once into <repo>/.cache/node
# by tests/node/install.sh; skipped with the reason printed where npm is unreachable).
add_test(NAME gltf_out COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/node/gltf_out.sh $<TARGET_FILE:vkskin>)
set_tests_properties(gltf_out PROPERTIES LABELS "cli;gltf" SKIP_RETURN_CODE 77 TIMEOUT 300
  ENVIRONMENT "VKSKIN_REAL_DATASETS=${VKSKIN_REAL_DATASETS}")

# The writer without Node: GLB framing, the .gltf data URI, cross-references, and a round trip
# through vkskin's own glTF reader for a character of every format with a clip.
vks_add_test(NAME test_gltf_write SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gltf_write.c LABELS gltf)
target_link_libraries(test_gltf_write PRIVATE vkskin_deps::cjson)

# vkskin convert and deform's glTF formats through the program, without Node: usage and input
# errors with their exit codes and messages, no output or temporary left by a failed run.
add_test(NAME cli_convert COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_convert.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_convert PROPERTIES LABELS "cli;gltf" TIMEOUT 120)

# The writer's fuzz harness (any model the readers accept, with the clips the same bytes hold,
# written as .glb, .gltf and a glTF bake), replayed over the glTF reader's seeds and the
# repository's generated characters.
vks_add_fuzz(NAME fuzz_gltf_write SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_gltf_write.c
  SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/gltf ${PROJECT_SOURCE_DIR}/datasets)
if(TEST fuzz_gltf_write_replay)
  set_tests_properties(fuzz_gltf_write_replay PROPERTIES LABELS gltf)
endif()

# Every bundled character (and the real ones beside the repository) stands upright once
# converted: its glTF bind pose, posed by a script of its own, is tallest along +Y, head up.
add_test(NAME cli_convert_upright COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_convert_upright.sh
  $<TARGET_FILE:vkskin> ${PROJECT_SOURCE_DIR})
set_tests_properties(cli_convert_upright PROPERTIES LABELS "cli;gltf;gen" TIMEOUT 120
  ENVIRONMENT "VKSKIN_REAL_DATASETS=${VKSKIN_REAL_DATASETS}")

# The bundled characters convert painted (issue 26): one of each format has TEXCOORD_0 and its
# materials (base colour, the format's texture name in extras), a VAT bake of one keeps its UVs
# in TEXCOORD_0 and the lookup in TEXCOORD_1; the Khronos validator checks them (skipped where
# it cannot be installed).
add_test(NAME cli_convert_surface COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_convert_surface.sh
  $<TARGET_FILE:vkskin> ${PROJECT_SOURCE_DIR})
set_tests_properties(cli_convert_surface PROPERTIES LABELS "cli;gltf;gen" SKIP_RETURN_CODE 77 TIMEOUT 300)
