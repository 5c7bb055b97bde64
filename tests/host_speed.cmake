# Host speed (issue 25): validate's reference on every core with results the same for any
# --threads N, and progress lines on long runs of validate, bake, deform and render.
add_test(NAME cli_validate_threads COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_validate_threads.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_validate_threads PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;gpu" TIMEOUT 300)
add_test(NAME cli_progress COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_progress.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_progress PROPERTIES LABELS cli TIMEOUT 300)
