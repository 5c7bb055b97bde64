# Outputs and input limits (docs/safety.md): the library's output files and the program's
# checks before any work.
vks_add_test(NAME test_output_file SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_output_file.c LABELS core)

add_test(NAME cli_outputs COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_outputs.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_outputs PROPERTIES SKIP_RETURN_CODE 77 LABELS cli
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}")

add_test(NAME cli_exit_codes COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_exit_codes.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_exit_codes PROPERTIES SKIP_RETURN_CODE 77 LABELS cli
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}")

add_test(NAME cli_outputs_inputs COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_outputs_inputs.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_outputs_inputs PROPERTIES LABELS cli TIMEOUT 300
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
# A glTF's external buffers and images are inputs, its URIs stay in its folder (or --uri-root),
# one read per distinct file and one budget for the whole model; streams refused near the limit.
add_test(NAME cli_gltf_external COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_gltf_external.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_gltf_external PROPERTIES LABELS cli TIMEOUT 300
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
# deform --gpu converts on a thread of its own: the same bytes as on the feeding thread.
add_test(NAME cli_deform_encode COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_deform_encode.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_deform_encode PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;gpu"
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
# A crowd's root-motion CSVs under the rules of every output (issue 37): shared names, checks
# before any work, --out - and devices, --root-motion PATH.
add_test(NAME cli_root_motion_outputs COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_root_motion_outputs.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_root_motion_outputs PROPERTIES LABELS cli TIMEOUT 120
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
# Option values taken as written or refused (issue 37): --device past the index range, numbers
# with spaces or signs, a launch-shape key given twice.
add_test(NAME cli_strict_options COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_strict_options.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_strict_options PROPERTIES LABELS cli TIMEOUT 120
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
# Names from files printed as data (issue 37): inspect's text escapes controls and bytes that
# are not UTF-8, its JSON stays valid UTF-8.
add_test(NAME cli_inspect_names COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_inspect_names.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_inspect_names PROPERTIES LABELS cli TIMEOUT 60
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
