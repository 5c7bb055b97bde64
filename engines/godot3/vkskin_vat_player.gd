# Plays a vkskin bake in Godot 3 (docs/baking.md "Play a bake in your engine", Godot): a VAT
# (NAME.vat-exr-float.json, NAME.vat-exr-half.json, NAME.vat-png16.json) or a bone atlas
# (NAME.atlas.json), chosen by its sidecar. The rest mesh is read from the bake's .glb here, at
# run time, so any bake plays without an import step; a project that imports the .glb instead
# puts vkskin_vat.shader on it and sets the same uniforms (set_clip below).
#
# From the command line (all after --):
#   godot3 --path engines/godot3 -- --bake=$PWD/baked/hero.vat-exr-float.json --clip=1 [--frame=8]
#          [--out=$PWD/shot.png]
# (absolute paths: Godot runs in its project's folder).
# --frame shows that frame still (otherwise the clip plays at its fps); --out writes the picture
# of the first frames drawn to a PNG and quits (the test engines_godot does so). The camera is
# vkskin render's: fitted to the bind pose's bounds, 30 degrees to the side, 12 above.
# A crowd: --crowd=N draws N instances in one MultiMesh, each playing its own clip, phase and
# speed (a quarter crossfading to a second clip) from its custom data (vkskin_vat.shader);
# --seed=S picks them. With --instance=K, instance K plays --clip at --frame (reached at crowd
# time --time=T, 1.5 s by default, from its own offset and speed) where the camera looks, and
# the others stand out of view: the test compares it with vkskin render.
extends Spatial

const Crowd = preload("res://vkskin_crowd.gd")

export(String) var bake_path = ""
export(int) var clip_index = 0
export(float) var still_frame = -1.0
var out_path = ""
var sidecar = {}
var materials = []
var elapsed = 0.0
var crowd = 0
var crowd_seed = 1
var sampled = -1
var crowd_time = 1.5

func _ready():
	for a in OS.get_cmdline_args():
		if a.begins_with("--bake="):
			bake_path = a.substr(7, a.length())
		elif a.begins_with("--clip="):
			clip_index = int(a.substr(7, a.length()))
		elif a.begins_with("--frame="):
			still_frame = float(a.substr(8, a.length()))
		elif a.begins_with("--out="):
			out_path = a.substr(6, a.length())
		elif a.begins_with("--crowd="):
			crowd = int(a.substr(8, a.length()))
		elif a.begins_with("--seed="):
			crowd_seed = int(a.substr(7, a.length()))
		elif a.begins_with("--instance="):
			sampled = int(a.substr(11, a.length()))
		elif a.begins_with("--time="):
			crowd_time = float(a.substr(7, a.length()))
	var err = load_bake(bake_path)
	if err != "":
		printerr("vkskin_vat_player: ", bake_path, ": ", err)
		get_tree().quit(1)
		return
	set_clip(clip_index, max(still_frame, 0.0))
	if crowd > 0:
		make_crowd()
	if out_path != "":
		for _i in range(3):
			yield(get_tree(), "idle_frame")
		var img = get_viewport().get_texture().get_data()
		img.flip_y()
		var e = img.save_png(out_path)
		get_tree().quit(0 if e == OK else 1)

func _process(delta):
	if crowd > 0 and still_frame < 0.0:
		crowd_time += delta
		for m in materials:
			m.set_shader_param("crowd_time", crowd_time)
	elif still_frame < 0.0 and not materials.empty():
		elapsed += delta
		var c = sidecar.clips[clamp(clip_index, 0, sidecar.clips.size() - 1)]
		set_clip(clip_index, elapsed * float(c.fps))

# Clip `index` of the sidecar at `frame` (fractional: the shader interpolates).
func set_clip(index, frame):
	var c = sidecar.clips[clamp(index, 0, sidecar.clips.size() - 1)]
	for m in materials:
		m.set_shader_param("clip", Plane(c.row, c.frame_count, 1.0 if c.loop else 0.0, c.fps))
		m.set_shader_param("frame", frame)

