#pragma once
// The Metal calls gpudoctor makes, one method per step, behind one interface: the Objective-C
// message sends live in metal_objc.cpp alone, and everything above them (which properties to
// ask, family decoding, the smoke matmul's sizes, verification, error text) is plain C++ that
// the unit tests drive through a fake (tests/unit/metal_test.cpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpudoctor::metal {

/// An Objective-C object the caller holds one reference to (released with release()), or null.
using Object = void*;

/// MTLSize: three NSUIntegers.
struct Size3 {
  std::uint64_t width = 1;
  std::uint64_t height = 1;
  std::uint64_t depth = 1;
};

/// What a call that creates something gives back: the object, or why not.
struct Made {
  Object object = nullptr;
  std::string error;  ///< the failed call and its NSError's words, when object is null
};

class MetalCalls {
 public:
  virtual ~MetalCalls() = default;

  /// MTLCopyAllDevices, each device retained.
  virtual std::vector<Object> all_devices() = 0;
  /// respondsToSelector:: a property missing from this macOS's Metal is not sent at all
  /// (sending it would raise an Objective-C exception and end the child).
  virtual bool responds(Object o, const char* selector) = 0;
  /// A property that returns an NSString ("name"), as UTF-8.
  virtual std::optional<std::string> text(Object o, const char* selector) = 0;
  /// A property that returns an NSUInteger or uint64_t ("registryID", "maxBufferLength",
  /// "location").
  virtual std::uint64_t unsigned_value(Object o, const char* selector) = 0;
  /// A property that returns a BOOL ("hasUnifiedMemory").
  virtual bool flag(Object o, const char* selector) = 0;
  /// supportsFamily: (MTLGPUFamily is an NSInteger).
  virtual bool supports_family(Object device, long family) = 0;
  /// supportsFeatureSet: (MTLFeatureSet is an NSUInteger), the call before supportsFamily:.
  virtual bool supports_feature_set(Object device, unsigned long feature_set) = 0;

  /// newLibraryWithSource:options:error:, newFunctionWithName:, then
  /// newComputePipelineStateWithFunction:error:.
  virtual Made new_pipeline(Object device, const std::string& source, const char* function) = 0;
  /// maxTotalThreadsPerThreadgroup of a pipeline.
  virtual std::uint64_t pipeline_max_threads(Object pipeline) = 0;
  virtual Made new_queue(Object device) = 0;
  /// newBufferWithBytes:length:options: (MTLResourceStorageModeShared): the CPU sees it.
  virtual Made new_buffer(Object device, const void* bytes, std::size_t length) = 0;
  /// The buffer's memory (contents).
  virtual void* contents(Object buffer) = 0;
  /// One command buffer holding one dispatch of `pipeline` over `groups` threadgroups of
  /// `threads`, with `buffers` at indices 0… and `constants` (setBytes:) after them; committed
  /// and waited for. Nullopt when it completed, else what went wrong.
  virtual std::optional<std::string> dispatch(Object queue, Object pipeline,
                                              const std::vector<Object>& buffers,
                                              const void* constants, std::size_t constants_length,
                                              Size3 groups, Size3 threads) = 0;

  /// Why MetalPerformanceShaders cannot run on this device (its framework did not load, or
  /// MPSSupportsMTLDevice said no); nullopt when it can.
  virtual std::optional<std::string> mps_unavailable(Object device) = 0;
  /// An MPSMatrix of rows × columns fp32 over `buffer`, rows `row_bytes` apart.
  virtual Made new_mps_matrix(Object buffer, std::uint64_t rows, std::uint64_t columns,
                              std::uint64_t row_bytes) = 0;
  /// An MPSMatrixMultiplication C = A·B of n×n matrices (alpha 1, beta 0).
  virtual Made new_mps_multiplication(Object device, std::uint64_t n) = 0;
  /// Encodes the multiplication into one command buffer, commits it and waits.
  virtual std::optional<std::string> mps_run(Object queue, Object multiplication, Object a,
                                             Object b, Object c) = 0;

  virtual void release(Object o) = 0;
};

/// Releases on scope exit.
class Held {
 public:
  Held(MetalCalls& calls, Object o) : calls_(&calls), object_(o) {}
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;
  Held(Held&& other) noexcept : calls_(other.calls_), object_(other.object_) {
    other.object_ = nullptr;
  }
  Held& operator=(Held&& other) noexcept {
    std::swap(calls_, other.calls_);
    std::swap(object_, other.object_);
    return *this;
  }
  ~Held() {
    if (object_ != nullptr) calls_->release(object_);
  }
  Object get() const { return object_; }

 private:
  MetalCalls* calls_;
  Object object_;
};

}  // namespace gpudoctor::metal
