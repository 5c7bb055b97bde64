# Host speed (issue 25): validate's reference on every core with results the same for any
# --threads N, and progress lines on long runs of validate, bake, deform and render.
add_test(NAME cli_validate_threads COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_validate_threads.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_validate_threads PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;gpu" TIMEOUT 300)
# Several devices: validate's poses split across contexts give one device's verdict, bit for bit.
add_test(NAME cli_validate_devices COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_validate_devices.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_validate_devices PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;gpu" TIMEOUT 300)
# and deform --gpu's poses split across contexts write one device's bytes.
add_test(NAME cli_deform_devices COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_deform_devices.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_deform_devices PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;gpu" TIMEOUT 300)
# and clips and crowds, whose instances deform and validate split across contexts, likewise.
add_test(NAME cli_crowd_devices COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_crowd_devices.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_crowd_devices PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;gpu" TIMEOUT 600
  FAIL_REGULAR_EXPRESSION "vkskin: validation")
# Every thread's fallback (VKSKIN_TEST_THREAD_FAIL): with threads refused, the same bytes and a
# warning naming what ran instead.
add_test(NAME cli_thread_fallback COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_thread_fallback.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_thread_fallback PROPERTIES LABELS "cli;gpu" TIMEOUT 600 FAIL_REGULAR_EXPRESSION "vkskin: validation")
# A split says how the work was shared: a line a context on stderr, "context_shares" in the JSON;
# a small run (one chunk, a few jobs) gives every context a share and one device's results.
add_test(NAME cli_split_shares COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_split_shares.sh $<TARGET_FILE:vkskin>
         ${PROJECT_SOURCE_DIR})
set_tests_properties(cli_split_shares PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;gpu" TIMEOUT 300)
add_test(NAME cli_progress COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_progress.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_progress PROPERTIES LABELS cli TIMEOUT 300)

# ThreadSanitizer (not a CTest: it needs its own build). Run on 2026-11-27 with lavapipe, clean
# (no report, no suppression needed for the driver):
#   cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
#         -DCMAKE_C_FLAGS=-fsanitize=thread -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread
#   ninja -C build-tsan vkskin
#   build-tsan/vkskin validate hero.dff --instances 40 --frames 2 --max-chunk-mb 1 --threads 4
#   VKSKIN_PROGRESS_INTERVAL_MS=0 build-tsan/vkskin validate hero.dff --clip hero.dff.wave.anm \
#         --instances 29 --stagger --frames 3 --max-chunk-mb 1 --threads 3
#   VKSKIN_PROGRESS_INTERVAL_MS=0 build-tsan/vkskin bake bake.json [--cpu] --jobs 3 --force --out baked
# (hero.dff from vkskin generate --vertices 3000; bake.json: three pc2/raw jobs of its clips.)
# The fallbacks and the shares, clean likewise, with
# TSAN_OPTIONS=suppressions=tests/tsan/vulkan_driver.supp:log_path=DIR/tsan (reports go to
# files, so none can hide in a test's captured stderr):
#   tests/cli/cli_thread_fallback.sh build-tsan/vkskin
#   tests/cli/cli_split_shares.sh build-tsan/vkskin
#   tests/cli/cli_crowd_devices.sh build-tsan/vkskin
# Should a Mesa version report races inside its own threads, suppress them by library
# (TSAN_OPTIONS=suppressions=FILE with "race:libvulkan_lvp.so" and "race:libLLVM"), never
# vkskin's frames.
