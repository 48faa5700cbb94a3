#include "smoke/matmul_reference.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

namespace gpudoctor::smoke {

namespace {

/// Numerical Recipes' LCG; the top 24 bits make a float in [-1, 1) with no rounding.
class Lcg {
 public:
  explicit Lcg(std::uint32_t seed) : state_(seed) {}
  float next() {
    state_ = state_ * 1664525u + 1013904223u;
    const auto top = static_cast<std::int32_t>(state_ >> 8);  // 0 .. 2^24-1
    return static_cast<float>(top - (1 << 23)) / static_cast<float>(1 << 23);
  }

 private:
  std::uint32_t state_;
};

}  // namespace

MatmulInputs matmul_inputs(int n) {
  MatmulInputs in;
  in.n = n > 0 ? n : 0;
  const auto count = static_cast<std::size_t>(in.n) * static_cast<std::size_t>(in.n);
  in.a.resize(count);
  in.b.resize(count);
  Lcg ga(0x6770756eu);  // "gpun"
  Lcg gb(0x646f6374u);  // "doct"
  for (auto& x : in.a) x = ga.next();
  for (auto& x : in.b) x = gb.next();
  return in;
}

MatmulReference matmul_reference(const MatmulInputs& in) {
  MatmulReference ref;
  const auto n = static_cast<std::size_t>(in.n);
  ref.n = in.n;
  ref.c.assign(n * n, 0.0);
  std::vector<double> mag(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < n; ++k) {
      const double a = in.a[i * n + k];
      for (std::size_t j = 0; j < n; ++j) {
        const double p = a * static_cast<double>(in.b[k * n + j]);
        ref.c[i * n + j] += p;
        mag[i * n + j] += std::fabs(p);
      }
    }
  }
  for (std::size_t i = 0; i < n * n; ++i) {
    ref.max_magnitude = std::max(ref.max_magnitude, mag[i]);
    ref.max_abs_value = std::max(ref.max_abs_value, std::fabs(ref.c[i]));
  }
  return ref;
}

std::vector<float> matmul_fp32(const MatmulInputs& in) {
  const auto n = static_cast<std::size_t>(in.n);
  std::vector<float> c(n * n, 0.0f);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (std::size_t k = 0; k < n; ++k) acc += in.a[i * n + k] * in.b[k * n + j];
      c[i * n + j] = acc;
    }
  }
  return c;
}

MatmulCheck check_matmul(const MatmulReference& ref, const std::vector<float>& c) {
  MatmulCheck out;
  out.tolerance = static_cast<double>(ref.n) * FLT_EPSILON * ref.max_magnitude;
  if (c.size() != ref.c.size()) {
    out.max_abs_error = std::numeric_limits<double>::infinity();
    out.max_rel_error = out.max_abs_error;
    out.wrong = ref.c.size();
    return out;
  }
  for (std::size_t i = 0; i < c.size(); ++i) {
    const double v = c[i];
    double err = std::fabs(v - ref.c[i]);
    if (!std::isfinite(v) || !std::isfinite(err)) err = std::numeric_limits<double>::infinity();
    if (!out.worst || err > out.max_abs_error) {
      out.worst = i;
      out.max_abs_error = err;
    }
    if (!(err <= out.tolerance)) {
      if (!out.first_wrong) out.first_wrong = i;
      ++out.wrong;
    }
  }
  out.max_rel_error =
      ref.max_abs_value > 0 ? out.max_abs_error / ref.max_abs_value : out.max_abs_error;
  out.pass = out.wrong == 0;
  return out;
}

PaddedLayout padded_layout(int n, int tile) {
  constexpr int kRowPad = 16;
  PaddedLayout l;
  l.padded = (n + tile - 1) / tile * tile;
  l.ld = l.padded + kRowPad;
  l.bytes = static_cast<std::size_t>(l.padded) * static_cast<std::size_t>(l.ld) * sizeof(float);
  return l;
}

std::vector<float> pad_matrix(const std::vector<float>& m, int n, int rows, int ld) {
  std::vector<float> out(static_cast<std::size_t>(rows) * static_cast<std::size_t>(ld), 0.0f);
  for (int i = 0; i < n; ++i) {
    std::copy_n(m.begin() + static_cast<std::ptrdiff_t>(i) * n, n,
                out.begin() + static_cast<std::ptrdiff_t>(i) * ld);
  }
  return out;
}

std::vector<float> unpad_matrix(const std::vector<float>& m, int n, int ld) {
  std::vector<float> out(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    std::copy_n(m.begin() + static_cast<std::ptrdiff_t>(i) * ld, n,
                out.begin() + static_cast<std::ptrdiff_t>(i) * n);
  }
  return out;
}

std::optional<double> matmul_gflops(int n, double ms) {
  if (!(ms > 0) || n <= 0) return std::nullopt;
  const double flops = 2.0 * static_cast<double>(n) * n * n;
  return flops / (ms * 1e-3) / 1e9;
}

}  // namespace gpudoctor::smoke
