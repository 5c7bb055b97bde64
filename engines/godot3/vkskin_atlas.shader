// vkskin bone-matrix atlases in Godot 3 (README "Play a bake in your engine", Godot): per frame
// one row, per bone three texels holding rows x, y, z of its 3x4 skin matrix; a vertex is
// p' = sum_k w_k K_(bone_base + joint_k) (p, 1), between two frames the matrices interpolated.
// Godot 3's spatial shaders do not see a mesh's bone indices and weights, so the mesh carries
// them in other arrays (vkskin_vat_player.gd builds it so): UV = joints 0 and 1, UV2 = joints 2
// and 3, COLOR = the four weights, all uncompressed. VERTEX and NORMAL are the rest vertex as
// NAME.atlas.glb stores it (the file's skin space).
shader_type spatial;

uniform sampler2D atlas;                 // NAME.atlas.exr: Filter, Mipmaps and sRGB off
uniform float bone_base = 0.0;           // the sidecar's meshes[m].first_bone
uniform vec4 clip = vec4(0.0, 1.0, 1.0, 30.0); // the playing clip: row, frame_count, loop (1), fps
uniform float frame = 0.0;               // frame within the clip, fractional: interpolated
uniform vec4 albedo : hint_color = vec4(0.72, 0.72, 0.75, 1.0);

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

void vertex() {
	float n = max(clip.y, 1.0);
	float f0 = floor(frame), t = frame - f0, f1;
	if (clip.z > 0.5) {
		f0 = mod(f0, n);
		f1 = mod(f0 + 1.0, n);
	} else {
		if (f0 >= n - 1.0) { f0 = n - 1.0; t = 0.0; }
		if (f0 < 0.0) { f0 = 0.0; t = 0.0; }
		f1 = min(f0 + 1.0, n - 1.0);
	}
	int ra = int(clip.x + f0), rb = int(clip.x + f1); // one row per frame, from the top
	vec4 p1 = vec4(VERTEX, 1.0);
	vec3 p = vec3(0.0), q = vec3(0.0);
	// Godot 3 indexes vectors by constants only: the four influences spelled out
	skin(UV.x, COLOR.r, ra, rb, t, p1, NORMAL, p, q);
	skin(UV.y, COLOR.g, ra, rb, t, p1, NORMAL, p, q);
	skin(UV2.x, COLOR.b, ra, rb, t, p1, NORMAL, p, q);
	skin(UV2.y, COLOR.a, ra, rb, t, p1, NORMAL, p, q);
	VERTEX = p;
	NORMAL = normalize(q);
}

void fragment() {
	ALBEDO = albedo.rgb;
	ROUGHNESS = 0.8;
}
