/* vkskin in the host's device (gpu_vulkan.h). The test is the host: it makes its own instance
 * with the validation layer and a messenger that counts every warning and error, its own
 * device and command buffers, and hands vkskin a vkGetInstanceProcAddr that wraps the loader's
 * and counts what vkskin calls through it:
 *   - adoption: every function comes through the host's loader (the wrapper sees them), and
 *     vks_gpu_vulkan gives the host's objects back; bad hosts are refused with a message;
 *   - frames recorded into the host's command buffer, three in a row, and one instance copied by
 *     the host into its own buffer, match the CPU reference; so does vks_crowd_read;
 *   - a second frame at another time makes no vkAllocateMemory, vkCreateBuffer,
 *     vkAllocateDescriptorSets or vkAllocateCommandBuffers call;
 *   - vkskin never calls vkDeviceWaitIdle, vkQueueWaitIdle, vkDestroyDevice, vkCreateDevice or
 *     vkDestroyInstance on the host's objects, and the device works after vks_gpu_destroy;
 *   - contexts created on several threads at once (own and adopted) all work; an own context
 *     still works after the host changed volk's global device functions.
 * Exits 77 where there is no Vulkan device or validation layer. */
#include <volk.h> /* the host's Vulkan: volk's globals, which vkskin must not depend on */

#include "crowd_check.h"
#include "gpu_check.h"
#include "testutil.h"

#include "vkskin/gpu_vulkan.h"

#include <pthread.h>
#include <string.h>

/* ---- the counting loader ---- */

enum { ALLOC_MEMORY, CREATE_BUFFER, ALLOC_SETS, ALLOC_CMD, DEVICE_WAIT_IDLE, QUEUE_WAIT_IDLE, DESTROY_DEVICE,
       CREATE_DEVICE, DESTROY_INSTANCE, LOOKUPS, COUNTERS };
static const char *const counted[COUNTERS] = {"vkAllocateMemory",  "vkCreateBuffer",   "vkAllocateDescriptorSets",
                                              "vkAllocateCommandBuffers", "vkDeviceWaitIdle", "vkQueueWaitIdle",
                                              "vkDestroyDevice",   "vkCreateDevice",   "vkDestroyInstance", "lookups"};
static unsigned long calls[COUNTERS];
static PFN_vkGetInstanceProcAddr real_gipa;
static PFN_vkGetDeviceProcAddr real_gdpa;
static PFN_vkAllocateMemory real_alloc_memory;
static PFN_vkCreateBuffer real_create_buffer;
static PFN_vkAllocateDescriptorSets real_alloc_sets;
static PFN_vkAllocateCommandBuffers real_alloc_cmd;

static VKAPI_ATTR VkResult VKAPI_CALL count_alloc_memory(VkDevice d, const VkMemoryAllocateInfo *i,
                                                         const VkAllocationCallbacks *a, VkDeviceMemory *m)
{
    calls[ALLOC_MEMORY]++;
    return real_alloc_memory(d, i, a, m);
}
static VKAPI_ATTR VkResult VKAPI_CALL count_create_buffer(VkDevice d, const VkBufferCreateInfo *i,
                                                          const VkAllocationCallbacks *a, VkBuffer *b)
{
    calls[CREATE_BUFFER]++;
    return real_create_buffer(d, i, a, b);
}
static VKAPI_ATTR VkResult VKAPI_CALL count_alloc_sets(VkDevice d, const VkDescriptorSetAllocateInfo *i,
                                                       VkDescriptorSet *s)
{
    calls[ALLOC_SETS]++;
    return real_alloc_sets(d, i, s);
}
static VKAPI_ATTR VkResult VKAPI_CALL count_alloc_cmd(VkDevice d, const VkCommandBufferAllocateInfo *i,
                                                      VkCommandBuffer *c)
{
    calls[ALLOC_CMD]++;
    return real_alloc_cmd(d, i, c);
}
/* calls that must never come from vkskin on the host's objects: counted, not forwarded */
static VKAPI_ATTR VkResult VKAPI_CALL never_device_wait(VkDevice d) { return calls[DEVICE_WAIT_IDLE]++, VK_SUCCESS; }
static VKAPI_ATTR VkResult VKAPI_CALL never_queue_wait(VkQueue q) { return calls[QUEUE_WAIT_IDLE]++, VK_SUCCESS; }
static VKAPI_ATTR void VKAPI_CALL never_destroy_device(VkDevice d, const VkAllocationCallbacks *a) { calls[DESTROY_DEVICE]++; }
static VKAPI_ATTR void VKAPI_CALL never_destroy_instance(VkInstance i, const VkAllocationCallbacks *a) { calls[DESTROY_INSTANCE]++; }
static VKAPI_ATTR VkResult VKAPI_CALL never_create_device(VkPhysicalDevice p, const VkDeviceCreateInfo *i,
                                                          const VkAllocationCallbacks *a, VkDevice *d)
{
    return calls[CREATE_DEVICE]++, VK_ERROR_INITIALIZATION_FAILED;
}

