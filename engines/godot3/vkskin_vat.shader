// vkskin vertex animation textures in Godot 3 (docs/baking.md "Play a bake in your engine", Godot):
// positions and normals of every vertex per frame, several clips stacked in one texture, frames
// interpolated, float textures as stored or 16-bit codes decoded with the sidecar's bounds.
// vkskin_vat_player.gd sets the uniforms from the sidecar NAME.KIND.json.
//
// The rest mesh's lookup UV (the centre of the vertex's texel in frame 0, v from the first
// row) is its second UV set, UV2 (glTF TEXCOORD_1, Houdini's and AnimToTexture's place for it);
// lookup_in_uv2 = false reads it from UV, for rest meshes with only one set. Texels are read with
// texelFetch: no filtering, no mip-maps, no colour conversion (import the textures with Filter,
// Mipmaps and sRGB off, compression Lossless or Uncompressed).
//
// A crowd: a MultiMeshInstance of the rest mesh (custom_data_format CUSTOM_DATA_FLOAT) with
// per_instance on reads what each instance plays from its custom data, INSTANCE_CUSTOM =
// (clip + 256 * second clip, start offset in seconds, speed, the second clip's weight): instance i
// is at offset + speed * crowd_time seconds into its clip, crossfaded with the second clip (same
// offset and speed) by the weight. Godot 3 shaders have no uniform arrays, so the clip table is
// a texture: one row, one RGBA float texel per clip (row, frame_count, loop, fps).
shader_type spatial;

uniform sampler2D positions;
uniform sampler2D normals;
uniform bool has_normals = true;
uniform bool lookup_in_uv2 = true;
uniform vec3 layout_size = vec3(1.0);    // layout.width, layout.height, layout.rows_per_frame
uniform vec4 clip = vec4(0.0, 1.0, 1.0, 30.0); // the playing clip: row, frame_count, loop (1), fps
uniform float frame = 0.0;               // frame within the clip, fractional: interpolated
uniform bool unorm16 = false;            // texels hold code / 65535 (vat-png16): decode with bounds
uniform vec3 bounds_min = vec3(0.0);
uniform vec3 bounds_max = vec3(1.0);
uniform vec4 albedo : hint_color = vec4(0.72, 0.72, 0.75, 1.0);
uniform bool use_albedo_texture = false; // the character's base colour texture, on its own UVs (UV)
uniform sampler2D albedo_texture : hint_albedo;
uniform bool per_instance = false;       // a MultiMesh crowd: clip and time from INSTANCE_CUSTOM
uniform sampler2D clip_table;            // per clip one texel (row, frame_count, loop, fps)
uniform float crowd_time = 0.0;          // the crowd's clock, seconds
uniform bool flat_normals = false;       // a bake without normals: shaded by its faces

// frames f0 and f1 of clip c around fr and the weight t of f1; a looping clip wraps from its
// last frame to its first, any other holds its ends
void clip_frames(vec4 c, float fr, out float f0, out float f1, out float t) {
	float n = max(c.y, 1.0);
	f0 = floor(fr);
	t = fr - f0;
	if (c.z > 0.5) {
		f0 = mod(f0, n);
		f1 = mod(f0 + 1.0, n);
	} else {
		if (f0 >= n - 1.0) { f0 = n - 1.0; t = 0.0; }
		if (f0 < 0.0) { f0 = 0.0; t = 0.0; }
		f1 = min(f0 + 1.0, n - 1.0);
	}
}

// the texels of clip c's frames around fr and the weight of the second
void vat_texels(vec2 lookup, vec4 c, float fr, out ivec2 a, out ivec2 b, out float t) {
	float f0;
	float f1;
	clip_frames(c, fr, f0, f1, t);
	float column = floor(lookup.x * layout_size.x);
	float row0 = floor(lookup.y * layout_size.y) + c.x; // Godot's v and rows count from the top
	a = ivec2(int(column), int(row0 + f0 * layout_size.z));
	b = ivec2(int(column), int(row0 + f1 * layout_size.z));
}

vec3 decode_position(vec3 c) {
	return unorm16 ? bounds_min + c * (bounds_max - bounds_min) : c; // min + code / 65535 * (max - min)
}

vec3 vat_position(vec2 lookup, vec4 c, float fr) {
	ivec2 a;
	ivec2 b;
	float t;
	vat_texels(lookup, c, fr, a, b, t);
	return mix(decode_position(texelFetch(positions, a, 0).rgb), decode_position(texelFetch(positions, b, 0).rgb), t);
}

vec3 vat_normal(vec2 lookup, vec4 c, float fr) {
	ivec2 a;
	ivec2 b;
	float t;
	vat_texels(lookup, c, fr, a, b, t);
	vec3 na = texelFetch(normals, a, 0).rgb;
	vec3 nb = texelFetch(normals, b, 0).rgb;
	if (unorm16) { na = na * 2.0 - 1.0; nb = nb * 2.0 - 1.0; } // code / 65535 * 2 - 1
	return mix(na, nb, t);
}

void vertex() {
	vec2 lookup = lookup_in_uv2 ? UV2 : UV;
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
	VERTEX = vat_position(lookup, ca, fa);
	if (fade > 0.0)
		VERTEX = mix(VERTEX, vat_position(lookup, cb, fb), fade);
	if (has_normals) {
		vec3 n = vat_normal(lookup, ca, fa);
		if (fade > 0.0)
			n = mix(n, vat_normal(lookup, cb, fb), fade);
		NORMAL = normalize(n);
	}
}

void fragment() {
	ALBEDO = use_albedo_texture ? albedo.rgb * texture(albedo_texture, UV).rgb : albedo.rgb;
	ROUGHNESS = 0.8;
	if (flat_normals) {
		// the face's normal from the view-space position's derivatives, turned to the viewer
		vec3 n = normalize(cross(dFdx(VERTEX), dFdy(VERTEX)));
		NORMAL = dot(n, VERTEX) > 0.0 ? -n : n;
	}
}
