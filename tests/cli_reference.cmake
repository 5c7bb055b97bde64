# The CLI reference (docs/cli.md) and the vkskin(1) man page, generated from the option tables
# that --help prints: docs/cli.md equal to the program's output, the page rendering without
# warnings and installed where man finds it, and a missing description failing the check.
add_test(NAME cli_reference COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_reference.sh $<TARGET_FILE:vkskin>
  ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
set_tests_properties(cli_reference PROPERTIES LABELS "cli;docs" TIMEOUT 120)
