# Playback kits for engines (engines/, README "Play a bake in your engine"): the three.js page in
# headless Chromium reads back the vertices its shaders decode and compares them with the CPU
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
set(VKSKIN_THREE_DIR ${CMAKE_BINARY_DIR}/report_assets/node_modules/three)
add_test(NAME engines_threejs COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/engines_threejs.sh $<TARGET_FILE:vkskin>
         ${VKSKIN_THREE_DIR})
set_tests_properties(engines_threejs PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;bake;engines" TIMEOUT 480
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
add_test(NAME engines_godot COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/engines_godot.sh $<TARGET_FILE:vkskin>)
set_tests_properties(engines_godot PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;bake;engines" TIMEOUT 180
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
