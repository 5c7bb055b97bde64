# Characters authored with Blender (tests/data/blender, issue 38): a body with shape keys and a
# weights channel, a tube of 5..8 influences a vertex, an arm with props parented to bones,
# each played on every engine against the positions Blender's own deformation gives (goldens
# committed beside them), with negative cases that drop each feature.
add_test(NAME cli_blender_chars COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_blender_chars.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_blender_chars PROPERTIES LABELS "cli;gltf;gpu" TIMEOUT 300
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}" FAIL_REGULAR_EXPRESSION "vkskin: validation")
# ... and the goldens made again by Blender where it is installed (skipped without it).
add_test(NAME cli_blender_goldens COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_blender_goldens.sh)
set_tests_properties(cli_blender_goldens PROPERTIES LABELS "cli;gltf" TIMEOUT 300 SKIP_RETURN_CODE 77
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
