#!/usr/bin/env bash
# vkskin bake's split VATs (README "Engine limits"; issue 26, item 3): a job whose VAT is taller
# than "max_height" is still refused by default, the message naming "split"; with "split": true
# (or --split, the same bytes) its frames go to several textures NAME.vat.pos.f32_part0.exr,
# _part1, ..., each as tall as max_height allows, and every part's texels are the rows of the
# unsplit bake (a job with a max_height that fits) that its frames had: EXR float and half
# scanlines byte for byte, 16-bit PNG rows code for code, plain and padded to powers of two with
# rows wrapped. The sidecar says which frames each part holds, its height and files, each clip
# frame's part and row, and validates against docs/schema/bake_sidecar.schema.json; the decode
# test reads every part back through the sidecar alone against the CPU reference. A frame
# whose own rows are over max_height is refused even split.
# Exit 77 without OpenEXR, or (after every other check passed) without python3's jsonschema.
#   cli_bake_split.sh VKSKIN TEST_VAT_DECODE
set -u
vk=$1
decode=$2
src=${VKSKIN_SOURCE_DIR:?}
d=$src/datasets
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
cd "$tmp"

cat > probe.json <<JSON
{"jobs": [{"model": "$d/char_b24_pl8.cmdl", "clips": ["$d/char_b24_pl8.cmdl.walk.cskla"],
           "range": [0, 0.1], "outputs": ["vat-exr-float"]}]}
JSON
if "$vk" bake probe.json --cpu --out probe 2>&1 | grep -q "without OpenEXR"; then
    echo "skipped: vkskin was built without OpenEXR (install libopenexr-dev)"
    exit 77
fi

# the jobs: the NIF's wave (61 frames at 30 fps) and walk (31): 92 frames of 1562 vertices.
# "flat": one row a frame, 40 rows a texture: 3 parts (40, 40, 12 frames). "wrapped": rows of
# 512 (pow2 within max_width 1000), 4 rows a frame, 32 rows (pow2 within 40): 8 frames a part.
# "bones": the bone atlas, a row a frame: 3 parts as "flat".
manifest() { # manifest FILE MAX_HEIGHT SPLIT
    cat > "$1" <<JSON
{"defaults": {"max_height": $2, "outputs": ["vat-exr-float", "vat-exr-half", "vat-png16"]$3},
 "jobs": [{"name": "flat", "model": "$d/char_b24_pl8.nif",
           "clips": ["$d/char_b24_pl8.nif.wave.kf", "$d/char_b24_pl8.nif.walk.kf"]},
          {"name": "wrapped", "model": "$d/char_b24_pl8.nif", "max_width": 1000, "pow2": true,
           "clips": ["$d/char_b24_pl8.nif.wave.kf", "$d/char_b24_pl8.nif.walk.kf"]},
          {"name": "bones", "model": "$d/char_b24_pl8.nif", "outputs": ["atlas"],
           "clips": ["$d/char_b24_pl8.nif.wave.kf", "$d/char_b24_pl8.nif.walk.kf"]}]}
JSON
}
manifest whole.json 16384 ""
manifest tall.json 40 ""
manifest split.json 40 ', "split": true'

# 1. refused by default, before any work, naming the option
"$vk" bake tall.json --cpu --out tall 2> tall.log; rc=$?
check "over max_height without split: refused (exit 1)" "[ $rc -eq 1 ] && [ -z \"\$(ls tall 2>/dev/null)\" ]"
check "... the message names \"split\" and --split" \
    "grep -q 'tall.json: jobs\[0\]: the VAT of 1562 vertices x 92 frames is 1562 x 92 texels (1 row per frame), over \"max_height\" 40: .*set \"split\": true (--split) to spread its frames over several textures' tall.log"
check "... for the atlas too" \
    "grep -q 'tall.json: jobs\[2\]: the bone atlas of 24 bones x 92 frames is 72 x 92 texels, over \"max_height\" 40: .*set \"split\": true (--split)' tall.log"

# 2. split: by the manifest and by the command line, the same bytes
"$vk" bake whole.json --cpu --out whole 2> whole.log; rc=$?
check "the unsplit bake (max_height 16384) exits 0" "[ $rc -eq 0 ]"
"$vk" bake split.json --cpu --out split 2> split.log; rc=$?
check "\"split\": true bakes what was refused (exit 0)" "[ $rc -eq 0 ]"
"$vk" bake tall.json --cpu --split --out cli 2> cli.log; rc=$?
check "--split too (exit 0)" "[ $rc -eq 0 ]"
check "... the same files as \"split\": true" \
    "[ \"\$(cd split && ls | grep -v json$)\" = \"\$(cd cli && ls | grep -v json$)\" ] && \
     for f in split/*part*; do cmp -s \$f cli/\${f#split/} || exit 1; done"
