# Crowds of a vkskin bake in Godot 3 (docs/baking.md "Play a crowd in your engine", Godot): the player's
# meshes (vkskin_vat_player.gd) turned into MultiMeshInstances, one draw each for every
# instance, each instance playing its own clip from its own offset at its own speed, crossfading
# to a second clip, from its custom data (vkskin_vat.shader and vkskin_atlas.shader describe
# INSTANCE_CUSTOM; the clip table is a texture, as Godot 3 shaders have no uniform arrays).
extends Reference

# The clip table: one RGBA float texel per clip of the sidecar (row, frame_count, loop, fps).
static func clip_table(sidecar):
	var img = Image.new()
	img.create(sidecar.clips.size(), 1, false, Image.FORMAT_RGBAF)
	img.lock()
	for i in range(sidecar.clips.size()):
		var c = sidecar.clips[i]
		img.set_pixel(i, 0, Color(c.row, c.frame_count, 1.0 if c.loop else 0.0, c.fps))
	img.unlock()
	var tex = ImageTexture.new()
	tex.create_from_image(img, 0) # no filter, no mip-maps: read with texelFetch
	return tex

# Each instance's custom data, Color(clip + 256 * second clip, offset s, speed, second's weight),
# drawn from a seeded generator: a random clip, phase and speed, a quarter crossfading. The
# sampled instance plays clip `clip_index` alone and reaches `frame` at crowd time `time`.
static func playback(sidecar, count, seed_value, sampled, clip_index, frame, time):
	var rng = RandomNumberGenerator.new()
	rng.seed = seed_value
	var n = sidecar.clips.size()
	var out = []
	for i in range(count):
		var clip = rng.randi_range(0, n - 1)
		var c = sidecar.clips[clip]
		var offset = rng.randf() * float(c.frame_count) / float(c.fps)
		var speed = rng.randf_range(0.8, 1.25)
		var second = clip
		var weight = 0.0
		if n > 1 and rng.randf() < 0.25:
			second = (clip + 1 + rng.randi_range(0, n - 2)) % n
			weight = rng.randf_range(0.1, 0.9)
		if i == sampled:
			clip = int(clamp(clip_index, 0, n - 1))
			second = clip
			weight = 0.0
			offset = frame / float(sidecar.clips[clip].fps) - speed * time
		out.append(Color(clip + 256 * second, offset, speed, weight))
	return out

# Replaces node's MeshInstance children by MultiMeshInstances of `count` instances. Without a
# sampled instance (-1) they stand on a square grid and the camera steps back to see them all;
# with one, it stands where the single character stood and the others behind the camera.
static func build(node, sidecar, materials, count, seed_value, sampled, clip_index, frame, time, camera):
	var table = clip_table(sidecar)
	# the material's own clip and frame are not what the sampled instance plays: a shader that
	# read them instead of the instance's data would draw another pose
	var other = sidecar.clips[(int(clip_index) + 1) % sidecar.clips.size()]
	for m in materials:
		m.set_shader_param("per_instance", true)
		m.set_shader_param("clip_table", table)
		m.set_shader_param("crowd_time", time)
		m.set_shader_param("clip", Plane(other.row, other.frame_count, 1.0 if other.loop else 0.0, other.fps))
		m.set_shader_param("frame", frame + 5.0)
	var play = playback(sidecar, count, seed_value, sampled, clip_index, frame, time)
	var size = Vector3()
	for child in node.get_children():
		if child is MeshInstance:
			if size == Vector3():
				size = child.get_aabb().size
	var spacing = 1.3 * max(size.x, size.z)
	var side = int(ceil(sqrt(count)))
	var behind = camera.global_transform.origin + camera.global_transform.basis.z * (2.0 * spacing + 1.0)
	for child in node.get_children():
		if not child is MeshInstance:
			continue
		var mm = MultiMesh.new()
		mm.transform_format = MultiMesh.TRANSFORM_3D
		mm.custom_data_format = MultiMesh.CUSTOM_DATA_FLOAT
		mm.mesh = child.mesh
		mm.instance_count = count
		for i in range(count):
			var at = Vector3((i % side - (side - 1) * 0.5) * spacing, 0.0, (i / side - (side - 1) * 0.5) * spacing)
			if sampled >= 0:
				at = Vector3() if i == sampled else behind + Vector3((i % side) * spacing, 0.0, (i / side) * spacing)
			mm.set_instance_transform(i, Transform(Basis(), at))
			mm.set_instance_custom_data(i, play[i])
		var mmi = MultiMeshInstance.new()
		mmi.multimesh = mm
		mmi.scale = child.scale # a left-handed file's mirror (vkskin_vat_player.gd)
		mmi.extra_cull_margin = 16384.0 # neither the rest pose's bounds nor the instances' are the animation's
		node.remove_child(child)
		child.queue_free()
		node.add_child(mmi)
	if sampled < 0:
		camera.translate(Vector3(0.0, 0.0, side * spacing))
		camera.far += 2.0 * side * spacing
