#version 450
// Contact-sheet vertex shader: one deformed instance per draw, read straight from the crowd's
// output buffers (or a plain vertex buffer of host vertices, for the comparison test).
// Push constants: the cell's projection * view and the view alone (the camera is rigid, so
// its 3x3 turns normals into view space as it turns positions).
layout(location = 0) in vec3 in_pos;
layout(location = 1) in vec3 in_nrm; // all zero when the model or the crowd has no normals
layout(location = 2) in vec4 in_col; // a heat map's colour; alpha 0 (no colours given): the base

layout(push_constant) uniform Cell {
    mat4 clip_from_model;
    mat4 view_from_model;
} cell;

layout(location = 0) out vec3 v_nrm;
layout(location = 1) out vec3 v_pos;
layout(location = 2) out vec4 v_col;

void main()
{
    gl_Position = cell.clip_from_model * vec4(in_pos, 1.0);
    v_nrm = mat3(cell.view_from_model) * in_nrm;
    v_pos = (cell.view_from_model * vec4(in_pos, 1.0)).xyz;
    v_col = in_col;
}
