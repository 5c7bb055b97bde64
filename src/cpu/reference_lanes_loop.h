/* The reference's crowd loop over one group (reference_lanes.c), written once for both widths.
 * The includer defines
 *   RL_ATTR            the target attribute
 *   RL_VEC             the vector of doubles (__m256d, __m512d)
 *   RL_SET1, RL_ZERO, RL_LOADU, RL_ADD, RL_MUL, RL_SQRT   its operations
 *   RL_DIV_ABOVE(v, len)  v / len in the lanes where len > 0, v in the others
 *   RL_STORE(out, stride, x, y, z)  the lanes' (x, y, z) rounded to float, lane l's at out + l stride
 *   RL_GROUP, RL_LOOP, RL_FN  the names of the loop, its instantiations and the exported function
 * Each lane does the scalar loop's operations in its order (reference.c), with no FMA (the
 * reference's files are built with -ffp-contract=off and every operation is an intrinsic). */

/* compact, has_n, renorm, want_n: constants of each instantiation (RL_LOOP). */
RL_ATTR static inline void RL_GROUP(const vks_skin *s, const vks_group *gr, const vks__ref_lanes *lc,
                                    const vks__ref_infl4 *in4, float *pos, float *nrm, size_t stride, int compact,
                                    int has_n, int renorm, int want_n)
{
    const uint16_t *palette = s->palette + gr->first_palette;
    const int slots = compact ? 4 : vks__ref_slots(gr);
    const vks__ref_infl4 *r = in4;
    for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++, r = compact ? r + 1 : r) {
        const uint16_t *index = compact ? r->index : s->influences[v].index;
        const float *weight = compact ? r->weight : s->influences[v].weight;
        const float *p = s->positions[v];
        const RL_VEC px = RL_SET1(p[0]), py = RL_SET1(p[1]), pz = RL_SET1(p[2]);
        RL_VEC nx = RL_ZERO(), ny = nx, nz = nx;
        if (has_n) {
            const float *n = s->normals[v];
            nx = RL_SET1(n[0]), ny = RL_SET1(n[1]), nz = RL_SET1(n[2]);
        }
        RL_VEC op[3] = {RL_ZERO(), RL_ZERO(), RL_ZERO()};
        RL_VEC on[3] = {op[0], op[0], op[0]};
        for (int k = 0; k < slots; k++) {
            double w = weight[k];
            if (!(w > 0))
                continue; /* empty slots may carry any index: never read through them */
            const vks__ref_lanes *m = &lc[palette[index[k]]];
            const RL_VEC wv = RL_SET1(w);
            for (int i = 0; i < 3; i++) {
                const RL_VEC a = RL_LOADU(m->e[i]), b = RL_LOADU(m->e[3 + i]), c = RL_LOADU(m->e[6 + i]);
                RL_VEC t = RL_ADD(RL_ADD(RL_MUL(a, px), RL_MUL(b, py)), RL_MUL(c, pz));
                t = RL_ADD(t, RL_LOADU(m->e[9 + i]));
                op[i] = RL_ADD(op[i], RL_MUL(wv, t));
                if (want_n)
                    on[i] = RL_ADD(on[i], RL_MUL(wv, RL_ADD(RL_ADD(RL_MUL(a, nx), RL_MUL(b, ny)), RL_MUL(c, nz))));
            }
        }
        RL_STORE(pos + (size_t)v * 3, stride, op[0], op[1], op[2]);
        if (!want_n)
            continue;
        if (renorm) { /* the scalar loop's length, (x x + y y) + z z, and its division where above 0 */
            RL_VEC len = RL_SQRT(RL_ADD(RL_ADD(RL_MUL(on[0], on[0]), RL_MUL(on[1], on[1])), RL_MUL(on[2], on[2])));
            for (int i = 0; i < 3; i++)
                on[i] = RL_DIV_ABOVE(on[i], len);
        }
        RL_STORE(nrm + (size_t)v * 3, stride, on[0], on[1], on[2]);
    }
}

/* the mesh's flags, whether normals are wanted and where the slots come from as constants */
RL_ATTR __attribute__((always_inline)) static inline void RL_LOOP(const vks_skin *s, const vks_group *gr,
                                                                  const vks__ref_lanes *lc, const vks__ref_infl4 *in4,
                                                                  float *pos, float *nrm, size_t stride, int compact)
{
    const vks_mesh *me = &s->meshes[gr->mesh];
    int has_n = (me->flags & VKS_MESH_HAS_NORMALS) != 0, renorm = has_n && (me->flags & VKS_MESH_RENORMALIZE);
    if (!nrm)
        RL_GROUP(s, gr, lc, in4, pos, NULL, stride, compact, 0, 0, 0);
    else if (renorm)
        RL_GROUP(s, gr, lc, in4, pos, nrm, stride, compact, 1, 1, 1);
    else if (has_n)
        RL_GROUP(s, gr, lc, in4, pos, nrm, stride, compact, 1, 0, 1);
    else
        RL_GROUP(s, gr, lc, in4, pos, nrm, stride, compact, 0, 0, 1);
}

RL_ATTR static void RL_FN(const vks_skin *s, const vks_group *gr, const vks__ref_lanes *lc, const vks__ref_infl4 *in4,
                          float *pos, float *nrm, size_t stride)
{
    if (in4)
        RL_LOOP(s, gr, lc, in4, pos, nrm, stride, 1);
    else
        RL_LOOP(s, gr, lc, NULL, pos, nrm, stride, 0);
}