# the meshes as a MultiMesh crowd (vkskin_crowd.gd), after fit_camera made the camera
func make_crowd():
	Crowd.build(self, sidecar, materials, crowd, crowd_seed, sampled, clip_index, max(still_frame, 0.0), crowd_time,
				get_viewport().get_camera())

func load_bake(path):
	var f = File.new()
	if f.open(path, File.READ) != OK:
		return "cannot open the sidecar"
	var parsed = JSON.parse(f.get_as_text())
	f.close()
	if parsed.error != OK:
		return "not JSON: " + parsed.error_string
	sidecar = parsed.result
	var dir = path.get_base_dir()
	var glb = ""
	for file in sidecar.files:
		if file.path.ends_with(".glb"):
			glb = dir.plus_file(file.path)
	var gltf = read_glb(glb)
	if gltf.empty():
		return "cannot read the rest mesh " + glb
	if sidecar.kind == "atlas":
		return build_atlas(dir, gltf)
	return build_vat(dir, gltf)

func find_file(role):
	for file in sidecar.files:
		if file.role == role:
			return file.path
	return ""

func build_vat(dir, gltf):
	var shader = load("res://vkskin_vat.shader")
	var mat = ShaderMaterial.new()
	mat.shader = shader
	var unorm16 = sidecar.encoding == "unorm16"
	var pos = load_texture(dir.plus_file(find_file("position")), unorm16)
	if pos == null:
		return "cannot read the position texture"
	mat.set_shader_param("positions", pos)
	var nrm_name = find_file("normal")
	mat.set_shader_param("has_normals", nrm_name != "")
	if nrm_name != "":
		mat.set_shader_param("normals", load_texture(dir.plus_file(nrm_name), unorm16))
	var l = sidecar.layout
	mat.set_shader_param("layout_size", Vector3(l.width, l.height, l.rows_per_frame))
	mat.set_shader_param("unorm16", unorm16)
	var b = sidecar.bounds
	mat.set_shader_param("bounds_min", Vector3(b.min[0], b.min[1], b.min[2]))
	mat.set_shader_param("bounds_max", Vector3(b.max[0], b.max[1], b.max[2]))
	materials.append(mat)
	var all_positions = PoolVector3Array()
	var without_normals = false
	for prim in gltf.primitives:
		var arrays = []
		arrays.resize(Mesh.ARRAY_MAX)
		arrays[Mesh.ARRAY_VERTEX] = prim.POSITION
		if prim.has("NORMAL"):
			arrays[Mesh.ARRAY_NORMAL] = prim.NORMAL
		else:
			without_normals = true
		# the lookup: the second UV set where there is one (TEXCOORD_1), else the first
		if prim.has("TEXCOORD_0"):
			arrays[Mesh.ARRAY_TEX_UV] = prim.TEXCOORD_0
		var two_sets = prim.has("TEXCOORD_1")
		if not two_sets and not prim.has("TEXCOORD_0"):
			return "the rest mesh has no UV set holding the VAT lookup"
		if two_sets:
			arrays[Mesh.ARRAY_TEX_UV2] = prim.TEXCOORD_1
		arrays[Mesh.ARRAY_INDEX] = prim.indices
		var m = prim_material(mat, two_sets)
		if two_sets and prim.has("base_color"):
			# the character's texture on its own UVs (the lookup is in UV2)
			m = m.duplicate()
			var look = ImageTexture.new()
			look.create_from_image(prim.base_color)
			m.set_shader_param("albedo_texture", look)
			m.set_shader_param("use_albedo_texture", true)
			m.set_shader_param("albedo", Color(1, 1, 1, 1))
			materials.append(m)
		add_mesh(arrays, m)
		all_positions.append_array(prim.POSITION)
	# a source without normals bakes texels of zero length: shade by the faces instead
	for m in materials:
		m.set_shader_param("has_normals", nrm_name != "" and not without_normals)
		m.set_shader_param("flat_normals", without_normals)
	var bounds = AABB(Vector3(b.min[0], b.min[1], b.min[2]), Vector3(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]))
	for child in get_children():
		if child is MeshInstance:
			child.set_custom_aabb(bounds.merge(child.mesh.get_aabb()))
	fit_camera(in_right_hand(all_positions))
	return ""