#define WRAP(name, type, var, fn)                                                                           \
    if (!strcmp(n, name)) {                                                                                 \
        var = (type)real_gdpa(d, n);                                                                        \
        return (PFN_vkVoidFunction)fn;                                                                      \
    }
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL wrap_gdpa(VkDevice d, const char *n)
{
    calls[LOOKUPS]++;
    WRAP("vkAllocateMemory", PFN_vkAllocateMemory, real_alloc_memory, count_alloc_memory);
    WRAP("vkCreateBuffer", PFN_vkCreateBuffer, real_create_buffer, count_create_buffer);
    WRAP("vkAllocateDescriptorSets", PFN_vkAllocateDescriptorSets, real_alloc_sets, count_alloc_sets);
    WRAP("vkAllocateCommandBuffers", PFN_vkAllocateCommandBuffers, real_alloc_cmd, count_alloc_cmd);
    if (!strcmp(n, "vkDeviceWaitIdle"))
        return (PFN_vkVoidFunction)never_device_wait;
    if (!strcmp(n, "vkQueueWaitIdle"))
        return (PFN_vkVoidFunction)never_queue_wait;
    if (!strcmp(n, "vkDestroyDevice"))
        return (PFN_vkVoidFunction)never_destroy_device;
    return real_gdpa(d, n);
}
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL wrap_gipa(VkInstance i, const char *n)
{
    calls[LOOKUPS]++;
    if (!strcmp(n, "vkGetDeviceProcAddr"))
        return (PFN_vkVoidFunction)wrap_gdpa;
    if (!strcmp(n, "vkDestroyInstance"))
        return (PFN_vkVoidFunction)never_destroy_instance;
    if (!strcmp(n, "vkCreateDevice"))
        return (PFN_vkVoidFunction)never_create_device;
    return real_gipa(i, n);
}

/* ---- the host ---- */

static unsigned host_messages;
static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT sev,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    if (sev & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) {
        host_messages++;
        fprintf(stderr, "vkskin: validation (host's messenger): %s\n", data->pMessage);
    }
    return VK_FALSE;
}

typedef struct host {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice pd;
    VkDevice device;
    uint32_t family;
    uint32_t family_queues; /* queueCount of that family, as the physical device reports it */
    VkQueue queue;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
} host;

static void skip(const char *why)
{
    fprintf(stderr, "skipped: %s\n", why);
    exit(77);
}

