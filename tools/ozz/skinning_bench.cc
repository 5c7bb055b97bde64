// ozz-animation's SkinningJob on vkskin bench's CPU workload, the bar of the fast CPU engine
// (BENCHMARKS.md): 9990 vertices, 4 influences, 32 joints, positions + normals (no tangents),
// packed float3 (12-byte strides), one thread. Built against an ozz checkout by
// tools/scripts/bench_ozz.sh, which also runs vkskin bench by turns with it.
//   skinning_bench [distinct]   distinct: each of a measurement's 100 instances writes its
//                               own output (24 MB), as vkskin bench does
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

static double NowSec() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
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

int main(int argc, char** argv) {
  // "distinct": every instance of a measurement writes its own output, as vkskin bench does
  // (100 x 9990 vertices, 24 MB, touched before timing); otherwise one reused output.
  const bool distinct = argc > 1 && std::string(argv[1]) == "distinct";
  PrintSimd();

  // Vertex inputs.
  std::vector<float> in_pos(kVertices * 3), in_nrm(kVertices * 3);
  std::vector<uint16_t> indices(kVertices * kInfluences);
  std::vector<float> weights(kVertices * (kInfluences - 1));
  for (int v = 0; v < kVertices; ++v) {
    for (int c = 0; c < 3; ++c) in_pos[v * 3 + c] = Uniform(-1.f, 1.f);
    float n[3], len2;
    do {
      for (int c = 0; c < 3; ++c) n[c] = Uniform(-1.f, 1.f);
      len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    } while (len2 < 1e-2f || len2 > 1.f);
    const float inv = 1.f / std::sqrt(len2);
    for (int c = 0; c < 3; ++c) in_nrm[v * 3 + c] = n[c] * inv;
    for (int i = 0; i < kInfluences; ++i)
      indices[v * kInfluences + i] = uint16_t(NextU64() % kJoints);
    float r[kInfluences], sum = 0.f;
    for (int i = 0; i < kInfluences; ++i) sum += (r[i] = Uniform(0.05f, 1.f));
    for (int i = 0; i < kInfluences - 1; ++i)
      weights[v * (kInfluences - 1) + i] = r[i] / sum;  // sum of 3 < 1
  }

  // Joint matrix sets: random rotation (unit quaternion) + translation.
  std::vector<ozz::math::Float4x4> matrices(kMatrixSets * kJoints);
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

  const int outputs = distinct ? kInstancesPerMeasure : 1;
  std::vector<float> out_pos(size_t(kVertices) * 3 * outputs, 1.f),
      out_nrm(size_t(kVertices) * 3 * outputs, 1.f);

  ozz::geometry::SkinningJob job;
  job.vertex_count = kVertices;
  job.influences_count = kInfluences;
  job.joint_indices = ozz::make_span(indices);
  job.joint_indices_stride = sizeof(uint16_t) * kInfluences;
  job.joint_weights = ozz::make_span(weights);
  job.joint_weights_stride = sizeof(float) * (kInfluences - 1);
  job.in_positions = ozz::make_span(in_pos);
  job.in_positions_stride = sizeof(float) * 3;
  job.in_normals = ozz::make_span(in_nrm);
  job.in_normals_stride = sizeof(float) * 3;
  job.out_positions = ozz::make_span(out_pos);
  job.out_positions_stride = sizeof(float) * 3;
  job.out_normals = ozz::make_span(out_nrm);
  job.out_normals_stride = sizeof(float) * 3;

  auto set_matrices = [&](int set) {
    job.joint_matrices = ozz::span<const ozz::math::Float4x4>(
        matrices.data() + set * kJoints, kJoints);
  };
  set_matrices(0);
  if (!job.Validate()) {
    printf("Validate() FAILED\n");
    return 1;
  }
  printf("Validate(): true\n");

  // Correctness check of set 0 against a double-precision scalar reference.
  if (!job.Run()) { printf("Run failed\n"); return 1; }
  {
    double max_err = 0.;
    for (int v = 0; v < kVertices; ++v) {
      double w[kInfluences], s = 0.;
      for (int i = 0; i < kInfluences - 1; ++i)
        s += (w[i] = weights[v * (kInfluences - 1) + i]);
      w[kInfluences - 1] = 1. - s;
      double p[3] = {0, 0, 0}, n[3] = {0, 0, 0};
      for (int i = 0; i < kInfluences; ++i) {
        const ozz::math::Float4x4& m = matrices[indices[v * kInfluences + i]];
        float col[4][4];
        for (int c = 0; c < 4; ++c)
          ozz::math::StorePtrU(m.cols[c], col[c]);
        for (int r = 0; r < 3; ++r) {
          double pr = col[3][r], nr = 0.;
          for (int c = 0; c < 3; ++c) {
            pr += col[c][r] * double(in_pos[v * 3 + c]);
            nr += col[c][r] * double(in_nrm[v * 3 + c]);
          }
          p[r] += w[i] * pr;
          n[r] += w[i] * nr;
        }
      }
      for (int r = 0; r < 3; ++r) {
        max_err = std::max(max_err, std::fabs(p[r] - out_pos[v * 3 + r]));
        max_err = std::max(max_err, std::fabs(n[r] - out_nrm[v * 3 + r]));
      }
    }
    printf("max abs error vs double reference (set 0): %.3g\n", max_err);
    if (!(max_err < 1e-4)) { printf("REFERENCE MISMATCH\n"); return 1; }
  }

  int set = 0;
  auto run_instances = [&](int n) {
    for (int k = 0; k < n; ++k) {
      const size_t at = size_t(k % outputs) * kVertices * 3;
      job.out_positions = ozz::span<float>(out_pos.data() + at, kVertices * 3);
      job.out_normals = ozz::span<float>(out_nrm.data() + at, kVertices * 3);
      set_matrices(set);
      set = (set + 1) % kMatrixSets;
      if (!job.Run()) { printf("Run failed\n"); std::exit(1); }
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
