/* Hand-made glTF files for the reader's tests: a binary buffer grown view by view, accessors
 * written as JSON text, and the document put together as a .gltf (buffer as a base64 data
 * URI) or as a .glb (JSON and BIN chunks). Every value the tests expect is written here by
 * hand, so the expectations do not come from the reader. */
#ifndef VKS_GLTF_FIXTURE_H
#define VKS_GLTF_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

typedef struct gltf_fixture {
    uint8_t bin[16384];
    size_t n;
    char views[8192];
    int nv;
    char accessors[16384];
    int na;
} gltf_fixture;

/* Appends data (4-byte aligned) as a bufferView; stride 0: none. Returns its index. */
int gltf_fx_view(gltf_fixture *g, const void *data, size_t len, int stride);
/* An accessor over view (-1: none) at byte offset off; extra is appended inside the object
 * (e.g. ",\"normalized\":true"). Returns its index. */
int gltf_fx_accessor(gltf_fixture *g, int view, int off, int ctype, int count, const char *type, const char *extra);
/* The whole document, body being the members after asset/buffers/bufferViews/accessors
 * ("\"nodes\":[...],..."). malloc'ed; *size gets the length. glb: binary container. */
uint8_t *gltf_fx_build(const gltf_fixture *g, const char *body, int glb, size_t *size);

#endif
