// vkskin bone-matrix atlases in Godot 3 (docs/baking.md "Play a bake in your engine", Godot): per frame
// one row, per bone three texels holding rows x, y, z of its 3x4 skin matrix; a vertex is
// p' = sum_k w_k K_(bone_base + joint_k) (p, 1), between two frames the matrices interpolated.
// Godot 3's spatial shaders do not see a mesh's bone indices and weights, so the mesh carries
// them in other arrays (vkskin_vat_player.gd builds it so): UV = joints 0 and 1, UV2 = joints 2
// and 3, COLOR = the four weights, all uncompressed. VERTEX and NORMAL are the rest vertex as
// NAME.atlas.glb stores it (the file's skin space).
//
// A crowd: per_instance reads each instance's clip and time from its MultiMesh custom data, as
// vkskin_vat.shader describes (INSTANCE_CUSTOM, clip_table, crowd_time).
shader_type spatial;

uniform sampler2D atlas;                 // NAME.atlas.exr: Filter, Mipmaps and sRGB off
uniform float bone_base = 0.0;           // the sidecar's meshes[m].first_bone
uniform vec4 clip = vec4(0.0, 1.0, 1.0, 30.0); // the playing clip: row, frame_count, loop (1), fps
uniform float frame = 0.0;               // frame within the clip, fractional: interpolated
uniform vec4 albedo : hint_color = vec4(0.72, 0.72, 0.75, 1.0);
uniform bool per_instance = false;
uniform sampler2D clip_table;            // per clip one texel (row, frame_count, loop, fps)
uniform float crowd_time = 0.0;
uniform bool flat_normals = false;       // a bake without normals: shaded by its faces

// weight w of bone bone_base + joint between atlas rows ra and rb: adds w K (p, 1) and w K n
void skin(float joint, float w, int ra, int rb, float t, vec4 p1, vec3 n, inout vec3 p, inout vec3 q) {
	if (w == 0.0) return;
	int x = int(bone_base + joint) * 3;
	vec4 r0 = mix(texelFetch(atlas, ivec2(x, ra), 0), texelFetch(atlas, ivec2(x, rb), 0), t);
	vec4 r1 = mix(texelFetch(atlas, ivec2(x + 1, ra), 0), texelFetch(atlas, ivec2(x + 1, rb), 0), t);
	vec4 r2 = mix(texelFetch(atlas, ivec2(x + 2, ra), 0), texelFetch(atlas, ivec2(x + 2, rb), 0), t);
	p += w * vec3(dot(r0, p1), dot(r1, p1), dot(r2, p1));
	q += w * vec3(dot(r0.xyz, n), dot(r1.xyz, n), dot(r2.xyz, n));
}

// the skinned vertex (p) and normal (q) at frame fr of clip c
void skin_at(vec4 c, float fr, vec3 v, vec3 nrm, vec2 j01, vec2 j23, vec4 w, out vec3 p, out vec3 q) {
	float n = max(c.y, 1.0);
	float f0 = floor(fr);
	float t = fr - f0;
	float f1;
	if (c.z > 0.5) {
		f0 = mod(f0, n);
		f1 = mod(f0 + 1.0, n);
	} else {
		if (f0 >= n - 1.0) { f0 = n - 1.0; t = 0.0; }
		if (f0 < 0.0) { f0 = 0.0; t = 0.0; }
		f1 = min(f0 + 1.0, n - 1.0);
	}
	int ra = int(c.x + f0);
	int rb = int(c.x + f1); // one row per frame, from the top
	vec4 p1 = vec4(v, 1.0);
	p = vec3(0.0);
	q = vec3(0.0);
	// Godot 3 indexes vectors by constants only: the four influences spelled out
	skin(j01.x, w.r, ra, rb, t, p1, nrm, p, q);
	skin(j01.y, w.g, ra, rb, t, p1, nrm, p, q);
	skin(j23.x, w.b, ra, rb, t, p1, nrm, p, q);
	skin(j23.y, w.a, ra, rb, t, p1, nrm, p, q);
}

void vertex() {
	vec4 ca = clip;
	vec4 cb = clip;
	float fa = frame;
	float fb = frame;
	float fade = 0.0;
	if (per_instance) {
		float packed = floor(INSTANCE_CUSTOM.x + 0.5);
		float second = floor(packed / 256.0);
		ca = texelFetch(clip_table, ivec2(int(packed - 256.0 * second), 0), 0);
		cb = texelFetch(clip_table, ivec2(int(second), 0), 0);
		float seconds = INSTANCE_CUSTOM.y + INSTANCE_CUSTOM.z * crowd_time;
		fa = seconds * ca.w;
		fb = seconds * cb.w;
		fade = clamp(INSTANCE_CUSTOM.w, 0.0, 1.0);
	}
	vec3 p;
	vec3 q;
	skin_at(ca, fa, VERTEX, NORMAL, UV, UV2, COLOR, p, q);
	if (fade > 0.0) {
		vec3 pb;
		vec3 qb;
		skin_at(cb, fb, VERTEX, NORMAL, UV, UV2, COLOR, pb, qb);
		p = mix(p, pb, fade);
		q = mix(q, qb, fade);
	}
	VERTEX = p;
	if (!flat_normals)
		NORMAL = normalize(q);
}

void fragment() {
	ALBEDO = albedo.rgb;
	ROUGHNESS = 0.8;
	if (flat_normals) {
		// the face's normal from the view-space position's derivatives, turned to the viewer
		vec3 n = normalize(cross(dFdx(VERTEX), dFdy(VERTEX)));
		NORMAL = dot(n, VERTEX) > 0.0 ? -n : n;
	}
}
