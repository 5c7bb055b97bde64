# Morph data in the seed formats (issue 38): RenderWare geometry morph targets and NIF
# NiGeomMorpherController / NiMorphData, written independently by tests/cli/seed_morph_golden.py
# into generated characters: inspect lists them, a pose's weights move the vertices by the
# analytic deltas on every engine, what is not read is warned about, and every byte of the new
# structures cut back gives a clear error (seed_morph_cuts).
add_executable(seed_morph_cuts ${CMAKE_CURRENT_SOURCE_DIR}/unit/seed_morph_cuts.c)
target_include_directories(seed_morph_cuts PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(seed_morph_cuts PRIVATE vks_testutil)
add_test(NAME cli_seed_morph COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_seed_morph.sh $<TARGET_FILE:vkskin>
         $<TARGET_FILE:seed_morph_cuts>)
set_tests_properties(cli_seed_morph PROPERTIES LABELS "cli;rw;nif;gpu" TIMEOUT 300)
