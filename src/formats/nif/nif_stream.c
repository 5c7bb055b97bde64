/* NIF primitive reads over the bounded cursor: integers, version-dependent bools and strings,
 * ref lists, transforms, strips. Every failure names the block, its type and the field. */
#include "nif_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int nif_fail(nif_rd *r, vks_result code, const char *field, const char *fmt, ...)
{
    char path[128], msg[192];
    if (r->type)
        snprintf(path, sizeof path, "nif/block[%u] %s/%s", r->block, r->type, field);
    else
        snprintf(path, sizeof path, "nif/%s", field);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    vks_error_set(r->err, code, vks_cur_offset(&r->c), path, "%s", msg);
    return 0;
}

static int truncated(nif_rd *r, const char *field, size_t need)
{
    return nif_fail(r, VKS_ERR_TRUNCATED, field, "needs %zu byte(s), %zu left in the %s", need,
                    vks_cur_left(&r->c), r->f->block_size ? "block" : "file");
}

int nif_u8(nif_rd *r, uint8_t *v, const char *field)
{
    if (vks_cur_u8(&r->c, v))
        return 1;
    *v = 0; /* defined even on failure */
    return truncated(r, field, 1);
}

int nif_u16(nif_rd *r, uint16_t *v, const char *field)
{
    if (vks_cur_u16(&r->c, v))
        return 1;
    *v = 0; /* defined even on failure */
    return truncated(r, field, 2);
}

int nif_u32(nif_rd *r, uint32_t *v, const char *field)
{
    if (vks_cur_u32(&r->c, v))
        return 1;
    *v = 0; /* defined even on failure */
    return truncated(r, field, 4);
}

int nif_i32(nif_rd *r, int32_t *v, const char *field)
{
    if (vks_cur_i32(&r->c, v))
        return 1;
    *v = 0; /* defined even on failure */
    return truncated(r, field, 4);
}

int nif_f32(nif_rd *r, float *v, const char *field)
{
    if (vks_cur_f32(&r->c, v))
        return 1;
    *v = 0; /* defined even on failure */
    return truncated(r, field, 4);
}

int nif_skip(nif_rd *r, uint64_t count, size_t elem, const char *field)
{
    if (!vks_cur_fits(&r->c, count, elem))
        return nif_fail(r, VKS_ERR_TRUNCATED, field, "%llu x %zu bytes do not fit in the %zu left",
                        (unsigned long long)count, elem, vks_cur_left(&r->c));
    vks_cur_skip(&r->c, (size_t)(count * elem));
    return 1;
}

int nif_bool(nif_rd *r, int *v, const char *field)
{
    if (r->f->ver <= NIF_V(4, 0, 0, 2)) {
        uint32_t u;
        if (!nif_u32(r, &u, field))
            return 0;
        *v = u != 0;
        return 1;
    }
    uint8_t b = 0;
    if (!nif_u8(r, &b, field))
        return 0;
    *v = b != 0;
    return 1;
}

int nif_count32(nif_rd *r, uint32_t *n, size_t elem, const char *field)
{
    if (!nif_u32(r, n, field))
        return 0;
    if (elem && !vks_cur_fits(&r->c, *n, elem))
        return nif_fail(r, VKS_ERR_TRUNCATED, field, "count %u of %zu-byte items exceeds the %zu bytes left",
                        *n, elem, vks_cur_left(&r->c));
    return 1;
}

int nif_count16(nif_rd *r, uint32_t *n, size_t elem, const char *field)
{
    uint16_t v = 0;
    if (!nif_u16(r, &v, field))
        return 0;
    *n = v;
    if (elem && !vks_cur_fits(&r->c, *n, elem))
        return nif_fail(r, VKS_ERR_TRUNCATED, field, "count %u of %zu-byte items exceeds the %zu bytes left",
                        *n, elem, vks_cur_left(&r->c));
    return 1;
}

