/* vkskin.Model: a skin read by the library, its arrays as NumPy views into the skin's own
 * memory (zero copy; each view holds a reference to the model, so the skin outlives them). */
#include "vkskin_py.h"

#include <stddef.h>
#include <string.h>

static void model_dealloc(vkspy_model *self)
{
    vks_skin_free(self->skin);
    Py_XDECREF(self->path);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

#define SKIN(self) (((vkspy_model *)(self))->skin)

/* (count, k) array of a struct field: base + i * stride, k elements of `elem` bytes. */
static PyObject *field_view(PyObject *self, void *base, npy_intp count, npy_intp stride, int typenum, npy_intp k,
                            npy_intp elem)
{
    npy_intp dims[2] = {count, k}, strides[2] = {stride, elem};
    if (!base) { /* an empty model: a (0, k) array still keeps the shape */
        dims[0] = 0;
        return PyArray_ZEROS(k ? 2 : 1, dims, typenum, 0);
    }
    return vkspy_view(self, base, typenum, k ? 2 : 1, dims, strides, 0);
}

static PyObject *get_positions(PyObject *self, void *c)
{
    (void)c;
    return field_view(self, SKIN(self)->positions, SKIN(self)->vertex_count, 12, NPY_FLOAT32, 3, 4);
}

static PyObject *get_normals(PyObject *self, void *c)
{
    (void)c;
    if (!SKIN(self)->normals)
        Py_RETURN_NONE;
    return field_view(self, SKIN(self)->normals, SKIN(self)->vertex_count, 12, NPY_FLOAT32, 3, 4);
}

static PyObject *get_uvs(PyObject *self, void *c)
{
    (void)c;
    const vks_skin *s = SKIN(self);
    PyObject *t = PyTuple_New(s->uv_set_count);
    for (uint32_t k = 0; t && k < s->uv_set_count; k++) {
        PyObject *a = field_view(self, s->uv[k], s->vertex_count, 8, NPY_FLOAT32, 2, 4);
        if (!a) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, k, a);
    }
    return t;
}

static PyObject *get_triangles(PyObject *self, void *c)
{
    (void)c;
    return field_view(self, SKIN(self)->triangles, SKIN(self)->triangle_count, 12, NPY_UINT32, 3, 4);
}

static PyObject *get_triangle_material(PyObject *self, void *c)
{
    (void)c;
    if (!SKIN(self)->triangle_material)
        Py_RETURN_NONE;
    return field_view(self, SKIN(self)->triangle_material, SKIN(self)->triangle_count, 2, NPY_UINT16, 0, 2);
}

static PyObject *get_joints(PyObject *self, void *c)
{
    (void)c;
    const vks_skin *s = SKIN(self);
    return field_view(self, s->influences ? (void *)s->influences[0].index : NULL, s->vertex_count,
                      sizeof(vks_influence), NPY_UINT16, VKS_MAX_INFLUENCES, 2);
}

static PyObject *get_weights(PyObject *self, void *c)
{
    (void)c;
    const vks_skin *s = SKIN(self);
    return field_view(self, s->influences ? (void *)s->influences[0].weight : NULL, s->vertex_count,
                      sizeof(vks_influence), NPY_FLOAT32, VKS_MAX_INFLUENCES, 4);
}

static PyObject *get_source_vertex(PyObject *self, void *c)
{
    (void)c;
    return field_view(self, SKIN(self)->source_vertex, SKIN(self)->vertex_count, 4, NPY_UINT32, 0, 4);
}

static PyObject *get_parents(PyObject *self, void *c)
{
    (void)c;
    const vks_skin *s = SKIN(self);
    return field_view(self, s->nodes ? (void *)&s->nodes[0].parent : NULL, s->node_count, sizeof(vks_node),
                      NPY_INT32, 0, 4);
}

/* (count, 4, 3) affines: four columns of three floats (core.h's layout), strided by stride. */
static PyObject *affine_view(PyObject *self, void *base, npy_intp count, npy_intp stride)
{
    npy_intp dims[3] = {count, 4, 3}, strides[3] = {stride, 12, 4};
    if (!base) {
        dims[0] = 0;
        return PyArray_ZEROS(3, dims, NPY_FLOAT32, 0);
    }
    return vkspy_view(self, base, NPY_FLOAT32, 3, dims, strides, 0);
}

