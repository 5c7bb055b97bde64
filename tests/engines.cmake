# Playback kits for engines (engines/, docs/baking.md "Play a bake in your engine"): the three.js page in
# headless Chromium, with r149 and the current three.js, reads back the vertices its shaders
# decode, for whole bakes and for sampled instances of a crowd, and compares them with the CPU
# reference; Godot 3 under Xvfb renders a baked frame that matches vkskin's own render by
# silhouette; the Unity and Unreal HLSL compile with glslang's HLSL front end. Each is skipped
# (77) where its tool is absent.
add_test(NAME engines_hlsl COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/engines_hlsl.sh)
set_tests_properties(engines_hlsl PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;engines" TIMEOUT 60
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")

# the others bake with the vkskin program
if(NOT TARGET vkskin)
  return()
endif()
# three.js as users have it: the release `npm install three` gives today, fetched into the build
# tree once (tools/engines/fetch_three_module.sh; VKSKIN_THREE_CURRENT names another version), and
# the oldest the kit supports, r149, which the build fetches for validate --report anyway
set(VKSKIN_THREE_CURRENT "latest" CACHE STRING "the current three.js release the engine test plays (an npm version or tag)")
set(VKSKIN_THREE_DIRS ${CMAKE_BINARY_DIR}/report_assets/node_modules/three)
if(VKSKIN_FETCH_THREE)
  set(VKSKIN_THREE_CURRENT_DIR ${CMAKE_BINARY_DIR}/engine_assets/three-current)
  add_custom_command(OUTPUT ${VKSKIN_THREE_CURRENT_DIR}/three.stamp
    COMMAND ${PROJECT_SOURCE_DIR}/tools/engines/fetch_three_module.sh ${VKSKIN_THREE_CURRENT_DIR} ${VKSKIN_THREE_CURRENT}
    DEPENDS ${PROJECT_SOURCE_DIR}/tools/engines/fetch_three_module.sh VERBATIM)
  add_custom_target(vkskin_engine_three ALL DEPENDS ${VKSKIN_THREE_CURRENT_DIR}/three.stamp)
  list(APPEND VKSKIN_THREE_DIRS ${VKSKIN_THREE_CURRENT_DIR}/node_modules/three)
endif()
add_test(NAME engines_threejs COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/engines_threejs.sh $<TARGET_FILE:vkskin>
         ${VKSKIN_REAL_DATASETS} ${VKSKIN_THREE_DIRS})
set_tests_properties(engines_threejs PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;bake;engines" TIMEOUT 480
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR};VKSKIN_BINARY_DIR=${PROJECT_BINARY_DIR};CMAKE_COMMAND=${CMAKE_COMMAND};VKSKIN_INSTALL=${VKSKIN_INSTALL}")
add_test(NAME engines_godot COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/engines_godot.sh $<TARGET_FILE:vkskin>
         ${VKSKIN_REAL_DATASETS})
set_tests_properties(engines_godot PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;bake;engines" TIMEOUT 180
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