static void host_create(host *h)
{
    if (volkInitialize() != VK_SUCCESS)
        skip("no Vulkan loader");
    real_gipa = vkGetInstanceProcAddr;
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, NULL);
    VkLayerProperties layers[64];
    n = n > 64 ? 64 : n;
    vkEnumerateInstanceLayerProperties(&n, layers);
    int has_layer = 0;
    for (uint32_t i = 0; i < n; i++)
        has_layer |= !strcmp(layers[i].layerName, "VK_LAYER_KHRONOS_validation");
    if (!has_layer)
        skip("no VK_LAYER_KHRONOS_validation");
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "host", 1, NULL, 0, VK_API_VERSION_1_1};
    const char *layer = "VK_LAYER_KHRONOS_validation", *ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkDebugUtilsMessengerCreateInfoEXT dm = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    dm.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    dm.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    dm.pfnUserCallback = on_message;
    VkInstanceCreateInfo ci = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, &dm, 0, &app, 1, &layer, 1, &ext};
    if (vkCreateInstance(&ci, NULL, &h->instance) != VK_SUCCESS)
        skip("no Vulkan instance");
    volkLoadInstanceOnly(h->instance);
    vkCreateDebugUtilsMessengerEXT(h->instance, &dm, NULL, &h->messenger);
    n = 1;
    if (vkEnumeratePhysicalDevices(h->instance, &n, &h->pd) < 0 || n == 0)
        skip("no Vulkan device");
    VkQueueFamilyProperties q[16];
    uint32_t nq = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(h->pd, &nq, q);
    for (h->family = 0; h->family < nq && !(q[h->family].queueFlags & VK_QUEUE_COMPUTE_BIT); h->family++)
        ;
    if (h->family == nq)
        skip("no queue family with compute");
    h->family_queues = q[h->family].queueCount;
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, h->family, 1, &prio};
    VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi};
    CHECK(vkCreateDevice(h->pd, &di, NULL, &h->device) == VK_SUCCESS);
    volkLoadDevice(h->device); /* the host's globals now point at its device */
    real_gdpa = vkGetDeviceProcAddr;
    vkGetDeviceQueue(h->device, h->family, 0, &h->queue);
    VkCommandPoolCreateInfo pi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL,
                                  VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, h->family};
    vkCreateCommandPool(h->device, &pi, NULL, &h->pool);
    VkCommandBufferAllocateInfo ai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, h->pool,
                                      VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    vkAllocateCommandBuffers(h->device, &ai, &h->cmd);
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    vkCreateFence(h->device, &fi, NULL, &h->fence);
}

static vks_gpu_host adoption(const host *h)
{
    vks_gpu_host a = {h->instance, h->pd, h->device, h->family, 0, wrap_gipa, VK_API_VERSION_1_1};
    return a;
}

/* A host-visible buffer of the host's own. */
static VkBuffer host_buffer(host *h, VkDeviceSize size, VkDeviceMemory *mem, void **mapped)
{
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                             .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    VkBuffer b;
    vkCreateBuffer(h->device, &bi, NULL, &b);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(h->device, b, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(h->pd, &mp);
    uint32_t t = 0;
    VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    while (!((req.memoryTypeBits >> t) & 1) || (mp.memoryTypes[t].propertyFlags & want) != want)
        t++;
    VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, req.size, t};
    vkAllocateMemory(h->device, &ai, NULL, mem);
    vkBindBufferMemory(h->device, b, *mem, 0);
    vkMapMemory(h->device, *mem, 0, VK_WHOLE_SIZE, 0, mapped);
    return b;
}

static void submit_and_wait(host *h)
{
    CHECK(vkEndCommandBuffer(h->cmd) == VK_SUCCESS);
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &h->cmd};
    CHECK(vkQueueSubmit(h->queue, 1, &si, h->fence) == VK_SUCCESS);
    vkWaitForFences(h->device, 1, &h->fence, VK_TRUE, UINT64_MAX);
    vkResetFences(h->device, 1, &h->fence);
}

static void begin(host *h)
{
    vkResetCommandBuffer(h->cmd, 0);
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(h->cmd, &bi);
}

/* ---- contexts on several threads at once ---- */

typedef struct job {
    const host *h;
    int adopt;
    vks_result r;
} job;

static void *make_context(void *arg)
{
    job *j = arg;
    vks_gpu_host a = adoption(j->h);
    vks_gpu_options o = {0};
    o.host = j->adopt ? &a : NULL;
    vks_gpu *gpu = NULL;
    vks_error err = {0};
    j->r = vks_gpu_create(&o, &gpu, &err);
    vks_gpu_destroy(gpu);
    return NULL;
}

/* vks_gpu_create must refuse these options with want; a context made all the same is destroyed
 * (so the failure is the check's, not leaked objects reported when the device goes). */
static void refused(const vks_gpu_options *o, vks_result want)
{
    vks_gpu *gpu = NULL;
    vks_error err = {0};
    vks_result got = vks_gpu_create(o, &gpu, &err);
    CHECK_EQ_INT(got, want);
    CHECK(gpu == NULL);
    if (got == want)
        fprintf(stderr, "  refused: %s\n", err.msg);
    vks_gpu_destroy(gpu);
}