static PyObject *get_bind_locals(PyObject *self, void *c)
{
    (void)c;
    const vks_skin *s = SKIN(self);
    return affine_view(self, s->nodes ? (void *)&s->nodes[0].bind_local : NULL, s->node_count, sizeof(vks_node));
}

static PyObject *get_bone_nodes(PyObject *self, void *c)
{
    (void)c;
    const vks_skin *s = SKIN(self);
    return field_view(self, s->bones ? (void *)&s->bones[0].node : NULL, s->bone_count, sizeof(vks_bone),
                      NPY_UINT32, 0, 4);
}

static PyObject *get_inverse_binds(PyObject *self, void *c)
{
    (void)c;
    const vks_skin *s = SKIN(self);
    return affine_view(self, s->bones ? (void *)&s->bones[0].inverse_bind : NULL, s->bone_count, sizeof(vks_bone));
}

static PyObject *get_palette(PyObject *self, void *c)
{
    (void)c;
    return field_view(self, SKIN(self)->palette, SKIN(self)->palette_count, 2, NPY_UINT16, 0, 2);
}

static PyObject *get_node_names(PyObject *self, void *c)
{
    (void)c;
    const vks_skin *s = SKIN(self);
    PyObject *l = PyList_New(s->node_count);
    for (uint32_t n = 0; l && n < s->node_count; n++) {
        PyObject *name = PyUnicode_DecodeUTF8(s->nodes[n].name, strlen(s->nodes[n].name), "replace");
        if (!name) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, n, name);
    }
    return l;
}

static PyObject *get_groups(PyObject *self, void *c)
{
    (void)c;
    const vks_skin *s = SKIN(self);
    /* every field of vks_group is a uint32: (groups, 9) */
    return field_view(self, s->groups, s->group_count, sizeof(vks_group), NPY_UINT32,
                      sizeof(vks_group) / sizeof(uint32_t), 4);
}

static PyObject *get_str(PyObject *self, void *c)
{
    const char *v = *(const char **)((char *)SKIN(self) + (size_t)c);
    return PyUnicode_DecodeUTF8(v ? v : "", v ? strlen(v) : 0, "replace");
}

static PyObject *get_u32(PyObject *self, void *c)
{
    return PyLong_FromUnsignedLong(*(const uint32_t *)((char *)SKIN(self) + (size_t)c));
}

static PyObject *get_path(PyObject *self, void *c)
{
    (void)c;
    return Py_NewRef(((vkspy_model *)self)->path);
}