# one material per UV layout (lookup in UV2 or UV), sharing the textures and clip uniforms
func prim_material(mat, two_sets):
	if two_sets:
		return mat
	var m = mat.duplicate()
	m.set_shader_param("lookup_in_uv2", false)
	materials.append(m)
	return m

func add_mesh(arrays, mat):
	var mesh = ArrayMesh.new()
	# no compression: UVs as half floats would address the wrong texel in a wide VAT
	mesh.add_surface_from_arrays(Mesh.PRIMITIVE_TRIANGLES, arrays, [], 0)
	mesh.surface_set_material(0, mat)
	var mi = MeshInstance.new()
	mi.mesh = mesh
	add_child(mi)
	return mi

func build_atlas(dir, gltf):
	var exr = ""
	for file in sidecar.files:
		if file.path.ends_with(".exr"):
			exr = dir.plus_file(file.path)
	var tex = load_texture(exr, false)
	if tex == null:
		return "cannot read the atlas " + exr
	var all_positions = PoolVector3Array()
	for prim in gltf.primitives:
		var mat = ShaderMaterial.new()
		mat.shader = load("res://vkskin_atlas.shader")
		mat.set_shader_param("atlas", tex)
		mat.set_shader_param("bone_base", float(sidecar.meshes[prim.mesh].first_bone))
		materials.append(mat)
		var j = prim.JOINTS_0
		var w = prim.WEIGHTS_0
		var uv = PoolVector2Array()
		var uv2 = PoolVector2Array()
		var col = PoolColorArray()
		for i in range(j.size() / 4):
			uv.append(Vector2(j[i * 4], j[i * 4 + 1]))
			uv2.append(Vector2(j[i * 4 + 2], j[i * 4 + 3]))
			col.append(Color(w[i * 4], w[i * 4 + 1], w[i * 4 + 2], w[i * 4 + 3]))
		var arrays = []
		arrays.resize(Mesh.ARRAY_MAX)
		arrays[Mesh.ARRAY_VERTEX] = prim.POSITION
		# a source without normals: none to skin, shaded by the faces
		if prim.has("NORMAL"):
			arrays[Mesh.ARRAY_NORMAL] = prim.NORMAL
		mat.set_shader_param("flat_normals", not prim.has("NORMAL"))
		arrays[Mesh.ARRAY_TEX_UV] = uv
		arrays[Mesh.ARRAY_TEX_UV2] = uv2
		arrays[Mesh.ARRAY_COLOR] = col
		arrays[Mesh.ARRAY_INDEX] = prim.indices
		var mi = add_mesh(arrays, mat)
		mi.extra_cull_margin = 16384.0 # the rest pose's bounds are not the animation's
		all_positions.append_array(prim.POSITION)
	fit_camera(in_right_hand(all_positions))
	return ""

# A left-handed file (the sidecar's handedness; P3D) is shown as its right-handed twin
# (x, y, -z), as vkskin render shows it: every mesh mirrored, and the camera fitted to the
# mirrored points. Right-handed files are left as they are.
func in_right_hand(points):
	if sidecar.get("handedness", "right") != "left":
		return points
	var mirrored = PoolVector3Array()
	for p in points:
		mirrored.append(Vector3(p.x, p.y, -p.z))
	for child in get_children():
		if child is MeshInstance:
			child.scale = Vector3(1, 1, -1) # Godot flips the winding of a mirrored instance
	return mirrored

