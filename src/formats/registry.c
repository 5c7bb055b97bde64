/* The one list of formats (registry.h): detection, the reads by path and the public
 * vks_format_at loop over it. Its order is the order formats are listed to people and the
 * tie-break between probes of equal certainty. */
#include "registry.h"

#include <ctype.h>
#include <string.h>

/* The format records, each defined in its format's folder. */
extern const vks__format vks__format_rw, vks__format_nif, vks__format_cmdl, vks__format_p3d, vks__format_gltf;
#ifdef VKSKIN_TEST_FORMAT
/* tests/formats/vkstest: a test build compiles this file again with this sixth record, which
 * detection, the reads and every format list then pick up (test_registry_sixth). */
extern const vks__format vks__format_vkstest;
#endif

static const vks__format *const formats[] = {
    &vks__format_rw, &vks__format_nif, &vks__format_cmdl, &vks__format_p3d, &vks__format_gltf,
#ifdef VKSKIN_TEST_FORMAT
    &vks__format_vkstest,
#endif
};
enum { FORMAT_COUNT = sizeof formats / sizeof formats[0] };

uint32_t vks__format_count(void) { return FORMAT_COUNT; }

const vks__format *vks__format_get(uint32_t index) { return index < FORMAT_COUNT ? formats[index] : NULL; }

uint32_t vks_format_count(void) { return FORMAT_COUNT; }

const vks_format_info *vks_format_at(uint32_t index)
{
    return index < FORMAT_COUNT ? &formats[index]->info : NULL;
}

static int same_text(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

const vks_format_info *vks_format_find(const char *name)
{
    if (!name || !*name)
        return NULL;
    for (uint32_t f = 0; f < FORMAT_COUNT; f++) {
        const vks_format_info *i = &formats[f]->info;
        if (same_text(name, i->name))
            return i;
        for (const char *const *e = i->model_extensions; *e; e++)
            if (same_text(name, *e) || same_text(name, *e + 1))
                return i;
    }
    return NULL;
}

static int has_any_ext(const char *name, const char *const *exts)
{
    for (; exts && *exts; exts++)
        if (vks__name_has_ext(name, *exts))
            return 1;
    return 0;
}

const vks__format *vks__format_of_model(const void *bytes, size_t size, const char *name)
{
    const vks__format *best = NULL;
    int certainty = VKS__PROBE_NO;
    for (uint32_t f = 0; f < FORMAT_COUNT; f++) {
        int c = formats[f]->probe ? formats[f]->probe(bytes, size) : VKS__PROBE_NO;
        if (c > certainty)
            best = formats[f], certainty = c;
    }
    if (best)
        return best;
    for (uint32_t f = 0; f < FORMAT_COUNT; f++)
        if (has_any_ext(name, formats[f]->info.model_extensions))
            return formats[f];
    return NULL;
}

const vks__clip_kind *vks__clip_kind_of(const void *bytes, size_t size, const char *name, const vks__format **format)
{
    const vks__clip_kind *best = NULL;
    const vks__format *owner = NULL;
    int certainty = VKS__PROBE_NO;
    for (uint32_t f = 0; f < FORMAT_COUNT; f++)
        for (uint32_t k = 0; k < formats[f]->clip_kind_count; k++) {
            const vks__clip_kind *ck = &formats[f]->clips[k];
            int c = ck->probe ? ck->probe(bytes, size) : VKS__PROBE_NO;
            if (c > certainty)
                best = ck, owner = formats[f], certainty = c;
        }
    for (uint32_t f = 0; f < FORMAT_COUNT && !best; f++)
        for (uint32_t k = 0; k < formats[f]->clip_kind_count && !best; k++)
            if (has_any_ext(name, formats[f]->clips[k].extensions))
                best = &formats[f]->clips[k], owner = formats[f];
    if (format)
        *format = owner;
    return best;
}
