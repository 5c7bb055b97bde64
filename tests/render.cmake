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

# Under the sanitizers: lavapipe's graphics path leaks 2 x 56 bytes from code that is unmapped
# when the loader unloads the driver at vkDestroyInstance, so LeakSanitizer sees an "<unknown
# module>" no suppression can name (the compute-only tests keep their leak check). Every
# Vulkan object vkskin makes is still checked: the validation layer reports any not destroyed.
if(VKSKIN_SANITIZE)
  set_property(TEST test_gpu_render test_render_cli APPEND PROPERTY ENVIRONMENT
    "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1")
endif()
