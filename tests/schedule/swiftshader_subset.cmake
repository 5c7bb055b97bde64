# The tests CI runs a second time on SwiftShader (tools/scripts/test_swiftshader.sh, label
# "swiftshader"): one test per device path of the library, so that every kernel and pass meets
# a second Vulkan implementation (subgroups of 4, other limits, its own precision). SwiftShader
# compiles every pipeline anew in each process (about a second a pipeline), so the pass takes
# what covers a path once and leaves to the lavapipe pass what repeats it with another tuning
# choice or through the program: the *_pose_nodes*, *_pose_wg_256 and *_readback_apart
# variants (the same shaders at other table choices), the CLI's and the report's tests,
# tuning, first use, ceilings, shapes, out-of-memory (host-side fallbacks), bench and render
# memory. VKSKIN_SWIFTSHADER_ALL=1 runs every GPU-labelled test there instead. Measured on a
# loaded 2-core machine (2026-12-06): every GPU test of the library 648 s, this subset about a
# quarter of it. examples/CMakeLists.txt labels example_crowd_embed (a host's own VkDevice)
# there, where that test is defined.
set(VKSKIN_SWIFTSHADER_SUBSET
  test_gpu_batch             # the deform kernel's variants: positions, normals, groups, tangents
  test_gpu_library           # the public API's batch path end to end
  test_gpu_morph             # morph targets in the kernel
  test_gpu_eight_influences  # the 8-influence pipelines
  test_gpu_reduce            # validate's reduction (subgroup arithmetic at subgroup size 4)
  test_gpu_faults            # bad device input refused, not deformed
  test_gpu_stream            # the stream and its readback ring
  test_gpu_stream_crowd
  test_gpu_crowd             # the crowd's pose pass (procedural, locals)
  test_gpu_clip              # clips sampled on the GPU
  test_gpu_clip_nif
  test_gpu_layers            # layers, masks, fades, root motion on the GPU
  test_gpu_render            # the render pass
)
foreach(name ${VKSKIN_SWIFTSHADER_SUBSET})
  if(TEST ${name})
    set_property(TEST ${name} APPEND PROPERTY LABELS swiftshader)
  endif()
endforeach()
