// The only file that sends Objective-C messages. No Objective-C compiler and no Apple headers:
// every message goes through objc_msgSend, cast to the exact C function type of the method
// (receiver, selector, then the method's arguments), which is how clang itself calls it. None
// of these methods returns a struct, so objc_msgSend_stret (x86_64) is never needed.
//
// ABI notes, for both macOS ABIs (x86_64 System V, arm64 Apple):
//  - NSUInteger is unsigned long and NSInteger long: 64 bits on both (LP64);
//  - BOOL is signed char on x86_64 and bool on arm64; either comes back in the low byte of the
//    return register, which an unsigned char return reads on both, and 0 or 1 passed as an
//    unsigned char argument is the same value under both;
//  - MTLSize (three NSUIntegers, 24 bytes) is passed by value: on the stack on x86_64, by a
//    pointer to a copy on arm64; the cast function type lets the compiler do either.
#include "metal/metal_objc.hpp"

#include <cstdint>
#include <optional>

#include "core/dynlib.hpp"
#include "platform/library_names.hpp"

namespace gpudoctor::metal {

namespace {

using Id = void*;
using Sel = void*;
using NsUInteger = unsigned long;
using ObjcBool = unsigned char;

struct MtlSize {
  NsUInteger width;
  NsUInteger height;
  NsUInteger depth;
};

// MTLCommandBufferStatusCompleted (Metal/MTLCommandBuffer.hpp, enum CommandBufferStatus:
// https://github.com/bkaradzic/metal-cpp/blob/cf1ff4d213ef7d66c2b9d1ef9611853ccc8df8d5/Metal/MTLCommandBuffer.hpp).
constexpr NsUInteger kCommandBufferCompleted = 4;
constexpr NsUInteger kCommandBufferError = 5;
// MTLResourceStorageModeShared (MTLResourceOptions 0): one copy the CPU and GPU both see.
constexpr NsUInteger kStorageModeShared = 0;
// MPSDataTypeFloat32 = MPSDataTypeFloatBit (0x10000000) | 32, MPSCoreTypes.h
// (https://developer.apple.com/documentation/metalperformanceshaders/mpsdatatype/float32).
constexpr std::uint32_t kMpsDataTypeFloat32 = 0x10000000u | 32u;
constexpr std::size_t kErrorTextShown = 600;

class ObjcMetal final : public MetalCalls {
 public:
  ObjcMetal(DynamicLibrary objc, DynamicLibrary metal, std::optional<DynamicLibrary> mps,
            std::optional<DynamicLibrary> core_graphics)
      : objc_(std::move(objc)),
        metal_(std::move(metal)),
        mps_(std::move(mps)),
        core_graphics_(std::move(core_graphics)) {}

  /// The entry points; the first one missing, if any.
  std::optional<std::string> load() {
    EntryPoints objc(objc_);
    objc.need(get_class_, "objc_getClass");
    objc.need(register_name_, "sel_registerName");
    objc.need(msg_send_, "objc_msgSend");
    objc.get(pool_push_, "objc_autoreleasePoolPush");
    objc.get(pool_pop_, "objc_autoreleasePoolPop");
    if (objc.missing()) return objc.missing();
    EntryPoints metal(metal_);
    metal.need(copy_all_devices_, "MTLCopyAllDevices");
    if (metal.missing()) return metal.missing();
    if (mps_) EntryPoints(*mps_).get(mps_supports_, "MPSSupportsMTLDevice");
    return std::nullopt;
  }

  std::vector<Object> all_devices() override {
    Pool pool(*this);
    std::vector<Object> out;
    Id array = copy_all_devices_();
    if (array == nullptr) return out;
    const auto count = send<NsUInteger>(array, "count");
    for (NsUInteger i = 0; i < count; ++i) {
      Id device = send<Id, NsUInteger>(array, "objectAtIndex:", i);
      if (device != nullptr) out.push_back(send<Id>(device, "retain"));
    }
    release(array);  // a Copy function's result is the caller's
    return out;
  }

