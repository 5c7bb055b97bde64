/* report_fault_vertices FILE: prints, one per line, the vertices (in the model's own order, as
 * validate numbers them) that vkskin validate --inject-fault matrix moves, worked out here from
 * the model alone: the fault translates the inverse bind of the bone of the first influence of
 * the vertex farthest from the origin with a positive first weight (src/gpu/vulkan/models.c), so it
 * moves exactly the vertices with a positive weight on that bone. cli_report.sh checks the
 * vertices the reports name against this list. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

static uint32_t group_of(const vks_skin *s, uint32_t v)
{
    for (uint32_t g = 0; g < s->group_count; g++)
        if (v >= s->groups[g].first_vertex && v < s->groups[g].first_vertex + s->groups[g].vertex_count)
            return g;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return fprintf(stderr, "usage: report_fault_vertices FILE\n"), 2;
    size_t size = 0;
    uint8_t *bytes = vks_test_read_file(argv[1], &size);
    vks_skin *s = NULL;
    vks_read_options opt = {0};
    vks_error err = {0};
    if (!bytes || vks_read_any(&opt, bytes, size, argv[1], &s, &err) != VKS_OK)
        return fprintf(stderr, "report_fault_vertices: %s: cannot read: %s\n", argv[1], err.msg), 1;
    uint32_t far_v = 0;
    double far = -1;
    for (uint32_t v = 0; v < s->vertex_count; v++) {
        const float *p = s->positions[v];
        double d = (double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2];
        if (s->influences[v].weight[0] > 0 && d > far)
            far = d, far_v = v;
    }
    const vks_group *g = &s->groups[group_of(s, far_v)];
    uint32_t bone = s->palette[g->first_palette + s->influences[far_v].index[0]];
    for (uint32_t v = 0; v < s->vertex_count; v++) {
        const vks_group *gv = &s->groups[group_of(s, v)];
        for (int k = 0; k < VKS_MAX_INFLUENCES; k++)
            if (s->influences[v].weight[k] > 0 && s->palette[gv->first_palette + s->influences[v].index[k]] == bone) {
                printf("%u\n", v);
                break;
            }
    }
    vks_skin_free(s);
    free(bytes);
    return 0;
}
