/* The animation blocks' reader of a block type: the keyframe blocks' (nif_kf_blocks.c), else the
 * morph blocks' (nif_morph_blocks.c), which read keys with the keyframe blocks' helpers; the
 * lookup of both lives here so that the two files call one way only. */
#include "nif_internal.h"
#include "nif_kf_internal.h"

nif_block_fn nif_anim_reader(const char *type)
{
    nif_block_fn fn = nif_kf_reader(type);
    return fn ? fn : nif_morph_reader(type);
}
