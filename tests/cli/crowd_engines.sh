# Helpers for the crowd tests that hold every engine to one result (sourced, not run): a
# one-curve CTR clip written on the spot, and a comparison of two raw vertex outputs.

# cskla_linear NAME BONE CHANNEL AXIS FRAMES V0 V1 [AXIS2 C2]...: a CTR skeletal clip (.cskla)
# of FRAMES frames whose BONE's CHANNEL (Rotate, Scale or Translate) AXIS (X, Y or Z) runs
# linearly from V0 at frame 0 to V1 at the last; each AXIS2 given holds its C2 throughout.
cskla_linear() {
  local name=$1 bone=$2 ch=$3 ax=$4 frames=$5 v0=$6 v1=$7 hold=""
  local curve='StartFrame="0" EndFrame="'$frames'" PreRepeatMethod="None" PostRepeatMethod="None"'
  shift 7
  while [ $# -ge 2 ]; do
    hold="$hold<${1}SegmentsFloatCurve $curve><Segments><LinearFloatSegment><Keys>
<LinearFloatKey Frame=\"0\" Value=\"$2\" /></Keys></LinearFloatSegment></Segments></${1}SegmentsFloatCurve>"
    shift 2
  done
  cat <<EOT
<?xml version="1.0" encoding="utf-8"?>
<NintendoWareIntermediateFile><GraphicsContentCtr Version="1.3.0" Namespace="">
<Animations><SkeletalAnimationData Name="$name" FrameSize="$frames" LoopMode="OneTime"><MemberAnimationDataSet>
<MemberAnimationData><Path>Bones["$bone"]</Path><TransformAnimation><${ch}Vector3Animation>
<${ax}SegmentsFloatCurve $curve><Segments><LinearFloatSegment><Keys>
<LinearFloatKey Frame="0" Value="$v0" /><LinearFloatKey Frame="$frames" Value="$v1" /></Keys></LinearFloatSegment></Segments></${ax}SegmentsFloatCurve>
$hold
</${ch}Vector3Animation></TransformAnimation></MemberAnimationData>
</MemberAnimationDataSet></SkeletalAnimationData></Animations></GraphicsContentCtr></NintendoWareIntermediateFile>
EOT
}

# raw_close A B: whether raw outputs A and B (float32 x y z nx ny nz) have the same length and
# positions within validate's 3e-5 of the scale (A's largest coordinate, at least 1) and normals
# within 1e-4 + 1e-5 relative; says the worst difference otherwise.
raw_close() {
  python3 - "$1" "$2" <<'PY'
import array, sys
a, b = array.array('f'), array.array('f')
a.frombytes(open(sys.argv[1], 'rb').read())
b.frombytes(open(sys.argv[2], 'rb').read())
if len(a) != len(b) or not a:
    sys.exit("%s: %d floats, %s: %d" % (sys.argv[1], len(a), sys.argv[2], len(b)))
scale = max(1.0, max(abs(a[i]) for i in range(len(a)) if i % 6 < 3))
worst = [0.0, 0.0]
for i, (x, y) in enumerate(zip(a, b)):
    n = i % 6 >= 3
    d = abs(x - y) if x == x and y == y else float('inf')
    bound = (1e-4 + 1e-5 * abs(x)) if n else 3e-5 * scale
    worst[n] = max(worst[n], d / bound)
if max(worst) > 1:
    sys.exit("%s and %s differ: positions %.3g, normals %.3g of the tolerance" % (sys.argv[1], sys.argv[2], worst[0], worst[1]))
PY
}
