# The contact sheet (render.h): the picture from the crowd's buffers against the one from the
# CPU reference's vertices, and vkskin render end to end. GPU tests exit 77 (skipped) without
# a device; a -DVKSKIN_GPU=OFF build has none of them.
if(NOT VKSKIN_GPU)
  return()
endif()
vks_add_test(NAME test_gpu_render SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gpu_render.c LABELS gpu)
target_link_libraries(test_gpu_render PRIVATE vks_gpu_check)
# leaked Vulkan objects are reported by the layer only when the device is destroyed
set_tests_properties(test_gpu_render PROPERTIES TIMEOUT 120 FAIL_REGULAR_EXPRESSION "vkskin: validation")

find_package(PNG REQUIRED)
add_executable(check_png ${CMAKE_CURRENT_SOURCE_DIR}/unit/check_png.c)
target_link_libraries(check_png PRIVATE PNG::PNG)
add_test(NAME test_render_cli COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_render_cli.sh $<TARGET_FILE:vkskin>
  $<TARGET_FILE:check_png> ${PROJECT_SOURCE_DIR}/datasets)
set_tests_properties(test_render_cli PROPERTIES SKIP_RETURN_CODE 77 LABELS gpu TIMEOUT 120
  FAIL_REGULAR_EXPRESSION "vkskin: validation")

# vkskin render's peak memory is one part's, whatever --instances asks for (docs/safety.md).
if(NOT TARGET max_rss) # bake.cmake makes it too
  add_executable(max_rss ${CMAKE_CURRENT_SOURCE_DIR}/unit/max_rss.c)
endif()
add_test(NAME test_render_memory COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_render_memory.sh $<TARGET_FILE:vkskin>
  $<TARGET_FILE:max_rss> ${PROJECT_SOURCE_DIR}/datasets)
set_tests_properties(test_render_memory PROPERTIES SKIP_RETURN_CODE 77 LABELS gpu TIMEOUT 300)

# Under the sanitizers the leak check stays on: sanitizer builds keep the Vulkan drivers loaded
# (src/gpu/vulkan/keep_drivers.c), so what lavapipe keeps is attributed to it (tests/lsan.supp).

# The renderer's Vulkan objects go through the host's VkAllocationCallbacks (gpu.h's vk_allocator).
vks_add_test(NAME test_gpu_render_allocator SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_gpu_render_allocator.c LABELS gpu)
target_link_libraries(test_gpu_render_allocator PRIVATE vks_gpu_check)
set_tests_properties(test_gpu_render_allocator PROPERTIES TIMEOUT 120 FAIL_REGULAR_EXPRESSION "vkskin: validation")
# The model's axes from its format, never its shape (issue 40): a left-handed P3D drawn as the
# right-handed formats are, Fox.glb on its feet. Skipped (77) without a Vulkan device.
add_test(NAME cli_render_axes COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_render_axes.sh $<TARGET_FILE:vkskin>
         ${VKSKIN_REAL_DATASETS})
set_tests_properties(cli_render_axes PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;gpu" TIMEOUT 120
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")

# The sheet as library calls (vks_render_sheet a part at a time, vks_render_write_png,
# vks_render_sheet_png): the same picture however the cells are split into parts.
vks_add_test(NAME test_render_sheet SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_render_sheet.c LABELS gpu)
target_link_libraries(test_render_sheet PRIVATE vks_gpu_check)
set_tests_properties(test_render_sheet PROPERTIES TIMEOUT 120 FAIL_REGULAR_EXPRESSION "vkskin: validation")
