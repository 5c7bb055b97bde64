# The library as hosts use it (label package):
#   package_symbols   what libvkskin (this build's vkskin::vkskin) exports: vks_* only, and every
#                     public declaration marked VKS_API and defined (stubs in a no-GPU build)
#   package_install   static and shared builds installed into a temporary prefix, consumers
#                     built with find_package and with pkg-config (one also links libvulkan),
#                     and add_subdirectory with -DVKSKIN_GPU=OFF (tests/package/package_test.sh;
#                     about a minute: three library builds). Runs in the plain build only: under
#                     sanitizers or without the GPU it would repeat the same uninstrumented builds.
#   package_no_vulkan -DVKSKIN_GPU=OFF builds: no object included a Vulkan or volk header, and
#                     the installed headers and library need no Vulkan either
find_program(VKSKIN_NM NAMES ${CMAKE_NM} nm)
set(VKSKIN_SYMBOLS_FLAGS)
if(NOT VKSKIN_GPU)
  set(VKSKIN_SYMBOLS_FLAGS --no-gpu)
endif()
add_test(NAME package_symbols
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/package/check_symbols.sh ${VKSKIN_SYMBOLS_FLAGS} $<TARGET_FILE:vkskin_library>
          ${PROJECT_SOURCE_DIR}/include ${CMAKE_C_COMPILER} ${VKSKIN_NM})
set_tests_properties(package_symbols PROPERTIES LABELS package)

# package_folder_header: <vkskin/vkskin.h> (the folder form some hosts expect) compiles and links
# alone, with only include/ on the path.
add_executable(package_folder_header ${CMAKE_CURRENT_SOURCE_DIR}/package/folder_header.c)
target_link_libraries(package_folder_header PRIVATE vkskin_lib)
add_test(NAME package_folder_header COMMAND package_folder_header)
set_tests_properties(package_folder_header PROPERTIES LABELS package)

# package_layering: the seams the compiler does not hold: the GPU planning apart from Vulkan,
# the backend's private headers used inside it only, no test hook in gpu.h's options
# (tests/package/check_layering.sh).
add_test(NAME package_layering COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/package/check_layering.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(package_layering PROPERTIES LABELS package)

# package_format_names: no C file of src/ outside src/formats/ names a format; the registry's
# records carry what others need (issue 39; tests/package/check_format_names.sh).
add_test(NAME package_format_names
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/package/check_format_names.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(package_format_names PROPERTIES LABELS package)

# package_function_length: no function in src/ or compute/ (GLSL) over 100 lines, none in
# tools/, tests/ or examples/ over 150 (issues 23 and 39; tests/package/check_function_length.sh).
add_test(NAME package_function_length
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/package/check_function_length.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(package_function_length PROPERTIES LABELS package)

if(VKSKIN_SANITIZE OR VKSKIN_FUZZ OR NOT VKSKIN_GPU)
  add_test(NAME package_install COMMAND sh -c "echo 'package_install: runs in the plain build (tools/scripts/test.sh)'; exit 77")
else()
  add_test(NAME package_install
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/package/package_test.sh ${PROJECT_SOURCE_DIR} ${CMAKE_C_COMPILER})
endif()
set_tests_properties(package_install PROPERTIES LABELS package SKIP_RETURN_CODE 77 TIMEOUT 600)

if(NOT VKSKIN_GPU AND CMAKE_GENERATOR MATCHES "Ninja")
  add_test(NAME package_no_vulkan
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/package/check_no_vulkan.sh ${PROJECT_BINARY_DIR} ${CMAKE_MAKE_PROGRAM}
            ${CMAKE_C_COMPILER})
  set_tests_properties(package_no_vulkan PROPERTIES LABELS package)
endif()

# gpu_bundle: tools/scripts/gpu_bundle.sh's archive of this build, unpacked in a fresh folder
# and run there with --quick (tests/package/gpu_bundle_test.sh): every GPU test of the build
# checked in the bundle with the files its command names, a sample of them run there (run.sh
# --tests; this ctest runs them all in the build tree), validate, bench and tune. Half a minute
# on 2 cores; beside other tests, as the sample is small. Plain builds only, as package_install: the bundle refuses
# sanitizer builds, and a -DVKSKIN_GPU=OFF build has nothing to bundle. Not labelled gpu: the
# bundle carries the gpu-labelled tests.
if(VKSKIN_SANITIZE OR VKSKIN_FUZZ OR NOT VKSKIN_GPU OR NOT CMAKE_BUILD_TYPE STREQUAL "Release")
  add_test(NAME gpu_bundle COMMAND sh -c "echo 'gpu_bundle: runs in the plain Release build (tools/scripts/test.sh)'; exit 77")
else()
  add_test(NAME gpu_bundle COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/package/gpu_bundle_test.sh ${PROJECT_SOURCE_DIR}
           ${PROJECT_BINARY_DIR})
endif()
set_tests_properties(gpu_bundle PROPERTIES LABELS package SKIP_RETURN_CODE 77 TIMEOUT 900)
