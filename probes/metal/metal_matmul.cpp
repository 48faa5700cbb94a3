#include "metal/metal_matmul.hpp"

#include <cstring>
#include <vector>

#include "metal/matmul_msl.hpp"
#include "smoke/matmul_reference.hpp"
#include "smoke/smoke_verdict.hpp"
#include "smoke/timed_runs.hpp"

namespace gpudoctor::metal {

namespace {

constexpr std::uint64_t kThreadsPerGroup = kMatmulTile * kMatmulTile;

/// A, B and C in shared buffers the CPU writes and reads directly.
struct Buffers {
  std::vector<Held> held;
  std::string error;
};

Buffers make_buffers(MetalCalls& calls, Object device, const std::vector<float>& a,
                     const std::vector<float>& b, std::size_t bytes) {
  Buffers out;
  const std::vector<float> zero(bytes / sizeof(float), 0.0f);
  for (const std::vector<float>* m : {&a, &b, &zero}) {
    Made made = calls.new_buffer(device, m->data(), bytes);
    if (made.object == nullptr) {
      out.error = made.error;
      out.held.clear();
      return out;
    }
    out.held.emplace_back(calls, made.object);
  }
  return out;
}

/// The verdict and timing of a run whose C is in `result` (a shared buffer's contents).
void finish(SmokeResult& r, const smoke::MatmulRequest& req, const smoke::MatmulInputs& in,
            const smoke::PaddedLayout& layout, const smoke::TimedRuns& timed,
            const void* result) {
  if (timed.error) return smoke::record_failure(r, *timed.error);
  if (result == nullptr) {
    return smoke::record_failure(r, "the result buffer has no CPU-visible contents");
  }
  const auto* data = static_cast<const float*>(result);
  const std::vector<float> c(data, data + layout.bytes / sizeof(float));
  smoke::record_output(r, req, in, c, layout.ld, timed);
}

}  // namespace

MetalMatmul::MetalMatmul(MetalCalls& calls, Object device, std::string label,
                         MatmulEngine engine, std::optional<std::uint64_t> max_buffer_bytes)
    : calls_(calls), device_(device), engine_(engine), max_buffer_bytes_(max_buffer_bytes) {
  base_.api = "metal";
  base_.device = std::move(label);
  base_.kernel = engine == MatmulEngine::kernel ? kKernelDescription : kMpsDescription;
  setup();
}

void MetalMatmul::setup() {
  if (engine_ == MatmulEngine::mps) {
    if (auto why = calls_.mps_unavailable(device_)) return smoke::record_skip(base_, *why);
  }
  Made queue = calls_.new_queue(device_);
  if (queue.object == nullptr) return smoke::record_failure(base_, queue.error);
  queue_ = queue.object;
  if (engine_ == MatmulEngine::kernel) {
    Made pipeline = calls_.new_pipeline(device_, kMatmulSource, kMatmulFunction);
    if (pipeline.object == nullptr) return smoke::record_failure(base_, pipeline.error);
    pipeline_ = pipeline.object;
    const std::uint64_t max_threads = calls_.pipeline_max_threads(pipeline_);
    if (max_threads < kThreadsPerGroup) {
      return smoke::record_skip(
          base_, "the compiled kernel allows " + std::to_string(max_threads) +
                     " threads per threadgroup (maxTotalThreadsPerThreadgroup); it needs " +
                     std::to_string(kThreadsPerGroup));
    }
  }
  ready_ = true;
}

MetalMatmul::~MetalMatmul() {
  if (pipeline_ != nullptr) calls_.release(pipeline_);
  if (queue_ != nullptr) calls_.release(queue_);
}

SmokeResult MetalMatmul::run(const smoke::MatmulRequest& req) {
  SmokeResult r = smoke::start_run(base_, req.n);
  if (!ready_ || r.status == "skip" || r.status == "fail") return r;
  // The kernel takes whole tiles; MPS any n, with rows 16 floats (64 bytes) longer like the
  // kernel's, so that the two series lay memory out the same way.
  const smoke::PaddedLayout layout =
      smoke::padded_layout(req.n, engine_ == MatmulEngine::kernel ? kMatmulTile : 1);
  if (max_buffer_bytes_ && layout.bytes > *max_buffer_bytes_) {
    smoke::record_skip(r, "a " + std::to_string(layout.padded) + "x" +
                              std::to_string(layout.padded) + " matrix exceeds maxBufferLength");
    return r;
  }
  const smoke::MatmulInputs in = smoke::matmul_inputs(req.n);
  Buffers buffers = make_buffers(calls_, device_,
                                 smoke::pad_matrix(in.a, req.n, layout.padded, layout.ld),
                                 smoke::pad_matrix(in.b, req.n, layout.padded, layout.ld),
                                 layout.bytes);
  if (buffers.held.empty()) {
    smoke::record_failure(r, buffers.error);
    return r;
  }
  const std::vector<Object> abc = {buffers.held[0].get(), buffers.held[1].get(),
                                   buffers.held[2].get()};
  const smoke::TimedRuns timed = engine_ == MatmulEngine::kernel
                                     ? time_kernel(req, layout, abc)
                                     : time_mps(req, layout, abc);
  finish(r, req, in, layout, timed, calls_.contents(abc[2]));
  return r;
}

smoke::TimedRuns MetalMatmul::time_kernel(const smoke::MatmulRequest& req,
                                          const smoke::PaddedLayout& layout,
                                          const std::vector<Object>& abc) {
  const MatmulSizes sizes{static_cast<unsigned>(layout.padded), static_cast<unsigned>(layout.ld)};
  const auto groups = static_cast<std::uint64_t>(layout.padded / kMatmulTile);
  return smoke::time_runs(req, [&] {
    return calls_.dispatch(queue_, pipeline_, abc, &sizes, sizeof sizes, {groups, groups, 1},
                           {kMatmulTile, kMatmulTile, 1});
  });
}

smoke::TimedRuns MetalMatmul::time_mps(const smoke::MatmulRequest& req,
                                       const smoke::PaddedLayout& layout,
                                       const std::vector<Object>& abc) {
  const auto n = static_cast<std::uint64_t>(req.n);
  const std::uint64_t row_bytes = static_cast<std::uint64_t>(layout.ld) * sizeof(float);
  std::vector<Held> matrices;
  for (Object buffer : abc) {
    Made m = calls_.new_mps_matrix(buffer, n, n, row_bytes);
    if (m.object == nullptr) return {{}, m.error};
    matrices.emplace_back(calls_, m.object);
  }
  Made mm = calls_.new_mps_multiplication(device_, n);
  if (mm.object == nullptr) return {{}, mm.error};
  Held multiplication(calls_, mm.object);
  return smoke::time_runs(req, [&] {
    return calls_.mps_run(queue_, multiplication.get(), matrices[0].get(), matrices[1].get(),
                          matrices[2].get());
  });
}

}  // namespace gpudoctor::metal
