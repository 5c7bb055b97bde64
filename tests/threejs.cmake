# Whole characters against three.js (issue 38): RobotExpressive and the Blender-authored
# characters, as they are and through gltfpack (-c, -cc, keeping the nodes) and draco_transcoder
# at test time, each played by three.js in Node (decoding the compressed files itself; every
# JOINTS/WEIGHTS set, morph targets, rigid parts under bones) against vkskin deform on --cpu,
# --cpu-fast and --gpu within 1e-5 of the bounding radius, validate passing on each, and broken
# copies failing (tests/node/threejs_goldens.sh). Skipped where node/npm or the encoders are
# missing.
add_test(NAME threejs_goldens COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/node/threejs_goldens.sh $<TARGET_FILE:vkskin>)
set_tests_properties(threejs_goldens PROPERTIES LABELS "cli;gltf;gpu" SKIP_RETURN_CODE 77 TIMEOUT 300
  FAIL_REGULAR_EXPRESSION "vkskin: validation")
