#include "testutil.h"
int main(void) {
    const char *files[] = {"nifly_skyrimle_cylinders_TestNifFile_Optimize_LE_to_SE.nif","nifly_sse_cylinders_NoNiSkinDataWeights.nif","nifly_sse_cylinders_TestNifFile_Skinned_SE.nif","niftools_bna_10.1.0.0_lodtest-skinned.nif","niftools_bna_4.0.0.2_dance.nif","pyffi_10.1.0.0_test_skincenterradius.nif","pyffi_20.0.0.5_test_fix_mergeskeletonroots.nif","pynifly_skyrimle_tetra_reference.nif"};
    for (int i = 0; i < 8; i++) {
        char rel[256]; snprintf(rel, sizeof rel, "nif/%s", files[i]);
        size_t n; uint8_t *b = vks_test_read_file(vks_test_dataset(rel), &n);
        vks_skin *s = NULL; vks_error e = {0}; char buf[512];
        if (vks_nif_read(NULL, b, n, &s, &e) != VKS_OK) { printf("%s: %s\n", files[i], vks_error_format(&e, files[i], buf, sizeof buf)); free(b); continue; }
        printf("%s: %s nodes %u meshes %u verts %u tris %u bones %u groups %u\n", files[i], s->format_detail, s->node_count, s->mesh_count, s->vertex_count, s->triangle_count, s->bone_count, s->group_count);
        for (uint32_t m = 0; m < s->mesh_count; m++) printf("   mesh %s src_v %u v %u t %u b %u g %u\n", s->meshes[m].name, s->meshes[m].source_vertex_count, s->meshes[m].vertex_count, s->meshes[m].triangle_count, s->meshes[m].bone_count, s->meshes[m].group_count);
        if (vks_skin_validate(s, &e) != VKS_OK) printf("  validate: %s\n", vks_error_format(&e, files[i], buf, sizeof buf));
        vks_bind_check bc; 
        if (vks_cpu_bind_check(s, &bc, &e) == VKS_OK) printf("  bind: %g rel %g normal %g\n", bc.max_error, bc.max_error_relative, bc.max_normal_error);
        else printf("  bind check: %s\n", vks_error_format(&e, files[i], buf, sizeof buf));
        vks_skin_free(s); free(b);
    }
    return 0;
}
