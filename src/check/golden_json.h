/* golden.json, the record of what made a golden's results (validate --save-golden): read
 * back by --against, and by tests/fuzz/fuzz_golden.c, so it needs only cJSON. */
#ifndef VKS_CHECK_GOLDEN_JSON_H
#define VKS_CHECK_GOLDEN_JSON_H

#include <stddef.h>
#include <stdint.h>

typedef struct vgold_entry {
    char path[512];          /* the file as the run named it (for messages only) */
    uint64_t hash;           /* model_hash: FNV-1a 64 of the file's bytes */
    uint32_t vertices, poses;
    char raw[64];            /* the raw's name inside the golden's folder (no '/') */
} vgold_entry;

typedef struct vgold_doc {
    char *pose_spec;
    vgold_entry *files;
    int count;
} vgold_doc;

/* Reads golden.json's bytes into out. 0 with why (naming the JSON path: "files[2].poses:
 * expected a whole number of poses") when they are not a golden this vkskin can compare. */
int vks__golden_parse(const char *bytes, size_t size, vgold_doc *out, char *why, size_t why_size);
void vks__golden_doc_free(vgold_doc *d);

#endif