void *nif_alloc(nif_rd *r, uint64_t count, size_t elem, const char *field)
{
    if (count == 0)
        count = 1;
    void *p = count <= SIZE_MAX / elem ? vks_skin_alloc_array(r->f->scratch, (size_t)count, elem) : NULL;
    if (!p)
        nif_fail(r, VKS_ERR_NOMEM, field, "cannot allocate %llu x %zu bytes", (unsigned long long)count, elem);
    return p;
}

int nif_sized_string(nif_rd *r, const char **out, const char *field)
{
    uint32_t n;
    if (!nif_count32(r, &n, 1, field))
        return 0;
    const char *s = (const char *)r->c.p;
    vks_cur_skip(&r->c, n);
    if (!out)
        return 1;
    /* trim at the first NUL, as OpenMW does */
    const char *z = memchr(s, 0, n);
    size_t len = z ? (size_t)(z - s) : n;
    *out = vks_skin_strndup(r->f->scratch, s, len);
    if (!*out)
        return nif_fail(r, VKS_ERR_NOMEM, field, "cannot copy a %zu-byte string", len);
    return 1;
}

int nif_string(nif_rd *r, const char **out, const char *field)
{
    if (r->f->ver <= NIF_V(20, 0, 0, 5))
        return nif_sized_string(r, out, field);
    uint32_t i;
    if (!nif_u32(r, &i, field))
        return 0;
    if (i == UINT32_MAX) {
        if (out)
            *out = "";
        return 1;
    }
    if (i >= r->f->string_count)
        return nif_fail(r, VKS_ERR_FORMAT, field, "string index %u >= string count %u", i, r->f->string_count);
    if (out)
        *out = r->f->strings[i];
    return 1;
}

int nif_refs(nif_rd *r, uint32_t *n, const int32_t **out, const char *field)
{
    if (!nif_count32(r, n, 4, field))
        return 0;
    if (!out)
        return nif_skip(r, *n, 4, field);
    int32_t *v = nif_alloc(r, *n, sizeof *v, field);
    if (!v)
        return 0;
    for (uint32_t i = 0; i < *n; i++)
        vks_cur_i32(&r->c, &v[i]);
    *out = v;
    return 1;
}

static int floats(nif_rd *r, float *v, size_t n, const char *field)
{
    if (!vks_cur_f32n(&r->c, v, n))
        return truncated(r, field, n * 4);
    return 1;
}

int nif_xform_trs(nif_rd *r, nif_xform *x, const char *field)
{
    return floats(r, x->t, 3, field) && floats(r, x->r, 9, field) && floats(r, &x->s, 1, field);
}

int nif_xform_rts(nif_rd *r, nif_xform *x, const char *field)
{
    return floats(r, x->r, 9, field) && floats(r, x->t, 3, field) && floats(r, &x->s, 1, field);
}

int nif_strips_to_triangles(nif_rd *r, uint32_t strip_count, const uint16_t *lengths, const uint16_t *points,
                            uint32_t (**out)[3], uint32_t *out_count)
{
    uint64_t max = 0;
    for (uint32_t s = 0; s < strip_count; s++)
        max += lengths[s] > 2 ? lengths[s] - 2u : 0u;
    uint32_t (*t)[3] = nif_alloc(r, max, sizeof *t, "strips");
    if (!t)
        return 0;
    uint32_t n = 0;
    const uint16_t *p = points;
    for (uint32_t s = 0; s < strip_count; s++) {
        for (uint32_t i = 2; i < lengths[s]; i++) {
            uint32_t a = p[i - 2], b = p[i - 1], c = p[i];
            if (a == b || b == c || a == c)
                continue;
            t[n][0] = a;
            t[n][1] = (i & 1) ? c : b;
            t[n][2] = (i & 1) ? b : c;
            n++;
        }
        p += lengths[s];
    }
    *out = t;
    *out_count = n;
    return 1;
}

float nif_half(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023u, bits;
    if (exp == 0) {
        if (man == 0) {
            bits = sign;
        } else { /* subnormal: man * 2^-24, exact in float */
            float f = (float)man * (1.0f / 16777216.0f);
            return sign ? -f : f;
        }
    } else if (exp == 31) {
        bits = sign | 0x7F800000u | (man << 13);
    } else {
        bits = sign | ((exp + 127 - 15) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}
