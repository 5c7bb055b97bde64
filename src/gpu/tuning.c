/* The launch-shape table and its overrides (tuning.h). Every row names the measurement it
 * rests on; a device the table does not know gets the best shape measured on any GPU so far. */
#include "tuning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DEVICE_TYPE_CPU = 4 };
enum { VENDOR_NVIDIA = 0x10DE, VENDOR_GOOGLE = 0x1AE0 /* SwiftShader */ };

static uint32_t pow2_floor(uint32_t x)
{
    uint32_t p = 1;
    while (p <= x / 2)
        p *= 2;
    return x ? p : 0;
}

/* The largest workgroup the device takes, at most want. */
static uint32_t fit_wg(const vks__device_facts *f, uint32_t want)
{
    uint32_t lim = f->max_workgroup_invocations;
    if (f->max_workgroup_size_x && f->max_workgroup_size_x < lim)
        lim = f->max_workgroup_size_x;
    if (lim == 0)
        lim = 64; /* Vulkan guarantees 128 invocations and 128 in x */
    return pow2_floor(want < lim ? want : lim);
}

uint32_t vks__tuning_palette_slots(const vks__device_facts *f, uint32_t deform_wg)
{
    /* compute/deform.comp: shared vec4 pal[cap * 3] and float stage[wg * 6] */
    uint64_t staging = (uint64_t)deform_wg * 24;
    if (f->max_shared_memory <= staging)
        return 0;
    uint64_t slots = (f->max_shared_memory - staging) / 48;
    return slots > 512 ? 512u : (uint32_t)slots;
}

static uint32_t texels_span(const vks__device_facts *f)
{
    /* A texel view must be able to span any skin buffer the storage binding can. */
    return f->max_texel_buffer_elements * 16 >= f->max_storage_range;
}