  bool responds(Object o, const char* selector) override {
    return send<ObjcBool, Sel>(o, "respondsToSelector:", sel(selector)) != 0;
  }

  std::optional<std::string> text(Object o, const char* selector) override {
    Pool pool(*this);
    return utf8(send<Id>(o, selector));
  }

  std::uint64_t unsigned_value(Object o, const char* selector) override {
    return send<std::uint64_t>(o, selector);
  }

  bool flag(Object o, const char* selector) override { return send<ObjcBool>(o, selector) != 0; }

  bool supports_family(Object device, long family) override {
    return send<ObjcBool, long>(device, "supportsFamily:", family) != 0;
  }

  bool supports_feature_set(Object device, unsigned long feature_set) override {
    return send<ObjcBool, unsigned long>(device, "supportsFeatureSet:", feature_set) != 0;
  }

  Made new_pipeline(Object device, const std::string& source, const char* function) override {
    Pool pool(*this);
    Id error = nullptr;
    Id text = new_string(source.c_str());
    Id library = send<Id, Id, Id, Id*>(device, "newLibraryWithSource:options:error:", text,
                                       nullptr, &error);
    release(text);
    if (library == nullptr) {
      return {nullptr, "newLibraryWithSource:options:error: could not compile the matmul "
                       "kernel" + described(error)};
    }
    Id name = new_string(function);
    Id fn = send<Id, Id>(library, "newFunctionWithName:", name);
    release(name);
    release(library);  // the function keeps what it needs
    if (fn == nullptr) {
      return {nullptr, std::string("newFunctionWithName: found no ") + function +
                           " in the compiled library"};
    }
    error = nullptr;
    Id pipeline =
        send<Id, Id, Id*>(device, "newComputePipelineStateWithFunction:error:", fn, &error);
    release(fn);
    if (pipeline == nullptr) {
      return {nullptr, "newComputePipelineStateWithFunction:error: failed" + described(error)};
    }
    return {pipeline, ""};
  }

  std::uint64_t pipeline_max_threads(Object pipeline) override {
    return send<NsUInteger>(pipeline, "maxTotalThreadsPerThreadgroup");
  }

  Made new_queue(Object device) override {
    Id queue = send<Id>(device, "newCommandQueue");
    if (queue == nullptr) return {nullptr, "newCommandQueue returned nil"};
    return {queue, ""};
  }

  Made new_buffer(Object device, const void* bytes, std::size_t length) override {
    Id buffer = send<Id, const void*, NsUInteger, NsUInteger>(
        device, "newBufferWithBytes:length:options:", bytes, length, kStorageModeShared);
    if (buffer == nullptr) {
      return {nullptr, "newBufferWithBytes:length:options: returned nil for " +
                           std::to_string(length) + " bytes"};
    }
    return {buffer, ""};
  }

  void* contents(Object buffer) override { return send<void*>(buffer, "contents"); }

  std::optional<std::string> dispatch(Object queue, Object pipeline,
                                      const std::vector<Object>& buffers, const void* constants,
                                      std::size_t constants_length, Size3 groups,
                                      Size3 threads) override {
    Pool pool(*this);
    Id command_buffer = send<Id>(queue, "commandBuffer");
    if (command_buffer == nullptr) return "commandBuffer returned nil";
    Id encoder = send<Id>(command_buffer, "computeCommandEncoder");
    if (encoder == nullptr) return "computeCommandEncoder returned nil";
    send<void, Id>(encoder, "setComputePipelineState:", pipeline);
    for (std::size_t i = 0; i < buffers.size(); ++i) {
      send<void, Id, NsUInteger, NsUInteger>(encoder, "setBuffer:offset:atIndex:", buffers[i], 0,
                                             i);
    }
    if (constants != nullptr) {
      send<void, const void*, NsUInteger, NsUInteger>(encoder, "setBytes:length:atIndex:",
                                                      constants, constants_length,
                                                      buffers.size());
    }
    send<void, MtlSize, MtlSize>(encoder, "dispatchThreadgroups:threadsPerThreadgroup:",
                                 MtlSize{groups.width, groups.height, groups.depth},
                                 MtlSize{threads.width, threads.height, threads.depth});
    send<void>(encoder, "endEncoding");
    return commit_and_wait(command_buffer);
  }

