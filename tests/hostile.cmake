# Hostile inputs for every reader: tiny crafted files declaring huge counts must fail cleanly
# without unbounded allocation (tests/unit/test_hostile_inputs.c builds them byte by byte).
vks_add_test(NAME test_hostile_inputs SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_hostile_inputs.c
             LABELS robustness)
set_tests_properties(test_hostile_inputs PROPERTIES TIMEOUT 120)
# Non-finite UVs refused by the RenderWare, NIF (NiTriShapeData) and MLOD P3D readers, naming
# the offset and the structure (issue 37), as every reader refuses a non-finite position.
vks_add_test(NAME test_nonfinite_uvs SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_nonfinite_uvs.c LABELS robustness)
