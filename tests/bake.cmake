# vkskin bake (docs/baking.md "Batch baking"): texture layouts and encodings, the decode test over a
# bake of every generated character and clip, resume after kill -9, shards, and a Slurm job
# array on a one-node cluster brought up by the test.
vks_add_test(NAME test_vat SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_vat.c LABELS bake)
# the encodings a bake runs over whole textures, against their rules as first written
vks_add_test(NAME test_vat_encode SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_vat_encode.c LABELS bake)

# The decode test reads the textures with the library's readers (vat_read.h: OpenEXR, libpng).
add_executable(test_vat_decode ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_vat_decode.c)
target_include_directories(test_vat_decode PRIVATE ${CJSON_INCLUDE_DIR})
target_link_libraries(test_vat_decode PRIVATE vks_testutil vkskin_deps::cjson)
# the readers against the writers (a round trip), and files cut short or of another kind
vks_add_test(NAME test_vat_read SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_vat_read.c LABELS bake)

foreach(t cli_bake cli_bake_engines cli_bake_resume cli_bake_slurm)
  string(REPLACE "cli_bake_engines" "cli_bake" script ${t})
  set(part core)
  if(t STREQUAL "cli_bake_engines")
    set(part engines)
  endif()
  add_test(NAME ${t} COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/${script}.sh $<TARGET_FILE:vkskin>
           $<TARGET_FILE:test_vat_decode> ${part})
  set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;bake"
    ENVIRONMENT "VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
endforeach()
# A job over --max-memory-mb is refused before its frames are made; peaks measured by max_rss.
if(NOT TARGET max_rss) # render.cmake makes it too
  add_executable(max_rss ${CMAKE_CURRENT_SOURCE_DIR}/unit/max_rss.c)
endif()
add_test(NAME cli_bake_memory COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_bake_memory.sh $<TARGET_FILE:vkskin>
         $<TARGET_FILE:max_rss>)