#define OFF(f) ((void *)offsetof(vks_skin, f))
static PyGetSetDef model_getset[] = {
    {"path", get_path, NULL, "the file the model was read from", NULL},
    {"format", get_str, NULL, "\"renderware\", \"nif\", \"nw4c\", \"p3d\" or \"gltf\"", OFF(format)},
    {"format_detail", get_str, NULL, "the format's version, as inspect shows it", OFF(format_detail)},
    {"vertex_count", get_u32, NULL, "model vertices (file vertices a group duplicates count again)", OFF(vertex_count)},
    {"node_count", get_u32, NULL, "skeleton nodes", OFF(node_count)},
    {"bone_count", get_u32, NULL, "bones over every mesh", OFF(bone_count)},
    {"mesh_count", get_u32, NULL, "skinned meshes", OFF(mesh_count)},
    {"triangle_count", get_u32, NULL, "triangles", OFF(triangle_count)},
    {"target_count", get_u32, NULL, "morph targets over every mesh", OFF(target_count)},
    {"positions", get_positions, NULL, "(vertices, 3) float32 bind positions (view)", NULL},
    {"normals", get_normals, NULL, "(vertices, 3) float32 bind normals (view), or None", NULL},
    {"uvs", get_uvs, NULL, "tuple of (vertices, 2) float32 UV sets (views; v from the top)", NULL},
    {"triangles", get_triangles, NULL, "(triangles, 3) uint32, indices relative to the mesh's first vertex (view)", NULL},
    {"triangle_material", get_triangle_material, NULL, "(triangles,) uint16 mesh-local material (view), or None", NULL},
    {"joints", get_joints, NULL, "(vertices, 8) uint16 palette-local influence slots (strided view)", NULL},
    {"weights", get_weights, NULL, "(vertices, 8) float32 influence weights (strided view)", NULL},
    {"source_vertex", get_source_vertex, NULL, "(vertices,) uint32 file vertex within its mesh (view)", NULL},
    {"parents", get_parents, NULL, "(nodes,) int32 parent node, -1 for a root (strided view)", NULL},
    {"bind_locals", get_bind_locals, NULL, "(nodes, 4, 3) float32 bind local transforms (strided view)", NULL},
    {"bone_nodes", get_bone_nodes, NULL, "(bones,) uint32 node of each bone (strided view)", NULL},
    {"inverse_binds", get_inverse_binds, NULL, "(bones, 4, 3) float32 inverse binds (strided view)", NULL},
    {"palette", get_palette, NULL, "(palette,) uint16 group slot -> bone (view)", NULL},
    {"groups", get_groups, NULL, "(groups, 9) uint32 rows of vks_group (view)", NULL},
    {"node_names", get_node_names, NULL, "list of the nodes' names", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyObject *dict_str(PyObject *d, const char *key, const char *v)
{
    PyObject *s = PyUnicode_DecodeUTF8(v ? v : "", v ? strlen(v) : 0, "replace");
    if (!s || PyDict_SetItemString(d, key, s) < 0) {
        Py_XDECREF(s);
        return NULL;
    }
    Py_DECREF(s);
    return d;
}

static PyObject *dict_u32(PyObject *d, const char *key, long long v)
{
    PyObject *n = PyLong_FromLongLong(v);
    if (!n || PyDict_SetItemString(d, key, n) < 0) {
        Py_XDECREF(n);
        return NULL;
    }
    Py_DECREF(n);
    return d;
}

static PyObject *mesh_dict(const vks_mesh *me)
{
    PyObject *d = PyDict_New();
    if (d && dict_str(d, "name", me->name) && dict_str(d, "node_name", me->node_name) &&
        dict_u32(d, "first_vertex", me->first_vertex) && dict_u32(d, "vertex_count", me->vertex_count) &&
        dict_u32(d, "first_triangle", me->first_triangle) && dict_u32(d, "triangle_count", me->triangle_count) &&
        dict_u32(d, "source_vertex_count", me->source_vertex_count) &&
        dict_u32(d, "first_material", me->first_material) && dict_u32(d, "material_count", me->material_count) &&
        dict_u32(d, "uv_set_count", me->uv_set_count) && dict_u32(d, "first_bone", me->first_bone) &&
        dict_u32(d, "bone_count", me->bone_count) && dict_u32(d, "target_count", me->target_count))
        return d;
    Py_XDECREF(d);
    return NULL;
}

static PyObject *material_dict(const vks_material *ma)
{
    PyObject *d = PyDict_New();
    PyObject *color = Py_BuildValue("(dddd)", ma->base_color[0], ma->base_color[1], ma->base_color[2],
                                    ma->base_color[3]);
    int ok = d && color && PyDict_SetItemString(d, "base_color", color) == 0;
    Py_XDECREF(color);
    if (ok && dict_str(d, "name", ma->name) && dict_str(d, "base_texture", ma->base_texture) &&
        dict_u32(d, "base_image", ma->base_image) && dict_u32(d, "base_uv_set", ma->base_uv_set))
        return d;
    Py_XDECREF(d);
    return NULL;
}

static PyObject *list_of(PyObject *(*one)(const void *), const void *base, size_t elem, uint32_t count)
{
    PyObject *l = PyList_New(count);
    for (uint32_t i = 0; l && i < count; i++) {
        PyObject *d = one((const char *)base + (size_t)i * elem);
        if (!d) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, i, d);
    }
    return l;
}

static PyObject *meshes(PyObject *self, PyObject *noargs)
{
    (void)noargs;
    const vks_skin *s = SKIN(self);
    return list_of((PyObject * (*)(const void *)) mesh_dict, s->meshes, sizeof *s->meshes, s->mesh_count);
}

static PyObject *materials(PyObject *self, PyObject *noargs)
{
    (void)noargs;
    const vks_skin *s = SKIN(self);
    return list_of((PyObject * (*)(const void *)) material_dict, s->materials, sizeof *s->materials,
                   s->material_count);
}

/* For each file vertex (mesh by mesh, in file order) the first model vertex made from it: the
 * order of deform's raw/CSV outputs (bake.h). A new int64 array. */
static PyObject *file_order(PyObject *self, PyObject *noargs)
{
    (void)noargs;
    const vks_skin *s = SKIN(self);
    npy_intp total = 0;
    for (uint32_t m = 0; m < s->mesh_count; m++)
        total += s->meshes[m].source_vertex_count;
    PyArrayObject *a = (PyArrayObject *)PyArray_EMPTY(1, &total, NPY_INT64, 0);
    if (!a)
        return NULL;
    int64_t *o = PyArray_DATA(a);
    npy_intp base = 0;
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *me = &s->meshes[m];
        for (uint32_t j = 0; j < me->source_vertex_count; j++)
            o[base + j] = -1;
        for (uint32_t v = me->vertex_count; v-- > 0;)
            o[base + s->source_vertex[me->first_vertex + v]] = me->first_vertex + v;
        base += me->source_vertex_count;
    }
    return (PyObject *)a;
}