vks__launch_shape vks__tuning_pick(const vks__device_facts *f)
{
    vks__launch_shape s = {0};
    s.source = "table";
    s.slices = 1, s.slice_min = VKS__SLICE_MIN_DEFAULT;
    s.pose_wg = fit_wg(f, 64);
    s.skin_texels = texels_span(f);
    /* A one-shot deform's chunks: at most this many output bytes a chunk, so a large run has
     * several and deforms one while the previous one is written. On a CPU device (lavapipe,
     * SwiftShader) the ring's buffers are fresh host pages the deform faults in, and the kernel
     * shares the cores with the writer: 16 MiB chunks took a 1000-instance, 240 MB deform from
     * 1.6 s to 0.7 s and the bench's deform path from x0.30-0.53 to x0.56-0.59 of the kernel
     * (BENCHMARKS.md); a GPU takes 64 MiB. */
    s.chunk_bytes = f->device_type == DEVICE_TYPE_CPU ? (uint64_t)16 << 20 : (uint64_t)64 << 20;
    if (f->device_type == DEVICE_TYPE_CPU && f->vendor_id == VENDOR_GOOGLE) {
        /* SwiftShader (Chromium 156's, on 2 cores shared with other jobs, 2026-12-06): it too
         * runs a workgroup with barriers as coroutines, with 4-wide subgroups. `vkskin tune`
         * with 64 instances of a 10k-vertex character put wg 32-256 with runs of 32 at
         * 0.67-1.96 M vertex-instances/s, wg 64 alone varying 0.67-1.32 between runs; runs of 8
         * (0.67-1.03) and the shared palette (0.56-0.68) were never faster. So lavapipe's
         * shape, measured as well as a loaded machine allows; known, so a first run does not
         * spend seconds compiling the candidates (about a second a pipeline there) to confirm
         * it. Its texel buffers hold 65536 elements: matrices come from the storage buffer. */
        s.deform_wg = fit_wg(f, 64);
        s.instance_run = 32;
        s.palette_cap = 0;
        s.known = 1;
        s.reason = "SwiftShader: no shared palette (barriers are coroutines there), runs of 32 instances (no "
                   "candidate measured reliably faster)";
    } else if (f->device_type == DEVICE_TYPE_CPU) {
        /* lavapipe runs a shader with barriers as coroutines, several times slower, and each
         * workgroup has a fixed cost: no shared palette, long instance runs (Mesa 22.3 on 2
         * cores: 2.8 -> 7 M vertex-instances/s, BENCHMARKS.md 2026-11-24). The serial pose
         * pass: its 8-wide rows hold 8 instances, where the nodes variant leaves lanes idle
         * in the upper levels of a skeleton (2-3x slower there, BENCHMARKS.md 2026-11-28). */
        s.deform_wg = fit_wg(f, 64);
        s.instance_run = 32;
        s.palette_cap = 0;
        s.known = 1;
        s.reason = "CPU device: no shared palette (barriers are coroutines there), runs of 32 instances";
        /* Crowd frames staggered over 4 slices of at least 1,024 instances: a slice's skin
         * matrices are still in the caches when its deform reads them (a 1k-vertex crowd of
         * 8,192 instances writes 12.6 MB of them a frame). bench --crowd on Mesa 22.3 lavapipe, 2
         * cores (BENCHMARKS.md, fourteenth session): 8,192 instances of 1,000 vertices x0.87-0.99
         * of the frame in turn, 4,096 of 3,000 x0.73-0.98. */
        s.slices = 4, s.slice_min = 1024;
    } else if (f->vendor_id == VENDOR_NVIDIA) {
        /* H100, 2026-11-27 (the project's GPU notes): wg 256, runs of 8, no shared palette wrote
         * 2.08-2.24 TB/s (65-70 % of fill); the shared palette at wg 64 wrote 0.51 TB/s. The
         * GPU bundle's `vkskin tune` there (BENCHMARKS.md, "the first run on an H100"): the
         * same shape without the matrices of empty slots was the fastest of the 12 built-in
         * candidates, 92.0 against 85.0 G vertex-instances/s (the pass is gather-bound). */
        s.deform_wg = fit_wg(f, 256);
        s.instance_run = 8;
        s.palette_cap = 0;
        s.skip_zeros = 1;
        s.known = 1;
        s.reason = "NVIDIA GPU: wg 256, runs of 8, no shared palette, empty slots skipped (measured best on an "
                   "H100); pose pass by nodes (crowd: 6 ns an instance there)";
    } else {
        /* No measurement on this vendor yet: the shape that was best on the one GPU measured.
         * The shared palette lost there at every workgroup size. The only row that does not
         * know its device (known 0): a large enough first run calibrates (tuning_start.h). */
        s.deform_wg = fit_wg(f, 256);
        s.instance_run = 8;
        s.palette_cap = 0;
        s.reason = "GPU of a vendor not measured yet: the shape measured best on an H100";
    }
    /* CPU devices: the reasons of their rows (barriers as coroutines, a workgroup's fixed cost)
     * hold whatever the model's size. A GPU's rows were measured on 10k-vertex models: its
     * small-model class calibrates at first use (tuning_start.h). */
    s.small_known = f->device_type == DEVICE_TYPE_CPU;
    if (f->device_type != DEVICE_TYPE_CPU) {
        /* GPUs: the pose pass by nodes, a subgroup per instance (a warp of 32 for a skeleton of
         * ~32 nodes). The serial pass gives 100,000 instances 3,125 warps that each walk 32
         * nodes one after the other: 72-80 ns an instance on an H100 (the project's GPU notes);
         * by nodes the same work spreads over 32x the lanes (BENCHMARKS.md 2026-11-28: the
         * arithmetic, not yet a measurement). Two subgroups or more a workgroup. */
        s.pose_nodes = 1;
        uint32_t sg = f->subgroup_size ? f->subgroup_size : 32;
        s.pose_wg = fit_wg(f, sg * 2 > 64 ? sg * 2 : 64);
        if (s.pose_wg < sg) /* a device whose workgroup cannot hold a subgroup: serial */
            s.pose_nodes = 0, s.pose_wg = fit_wg(f, 64);
        /* Crowd frames staggered over up to 8 slices: the pose pass of a million instances
         * took 6-8 ms on an H100 and the deform 14 ms, one after the other (BENCHMARKS.md,
         * issue 41's arithmetic); staggered, 7/8 of the pose runs beside the deform and slice
         * 0's (0.75-1 ms) is left. Not yet a measurement (the GPU bundle times it on and off):
         * a schedule whose cost is bounded, 7 more barriers a frame, each the drain of a slice
         * that fills the device twice over (slice_min), against a slice's pose pass hidden at
         * each. (Lavapipe's row staggers for its caches, above.) */
        s.slices = VKS__MAX_SLICES;
    }
    return s;
}