set_tests_properties(cli_bake_memory PROPERTIES LABELS "cli;bake" ENVIRONMENT "VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
# The pool of encoding threads and the split across devices: the same bytes as one thread.
add_test(NAME cli_bake_threads COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_bake_threads.sh $<TARGET_FILE:vkskin>)
set_tests_properties(cli_bake_threads PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;bake" TIMEOUT 300
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
# brings up a one-node cluster (munged, slurmctld, slurmd) of its own; ~15 s on 2 vCPUs
set_tests_properties(cli_bake_slurm PROPERTIES TIMEOUT 120)

# The manifest parser on arbitrary bytes (a libFuzzer target with -DVKSKIN_FUZZ=ON, otherwise a
# replay of the seeds).
vks_add_fuzz(NAME fuzz_bake_manifest SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_bake_manifest.c
             SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/bake_manifest/seeds)
if(VKSKIN_FUZZ)
  set(fuzz_bake_target fuzz_bake_manifest)
else()
  set(fuzz_bake_target fuzz_bake_manifest_replay)
endif()
target_include_directories(${fuzz_bake_target} PRIVATE ${PROJECT_SOURCE_DIR}/src ${CJSON_INCLUDE_DIR})
target_link_libraries(${fuzz_bake_target} PRIVATE vkskin_deps::cjson)

# The manifest's parser and entry hash (the library's src/bake/job_manifest.c).
vks_add_test(NAME test_bake_manifest SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_bake_manifest.c LABELS bake)
target_include_directories(test_bake_manifest PRIVATE ${PROJECT_SOURCE_DIR}/src ${CJSON_INCLUDE_DIR})
target_link_libraries(test_bake_manifest PRIVATE vkskin_deps::cjson)
# A bake faults its pages in about once: freed blocks are reused (vks_bake_reuse_memory,
# src/bake/job_malloc.c); counted by
# max_rss --faults (ru_minflt), not timed. max_rss is made above.
# Not under sanitizers: their allocator (quarantine, shadow memory) is not glibc's, which is
# what the count is about.
if(VKSKIN_SANITIZE OR VKSKIN_FUZZ)
  add_test(NAME cli_bake_faults COMMAND sh -c "echo 'cli_bake_faults: glibc malloc only, not a sanitizer build'; exit 77")
else()
  add_test(NAME cli_bake_faults COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_bake_faults.sh $<TARGET_FILE:vkskin>
           $<TARGET_FILE:max_rss>)
endif()
set_tests_properties(cli_bake_faults PROPERTIES LABELS "cli;bake" SKIP_RETURN_CODE 77
                     ENVIRONMENT "VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
# The texture writers' files go out in large writes (a buffer per output), not a row at a time.
vks_add_test(NAME test_output_writes SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_output_writes.c LABELS bake)
# Outputs that are inputs (the library's output_plan.h): refused by any name with the program's
# line, each output checked with one stat, not a few per input (stat and lstat counted through
# the linker's --wrap); the per-model plan and its side outputs.
vks_add_test(NAME test_output_inputs SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_output_inputs.c LABELS bake)
target_link_options(test_output_inputs PRIVATE -Wl,--wrap=stat -Wl,--wrap=lstat)
# A host's bake (vks_bake_run, as Python's) obeys the rule too: a job whose output is its model
# is refused before any work, with the message, and the model is left as it was.
vks_add_test(NAME test_bake_refuse_inputs SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_bake_refuse_inputs.c
             LABELS bake)
# Engine limits ("max_height", "pow2": refused before any work) and what the sidecars say
# (space, colour space, clip names, cycle), checked against docs/schema/bake_sidecar.schema.json.
add_test(NAME cli_bake_engine_limits COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_bake_engine_limits.sh
         $<TARGET_FILE:vkskin> $<TARGET_FILE:test_vat_decode>)
set_tests_properties(cli_bake_engine_limits PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;bake"
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
# Split VATs ("split": true, --split): a job over "max_height" spread over several textures whose
# texels are the unsplit bake's rows; the sidecar's parts against the schema.
add_test(NAME cli_bake_split COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_bake_split.sh $<TARGET_FILE:vkskin>
         $<TARGET_FILE:test_vat_decode>)
set_tests_properties(cli_bake_split PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;bake" TIMEOUT 300
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")

# The character's UVs in the VAT rest meshes (issue 26): Fox.glb's UV0 kept, the lookup in UV1,
# the sidecar saying which set holds what; decoded through the sidecar. Skipped without Fox.glb.
add_test(NAME cli_bake_uv COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_bake_uv.sh $<TARGET_FILE:vkskin>
         $<TARGET_FILE:test_vat_decode> ${VKSKIN_REAL_DATASETS})
set_tests_properties(cli_bake_uv PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;bake"
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
# A model without normals (issue 40): each frame's smooth area-weighted normals from its deformed
# triangles, against tests/bake/glb_normals.py, CPU reference and GPU. Skipped without Fox.glb.
add_test(NAME cli_bake_normals COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_bake_normals.sh $<TARGET_FILE:vkskin>
         ${VKSKIN_REAL_DATASETS})
set_tests_properties(cli_bake_normals PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;bake" TIMEOUT 120
  ENVIRONMENT "VKSKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
# Jobs that name layers (issue 27): the reference's frames are deform --crowd's, the fast CPU
# engine's and the GPU's near them; errors name the job and the key.
add_test(NAME cli_bake_layers COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_bake_layers.sh $<TARGET_FILE:vkskin>
         ${PROJECT_SOURCE_DIR})
set_tests_properties(cli_bake_layers PROPERTIES LABELS "cli;bake;anim" TIMEOUT 300)
# Jobs with root_motion (issue 27): in place, the bytes of deform --crowd, the root motion
# (and yaw) CSV beside the bake and in every sidecar; Fox.glb's run where the real datasets are.
add_test(NAME cli_bake_root_motion COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_bake_root_motion.sh $<TARGET_FILE:vkskin>
         ${PROJECT_SOURCE_DIR} ${VKSKIN_REAL_DATASETS})
set_tests_properties(cli_bake_root_motion PROPERTIES LABELS "cli;bake;anim" TIMEOUT 300)
# The library's work pool (src/core/work_pool.c, under the program's names): tasks, and shares
# of a task's indexes that idle threads help with.
vks_add_test(NAME test_work_pool SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_work_pool.c
             ${PROJECT_SOURCE_DIR}/tools/vkskin/cli_thread.c LABELS bake core)
target_include_directories(test_work_pool PRIVATE ${PROJECT_SOURCE_DIR}/tools/vkskin ${PROJECT_SOURCE_DIR}/src)
set_tests_properties(test_work_pool PROPERTIES TIMEOUT 60) # a share left to a freed frame hangs rather than fails