  std::optional<std::string> mps_unavailable(Object device) override {
    if (!mps_) return "MetalPerformanceShaders.framework could not be loaded";
    if (mps_supports_ == nullptr) {
      return "MetalPerformanceShaders.framework has no MPSSupportsMTLDevice";
    }
    if (mps_supports_(device) == 0) {
      return "MetalPerformanceShaders does not support this GPU (MPSSupportsMTLDevice)";
    }
    return std::nullopt;
  }

  Made new_mps_matrix(Object buffer, std::uint64_t rows, std::uint64_t columns,
                      std::uint64_t row_bytes) override {
    Pool pool(*this);
    Id descriptor = send<Id, NsUInteger, NsUInteger, NsUInteger, std::uint32_t>(
        get_class_("MPSMatrixDescriptor"), "matrixDescriptorWithRows:columns:rowBytes:dataType:",
        rows, columns, row_bytes, kMpsDataTypeFloat32);
    if (descriptor == nullptr) {
      return {nullptr, "matrixDescriptorWithRows:columns:rowBytes:dataType: returned nil"};
    }
    Id matrix = send<Id, Id, Id>(send<Id>(get_class_("MPSMatrix"), "alloc"),
                                 "initWithBuffer:descriptor:", buffer, descriptor);
    if (matrix == nullptr) return {nullptr, "MPSMatrix initWithBuffer:descriptor: returned nil"};
    return {matrix, ""};
  }

  Made new_mps_multiplication(Object device, std::uint64_t n) override {
    Id made = send<Id, Id, ObjcBool, ObjcBool, NsUInteger, NsUInteger, NsUInteger, double,
                   double>(
        send<Id>(get_class_("MPSMatrixMultiplication"), "alloc"),
        "initWithDevice:transposeLeft:transposeRight:resultRows:resultColumns:"
        "interiorColumns:alpha:beta:",
        device, 0, 0, n, n, n, 1.0, 0.0);
    if (made == nullptr) {
      return {nullptr, "MPSMatrixMultiplication initWithDevice:… returned nil"};
    }
    return {made, ""};
  }

  std::optional<std::string> mps_run(Object queue, Object multiplication, Object a, Object b,
                                     Object c) override {
    Pool pool(*this);
    Id command_buffer = send<Id>(queue, "commandBuffer");
    if (command_buffer == nullptr) return "commandBuffer returned nil";
    send<void, Id, Id, Id, Id>(multiplication,
                               "encodeToCommandBuffer:leftMatrix:rightMatrix:resultMatrix:",
                               command_buffer, a, b, c);
    return commit_and_wait(command_buffer);
  }

  void release(Object o) override {
    if (o != nullptr) send<void>(o, "release");
  }

 private:
  /// An autorelease pool around calls whose results the runtime autoreleases (command
  /// buffers, encoders, NSErrors, descriptors), so that a long bench does not pile them up.
  class Pool {
   public:
    explicit Pool(ObjcMetal& m) : m_(m) {
      if (m_.pool_push_ != nullptr) token_ = m_.pool_push_();
    }
    Pool(const Pool&) = delete;
    Pool& operator=(const Pool&) = delete;
    ~Pool() {
      if (m_.pool_pop_ != nullptr && token_ != nullptr) m_.pool_pop_(token_);
    }

   private:
    ObjcMetal& m_;
    void* token_ = nullptr;
  };

