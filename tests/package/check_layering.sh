#!/bin/sh
# The seams of the tree that the compiler does not hold (README "Layout"):
#   - the GPU engine's planning (src/gpu outside vulkan/) includes neither volk nor the Vulkan
#     backend (queue_choice.h may name VkQueueFamilyProperties, a plain struct of
#     vulkan/vulkan_core.h);
#   - outside src/gpu/vulkan nothing includes the backend's private headers (gpu_internal.h,
#     crowd_internal.h): src/render uses vulkan/vk_shared.h;
#   - the production options of gpu.h carry no test hook (they are in gpu_testing.h).
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
if grep -nE 'inject_fault|fail_allocation|limit_storage_range' "$src/include/vkskin/gpu.h"; then
  echo "check_layering: include/vkskin/gpu.h: a test hook among the production options (gpu_testing.h)"
  fail=1
fi
[ $fail = 0 ] && echo "check_layering: planning apart from Vulkan, backend headers private, no test hooks in gpu.h"
exit $fail
