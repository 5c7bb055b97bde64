#!/bin/sh
# The seams of the tree that the compiler does not hold (README "Layout"):
#   - the GPU engine's planning (src/gpu outside vulkan/) includes neither volk nor the Vulkan
#     backend (queue_choice.h may name VkQueueFamilyProperties, a plain struct of
#     vulkan/vulkan_core.h);
#   - outside src/gpu/vulkan nothing includes the backend's private headers (gpu_internal.h,
#     crowd_internal.h): src/render uses vulkan/vk_shared.h;
#   - the production options of gpu.h carry no test hook (they are in gpu_testing.h);
#   - the backend folder holds only backend code: every .c of src/gpu/vulkan makes a Vulkan
#     call or names a Vulkan type or constant, a backend object made of them (vks__buf,
#     vks__oneshot, the context's device state), or the Vulkan drivers; a file that does none
#     of these is backend-neutral engine code and goes to src/gpu beside the planning, using
#     the backend through src/gpu/backend.h.
# Usage: check_layering.sh SOURCE_DIR
src=${1:?usage: check_layering.sh SOURCE_DIR}
fail=0

planning=$(grep -nE '^#[[:space:]]*include[[:space:]]*[<"](volk\.h|gpu/vulkan/|vulkan/)' "$src"/src/gpu/*.c "$src"/src/gpu/*.h |
           grep -v '<vulkan/vulkan_core.h>')
if [ -n "$planning" ]; then
  echo "check_layering: the planning includes volk or the Vulkan backend:"
  echo "$planning"
  fail=1
fi
private=$(grep -rnE '^#[[:space:]]*include[[:space:]]*"[^"]*(gpu_internal|crowd_internal)\.h"' "$src/src" "$src/tools" \
          "$src/tests" "$src/examples" | grep -v "^$src/src/gpu/vulkan/")
if [ -n "$private" ]; then
  echo "check_layering: the Vulkan backend's private headers included outside it:"
  echo "$private"
  fail=1
fi
# The backend's marks: Vulkan's own names, the backend objects made of them, the context's
# Vulkan state, the loader's driver libraries.
backend_marks='\b(vk|Vk)[A-Z][A-Za-z0-9]*|\bVK_[A-Z0-9_]+|\bvks__(buf|oneshot)\b|gpu->(vk|props|mem|device|queue|phys)\b|libvulkan'
for f in "$src"/src/gpu/vulkan/*.c; do
  if ! grep -qE "$backend_marks" "$f"; then
    echo "check_layering: $f: backend-neutral (no Vulkan call, type or backend object): it belongs in src/gpu, using src/gpu/backend.h"
    fail=1
  fi
done
if grep -nE 'inject_fault|fail_allocation|limit_storage_range' "$src/include/vkskin/gpu.h"; then
  echo "check_layering: include/vkskin/gpu.h: a test hook among the production options (gpu_testing.h)"
  fail=1
fi
[ $fail = 0 ] && echo "check_layering: planning apart from Vulkan, backend headers private, no neutral code in the backend folder, no test hooks in gpu.h"
exit $fail