static int parse_u32(const char *v, size_t len, uint32_t *out)
{
    if (len == 0 || len > 9)
        return 0;
    uint32_t x = 0;
    for (size_t i = 0; i < len; i++) {
        if (v[i] < '0' || v[i] > '9')
            return 0;
        x = x * 10 + (uint32_t)(v[i] - '0');
    }
    *out = x;
    return 1;
}

static int is_word(const char *v, size_t len, const char *w)
{
    return strlen(w) == len && memcmp(v, w, len) == 0;
}

/* A key's place in launch_keys, or -1 for a key the spec does not know. */
static const char *const launch_keys[] = {"wg", "pose_wg", "pose", "run", "palette", "texels", "zeros",
                                          "slices", "slice_min"};
static int key_index(const char *k, size_t len)
{
    for (int i = 0; i < (int)(sizeof launch_keys / sizeof *launch_keys); i++)
        if (is_word(k, len, launch_keys[i]))
            return i;
    return -1;
}

/* slices=N or slice_min=N (p, len bytes; the key is its first klen) into s; 0 with why. */
static int apply_slices_key(const char *p, int len, size_t klen, vks__launch_shape *s, char *why, size_t n)
{
    uint32_t x = 0;
    int ok = parse_u32(p + klen + 1, (size_t)len - klen - 1, &x) && x >= 1;
    if (klen == 6 && ok && x <= VKS__MAX_SLICES) {
        s->slices = x;
        return 1;
    }
    if (klen == 9 && ok) {
        s->slice_min = x;
        return 1;
    }
    snprintf(why, n, "launch shape: '%.*s': %.*s must be from 1 to %u", len, p, (int)klen, p,
             klen == 6 ? (unsigned)VKS__MAX_SLICES : 999999999u);
    return 0;
}

/* One key=value of a launch shape (p, len bytes; the key is its first klen) into s, the
 * palette's on (-1: as it was) and slots kept for after every key; 0 with why when it is not
 * one the device can take. */
static int apply_key(const char *p, int len, size_t klen, const vks__device_facts *f, vks__launch_shape *s,
                     int *palette_on, uint32_t *palette_slots, char *why, size_t n)
{
    const char *v = p + klen + 1;
    size_t vlen = (size_t)len - klen - 1;
    uint32_t x = 0;
    if (is_word(p, klen, "wg") || is_word(p, klen, "pose_wg")) {
        uint32_t lim = fit_wg(f, 1u << 30);
        if (!parse_u32(v, vlen, &x) || x == 0 || (x & (x - 1)) || x > lim) {
            snprintf(why, n, "launch shape: '%.*s': %.*s must be a power of two from 1 to %u", len, p, (int)klen,
                     p, lim);
            return 0;
        }
        if (klen == 2)
            s->deform_wg = x;
        else
            s->pose_wg = x;
    } else if (is_word(p, klen, "pose")) {
        if (is_word(v, vlen, "serial"))
            s->pose_nodes = 0;
        else if (is_word(v, vlen, "nodes"))
            s->pose_nodes = 1;
        else {
            snprintf(why, n, "launch shape: '%.*s': pose must be serial or nodes", len, p);
            return 0;
        }
    } else if (is_word(p, klen, "run")) {
        if (!parse_u32(v, vlen, &x) || x == 0 || x > 256) {
            snprintf(why, n, "launch shape: '%.*s': run must be from 1 to 256", len, p);
            return 0;
        }
        s->instance_run = x;
    } else if (is_word(p, klen, "palette")) {
        if (is_word(v, vlen, "off"))
            *palette_on = 0;
        else if (is_word(v, vlen, "on"))
            *palette_on = 1;
        else if (parse_u32(v, vlen, &x) && x > 0)
            *palette_on = 1, *palette_slots = x;
        else {
            snprintf(why, n, "launch shape: '%.*s': palette must be on, off or a slot count", len, p);
            return 0;
        }
    } else if (is_word(p, klen, "texels")) {
        if (is_word(v, vlen, "off"))
            s->skin_texels = 0;
        else if (is_word(v, vlen, "on") && texels_span(f))
            s->skin_texels = 1;
        else {
            snprintf(why, n, "launch shape: '%.*s': texels must be on or off (on only where a texel buffer can "
                             "span the storage range)", len, p);
            return 0;
        }
    } else if (is_word(p, klen, "zeros")) {
        if (is_word(v, vlen, "skip") || is_word(v, vlen, "blend")) {
            s->skip_zeros = is_word(v, vlen, "skip");
        } else {
            snprintf(why, n, "launch shape: '%.*s': zeros must be skip or blend", len, p);
            return 0;
        }
    } else if (is_word(p, klen, "slices") || is_word(p, klen, "slice_min")) {
        return apply_slices_key(p, len, klen, s, why, n);
    } else {
        snprintf(why, n, "launch shape: unknown key in '%.*s' (wg, pose_wg, pose, run, palette, texels, zeros, "
                         "slices, slice_min)", len, p);
        return 0;
    }
    return 1;
}