check "flat: 3 parts of each stream and encoding" \
    "[ \$(ls split/flat.vat.pos.f32_part*.exr | wc -l) -eq 3 ] && [ -s split/flat.vat.nrm.f16_part2.exr ] && [ -s split/flat.vat.pos_part2.png ] && [ ! -e split/flat.vat.pos.f32.exr ]"
check "wrapped: 12 parts" "[ \$(ls split/wrapped.vat.pos.f32_part*.exr | wc -l) -eq 12 ]"
check "bones: 3 atlas parts" "[ \$(ls split/bones.atlas_part*.exr | wc -l) -eq 3 ] && [ ! -e split/bones.atlas.exr ]"

# 3. each part's texels are the unsplit bake's rows of its frames; the sidecars say where
python3 - "$src/docs/schema/bake_sidecar.schema.json" <<'PY' > texels.log 2>&1
import json, struct, sys, zlib

def exr_lines(path):
    """Scanline data of an uncompressed EXR, by line: the bytes of every channel of the line."""
    b = open(path, 'rb').read()
    i, attrs = 8, {}
    while b[i] != 0:
        n = b.index(b'\0', i); name = b[i:n].decode(); i = n + 1
        n = b.index(b'\0', i); i = n + 1
        size = struct.unpack_from('<i', b, i)[0]; i += 4
        attrs[name] = b[i:i + size]; i += size
    i += 1
    assert attrs['compression'] == b'\0', path
    x0, y0, x1, y1 = struct.unpack('<4i', attrs['dataWindow'])
    offsets = struct.unpack_from('<%dQ' % (y1 - y0 + 1), b, i)
    lines = []
    for o in offsets:
        y, size = struct.unpack_from('<ii', b, o)
        lines.append(b[o + 8:o + 8 + size])
    return x1 - x0 + 1, lines

def png_rows(path):
    """Rows of a 16-bit RGB PNG, unfiltered bytes."""
    b = open(path, 'rb').read()
    i, idat, w, h = 8, b'', 0, 0
    while i < len(b):
        n, t = struct.unpack_from('>I4s', b, i)
        data = b[i + 8:i + 8 + n]
        if t == b'IHDR':
            w, h, depth, ctype = struct.unpack_from('>IIBB', data)
            assert depth == 16 and ctype == 2, path
        elif t == b'IDAT':
            idat += data
        i += 12 + n
    raw, stride, bpp = zlib.decompress(idat), w * 6, 6
    rows, prev, p = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[p], bytearray(raw[p + 1:p + 1 + stride]); p += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            c = prev[x - bpp] if x >= bpp else 0
            up = prev[x]
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + up) & 255
            elif f == 3: line[x] = (line[x] + (a + up) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(up - c), abs(a - c), abs(a + up - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else up if pb <= pc else c)) & 255
        rows.append(bytes(line)); prev = line
    return rows

bad = 0
def no(msg):
    global bad
    print('FAIL:', msg); bad = 1

schema = json.load(open(sys.argv[1]))
try:
    import jsonschema
except ImportError:
    jsonschema = None
    print('note: no jsonschema')
