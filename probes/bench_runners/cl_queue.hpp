#pragma once
// One OpenCL context, queue and a few device buffers on one device, released whichever way a
// bench measurement ends (the copy rates, CLBlast's series).
#include <optional>
#include <string>
#include <vector>

#include "api/opencl/opencl_codes.hpp"
#include "opencl/opencl_api.hpp"

namespace gpudoctor::bench {

class ClQueue {
 public:
  explicit ClQueue(const opencl::OpenClApi& api) : api_(api) {}
  ClQueue(const ClQueue&) = delete;
  ClQueue& operator=(const ClQueue&) = delete;
  ~ClQueue() {
    release_buffers();
    if (queue_ != nullptr) api_.release_command_queue(queue_);
    if (context_ != nullptr) api_.release_context(context_);
  }

  /// The context and an in-order queue on the device; the failed call's text otherwise.
  std::optional<std::string> open(cl_platform_id platform, cl_device_id device) {
    cl_int rc = CL_SUCCESS;
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                           reinterpret_cast<cl_context_properties>(platform), 0};
    context_ = api_.create_context(props, 1, &device, nullptr, nullptr, &rc);
    if (context_ == nullptr) return cl_call_failed("clCreateContext", rc);
    queue_ = api_.create_command_queue(context_, device, 0, &rc);
    if (queue_ == nullptr) return cl_call_failed("clCreateCommandQueue", rc);
    return std::nullopt;
  }

  /// `count` read-write buffers of `bytes` each, in place of any before.
  std::optional<std::string> make_buffers(std::size_t count, std::size_t bytes) {
    release_buffers();
    for (std::size_t i = 0; i < count; ++i) {
      cl_int rc = CL_SUCCESS;
      cl_mem b = api_.create_buffer(context_, CL_MEM_READ_WRITE, bytes, nullptr, &rc);
      if (b == nullptr) return cl_call_failed("clCreateBuffer", rc);
      buffers_.push_back(b);
    }
    return std::nullopt;
  }

  void release_buffers() {
    for (cl_mem b : buffers_) api_.release_mem_object(b);
    buffers_.clear();
  }

  cl_command_queue& queue() { return queue_; }
  cl_mem buffer(std::size_t i) const { return buffers_.at(i); }

 private:
  const opencl::OpenClApi& api_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::vector<cl_mem> buffers_;
};

}  // namespace gpudoctor::bench
