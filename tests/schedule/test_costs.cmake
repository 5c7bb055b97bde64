# What the longest tests cost, so that `ctest -j N` starts them first (CTest's COST property).
# CTest orders a parallel run by the times it recorded (Testing/Temporary/CTestCostData.txt),
# but a fresh clone (CI) has none and starts tests in the order they are defined: a long test
# drawn last then runs alone while the other cores idle. The figures are seconds measured on 2
# cores (.ci/run, lavapipe), one column per build: plain, AddressSanitizer + UBSan
# (VKSKIN_SANITIZE), -DVKSKIN_GPU=OFF; only the order matters, so rough figures do. A test
# that takes 8 s or more in some build belongs here; a name this build does not define is
# passed over. Included by tests/CMakeLists.txt after every test is defined.
set(VKSKIN_TEST_COSTS
  # test                     plain asan nogpu
  package_install              93    0    0
  python_venv                  23    0   20
  cli_crowd_devices            24   54    0
  test_first_use_cli           22   48    0
  cli_bake_engines             19   42   15
  test_p3d_robust               8   37    7
  threejs_goldens              30   35   20
  gpu_bundle                   50    0    0
  cli_thread_fallback          16   33    1
  cli_bake_threads             18   28    6
  gltf_out                     15   27    6
  cli_split_shares              8   19    0
  test_rw_tube                  5   19    4
  cli_deform_devices            9   19    0
  cli_validate_readback         9   19    0
  cli_bake_resume              11   18   12
  cli_bake_split               17   17   16
  test_nif_errors               4   17    3
  test_gpu_crowd_first_use      8   17    0
  cli_clips                     7   16    0
  test_gpu_oom                  6   16    0
  cli_deform_encode             6   16    0
  cli_bake_slurm               13   15   12
  test_gpu_shapes               6   15    0
  engines_godot                19   17    1
  cli_report                   11   14    0
  test_rw_anim_write            5   14    4
  cli_bake                      9   14    8
  cli_report_browser           14   10    0
  cli_crowd_layers              6   13    0
  cli_crowd_weights             7   16    2
  cli_readback_apart            6   13    0
  test_gpu_first_use            5   13    0
  test_gltf_samples             3   13    4
  cli_gltf                      4   11    0
  cli_seed_morph               25   60   12
  cli_gltf_compressed          32   80   20
  engines_threejs              20   20   20
  readme_commands               7   10    0
  cli_honest                    4    9    0
  test_gpu_tune                 2    9    0
  test_nif_kf_robust            2    9    2
  # the GPU tests that compile most of lavapipe's pipelines first in the plain build (its
  # shader cache cold in a fresh clone): about what each took there
  test_gpu_stream              21    3    0
  test_gpu_clip                16    2    0
  test_gpu_layers              15    3    0
  cli_gltf_morph               13   17    7
  test_gpu_reduce              12    2    0
  test_gpu_batch               11    2    0
  test_gpu_crowd               11    2    0
  cli_blender_chars             7   10    5
  python_pytest                 9    0    2
  test_gpu_faults               9    1    0
)
if(VKSKIN_SANITIZE)
  set(column 2)
elseif(NOT VKSKIN_GPU)
  set(column 3)
else()
  set(column 1)
endif()
string(REGEX REPLACE "[ \t\n]+" ";" VKSKIN_TEST_COSTS "${VKSKIN_TEST_COSTS}")
list(FILTER VKSKIN_TEST_COSTS EXCLUDE REGEX "^$")
list(LENGTH VKSKIN_TEST_COSTS n)
foreach(i RANGE 0 ${n} 4)
  if(i EQUAL n)
    break()
  endif()
  list(GET VKSKIN_TEST_COSTS ${i} name)
  math(EXPR at "${i} + ${column}")
  list(GET VKSKIN_TEST_COSTS ${at} cost)
  if(TEST ${name} AND cost GREATER 0)
    set_tests_properties(${name} PROPERTIES COST ${cost})
  endif()
endforeach()