int main(void)
{
    host h = {0};
    host_create(&h);
    vks_skin *s = gpu_check_character(1500, 24, 4, 12, 5);
    if (!s)
        return vks_test_finish("test_gpu_adopt");
    vks_error err = {0};
    vks_gpu *gpu = NULL;

    fprintf(stderr, "refused: incomplete hosts\n");
    vks_gpu_host a = adoption(&h);
    vks_gpu_options o = {0};
    o.host = &a;
    a.device = VK_NULL_HANDLE;
    CHECK_EQ_INT(vks_gpu_create(&o, &gpu, &err), VKS_ERR_INVALID);
    CHECK(gpu == NULL && strstr(err.msg, "device") != NULL);
    a = adoption(&h), a.queue_family = 99;
    refused(&o, VKS_ERR_UNSUPPORTED);
    /* What can be checked of the queue: its index against the family's queueCount (16 in the
     * H100's family 0, 1 on lavapipe). That the host created that queue is the host's promise
     * (gpu_vulkan.h): no Vulkan call tells, so no index below queueCount is tested here. */
    a = adoption(&h), a.queue_index = h.family_queues;
    refused(&o, VKS_ERR_INVALID);
    a = adoption(&h), a.queue_index = UINT32_MAX;
    refused(&o, VKS_ERR_INVALID);
    a = adoption(&h), a.api_version = VK_API_VERSION_1_0;
    refused(&o, VKS_ERR_UNSUPPORTED);

    fprintf(stderr, "adopted: everything through the host's loader\n");
    a = adoption(&h);
    memset(calls, 0, sizeof calls);
    CHECK(vks_gpu_create(&o, &gpu, &err) == VKS_OK);
    CHECK(calls[LOOKUPS] > 100); /* the instance table and the whole device table */
    vks_gpu_host back;
    VkQueue queue;
    vks_gpu_vulkan(gpu, &back, &queue);
    CHECK(back.device == h.device && back.instance == h.instance && back.queue_family == h.family &&
          queue == h.queue && back.get_instance_proc_addr == wrap_gipa);
    const vks_skin *skins[1] = {s};
    vks_gpu_models *ms = NULL;
    CHECK(vks_gpu_upload(gpu, skins, 1, &ms, &err) == VKS_OK);
    enum { N = 12 };
    vks_instance in[N];
    memset(in, 0, sizeof in);
    for (uint32_t i = 0; i < N; i++) {
        in[i].seed = 7, in[i].pose_instance = i;
        if (i % 4 == 1) {
            float t[3] = {1.0f * (float)i, 0, -0.5f}, q[4] = {0, 0.6f, 0, 0.8f}, sc[3] = {1, 1, 1};
            in[i].root = vks_affine_from_trs(t, q, sc);
        }
    }
    vks_crowd_desc d = {0};
    d.models = ms, d.instances = in, d.instance_count = N;
    vks_crowd *crowd = NULL;
    CHECK(vks_crowd_create(gpu, &d, &crowd, &err) == VKS_OK);

    fprintf(stderr, "three frames recorded into the host's command buffer, one instance copied by the host\n");
    vks_crowd_output out;
    CHECK(vks_crowd_get_output(crowd, 5, &out, &err) == VKS_OK);
    VkDeviceSize bytes = (VkDeviceSize)out.vertex_count * 12;
    VkDeviceMemory mem;
    float *mapped = NULL;
    VkBuffer mine = host_buffer(&h, 2 * bytes, &mem, (void **)&mapped);
    begin(&h);
    vks_crowd_record(crowd, h.cmd, 0.2f);
    vks_crowd_record(crowd, h.cmd, 0.9f);
    vks_crowd_record(crowd, h.cmd, 2.5f);
    /* the crowd's release barrier already covers transfer reads; the host's own copy then
     * needs its own transfer -> host barrier */
    VkBufferCopy cp = {out.position.offset, 0, bytes};
    vkCmdCopyBuffer(h.cmd, out.position.buffer, mine, 1, &cp);
    cp = (VkBufferCopy){out.normal.offset, bytes, bytes};
    vkCmdCopyBuffer(h.cmd, out.normal.buffer, mine, 1, &cp);
    VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(h.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
    submit_and_wait(&h);
    double worst = 0;
    CHECK(crowd_check_instance(s, &in[5], 2.5f, NULL, mapped, mapped + out.vertex_count * 3, &worst));
    fprintf(stderr, "  instance 5, copied by the host: worst position error %.3g of scale\n", worst);
    CHECK(crowd_check(crowd, skins, in, N, 2.5f, NULL, "read back by vkskin"));

    fprintf(stderr, "a second frame allocates nothing\n");
    unsigned long before[COUNTERS];
    memcpy(before, calls, sizeof calls);
    begin(&h);
    vks_crowd_record(crowd, h.cmd, 3.75f);
    submit_and_wait(&h);
    CHECK(vks_crowd_run_frame(crowd, 4.0f, NULL, &err) == VKS_OK); /* vkskin's own submission */
    for (int k = ALLOC_MEMORY; k <= ALLOC_CMD; k++)
        if (calls[k] != before[k])
            fprintf(stderr, "  %s called %lu times in the steady state\n", counted[k], calls[k] - before[k]);
    CHECK(!memcmp(before, calls, sizeof calls));
    CHECK(crowd_check(crowd, skins, in, N, 4.0f, NULL, "after the steady-state frames"));
    CHECK(before[ALLOC_MEMORY] > 0 && before[CREATE_BUFFER] > 0); /* the counter does count */

    fprintf(stderr, "teardown leaves the host's objects alone\n");
    vks_crowd_destroy(crowd);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    for (int k = DEVICE_WAIT_IDLE; k <= DESTROY_INSTANCE; k++)
        if (calls[k])
            fprintf(stderr, "  vkskin called %s %lu times\n", counted[k], calls[k]);
    CHECK(!calls[DEVICE_WAIT_IDLE] && !calls[QUEUE_WAIT_IDLE] && !calls[DESTROY_DEVICE] && !calls[CREATE_DEVICE] &&
          !calls[DESTROY_INSTANCE]);
    begin(&h); /* the host's device still runs its own work */
    vkCmdFillBuffer(h.cmd, mine, 0, VK_WHOLE_SIZE, 0);
    vkCmdPipelineBarrier(h.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
    submit_and_wait(&h);
    CHECK(mapped[0] == 0.0f);

    fprintf(stderr, "contexts made on six threads at once: four own, two adopted\n");
    pthread_t th[6];
    job jobs[6];
    for (int t = 0; t < 6; t++) {
        jobs[t] = (job){&h, t >= 4, VKS_ERR_INVALID};
        pthread_create(&th[t], NULL, make_context, &jobs[t]);
    }
    for (int t = 0; t < 6; t++) {
        pthread_join(th[t], NULL);
        CHECK_EQ_INT(jobs[t].r, VKS_OK);
    }

    fprintf(stderr, "an own context, with volk's globals pointing at the host's device\n");
    vks_gpu_options own = {0};
    own.validation = 1;
    CHECK(vks_gpu_create(&own, &gpu, &err) == VKS_OK);
    CHECK(vks_gpu_upload(gpu, skins, 1, &ms, &err) == VKS_OK);
    d.models = ms;
    CHECK(vks_crowd_create(gpu, &d, &crowd, &err) == VKS_OK);
    CHECK(vks_crowd_run_frame(crowd, 1.25f, NULL, &err) == VKS_OK);
    CHECK(crowd_check(crowd, skins, in, N, 1.25f, NULL, "own context"));
    vks_crowd_destroy(crowd);
    vks_gpu_models_free(ms);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_gpu_destroy(gpu);

    vkDestroyBuffer(h.device, mine, NULL);
    vkFreeMemory(h.device, mem, NULL);
    vkDestroyFence(h.device, h.fence, NULL);
    vkDestroyCommandPool(h.device, h.pool, NULL);
    vkDestroyDevice(h.device, NULL);
    vkDestroyDebugUtilsMessengerEXT(h.instance, h.messenger, NULL);
    vkDestroyInstance(h.instance, NULL);
    CHECK_EQ_INT(host_messages, 0);
    vks_skin_free(s);
    return vks_test_finish("test_gpu_adopt");
}