# vkskin render's camera (src/render/camera.c): centre of the bind bounds, radius of their
# half diagonal, up along the sidecar's up_axis (the file's), 30 degrees to the side and 12 above, a
# vertical field of view of 0.593 rad at 0.86 radii / sin(half of it)
func fit_camera(points):
	var lo = points[0]
	var hi = points[0]
	for p in points:
		lo = Vector3(min(lo.x, p.x), min(lo.y, p.y), min(lo.z, p.z))
		hi = Vector3(max(hi.x, p.x), max(hi.y, p.y), max(hi.z, p.z))
	var center = (lo + hi) * 0.5
	var ext = hi - lo
	var radius = (ext * 0.5).length()
	if radius <= 0.0:
		radius = 1.0
	var z_up = sidecar.get("up_axis", "+y") == "+z" # the bake's own axes, never the shape's
	var up = Vector3(0, 0, 1) if z_up else Vector3(0, 1, 0)
	var front = Vector3(0, -1, 0) if z_up else Vector3(0, 0, 1)
	var side = up.cross(front)
	var az = 0.52
	var el = 0.21
	var half_fov = 0.5 * 0.593
	var dist = 0.86 * radius / sin(half_fov)
	var dir = cos(el) * (cos(az) * front + sin(az) * side) + sin(el) * up
	var cam = Camera.new()
	cam.fov = rad2deg(0.593)
	cam.near = max(dist - 1.6 * radius, 0.01 * dist)
	cam.far = dist + 1.6 * radius
	add_child(cam)
	cam.look_at_from_position(center + dist * dir, center, up)
	cam.current = true
	var light = DirectionalLight.new()
	add_child(light)
	light.look_at_from_position(center + dir, center, up)
	var env = Environment.new()
	env.background_mode = Environment.BG_COLOR
	env.background_color = Color8(0x26, 0x2a, 0x30)
	env.ambient_light_color = Color(0.35, 0.35, 0.35)
	cam.environment = env

# A texture of data: an EXR through Godot's loader (Godot 3 keeps its texels as half floats);
# a 16-bit PNG decoded here (Godot 3's PNG loader keeps 8 bits), its codes / 65535 as floats
func load_texture(path, unorm16):
	var img
	if unorm16:
		img = read_png16(path)
		if img == null:
			return null
	else:
		img = Image.new()
		if img.load(path) != OK:
			return null
	var tex = ImageTexture.new()
	tex.create_from_image(img, 0) # flags 0: no mip-maps, no filter, no repeat, no sRGB
	return tex

func read_png16(path):
	var f = File.new()
	if f.open(path, File.READ) != OK:
		return null
	f.endian_swap = true # PNG is big-endian
	f.seek(8)
	var w = 0
	var h = 0
	var channels = 0
	var idat = PoolByteArray()
	while f.get_position() + 8 <= f.get_len():
		var n = f.get_32()
		var type = f.get_buffer(4).get_string_from_ascii()
		var body = f.get_buffer(n)
		f.get_32() # CRC
		if type == "IHDR":
			w = (body[0] << 24) | (body[1] << 16) | (body[2] << 8) | body[3]
			h = (body[4] << 24) | (body[5] << 16) | (body[6] << 8) | body[7]
			channels = 3 if body[9] == 2 else (4 if body[9] == 6 else 0)
			if body[8] != 16 or channels == 0 or body[12] != 0:
				return null
		elif type == "IDAT":
			idat.append_array(body)
		elif type == "IEND":
			break
	f.close()
	var bpp = channels * 2
	var stride = w * bpp
	var raw = idat.decompress(h * (stride + 1), File.COMPRESSION_DEFLATE)
	if raw.size() < h * (stride + 1):
		return null
	var out = StreamPeerBuffer.new()
	var prev = PoolByteArray()
	prev.resize(stride)
	for x in range(stride):
		prev[x] = 0
	var cur = PoolByteArray()
	cur.resize(stride)
	for y in range(h):
		var base = y * (stride + 1)
		var ft = raw[base]
		for x in range(stride):
			var a = cur[x - bpp] if x >= bpp else 0
			var up = prev[x]
			var c = prev[x - bpp] if x >= bpp else 0
			var p = 0
			if ft == 1:
				p = a
			elif ft == 2:
				p = up
			elif ft == 3:
				p = (a + up) >> 1
			elif ft == 4:
				var pa = abs(up - c)
				var pb = abs(a - c)
				var pc = abs(a + up - 2 * c)
				p = a if (pa <= pb and pa <= pc) else (up if pb <= pc else c)
			cur[x] = (raw[base + 1 + x] + p) & 255
		for x in range(w):
			for k in range(3):
				out.put_float(float((cur[x * bpp + k * 2] << 8) | cur[x * bpp + k * 2 + 1]) / 65535.0)
		var t = prev
		prev = cur
		cur = t
	var img = Image.new()
	img.create_from_data(w, h, false, Image.FORMAT_RGBF, out.data_array)
	return img

