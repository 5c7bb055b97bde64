/* A golden's chunk (vkskin validate --save-golden / --against; library-internal:
 * validate_engine.h): the GPU's poses stored into the golden's raw file, or the raw's poses
 * read back and the GPU's compared with them by the same metrics and tolerances, as the
 * reference's comparison goes. The raw holds per pose its positions then its normals,
 * vertex_count * 3 float32 each; the caller opens and closes it (vfile.gold). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "check/validate_engine.h"

static size_t pose_floats(const vfile *f)
{
    return (size_t)f->skin->vertex_count * 6;
}

void vks__golden_chunk(vctx *c, vfile *f, uint32_t first, uint32_t count, const float *p, const float *n,
                      const double *scales)
{
    vgold *g = &f->gold;
    if ((!c->save_golden && !c->against) || g->fd < 0 || g->io_failed || g->mismatch)
        return;
    size_t per = pose_floats(f), half = per / 2;
    size_t bytes = (size_t)count * per * sizeof(float);
    if (bytes > g->buf_cap) {
        float *b = realloc(g->buf, bytes);
        if (!b) {
            g->io_failed = 1, g->io_errno = ENOMEM;
            return;
        }
        g->buf = b, g->buf_cap = bytes;
    }
    off_t at = (off_t)first * (off_t)(per * sizeof(float));
    if (c->save_golden) {
        for (uint32_t i = 0; i < count; i++) {
            memcpy(g->buf + i * per, p + i * half, half * sizeof(float));
            memcpy(g->buf + i * per + half, n + i * half, half * sizeof(float));
        }
        if (pwrite(g->fd, g->buf, bytes, at) != (ssize_t)bytes)
            g->io_failed = 1, g->io_errno = errno ? errno : EIO;
        return;
    }
    if (pread(g->fd, g->buf, bytes, at) != (ssize_t)bytes) {
        g->io_failed = 1, g->io_errno = errno ? errno : EIO;
        return;
    }
    /* a NaN or infinity is no pose vkskin stored: compared, it read as "moved by inf" with an
       NMSE of 0; the file cannot be compared, and says where */
    for (size_t k = 0; k < (size_t)count * per; k++)
        if (!isfinite(g->buf[k])) {
            size_t pose = first + k / per, v = (k % per) % half / 3;
            char why[200];
            snprintf(why, sizeof why, "the golden's raw holds a non-finite value (%s of vertex %zu in pose %zu); "
                     "it is no golden vkskin writes", k % per < half ? "position" : "normal", v, pose);
            g->mismatch = strdup(why);
            vks__validate_say(c, "vkskin validate: --against: %s: %s\n", f->path, why);
            if (!g->mismatch)
                g->io_failed = 1, g->io_errno = ENOMEM;
            return;
        }
    for (uint32_t i = 0; i < count; i++) { /* the stored poses are the reference now */
        const float *gp = g->buf + i * per, *gn = gp + half;
        vks_diff_add_scaled(&f->gpos, p + i * half, gp, first + i, 1, f->skin->vertex_count, scales + i);
        vks_diff_add(&f->gnrm, n + i * half, gn, first + i, 1, f->skin->vertex_count);
        vks_error_map_add(f->gmap, &f->tp, f->gpos.r.radius, p + i * half, gp, first + i, 1, scales + i, gp, gn);
    }
}