static PyMethodDef model_methods[] = {
    {"meshes", meshes, METH_NOARGS, "meshes() -> list of dict: each skinned mesh's ranges and names"},
    {"materials", materials, METH_NOARGS, "materials() -> list of dict: name, base_color, base_texture, ..."},
    {"file_order", file_order, METH_NOARGS,
     "file_order() -> (file vertices,) int64: the model vertex deform's file outputs write for each file vertex"},
    {NULL, NULL, 0, NULL}};

static PyObject *model_repr(PyObject *self)
{
    const vks_skin *s = SKIN(self);
    return PyUnicode_FromFormat("<vkskin.Model %R: %s, %u vertices, %u nodes, %u meshes>",
                                ((vkspy_model *)self)->path, s->format, s->vertex_count, s->node_count, s->mesh_count);
}

PyTypeObject vkspy_model_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "vkskin.Model",
    .tp_basicsize = sizeof(vkspy_model),
    .tp_dealloc = (destructor)model_dealloc,
    .tp_repr = model_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A skinned model read by vkskin.read(); its arrays are read-only views into the library's memory.",
    .tp_getset = model_getset,
    .tp_methods = model_methods,
};

/* read(path, model_cfg=None, model_name=None, lod=None, bones=None, bone_limit=0,
 *      uri_root=None, max_input_mb=2048) */
PyObject *vkspy_read(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    static char *kw[] = {"path", "model_cfg", "model_name", "lod", "bones", "bone_limit", "uri_root",
                         "max_input_mb", NULL};
    PyObject *path_obj = NULL;
    const char *cfg = NULL, *model_name = NULL, *lod = NULL, *bones = NULL, *uri_root = NULL;
    unsigned bone_limit = 0;
    unsigned long long max_mb = 2048;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|zzzzIzK", kw, PyUnicode_FSConverter, &path_obj, &cfg,
                                     &model_name, &lod, &bones, &bone_limit, &uri_root, &max_mb))
        return NULL;
    const char *path = PyBytes_AS_STRING(path_obj);
    vks_read_options opt = {0};
    opt.file.max_size = max_mb << 20;
    opt.p3d.model_cfg_name = cfg, opt.p3d.model_name = model_name, opt.p3d.lod = lod;
    opt.p3d.bones = bones, opt.p3d.bone_limit = bone_limit, opt.gltf.root = uri_root;
    vks_skin *skin = NULL;
    vks_error err = {0};
    vks_result r;
    Py_BEGIN_ALLOW_THREADS
    r = vks_read_file(&opt, path, &skin, &err);
    if (r == VKS_OK && (r = vks_skin_validate(skin, &err)) != VKS_OK) {
        vks_skin_free(skin); /* nothing left behind: a model that cannot be deformed is refused */
        skin = NULL;
    }
    Py_END_ALLOW_THREADS
    if (r != VKS_OK) {
        vkspy_raise(&err, path);
        Py_DECREF(path_obj);
        return NULL;
    }
    vkspy_model *m = PyObject_New(vkspy_model, &vkspy_model_type);
    if (!m) {
        vks_skin_free(skin);
        Py_DECREF(path_obj);
        return NULL;
    }
    m->skin = skin;
    m->path = PyUnicode_DecodeFSDefault(path);
    Py_DECREF(path_obj);
    if (!m->path) {
        Py_DECREF(m);
        return NULL;
    }
    return (PyObject *)m;
}
