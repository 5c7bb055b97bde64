# Hostile inputs for every reader: tiny crafted files declaring huge counts must fail cleanly
# without unbounded allocation (tests/unit/test_hostile_inputs.c builds them byte by byte).
vks_add_test(NAME test_hostile_inputs SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_hostile_inputs.c
             LABELS robustness)
set_tests_properties(test_hostile_inputs PROPERTIES TIMEOUT 120)