int vks__launch_shape_apply(const char *spec, const vks__device_facts *f, vks__launch_shape *shape, char *why,
                            size_t n)
{
    vks__launch_shape s = *shape;
    int palette_on = -1; /* -1: as it was; 0 off; 1 on */
    uint32_t palette_slots = 0, seen = 0; /* seen: the keys given, by key_index */
    const char *p = spec ? spec : "";
    if (*p == '\0')
        return 1;
    while (*p) {
        const char *end = strchr(p, ',');
        int len = (int)(end ? (size_t)(end - p) : strlen(p));
        const char *eq = memchr(p, '=', (size_t)len);
        if (!eq) {
            snprintf(why, n, "launch shape: '%.*s' is not key=value", len, p);
            return 0;
        }
        size_t klen = (size_t)(eq - p);
        int key = key_index(p, klen);
        if (key >= 0 && (seen >> key & 1u)) { /* the second would silently win: say which was meant */
            snprintf(why, n, "launch shape: '%s': the key %.*s is given twice", spec, (int)klen, p);
            return 0;
        }
        seen |= key >= 0 ? 1u << key : 0u;
        if (!apply_key(p, len, klen, f, &s, &palette_on, &palette_slots, why, n))
            return 0;
        if (end && end[1] == '\0') {
            snprintf(why, n, "launch shape: '%s' ends with a comma", spec);
            return 0;
        }
        p = end ? end + 1 : p + len;
    }
    /* The nodes variant gives each instance a subgroup, so a workgroup holds whole ones. */
    if (s.pose_nodes && f->subgroup_size && s.pose_wg < f->subgroup_size) {
        snprintf(why, n, "launch shape: pose=nodes needs pose_wg of at least the subgroup size %u (a subgroup per "
                         "instance)", f->subgroup_size);
        return 0;
    }
    /* The palette's room depends on the workgroup size, so it is sized after every key. */
    if (palette_on == 1 || (palette_on == -1 && s.palette_cap)) {
        uint32_t room = vks__tuning_palette_slots(f, s.deform_wg);
        uint32_t want = palette_slots ? palette_slots : room;
        if (want == 0 || want > room) {
            snprintf(why, n, "launch shape: a shared palette of %u slots does not fit beside wg %u in %u bytes of "
                             "shared memory (at most %u slots)",
                     want, s.deform_wg, f->max_shared_memory, room);
            return 0;
        }
        s.palette_cap = want;
    } else if (palette_on == 0) {
        s.palette_cap = 0;
    }
    s.source = "forced";
    s.reason = "forced by a launch-shape override";
    *shape = s;
    return 1;
}

/* What a GPU may take (the rows above and the shapes measured on an H100), and lavapipe's. A
 * candidate applies over the device's table row, which may skip empty slots (NVIDIA's): the
 * first nine say zeros=blend, so that each is timed as named on every device. */
