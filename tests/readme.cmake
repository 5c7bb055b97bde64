# README.md's shell blocks, run as written from a temporary copy of the repository root with the
# built program (a short skip list in the script says which do not run and why), and the
# examples/ files README shows compared with README's blocks.
add_test(NAME readme_commands COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/readme_commands.sh
  $<TARGET_FILE:vkskin> ${PROJECT_SOURCE_DIR})
set_tests_properties(readme_commands PROPERTIES LABELS "cli;docs" TIMEOUT 300
  ENVIRONMENT "VKSKIN_REAL_DATASETS=${VKSKIN_REAL_DATASETS}")

# The docs cannot rot (issue 43): every link of README.md, BENCHMARKS.md and docs/*.md resolves
# (files and headings), and each heading the README had before the docs moved out is found
# where tests/docs/readme_headings.txt says.
add_test(NAME docs_links COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/docs/check_links.py ${PROJECT_SOURCE_DIR})
set_tests_properties(docs_links PROPERTIES LABELS docs)

# The API reference is generated from the public headers by Doxygen: docs/api.md must be what
# they say, and every exported function must have a description (exit 77 without doxygen).
add_test(NAME docs_api_reference
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tools/docs/api_reference.py ${CMAKE_BINARY_DIR}/docs-api)
set_tests_properties(docs_api_reference PROPERTIES LABELS docs SKIP_RETURN_CODE 77)
