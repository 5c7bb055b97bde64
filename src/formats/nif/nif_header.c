/* NIF header (nif.md section 3.1/3.2): header line, version, endianness, user version, block
 * count, Bethesda stream header, block type table, per-block type index and size, string
 * table, groups. Only the versions this reader was built and verified for are accepted. */
#include "nif_internal.h"

#include <stdio.h>
#include <string.h>

static const uint32_t supported[] = {
    NIF_V(4, 0, 0, 2),  NIF_V(10, 0, 1, 0), NIF_V(10, 1, 0, 0), NIF_V(10, 2, 0, 0),
    NIF_V(20, 0, 0, 4), NIF_V(20, 0, 0, 5), NIF_V(20, 1, 0, 3), NIF_V(20, 2, 0, 7),
};

static int is_supported(uint32_t v)
{
    for (size_t i = 0; i < sizeof supported / sizeof supported[0]; i++)
        if (supported[i] == v)
            return 1;
    return 0;
}

void nif_version_detail(const nif_file *f, char *buf, size_t cap)
{
    uint32_t v = f->ver;
    if (f->bsver || f->user)
        snprintf(buf, cap, "NIF %u.%u.%u.%u (user %u, bs %u)", v >> 24, (v >> 16) & 255, (v >> 8) & 255, v & 255,
                 f->user, f->bsver);
    else
        snprintf(buf, cap, "NIF %u.%u.%u.%u", v >> 24, (v >> 16) & 255, (v >> 8) & 255, v & 255);
}

/* ExportString: u8 length including the trailing NUL, then the bytes. */
static int export_string(nif_rd *r, const char *field)
{
    uint8_t n;
    return nif_u8(r, &n, field) && nif_skip(r, n, 1, field);
}

/* The block type names and each block's type index (5.0.0.1 on). */
static vks_result read_block_types(nif_rd *r, nif_file *f)
{
    uint32_t nt;
    if (!nif_count16(r, &nt, 4, "header/num_block_types"))
        return r->err->code;
    f->type_count = nt;
    const char **types = nif_alloc(r, nt, sizeof *types, "header/block_types");
    if (!types)
        return r->err->code;
    for (uint32_t i = 0; i < nt; i++)
        if (!nif_sized_string(r, &types[i], "header/block_types"))
            return r->err->code;
    f->types = types;
    uint16_t *idx = nif_alloc(r, f->block_count, sizeof *idx, "header/block_type_index");
    if (!idx)
        return r->err->code;
    for (uint32_t i = 0; i < f->block_count; i++) {
        if (!nif_u16(r, &idx[i], "header/block_type_index"))
            return r->err->code;
        idx[i] &= 0x7FFF; /* the top bit is a PhysX flag */
        if (idx[i] >= nt)
            return vks_error_set(r->err, VKS_ERR_FORMAT, vks_cur_offset(&r->c) - 2, "nif/header/block_type_index",
                                 "block %u has type index %u, type count %u", i, idx[i], nt);
    }
    f->type_index = idx;
    return VKS_OK;
}