static const char *const builtin_candidates[] = {
    "wg=64,run=32,palette=off,zeros=blend",  "wg=256,run=8,palette=off,zeros=blend",
    "wg=128,run=8,palette=off,zeros=blend",  "wg=256,run=16,palette=off,zeros=blend",
    "wg=256,run=4,palette=off,zeros=blend",  "wg=512,run=8,palette=off,zeros=blend",
    "wg=64,run=8,palette=off,zeros=blend",   "wg=256,run=8,palette=on,zeros=blend",
    "wg=64,run=8,palette=on,zeros=blend",
    /* the gather-bound GPU shapes without the matrices of empty slots (tuning.h, skip_zeros) */
    "wg=256,run=8,palette=off,zeros=skip", "wg=64,run=8,palette=off,zeros=skip",
    "wg=64,run=32,palette=off,zeros=skip",
};

/* For small models (tuning.h: the small-model class): a 1k-vertex model's group fits a
 * workgroup of 512-1024 whole, so the shared palette is gathered once per instance for all of
 * its vertices (1.5 KB of a 32-bone instance, against 48 B a slot from global memory at every
 * vertex), and longer runs pay a vertex's record once over more instances. */
static const char *const small_candidates[] = {
    "wg=512,run=8,palette=on,zeros=skip",   "wg=1024,run=8,palette=on,zeros=skip",
    "wg=1024,run=4,palette=on,zeros=skip",  "wg=512,run=16,palette=off,zeros=skip",
    "wg=1024,run=16,palette=off,zeros=skip", "wg=256,run=32,palette=off,zeros=skip",
};

/* The entries of list[count] the device with facts f can run, into out (up to cap, after `at`
 * already there); returns the new count, adding the ones left out to *left. */
static uint32_t runnable(const vks__device_facts *f, const char *const *list, size_t count, const char **out,
                         uint32_t at, uint32_t cap, uint32_t *left)
{
    for (size_t i = 0; i < count; i++) {
        vks__launch_shape s = vks__tuning_pick(f);
        char why[256];
        if (!vks__launch_shape_apply(list[i], f, &s, why, sizeof why))
            (*left)++;
        else if (at < cap)
            out[at++] = list[i];
    }
    return at;
}

uint32_t vks__tuning_candidates(const vks__device_facts *f, const char **out, uint32_t cap, uint32_t *left_out)
{
    uint32_t left = 0;
    uint32_t n = runnable(f, builtin_candidates, sizeof builtin_candidates / sizeof *builtin_candidates, out, 0, cap,
                          &left);
    if (left_out)
        *left_out = left;
    return n;
}

uint32_t vks__tuning_small_candidates(const vks__device_facts *f, const char **out, uint32_t cap,
                                      uint32_t *left_out)
{
    uint32_t left = 0;
    uint32_t n = runnable(f, builtin_candidates, sizeof builtin_candidates / sizeof *builtin_candidates, out, 0, cap,
                          &left);
    n = runnable(f, small_candidates, sizeof small_candidates / sizeof *small_candidates, out, n, cap, &left);
    if (left_out)
        *left_out = left;
    return n;
}

void vks__launch_shape_format(const vks__launch_shape *s, char *out, size_t n)
{
    char pal[24];
    if (s->palette_cap)
        snprintf(pal, sizeof pal, "%u", s->palette_cap);
    else
        snprintf(pal, sizeof pal, "off");
    char slices[48] = "";
    if (s->slices > 1 && s->slice_min && s->slice_min != VKS__SLICE_MIN_DEFAULT)
        snprintf(slices, sizeof slices, ",slices=%u,slice_min=%u", s->slices, s->slice_min);
    else if (s->slices > 1)
        snprintf(slices, sizeof slices, ",slices=%u", s->slices);
    snprintf(out, n, "wg=%u,pose_wg=%u,run=%u,palette=%s,texels=%s,pose=%s%s%s", s->deform_wg, s->pose_wg,
             s->instance_run, pal, s->skin_texels ? "on" : "off", s->pose_nodes ? "nodes" : "serial",
             s->skip_zeros ? ",zeros=skip" : "", slices);
}

uint32_t vks__crowd_slices(const vks__launch_shape *s, uint32_t instances)
{
    uint32_t most = s->slices ? s->slices : 1, least = s->slice_min ? s->slice_min : VKS__SLICE_MIN_DEFAULT;
    uint32_t fit = instances / least;
    if (most > VKS__MAX_SLICES)
        most = VKS__MAX_SLICES;
    return fit < 1 ? 1 : fit < most ? fit : most;
}
