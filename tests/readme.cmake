# README.md's shell blocks, run as written from a temporary copy of the repository root with the
# built program (a short skip list in the script says which do not run and why), and the
# examples/ files README shows compared with README's blocks.
add_test(NAME readme_commands COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/readme_commands.sh
  $<TARGET_FILE:vkskin> ${PROJECT_SOURCE_DIR})
set_tests_properties(readme_commands PROPERTIES LABELS "cli;docs" TIMEOUT 300
  ENVIRONMENT "VKSKIN_REAL_DATASETS=${VKSKIN_REAL_DATASETS}")
