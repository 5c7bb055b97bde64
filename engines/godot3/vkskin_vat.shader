// vkskin vertex animation textures in Godot 3 (README "Play a bake in your engine", Godot):
// positions and normals of every vertex per frame, several clips stacked in one texture, frames
// interpolated, float textures as stored or 16-bit codes decoded with the sidecar's bounds.
// vkskin_vat_player.gd sets the uniforms from the sidecar NAME.KIND.json.
//
// The rest mesh's lookup UV (the centre of the vertex's texel in frame 0, v from the first
// row) is its second UV set, UV2 (glTF TEXCOORD_1, Houdini's and AnimToTexture's place for it);
// lookup_in_uv2 = false reads it from UV, for rest meshes with only one set. Texels are read with
// texelFetch: no filtering, no mip-maps, no colour conversion (import the textures with Filter,
// Mipmaps and sRGB off, compression Lossless or Uncompressed).
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

// the texels of the frames around `frame` and the weight of the second; a looping clip wraps
// from its last frame to its first, any other holds its ends
void vat_texels(vec2 lookup, out ivec2 a, out ivec2 b, out float t) {
	float n = max(clip.y, 1.0);
	float f0 = floor(frame);
	t = frame - f0;
	float f1;
	if (clip.z > 0.5) {
		f0 = mod(f0, n);
		f1 = mod(f0 + 1.0, n);
	} else {
		if (f0 >= n - 1.0) { f0 = n - 1.0; t = 0.0; }
		if (f0 < 0.0) { f0 = 0.0; t = 0.0; }
		f1 = min(f0 + 1.0, n - 1.0);
	}
	float column = floor(lookup.x * layout_size.x);
	float row0 = floor(lookup.y * layout_size.y) + clip.x; // Godot's v and rows count from the top
	a = ivec2(int(column), int(row0 + f0 * layout_size.z));
	b = ivec2(int(column), int(row0 + f1 * layout_size.z));
}

vec3 decode_position(vec3 c) {
	return unorm16 ? bounds_min + c * (bounds_max - bounds_min) : c; // min + code / 65535 * (max - min)
}

void vertex() {
	vec2 lookup = lookup_in_uv2 ? UV2 : UV;
	ivec2 a, b;
	float t;
	vat_texels(lookup, a, b, t);
	vec3 pa = decode_position(texelFetch(positions, a, 0).rgb);
	vec3 pb = decode_position(texelFetch(positions, b, 0).rgb);
	VERTEX = mix(pa, pb, t);
	if (has_normals) {
		vec3 na = texelFetch(normals, a, 0).rgb, nb = texelFetch(normals, b, 0).rgb;
		if (unorm16) { na = na * 2.0 - 1.0; nb = nb * 2.0 - 1.0; } // code / 65535 * 2 - 1
		NORMAL = normalize(mix(na, nb, t));
	}
}

void fragment() {
	ALBEDO = albedo.rgb;
	ROUGHNESS = 0.8;
}
