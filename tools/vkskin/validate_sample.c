/* validate --sample N|P%: the option (what a sampled run says, in text, JSON and JUnit, is
 * the library's: src/check/validate_text.c). The
 * sample and the bound are the library's (src/check/validate_bound.c): the CPU reference
 * compares a seeded sample of each file's instances in full, and every chunk's GPU reduction
 * (compute/reduce.comp) is held to what the host can vouch for cheaply about the instances it
 * did not compare: no component NaN or infinite, every position inside a bound of the chunk's
 * instances, and unit normals where the model's engine renormalises them.
 *
 * The bound: a vertex blended from bones j with weights w_j is sum w_j K_j v. Each K_j v lies in
 * K_j applied to the bind-space box of the vertices bone j moves, so with weights >= 0 summing
 * to s the vertex lies in s times the convex hull of those boxes, inside the box around them
 * all scaled by s in [wsum_lo, wsum_hi]. Morph targets move a vertex before skinning by
 * sum_t w_t dp_t: each bone's box grows by w_t times the box of target t's deltas over the
 * bone's vertices, with that instance's weights. Per instance that is a box per bone (a few dozen
 * 3x3 products), against the reference's vertex-count of them: cheap enough for every instance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

int vks_validate_sample_set(void *field, const vks_cli_option *opt, const char *v)
{
    vsample *o = field;
    char *end = NULL;
    if (!strcmp(opt->name, "--sample-seed")) {
        unsigned long long s = strtoull(v, &end, 10);
        if (!*v || *end || v[0] == '-') {
            fprintf(stderr, "vkskin validate: --sample-seed needs a whole number, got '%s'\n", v);
            return 0;
        }
        o->seed = s;
        return 1;
    }
    double x = strtod(v, &end);
    int percent = end && *end == '%' && !end[1];
    if (end == v || (*end && !percent) || !(x > 0) || (percent && x > 100) ||
        (!percent && (x != floor(x) || x > UINT32_MAX))) {
        fprintf(stderr, "vkskin validate: --sample needs a count of instances N >= 1 or a percentage P%% "
                        "(0 < P <= 100), got '%s'\n", v);
        return 0;
    }
    o->on = 1;
    o->percent = percent ? x : 0, o->count = percent ? 0 : (uint32_t)x;
    return 1;
}
