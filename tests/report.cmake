# Validation reports (issue 16, report.h): error maps and the JUnit / HTML writers on numbers
# worked out by hand; vkskin validate's --junit (checked with xmllint against tests/data/junit.xsd),
# --report, --device all, --save-golden / --against and the tolerance options end to end, with
# a fault injected whose vertices are worked out from the model (report_fault_vertices); and the
# page opened in headless Chromium (skipped where Chromium or three.js is absent).
vks_add_test(NAME test_report SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_report.c LABELS core)

add_executable(report_fault_vertices ${CMAKE_CURRENT_SOURCE_DIR}/unit/report_fault_vertices.c)
target_link_libraries(report_fault_vertices PRIVATE vks_testutil)

# golden.json's reader (validate --against), a library file built into the harness with cJSON
vks_add_fuzz(NAME fuzz_golden SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_golden.c
  ${PROJECT_SOURCE_DIR}/src/check/golden_json.c SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/golden)
foreach(t fuzz_golden fuzz_golden_replay)
  if(TARGET ${t})
    target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/tools/vkskin ${PROJECT_SOURCE_DIR}/src ${CJSON_INCLUDE_DIR})
    target_link_libraries(${t} PRIVATE ${CJSON_LIBRARY})
  endif()
endforeach()

if(NOT VKSKIN_GPU)
  return()
endif()
find_package(PNG REQUIRED)
if(NOT TARGET check_png)
  add_executable(check_png ${CMAKE_CURRENT_SOURCE_DIR}/unit/check_png.c)
  target_link_libraries(check_png PRIVATE PNG::PNG)
endif()
add_test(NAME cli_report COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_report.sh $<TARGET_FILE:vkskin>
  $<TARGET_FILE:report_fault_vertices> $<TARGET_FILE:check_png> ${CMAKE_CURRENT_SOURCE_DIR}/data/junit.xsd)
set_tests_properties(cli_report PROPERTIES SKIP_RETURN_CODE 77 LABELS gpu TIMEOUT 180
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}" FAIL_REGULAR_EXPRESSION "vkskin: validation failed: the Vulkan")

add_test(NAME cli_report_browser COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_report_browser.sh $<TARGET_FILE:vkskin>
  $<TARGET_FILE:check_png>)
set_tests_properties(cli_report_browser PROPERTIES SKIP_RETURN_CODE 77 LABELS gpu TIMEOUT 240
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR}")

# No silent gaps (issue 22): a heat map that cannot be drawn (a queue family without graphics,
# simulated) is said so in the page, the JSON and on stderr; a stream the model lacks is absent.
add_test(NAME cli_report_gaps COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_report_gaps.sh $<TARGET_FILE:vkskin>
  $<TARGET_FILE:check_png> ${CMAKE_CURRENT_SOURCE_DIR}/data/junit.xsd)
set_tests_properties(cli_report_gaps PROPERTIES SKIP_RETURN_CODE 77 LABELS gpu TIMEOUT 120
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${CMAKE_SOURCE_DIR};VKSKIN_REAL_DATASETS=${VKSKIN_REAL_DATASETS}"
  FAIL_REGULAR_EXPRESSION "vkskin: validation failed: the Vulkan")
