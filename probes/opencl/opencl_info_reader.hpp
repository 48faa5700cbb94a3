#pragma once
#include <CL/cl.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpudoctor::opencl {

/// What went wrong while asking a driver: calls that failed (the field stays unknown) and
/// answers that cannot be true (a driver that lies).
struct QueryProblems {
  std::vector<std::string> failed_calls;
  std::vector<std::string> implausible;
};

/// Typed reads of one object's clGet*Info. Every answer is checked before it is believed:
/// sizes are asked first and capped, strings are NUL-terminated here whatever the driver wrote,
/// a value of the wrong size or a write past the buffer is reported and left unknown.
class InfoReader {
 public:
  using Query =
      std::function<cl_int(cl_uint param, std::size_t size, void* value, std::size_t* size_ret)>;

  /// call: "clGetDeviceInfo"; what: "device 0" (how problems name the object).
  InfoReader(Query query, std::string call, std::string what, QueryProblems& problems);

  std::optional<std::string> string(cl_uint param, const char* name);
  /// Exactly sizeof(T) bytes.
  template <typename T>
  std::optional<T> value(cl_uint param, const char* name) {
    T v{};
    if (!bytes(param, name, &v, sizeof v)) return std::nullopt;
    return v;
  }
  std::optional<bool> boolean(cl_uint param, const char* name);
  /// An array of size_t, at most max_count long.
  std::optional<std::vector<std::uint64_t>> sizes(cl_uint param, const char* name,
                                                  std::size_t max_count);
  /// Exactly `size` bytes into out.
  bool bytes(cl_uint param, const char* name, void* out, std::size_t size);

  void implausible(const char* name, const std::string& why);

 private:
  void failed(const char* name, cl_int code);
  Query query_;
  std::string call_;
  std::string what_;
  QueryProblems& problems_;
};

}  // namespace gpudoctor::opencl
