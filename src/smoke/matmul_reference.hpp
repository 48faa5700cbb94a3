#pragma once
// The smoke matmul every backend runs (CUDA now; OpenCL, Vulkan, HIP later): the same
// deterministic inputs, one CPU reference, one verdict with a stated tolerance.
#include <cstddef>
#include <optional>
#include <vector>

namespace gpudoctor::smoke {

/// n×n row-major single-precision matrices A and B, the same on every machine and run.
struct MatmulInputs {
  int n = 0;
  std::vector<float> a;
  std::vector<float> b;
};

/// Entries are multiples of 2^-23 in [-1, 1) from a fixed linear congruential generator, so
/// they are exact in fp32 and independent of the platform's libm or rand().
MatmulInputs matmul_inputs(int n);

/// C = A·B accumulated in double, and for each entry Σ|a_ik·b_kj|, the scale its rounding
/// error is bounded by.
struct MatmulReference {
  int n = 0;
  std::vector<double> c;
  double max_magnitude = 0;  ///< the largest Σ|a_ik·b_kj| over all entries
  double max_abs_value = 0;  ///< the largest |c_ij|
};
MatmulReference matmul_reference(const MatmulInputs& in);

/// The product as a plain fp32 loop computes it (k in order); what a correct device returns up to
/// rounding. For tests and for CPU baselines.
std::vector<float> matmul_fp32(const MatmulInputs& in);

struct MatmulCheck {
  bool pass = false;
  double max_abs_error = 0;  ///< max |c_ij − ref_ij|; +inf when an entry is NaN or infinite
  double max_rel_error = 0;  ///< max_abs_error relative to the largest reference entry
  double tolerance = 0;      ///< n · FLT_EPSILON · max Σ|a_ik·b_kj|
  std::size_t wrong = 0;     ///< entries beyond the tolerance
  std::optional<std::size_t> first_wrong;  ///< row-major index of the first one
  std::optional<std::size_t> worst;        ///< row-major index of the largest error
};

/// An fp32 dot product of length n is within γ_n·Σ|a||b| of the exact value (γ_n ≈ n·2^-24,
/// Higham, Accuracy and Stability of Numerical Algorithms, §3.1); the tolerance allows twice
/// that at the largest magnitude, so any order of summation, FMA or not, passes, and a wrong
/// entry (a lost tile, a stale buffer, a bad bit) fails. A result of the wrong size fails.
MatmulCheck check_matmul(const MatmulReference& ref, const std::vector<float>& c);

/// How the OpenCL and Vulkan runners lay out an n×n matrix for a kernel of `tile`-sized tiles:
/// `padded` rows (n rounded up to the tile) of `ld` floats, 16 (64 bytes) more than `padded`, so
/// that rows do not all fall into the same cache set and OpenCL's vloadN stays aligned; `bytes`
/// for the whole matrix.
struct PaddedLayout {
  int padded = 0;
  int ld = 0;
  std::size_t bytes = 0;
};
PaddedLayout padded_layout(int n, int tile);

/// An n×n row-major matrix in the top-left corner of a zeroed rows×ld one (rows, ld ≥ n): how
/// runners pad to their kernel's tile and row stride.
std::vector<float> pad_matrix(const std::vector<float>& m, int n, int rows, int ld);

/// The top-left n×n corner of a matrix whose rows are ld floats apart.
std::vector<float> unpad_matrix(const std::vector<float>& m, int n, int ld);

/// 2n³ floating-point operations in `ms` milliseconds, in GFLOP/s; nullopt for ms ≤ 0.
std::optional<double> matmul_gflops(int n, double ms);

}  // namespace gpudoctor::smoke
