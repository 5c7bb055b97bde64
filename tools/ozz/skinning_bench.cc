// ozz-animation's SkinningJob on vkskin bench's CPU workload, the bar of the fast CPU engine
// (BENCHMARKS.md): 9990 vertices, 4 influences, 32 joints, positions + normals (no tangents),
// packed float3 (12-byte strides), one thread. Built against an ozz checkout by
// tools/scripts/bench_ozz.sh, which also runs vkskin bench by turns with it.
//   skinning_bench [distinct] [partitioned] [cputime]
//     distinct: each of a measurement's 100 instances writes its own output (24 MB), as vkskin
//       bench does
//     partitioned: the vertices of vkskin bench's character by the influences they use (135
//       with 1, 4860 with 2, 4455 with 3, 540 with 4: 2.54 a vertex), one SkinningJob per
//       influence count as ozz's own mesh format (ozz::sample::Mesh parts) runs them, instead
//       of 4 influences on every vertex: the loop-for-loop comparison with vkskin's runs
//     cputime: rates per second of the process's CPU time instead of wall time
// Prints RESULT best B median M (million vertex-instances per second, 7 measurements of 100
// instances after a warm-up); checks one instance against a double-precision reference.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <algorithm>
#include <string>
#include <vector>

#include "ozz/base/maths/quaternion.h"
#include "ozz/base/maths/simd_math.h"
#include "ozz/base/maths/vec_float.h"
#include "ozz/base/span.h"
#include "ozz/geometry/runtime/skinning_job.h"

static const int kVertices = 9990;
static const int kInfluences = 4;
static const int kJoints = 32;
static const int kMatrixSets = 100;
static const int kInstancesPerMeasure = 100;
static const int kMeasures = 7;

