/* Morph weights of a layered instance (pose.h's layers; skin.h, MORPH TARGETS), blended as the
 * node channels are, target by target in double:
 *   NORMAL layers of weight > 0 without a mask: the weighted sum of their clips' weights (a clip
 *   without a track for the mesh gives its default weights, as a node without a track gives
 *   its bind local), renormalised over those layers, dividing by the largest weight as it goes
 *   (pose.h step 2); none: the default weights;
 *   ADDITIVE layers without a mask, in order: w += layer weight * (weight at the layer's time -
 *   weight at its reference pose).
 * A layer with a mask drives the nodes under it, and no mesh's weights (masks name skeleton
 * nodes; morph weights belong to a mesh). */
#include "clip_morph_internal.h"

/* The weight of target t in layer y at clip time ct, or at its reference pose (ref != 0). */
static double layer_weight(const vks_clip_layer *y, const vks_skin *skin, uint32_t t, double ct, int ref)
{
    const vks_clip *c = ref && y->ref_clip ? y->ref_clip : y->play.clip;
    return vks__clip_target_weight_d(c, skin, t, ref ? (double)y->ref_time : ct);
}

void vks_clip_layers_weights_d(const vks_clip_layers *l, const vks_skin *skin, float T, float *out)
{
    double times[VKS_MAX_LAYERS];
    float lw[VKS_MAX_LAYERS];
    for (uint32_t k = 0; k < l->count; k++) {
        const vks_clip_play *p = &l->layer[k].play;
        times[k] = vks_clip_play_time_f(p->clip, (vks_cycle)p->cycle, p->start, p->speed, T);
        lw[k] = vks_clip_layer_weight(l, k, T);
    }
    for (uint32_t t = 0; t < skin->target_count; t++) {
        double sum = 0, wsum = 0, wmax = 0;
        for (uint32_t k = 0; k < l->count; k++) {
            const vks_clip_layer *y = &l->layer[k];
            if (y->mode != VKS_LAYER_NORMAL || !(lw[k] > 0) || y->mask)
                continue;
            double w = lw[k];
            if (w > wmax) { /* the sums so far in units of the new largest weight */
                double r = wmax / w;
                sum *= r, wsum *= r, wmax = w;
            }
            w /= wmax;
            sum += w * layer_weight(y, skin, t, times[k], 0);
            wsum += w;
        }
        double v = wsum > 0 ? sum / wsum : skin->targets[t].default_weight;
        for (uint32_t k = 0; k < l->count; k++) {
            const vks_clip_layer *y = &l->layer[k];
            if (y->mode != VKS_LAYER_ADDITIVE || !(lw[k] > 0) || y->mask)
                continue;
            double w = lw[k] < VKS_MAX_ADDITIVE_WEIGHT ? lw[k] : VKS_MAX_ADDITIVE_WEIGHT;
            v += w * (layer_weight(y, skin, t, times[k], 0) - layer_weight(y, skin, t, times[k], 1));
        }
        out[t] = (float)v;
    }
}