checked = 0
for job, per_part, parts in (('flat', 40, 3), ('wrapped', 8, 12), ('bones', 40, 3)):
    kinds = (('atlas', exr_lines),) if job == 'bones' else \
        (('vat-exr-float', exr_lines), ('vat-exr-half', exr_lines), ('vat-png16', png_rows))
    for kind, read in kinds:
        s = json.load(open('split/%s.%s.json' % (job, kind)))
        w = json.load(open('whole/%s.%s.json' % (job, kind)))
        lay, rpf = s['layout'], s['layout']['rows_per_frame']
        if jsonschema:
            for e in jsonschema.Draft7Validator(schema).iter_errors(s):
                no('%s %s: %s: %s' % (job, kind, '/'.join(map(str, e.absolute_path)), e.message))
        if lay.get('frames_per_part') != per_part or len(lay.get('parts', [])) != parts:
            no('%s %s: frames_per_part %s, %d parts' % (job, kind, lay.get('frames_per_part'), len(lay.get('parts', []))))
            continue
        if lay['width'] != w['layout']['width'] or rpf != w['layout']['rows_per_frame'] or lay['height'] > 40:
            no('%s %s: layout %s against the whole %s' % (job, kind, lay, w['layout']))
        # the clip table: every frame in its part at its row
        for c in s['clips']:
            for f, fr in enumerate(c['frames']):
                g = c['first_frame'] + f
                if fr['part'] != g // per_part or fr['row'] != (g % per_part) * rpf:
                    no('%s %s: clip %s frame %d at part %s row %s' % (job, kind, c['name'], f, fr['part'], fr['row']))
        if s.get('bounds') != w.get('bounds'):
            no('%s %s: bounds differ from the whole bake\'s' % (job, kind))
        files = {f['path'] for f in s['files']}
        next_frame = 0
        for p in lay['parts']:
            if p['first_frame'] != next_frame or p['height'] != lay['height']:
                no('%s %s: part %s' % (job, kind, p))
            next_frame = p['first_frame'] + p['frame_count']
            for stream in ('matrices',) if kind == 'atlas' else ('position', 'normal'):
                if p[stream] not in files:
                    no('%s %s: %s not among the files' % (job, kind, p[stream]))
                role = 'bone matrices' if kind == 'atlas' else stream
                whole_file = [f['path'] for f in w['files'] if f['role'] == role][0]
                got, want = read('split/' + p[stream]), read('whole/' + whole_file)
                if kind != 'vat-png16':
                    got, want = got[1], want[1]
                if len(got) != lay['height']:
                    no('%s: %d rows, height %d' % (p[stream], len(got), lay['height']))
                r0, n = p['first_frame'] * rpf, p['frame_count'] * rpf
                if got[:n] != want[r0:r0 + n]:
                    no('%s: its rows are not rows %d..%d of %s' % (p[stream], r0, r0 + n - 1, whole_file))
                checked += 1
        if next_frame != 92:
            no('%s %s: the parts hold %d frames, not 92' % (job, kind, next_frame))
print('%d part textures compared' % checked)
sys.exit(bad)
PY
rc=$?
cat texels.log
check "every part's texels are the unsplit bake's rows; the sidecars say where (and follow the schema)" \
    "[ $rc -eq 0 ] && grep -q '^93 part textures compared' texels.log"

# 4. the decode test reads the parts through the sidecars alone (the rest meshes' UVs on frame
#    0 of a part 40 or 32 rows tall)
"$decode" split "$tmp" > decode.log 2>&1; rc=$?
check "the decode test reads every split output: $(tail -n 1 decode.log)" \
    "[ $rc -eq 0 ] && grep -q 'test_vat_decode: 7 outputs decoded' decode.log"

# 5. the rest mesh addresses frame 0 of a part: vertex 0's vt is 1 - 0.5 / 40 in the OBJ
v0=$(grep -m1 '^vt ' split/flat.vat.obj | cut -d' ' -f3)
check "the rest mesh's v is that of a part 40 rows tall ($v0)" \
    "python3 -c 'import sys; sys.exit(abs($v0 - (1 - 0.5 / 40)) > 1e-6)'"

# 6. a re-run is up to date
"$vk" bake split.json --cpu --out split 2> again.log; rc=$?
check "a split bake run again is up to date" "[ $rc -eq 0 ] && grep -q '0 baked, 3 up to date, 0 failed' again.log"

# 7. a frame taller than max_height alone: refused even split
cat > narrow.json <<JSON
{"jobs": [{"model": "$d/char_b24_pl8.nif", "clips": ["$d/char_b24_pl8.nif.wave.kf"], "max_width": 100,
           "max_height": 10, "split": true, "outputs": ["vat-exr-half"]}]}
JSON
"$vk" bake narrow.json --cpu --out narrow 2> narrow.log; rc=$?
check "one frame over max_height is refused even split (exit 1)" \
    "[ $rc -eq 1 ] && grep -q 'narrow.json: jobs\[0\]: one frame of the VAT of 1562 vertices is 16 rows of 100 texels, over \"max_height\" 10 even split' narrow.log"

if [ $fail -eq 0 ] && grep -q '^note: no jsonschema' texels.log; then
    echo "skipped: python3 jsonschema is not installed (tools/scripts/setup.sh): the schema is not checked"
    exit 77
fi
exit $fail