static uint64_t g_state = 0x9E3779B97F4A7C15ull;
static uint64_t NextU64() {  // splitmix64
  uint64_t z = (g_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static float Uniform(float lo, float hi) {
  return lo + (hi - lo) * float((NextU64() >> 40) * (1.0 / 16777216.0));
}

// Wall time, or with "cputime" the process's CPU time: on a machine shared with other work a
// measurement the scheduler interrupts loses its wall time but not its CPU time.
static clockid_t g_clock = CLOCK_MONOTONIC;
static double NowSec() {
  timespec ts;
  clock_gettime(g_clock, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void PrintSimd() {
  printf("SIMD macros:");
#ifdef OZZ_SIMD_REF
  printf(" OZZ_SIMD_REF");
#endif
#ifdef OZZ_SIMD_SSEx
  printf(" OZZ_SIMD_SSEx");
#endif
#ifdef OZZ_SIMD_SSE2
  printf(" SSE2");
#endif
#ifdef OZZ_SIMD_SSE3
  printf(" SSE3");
#endif
#ifdef OZZ_SIMD_SSSE3
  printf(" SSSE3");
#endif
#ifdef OZZ_SIMD_SSE4_1
  printf(" SSE4_1");
#endif
#ifdef OZZ_SIMD_SSE4_2
  printf(" SSE4_2");
#endif
#ifdef OZZ_SIMD_AVX
  printf(" AVX");
#endif
#ifdef OZZ_SIMD_AVX2
  printf(" AVX2");
#endif
#ifdef OZZ_SIMD_FMA
  printf(" FMA");
#endif
  printf("\n");
}

// One SkinningJob's vertices: [first, first + count) of the mesh with n influences each, ozz's
// layout (n joint indices, n - 1 weights: the last is 1 - their sum).
struct Part {
  int n, first, count;
  std::vector<uint16_t> indices;
  std::vector<float> weights;
  ozz::geometry::SkinningJob job;
};

// The mesh's vertices and each part's influences, drawn vertex by vertex (the one-part mesh of 4
// influences draws what this harness always drew).
static void MakeVertices(std::vector<Part>& parts, std::vector<float>& in_pos, std::vector<float>& in_nrm) {
  for (Part& part : parts) {
    part.indices.resize(size_t(part.count) * part.n);
    part.weights.resize(size_t(part.count) * (part.n - 1));
    for (int i = 0; i < part.count; ++i) {
      const int v = part.first + i;
      for (int c = 0; c < 3; ++c) in_pos[v * 3 + c] = Uniform(-1.f, 1.f);
      float n[3], len2;
      do {
        for (int c = 0; c < 3; ++c) n[c] = Uniform(-1.f, 1.f);
        len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
      } while (len2 < 1e-2f || len2 > 1.f);
      const float inv = 1.f / std::sqrt(len2);
      for (int c = 0; c < 3; ++c) in_nrm[v * 3 + c] = n[c] * inv;
      for (int k = 0; k < part.n; ++k)
        part.indices[i * part.n + k] = uint16_t(NextU64() % kJoints);
      float r[kInfluences], sum = 0.f;
      for (int k = 0; k < part.n; ++k) sum += (r[k] = Uniform(0.05f, 1.f));
      for (int k = 0; k < part.n - 1; ++k)
        part.weights[i * (part.n - 1) + k] = r[k] / sum;  // sum of n - 1 < 1
    }
  }
}

// Largest error of a part's outputs against a double-precision scalar reference.
static double PartError(const Part& part, const std::vector<ozz::math::Float4x4>& matrices,
                        const std::vector<float>& in_pos, const std::vector<float>& in_nrm,
                        const std::vector<float>& out_pos, const std::vector<float>& out_nrm) {
  double max_err = 0.;
  for (int i = 0; i < part.count; ++i) {
    const int v = part.first + i;
    double w[kInfluences], s = 0.;
    for (int k = 0; k < part.n - 1; ++k)
      s += (w[k] = part.weights[i * (part.n - 1) + k]);
    w[part.n - 1] = 1. - s;
    double p[3] = {0, 0, 0}, n[3] = {0, 0, 0};
    for (int k = 0; k < part.n; ++k) {
      const ozz::math::Float4x4& m = matrices[part.indices[i * part.n + k]];
      float col[4][4];
      for (int c = 0; c < 4; ++c)
        ozz::math::StorePtrU(m.cols[c], col[c]);
      for (int r = 0; r < 3; ++r) {
        double pr = col[3][r], nr = 0.;
        for (int c = 0; c < 3; ++c) {
          pr += col[c][r] * double(in_pos[v * 3 + c]);
          nr += col[c][r] * double(in_nrm[v * 3 + c]);
        }
        p[r] += w[k] * pr;
        n[r] += w[k] * nr;
      }
    }
    for (int r = 0; r < 3; ++r) {
      max_err = std::max(max_err, std::fabs(p[r] - out_pos[v * 3 + r]));
      max_err = std::max(max_err, std::fabs(n[r] - out_nrm[v * 3 + r]));
    }
  }
  return max_err;
}

// Random rotations (unit quaternions) and translations.
static void MakeMatrices(std::vector<ozz::math::Float4x4>& matrices) {
  for (auto& m : matrices) {
    float q[4], n2;
    do {
      for (int c = 0; c < 4; ++c) q[c] = Uniform(-1.f, 1.f);
      n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    } while (n2 < 1e-2f || n2 > 1.f);
    const float inv = 1.f / std::sqrt(n2);
    const ozz::math::Quaternion quat(q[0] * inv, q[1] * inv, q[2] * inv,
                                     q[3] * inv);
    const ozz::math::Float3 t(Uniform(-2.f, 2.f), Uniform(-2.f, 2.f),
                              Uniform(-2.f, 2.f));
    m = ozz::math::Float4x4::FromAffine(t, quat, ozz::math::Float3::one());
  }
}

int main(int argc, char** argv) {
  // "distinct": every instance of a measurement writes its own output, as vkskin bench does
  // (100 x 9990 vertices, 24 MB, touched before timing); otherwise one reused output.
  bool distinct = false, partitioned = false;
  for (int a = 1; a < argc; ++a) {
    distinct |= std::string(argv[a]) == "distinct";
    partitioned |= std::string(argv[a]) == "partitioned";
    if (std::string(argv[a]) == "cputime") g_clock = CLOCK_PROCESS_CPUTIME_ID;
  }
  PrintSimd();
  std::vector<Part> parts;
  if (partitioned) {  // vkskin bench's character: vertices by the slots they use
    const int counts[kInfluences] = {135, 4860, 4455, 540};
    for (int n = 1, first = 0; n <= kInfluences; first += counts[n - 1], ++n)
      parts.push_back(Part{n, first, counts[n - 1], {}, {}, {}});
  } else {
    parts.push_back(Part{kInfluences, 0, kVertices, {}, {}, {}});
  }
  printf("parts (influences x vertices):");
  for (const Part& part : parts) printf(" %dx%d", part.n, part.count);
  printf("\n");

  std::vector<float> in_pos(kVertices * 3), in_nrm(kVertices * 3);
  MakeVertices(parts, in_pos, in_nrm);
  std::vector<ozz::math::Float4x4> matrices(kMatrixSets * kJoints);
  MakeMatrices(matrices);

  const int outputs = distinct ? kInstancesPerMeasure : 1;
  std::vector<float> out_pos(size_t(kVertices) * 3 * outputs, 1.f),
      out_nrm(size_t(kVertices) * 3 * outputs, 1.f);

  // Each part's job: its vertices' inputs, influences and, per instance, outputs.
  auto set_outputs = [&](Part& part, size_t at) {
    const size_t from = at + size_t(part.first) * 3, n = size_t(part.count) * 3;
    part.job.out_positions = ozz::span<float>(out_pos.data() + from, n);
    part.job.out_normals = ozz::span<float>(out_nrm.data() + from, n);
  };
  auto set_matrices = [&](int set) {
    for (Part& part : parts)
      part.job.joint_matrices = ozz::span<const ozz::math::Float4x4>(matrices.data() + set * kJoints, kJoints);
  };
  for (Part& part : parts) {
    ozz::geometry::SkinningJob& job = part.job;
    const size_t from = size_t(part.first) * 3, n = size_t(part.count) * 3;
    job.vertex_count = part.count;
    job.influences_count = part.n;
    job.joint_indices = ozz::make_span(part.indices);
    job.joint_indices_stride = sizeof(uint16_t) * part.n;
    job.joint_weights = ozz::make_span(part.weights);
    job.joint_weights_stride = sizeof(float) * (part.n - 1);
    job.in_positions = ozz::span<const float>(in_pos.data() + from, n);
    job.in_positions_stride = sizeof(float) * 3;
    job.in_normals = ozz::span<const float>(in_nrm.data() + from, n);
    job.in_normals_stride = sizeof(float) * 3;
    job.out_positions_stride = sizeof(float) * 3;
    job.out_normals_stride = sizeof(float) * 3;
    set_outputs(part, 0);
  }
  set_matrices(0);
  for (Part& part : parts)
    if (!part.job.Validate()) {
      printf("Validate() FAILED\n");
      return 1;
    }
  printf("Validate(): true\n");

  // Correctness check of set 0 against a double-precision scalar reference.
  double max_err = 0.;
  for (Part& part : parts) {
    if (!part.job.Run()) { printf("Run failed\n"); return 1; }
    max_err = std::max(max_err, PartError(part, matrices, in_pos, in_nrm, out_pos, out_nrm));
  }
  printf("max abs error vs double reference (set 0): %.3g\n", max_err);
  if (!(max_err < 1e-4)) { printf("REFERENCE MISMATCH\n"); return 1; }

  int set = 0;
  auto run_instances = [&](int n) {
    for (int k = 0; k < n; ++k) {
      set_matrices(set);
      set = (set + 1) % kMatrixSets;
      for (Part& part : parts) {
        set_outputs(part, size_t(k % outputs) * kVertices * 3);
        if (!part.job.Run()) { printf("Run failed\n"); std::exit(1); }
      }
    }
  };

  // Warm-up.
  run_instances(3 * kInstancesPerMeasure);

  std::vector<double> rates;
  for (int m = 0; m < kMeasures; ++m) {
    const double t0 = NowSec();
    run_instances(kInstancesPerMeasure);
    const double dt = NowSec() - t0;
    rates.push_back(double(kInstancesPerMeasure) * kVertices / dt / 1e6);
  }

  double checksum = 0.;
  bool finite = true;
  for (int i = 0; i < kVertices * 3; ++i) {
    finite = finite && std::isfinite(out_pos[i]) && std::isfinite(out_nrm[i]);
    checksum += out_pos[i] + 0.5 * out_nrm[i];
  }
  printf("outputs finite: %s, checksum: %.6f\n", finite ? "yes" : "NO",
         checksum);

  printf("per-measurement Mvi/s:");
  for (double r : rates) printf(" %.2f", r);
  printf("\n");
  std::vector<double> sorted = rates;
  std::sort(sorted.begin(), sorted.end());
  printf("RESULT best %.2f median %.2f Mvertex-instances/s\n", sorted.back(),
         sorted[kMeasures / 2]);
  return finite ? 0 : 1;
}
