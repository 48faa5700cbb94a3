#include "opencl/opencl_info_reader.hpp"

#include <algorithm>
#include <cstring>

#include "opencl/opencl_enumerate.hpp"
#include "api/opencl/opencl_codes.hpp"

namespace gpudoctor::opencl {

namespace {

/// Room past the size we pass, so a driver that writes beyond it is caught, not fatal.
constexpr std::size_t kSlack = 256;

bool wrote_past(const std::vector<unsigned char>& buf, std::size_t size) {
  return std::any_of(buf.begin() + static_cast<std::ptrdiff_t>(size), buf.end(),
                     [](unsigned char c) { return c != 0; });
}

}  // namespace

InfoReader::InfoReader(Query query, std::string call, std::string what, QueryProblems& problems)
    : query_(std::move(query)),
      call_(std::move(call)),
      what_(std::move(what)),
      problems_(problems) {}

void InfoReader::failed(const char* name, cl_int code) {
  problems_.failed_calls.push_back(what_ + " " + name + ": " + cl_call_failed(call_, code));
}

void InfoReader::implausible(const char* name, const std::string& why) {
  problems_.implausible.push_back(what_ + " " + name + ": " + why);
}

bool InfoReader::bytes(cl_uint param, const char* name, void* out, std::size_t size) {
  std::vector<unsigned char> buf(size + kSlack, 0);
  std::size_t got = 0;
  cl_int rc = query_(param, size, buf.data(), &got);
  if (rc != CL_SUCCESS) {
    failed(name, rc);
    return false;
  }
  if (got != size) {
    implausible(name, std::string(call_) + " answered " + std::to_string(got) + " bytes for a " +
                          std::to_string(size) + "-byte value");
    return false;
  }
  if (wrote_past(buf, size)) {
    implausible(name, call_ + " wrote past the end of the buffer");
    return false;
  }
  std::memcpy(out, buf.data(), size);
  return true;
}

std::optional<bool> InfoReader::boolean(cl_uint param, const char* name) {
  auto v = value<cl_bool>(param, name);
  if (!v) return std::nullopt;
  return *v != CL_FALSE;
}

std::optional<std::string> InfoReader::string(cl_uint param, const char* name) {
  std::size_t size = 0;
  cl_int rc = query_(param, 0, nullptr, &size);
  if (rc != CL_SUCCESS) {
    failed(name, rc);
    return std::nullopt;
  }
  if (size == 0) {
    implausible(name, "a string of 0 bytes (it holds at least its NUL)");
    return std::nullopt;
  }
  if (size > kMaxString) {
    implausible(name, "claims a string of " + std::to_string(size) + " bytes");
    return std::nullopt;
  }
  std::vector<unsigned char> buf(size + kSlack, 0);
  rc = query_(param, size, buf.data(), nullptr);
  if (rc != CL_SUCCESS) {
    failed(name, rc);
    return std::nullopt;
  }
  if (wrote_past(buf, size)) {
    implausible(name, call_ + " wrote past the end of the buffer");
    return std::nullopt;
  }
  if (buf[size - 1] != 0) implausible(name, "the string is not NUL-terminated");
  const char* text = reinterpret_cast<const char*>(buf.data());
  return std::string(text, ::strnlen(text, size));
}

std::optional<std::vector<std::uint64_t>> InfoReader::sizes(cl_uint param, const char* name,
                                                            std::size_t max_count) {
  std::size_t size = 0;
  cl_int rc = query_(param, 0, nullptr, &size);
  if (rc != CL_SUCCESS) {
    failed(name, rc);
    return std::nullopt;
  }
  if (size % sizeof(std::size_t) != 0 || size / sizeof(std::size_t) > max_count) {
    implausible(name, "claims " + std::to_string(size) + " bytes");
    return std::nullopt;
  }
  std::vector<std::size_t> values(size / sizeof(std::size_t));
  if (!values.empty() && !bytes(param, name, values.data(), size)) return std::nullopt;
  return std::vector<std::uint64_t>(values.begin(), values.end());
}

}  // namespace gpudoctor::opencl