# The meshes of a .glb as arrays: [{mesh, POSITION, NORMAL, TEXCOORD_0, TEXCOORD_1, JOINTS_0,
# WEIGHTS_0, indices}] (those present), triangles wound for Godot (clockwise front faces).
func read_glb(path):
	var f = File.new()
	if f.open(path, File.READ) != OK:
		return {}
	var bytes = f.get_buffer(f.get_len())
	f.close()
	var spb = StreamPeerBuffer.new()
	spb.data_array = bytes
	spb.seek(12)
	var json_len = spb.get_u32()
	spb.get_u32()
	var doc = JSON.parse(bytes.subarray(20, 20 + json_len - 1).get_string_from_utf8()).result
	var bin = 20 + json_len + 8
	var prims = []
	for mi in range(doc.meshes.size()):
		for prim in doc.meshes[mi].primitives:
			var out = {"mesh": mi}
			for attr in prim.attributes:
				out[attr] = read_accessor(spb, doc, bin, prim.attributes[attr], attr)
			var idx = read_accessor(spb, doc, bin, prim.indices, "indices")
			for t in range(idx.size() / 3):
				var k = idx[t * 3 + 1]
				idx[t * 3 + 1] = idx[t * 3 + 2]
				idx[t * 3 + 2] = k
			out["indices"] = idx
			var image = base_color_image(doc, bytes, bin, prim)
			if image != null:
				out["base_color"] = image
			prims.append(out)
	return {"primitives": prims}

# The primitive's base colour texture (PNG or JPEG in the .glb) as an Image, or null: the
# character's own look for the VAT's rest mesh, whose TEXCOORD_0 keeps the character's UVs.
func base_color_image(doc, bytes, bin, prim):
	if not prim.has("material") or not doc.has("materials") or not doc.has("textures"):
		return null
	var pbr = doc.materials[prim.material].get("pbrMetallicRoughness", {})
	if not pbr.has("baseColorTexture"):
		return null
	var tex = doc.textures[pbr.baseColorTexture.index]
	if not tex.has("source"):
		return null
	var img_doc = doc.images[tex.source]
	if not img_doc.has("bufferView"):
		return null
	var view = doc.bufferViews[img_doc.bufferView]
	var start = bin + int(view.get("byteOffset", 0))
	var data = bytes.subarray(start, start + int(view.byteLength) - 1)
	var image = Image.new()
	var err = image.load_jpg_from_buffer(data) if img_doc.get("mimeType", "") == "image/jpeg" else image.load_png_from_buffer(data)
	return image if err == OK else null

func read_accessor(spb, doc, bin, index, attr):
	var acc = doc.accessors[index]
	var view = doc.bufferViews[acc.bufferView]
	var start = bin + int(view.get("byteOffset", 0)) + int(acc.get("byteOffset", 0))
	var comps = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}[acc.type]
	var ct = int(acc.componentType)
	var size = {5121: 1, 5123: 2, 5125: 4, 5126: 4}[ct]
	var stride = int(view.get("byteStride", comps * size))
	var count = int(acc.count)
	var flat = []
	for i in range(count):
		spb.seek(start + i * stride)
		for _c in range(comps):
			if ct == 5126:
				flat.append(spb.get_float())
			elif ct == 5125:
				flat.append(spb.get_u32())
			elif ct == 5123:
				flat.append(spb.get_u16())
			else:
				flat.append(spb.get_u8())
	if attr == "POSITION" or attr == "NORMAL":
		var v3 = PoolVector3Array()
		for i in range(count):
			v3.append(Vector3(flat[i * 3], flat[i * 3 + 1], flat[i * 3 + 2]))
		return v3
	if attr.begins_with("TEXCOORD"):
		var v2 = PoolVector2Array()
		for i in range(count):
			v2.append(Vector2(flat[i * 2], flat[i * 2 + 1]))
		return v2
	if attr == "indices":
		return PoolIntArray(flat)
	return flat
