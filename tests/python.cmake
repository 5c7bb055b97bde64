# vkskin's Python package (issue 42): installed into a fresh virtual environment in the build
# folder from this source tree, linking this build's libvkskin.a (tests/python/venv_install.sh),
# then its pytest suite (python/tests: every function, the CLI's raw outputs byte for byte,
# errors, memory, threads; GPU cases on lavapipe with the validation layer) and Blender's Python
# importing it. Skipped (77) without Debian's python3-numpy, -pytest, -setuptools and -venv,
# and in the sanitizer build, whose instrumented archive a stock Python cannot load.
if(VKSKIN_SANITIZE OR VKSKIN_FUZZ)
  foreach(t python_venv python_pytest python_blender)
    add_test(NAME ${t} COMMAND sh -c "echo '${t}: an instrumented libvkskin.a needs an instrumented Python: runs in the plain build'; exit 77")
    set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77 LABELS python)
  endforeach()
else()
  add_test(NAME python_venv COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/python/venv_install.sh ${PROJECT_SOURCE_DIR}
           ${PROJECT_BINARY_DIR})
  set_tests_properties(python_venv PROPERTIES SKIP_RETURN_CODE 77 LABELS python TIMEOUT 180
    FIXTURES_SETUP python_venv)
  add_test(NAME python_pytest COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/python/run_pytest.sh ${PROJECT_SOURCE_DIR}
           ${PROJECT_BINARY_DIR} $<TARGET_FILE:vkskin>)
  # labelled python only: its GPU cases run on lavapipe here; the SwiftShader pass and the GPU
# bundle take the library's own GPU tests
set_tests_properties(python_pytest PROPERTIES SKIP_RETURN_CODE 77 LABELS python TIMEOUT 180
    FIXTURES_REQUIRED python_venv)
  add_test(NAME python_blender COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/python/blender_import.sh ${PROJECT_SOURCE_DIR}
           ${PROJECT_BINARY_DIR})
  set_tests_properties(python_blender PROPERTIES SKIP_RETURN_CODE 77 LABELS python TIMEOUT 120
    FIXTURES_REQUIRED python_venv)
endif()