vks_result nif_read_header(nif_file *f, vks_cursor *c, vks_error *err)
{
    nif_rd r = {*c, f, err, 0, NULL};
    const char *hdr = (const char *)r.c.p;
    size_t left = vks_cur_left(&r.c), n = 0;
    while (n < left && n < 128 && hdr[n] != '\n')
        n++;
    if (n >= left || hdr[n] != '\n')
        return vks_error_set(err, left <= 128 ? VKS_ERR_TRUNCATED : VKS_ERR_FORMAT, 0, "nif/header",
                             "no end of the header line in the first %zu bytes", n);
    if (!(n >= 22 && memcmp(hdr, "NetImmerse File Format", 22) == 0) &&
        !(n >= 20 && memcmp(hdr, "Gamebryo File Format", 20) == 0))
        return vks_error_set(err, VKS_ERR_FORMAT, 0, "nif/header",
                             "header line does not start with \"NetImmerse File Format\" or \"Gamebryo File Format\"");
    vks_cur_skip(&r.c, n + 1);
    if (!nif_u32(&r, &f->ver, "header/version"))
        return err->code;
    if (!is_supported(f->ver))
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, vks_cur_offset(&r.c) - 4, "nif/header/version",
                             "NIF version %u.%u.%u.%u is not supported (supported: 4.0.0.2, 10.0.1.0, 10.1.0.0, "
                             "10.2.0.0, 20.0.0.4, 20.0.0.5, 20.1.0.3, 20.2.0.7)",
                             f->ver >> 24, (f->ver >> 16) & 255, (f->ver >> 8) & 255, f->ver & 255);
    if (f->ver >= NIF_V(20, 0, 0, 3)) {
        uint8_t endian;
        if (!nif_u8(&r, &endian, "header/endian"))
            return err->code;
        if (endian != 1)
            return vks_error_set(err, VKS_ERR_UNSUPPORTED, vks_cur_offset(&r.c) - 1, "nif/header/endian",
                                 "big-endian NIF (endian byte %u) is not supported", endian);
    }
    if (f->ver >= NIF_V(10, 0, 1, 8) && !nif_u32(&r, &f->user, "header/user_version"))
        return err->code;
    if (!nif_u32(&r, &f->block_count, "header/num_blocks"))
        return err->code;
    /* every block takes at least one byte (old files: a type-name length of 4) */
    if (f->block_count > vks_cur_left(&r.c))
        return vks_error_set(err, VKS_ERR_TRUNCATED, vks_cur_offset(&r.c) - 4, "nif/header/num_blocks",
                             "%u blocks cannot fit in the %zu bytes left", f->block_count, vks_cur_left(&r.c));
    /* blocks per node are few (node, shape, data, skin blocks, properties): a generous cap */
    uint64_t max_blocks = (uint64_t)f->opt.max_nodes * 16u + 4096u;
    if (f->block_count > max_blocks)
        return vks_error_set(err, VKS_ERR_LIMIT, vks_cur_offset(&r.c) - 4, "nif/header/num_blocks",
                             "%u blocks is over the limit %llu", f->block_count, (unsigned long long)max_blocks);

    uint32_t v = f->ver, u = f->user;
    int bs_header = v == NIF_V(10, 0, 1, 2) ||
                    ((v == NIF_V(20, 2, 0, 7) || v == NIF_V(20, 0, 0, 5) ||
                      (v >= NIF_V(10, 1, 0, 0) && v <= NIF_V(20, 0, 0, 4) && u <= 11)) &&
                     u >= 3);
    if (bs_header) {
        if (!nif_u32(&r, &f->bsver, "header/bs_version") || !export_string(&r, "header/author"))
            return err->code;
        if (f->bsver > 130) {
            uint32_t unk;
            if (!nif_u32(&r, &unk, "header/bs_unknown"))
                return err->code;
        } else if (!export_string(&r, "header/process_script")) {
            return err->code;
        }
        if (!export_string(&r, "header/export_script"))
            return err->code;
        if (f->bsver >= 103 && !export_string(&r, "header/max_filepath"))
            return err->code;
    }

    if (v >= NIF_V(5, 0, 0, 1) && read_block_types(&r, f) != VKS_OK)
        return err->code;
    if (v >= NIF_V(20, 2, 0, 5)) {
        uint32_t *sz = nif_alloc(&r, f->block_count, sizeof *sz, "header/block_size");
        if (!sz)
            return err->code;
        for (uint32_t i = 0; i < f->block_count; i++)
            if (!nif_u32(&r, &sz[i], "header/block_size"))
                return err->code;
        f->block_size = sz;
    }
    if (v >= NIF_V(20, 1, 0, 1)) {
        uint32_t ns, maxlen;
        if (!nif_count32(&r, &ns, 4, "header/num_strings") || !nif_u32(&r, &maxlen, "header/max_string_length"))
            return err->code;
        const char **strs = nif_alloc(&r, ns, sizeof *strs, "header/strings");
        if (!strs)
            return err->code;
        for (uint32_t i = 0; i < ns; i++)
            if (!nif_sized_string(&r, &strs[i], "header/strings"))
                return err->code;
        f->strings = strs;
        f->string_count = ns;
    }
    if (v >= NIF_V(5, 0, 0, 6)) {
        uint32_t ng;
        if (!nif_count32(&r, &ng, 4, "header/num_groups") || !nif_skip(&r, ng, 4, "header/groups"))
            return err->code;
    }
    *c = r.c;
    return VKS_OK;
}
