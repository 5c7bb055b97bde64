# The format registry as the one list of formats (issue 39). test_registry_sixth is built with
# src/formats/registry.c compiled again under VKSKIN_TEST_FORMAT, which adds the test-only
# record of tests/formats/vkstest: detection, the reads, the axes and every format list (the
# library's vks_clip_format_list, which the CLI's and the bake's messages use; the generator's)
# must pick it up with no other change.
vks_add_test(NAME test_registry_sixth SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_registry_sixth.c
  ${PROJECT_SOURCE_DIR}/src/formats/registry.c ${CMAKE_SOURCE_DIR}/tests/formats/vkstest/vkstest_format.c
  LABELS core)
target_compile_definitions(test_registry_sixth PRIVATE VKSKIN_TEST_FORMAT)
target_include_directories(test_registry_sixth PRIVATE ${PROJECT_SOURCE_DIR}/tools/vkskin)
