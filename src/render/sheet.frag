#version 450
// Contact-sheet fragment shader: one directional light plus ambient on the deformed normals,
// in view space. Two-sided (the formats disagree on winding, and culling is off), so the
// normal is turned toward the camera. Without normals, the face's own from derivatives.
layout(location = 0) in vec3 v_nrm;
layout(location = 1) in vec3 v_pos;
layout(location = 2) in vec4 v_col; // per-vertex colour (heat maps) when its alpha is > 0
layout(location = 0) out vec4 color;

const vec3 LIGHT = vec3(-0.38, 0.55, 0.74); // from the upper left, in front (view space)
const vec3 BASE = vec3(0.82, 0.74, 0.62);
const float AMBIENT = 0.22;

void main()
{
    vec3 n = v_nrm;
    if (dot(n, n) < 1e-12)
        n = cross(dFdx(v_pos), dFdy(v_pos));
    n = normalize(n);
    if (dot(n, v_pos) > 0.0)
        n = -n; // the camera looks down -z from the origin: face it
    float diffuse = max(dot(n, normalize(LIGHT)), 0.0);
    vec3 base = v_col.a > 0.0 ? v_col.rgb : BASE;
    color = vec4(base * (AMBIENT + (1.0 - AMBIENT) * diffuse), 1.0);
}