  Sel sel(const char* name) const { return register_name_(name); }

  template <typename R, typename... Args>
  R send(Id receiver, const char* selector, Args... args) {
    using Method = R (*)(Id, Sel, Args...);
    return reinterpret_cast<Method>(msg_send_)(receiver, sel(selector), args...);
  }

  /// An NSString the caller owns ([[NSString alloc] initWithUTF8String:]).
  Id new_string(const char* s) {
    return send<Id, const char*>(send<Id>(get_class_("NSString"), "alloc"),
                                 "initWithUTF8String:", s);
  }

  std::optional<std::string> utf8(Id string) {
    if (string == nullptr) return std::nullopt;
    const char* s = send<const char*>(string, "UTF8String");
    if (s == nullptr) return std::nullopt;
    return std::string(s);
  }

  /// ": " and an NSError's localizedDescription, or "" for none.
  std::string described(Id error) {
    if (error == nullptr) return "";
    std::string s = utf8(send<Id>(error, "localizedDescription")).value_or("");
    if (s.size() > kErrorTextShown) s = s.substr(0, kErrorTextShown) + "…";
    return s.empty() ? "" : ": " + s;
  }

  std::optional<std::string> commit_and_wait(Id command_buffer) {
    send<void>(command_buffer, "commit");
    send<void>(command_buffer, "waitUntilCompleted");
    const auto status = send<NsUInteger>(command_buffer, "status");
    if (status == kCommandBufferCompleted) return std::nullopt;
    return "the command buffer ended with status " + std::to_string(status) +
           (status == kCommandBufferError ? " (MTLCommandBufferStatusError)" : "") +
           described(send<Id>(command_buffer, "error"));
  }

  DynamicLibrary objc_;
  DynamicLibrary metal_;
  std::optional<DynamicLibrary> mps_;
  std::optional<DynamicLibrary> core_graphics_;
  Id (*get_class_)(const char*) = nullptr;
  Sel (*register_name_)(const char*) = nullptr;
  void (*msg_send_)() = nullptr;
  void* (*pool_push_)() = nullptr;
  void (*pool_pop_)(void*) = nullptr;
  Id (*copy_all_devices_)() = nullptr;
  ObjcBool (*mps_supports_)(Id) = nullptr;
};

std::optional<DynamicLibrary> open_noted(const std::string& name,
                                         std::vector<std::string>* load_errors) {
  if (name.empty()) return std::nullopt;
  std::string error;
  auto lib = DynamicLibrary::open(name, &error);
  if (!lib) load_errors->push_back(error);
  return lib;
}

}  // namespace

MetalLibraries metal_libraries(std::string_view platform) {
  const LibraryNames& names = library_names(platform);
  return {names.objc_runtime, names.core_graphics, names.metal, names.mps};
}

std::unique_ptr<MetalCalls> open_objc_metal(const MetalLibraries& libraries,
                                            std::vector<std::string>* load_errors,
                                            std::string* error, bool* missing) {
  auto core_graphics = open_noted(libraries.core_graphics, load_errors);
  auto objc = open_noted(libraries.objc_runtime, load_errors);
  *missing = true;
  if (!objc) {
    *error = libraries.objc_runtime + " could not be loaded: the Objective-C runtime is missing";
    return nullptr;
  }
  auto metal = open_noted(libraries.metal, load_errors);
  if (!metal) {
    *error = libraries.metal + " could not be loaded: this macOS has no Metal";
    return nullptr;
  }
  *missing = false;
  auto mps = open_noted(libraries.mps, load_errors);
  auto calls = std::make_unique<ObjcMetal>(std::move(*objc), std::move(*metal), std::move(mps),
                                           std::move(core_graphics));
  if (auto entry = calls->load()) {
    *error = "the Objective-C runtime or Metal has no " + *entry;
    return nullptr;
  }
  return calls;
}

}  // namespace gpudoctor::metal
