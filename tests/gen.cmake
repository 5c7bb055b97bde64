# The procedural character generator, the dataset tool and the model builder.
vks_add_test(NAME test_gen_character SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_gen_character.c LABELS gen)
vks_add_test(NAME test_gen_datasets SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_gen_datasets.c LABELS gen)
vks_add_test(NAME test_gen_rw_roundtrip SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_gen_rw_roundtrip.c LABELS gen rw)
vks_add_test(NAME test_build SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_build.c LABELS gen core)
vks_add_test(NAME test_build_character SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_build_character.c LABELS gen core)
vks_add_test(NAME test_gen_cli SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_gen_cli.c LABELS gen)
vks_add_test(NAME test_gen_split SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_gen_split.c LABELS gen)
vks_add_test(NAME test_gen_clips SOURCES ${CMAKE_SOURCE_DIR}/tests/unit/test_gen_clips.c LABELS gen anim)
