// CUDA's deviceQuery sample as people paste it (cuda-samples 1_Utilities/deviceQuery; the
// texts below are its printf formats): the device blocks it prints when the runtime works, and
// the two lines it prints instead when cudaGetDeviceCount fails ("cudaGetDeviceCount returned
// 35" / "-> CUDA driver version is insufficient for CUDA runtime version").
// https://github.com/NVIDIA/cuda-samples/blob/master/Samples/1_Utilities/deviceQuery/deviceQuery.cpp
#include <cctype>

#include "api/cuda/cuda_codes.hpp"
#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_device_query = "deviceQuery";

/// The runtime error numbers whose driver-API error (cuda.h) has the same number and meaning,
/// so a failed cudaGetDeviceCount says what cuInit said (driver_types.h and cuda.h of CUDA 13:
/// 3 initialization, 34 stub library, 46 devices unavailable, 100 no device, 802 system not
/// ready, 803 system driver mismatch, 804 compat not supported on device, 999 unknown).
bool same_as_driver_error(int code) {
  for (int c : {3, 34, 46, 100, 802, 803, 804, 999}) {
    if (c == code) return true;
  }
  return false;
}

/// cudaErrorInsufficientDriver: the driver is older than the runtime linked into the program.
constexpr int kInsufficientDriver = 35;

std::optional<int> first_number(std::string_view t) {
  std::size_t a = 0;
  while (a < t.size() && std::isdigit(static_cast<unsigned char>(t[a])) == 0) ++a;
  std::size_t b = a;
  while (b < t.size() && std::isdigit(static_cast<unsigned char>(t[b])) != 0) ++b;
  if (a == b || b - a > 9) return std::nullopt;
  return std::stoi(std::string(t.substr(a, b - a)));
}

/// "12.2 / 12.1" → {12020, 12010}, as the runtime and driver pack their versions.
std::pair<std::optional<int>, std::optional<int>> driver_runtime_versions(std::string_view v) {
  const auto slash = v.find('/');
  if (slash == std::string_view::npos) return {std::nullopt, std::nullopt};
  return {packed_cuda_version(leading_version(trim(v.substr(0, slash)))),
          packed_cuda_version(leading_version(trim(v.substr(slash + 1))))};
}

class DeviceQuery {
 public:
  explicit DeviceQuery(PasteSink& sink) : sink_(sink) {}

  void run() {
    const auto& lines = sink_.lines();
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (sink_.claimed(i)) continue;
      const std::string_view t = trim(lines[i].text);
      if (starts_with(t, "CUDA Device Query (Runtime API)") ||
          (t.find("deviceQuery") != std::string_view::npos &&
           t.find("Starting...") != std::string_view::npos) ||
          starts_with(t, "deviceQuery, CUDA Driver = CUDART")) {
        seen_ = true;
        sink_.claim(i, kFormat_device_query);
        if (starts_with(t, "deviceQuery, CUDA Driver")) summary(t, i);
      } else if (starts_with(t, "cudaGetDeviceCount returned ")) {
        seen_ = true;
        count_failed(i);
      } else if (seen_) {
        in_block(t, i);
      }
    }
  }

 private:
  void count_failed(std::size_t i) {
    const std::string_view t = trim(sink_.lines()[i].text);
    sink_.claim(i, kFormat_device_query);
    auto code = first_number(t.substr(28));
    std::string message;
    if (i + 1 < sink_.lines().size()) {
      const std::string_view next = trim(sink_.lines()[i + 1].text);
      if (starts_with(next, "->")) {
        message = std::string(trim(next.substr(2)));
        sink_.claim(i + 1, kFormat_device_query);
      }
    }
    if (!code) return;
    sink_.fact("cuda.runtime_error", std::to_string(*code), i);
    if (*code == kInsufficientDriver) {
      sink_.symptom("cuda.insufficient_driver", "deviceQuery", i, {{"message", message}});
    } else if (same_as_driver_error(*code)) {
      set_cuda_init_error(sink_, *code);
      sink_.symptom("cuda.init_failed", "deviceQuery", i,
                    {{"error", std::to_string(*code)}, {"message", message}});
    }
  }

  /// "deviceQuery, CUDA Driver = CUDART, CUDA Driver Version = 12.2, CUDA Runtime Version =
  /// 12.1, NumDevs = 1"
  void summary(std::string_view t, std::size_t i) {
    const auto dv = t.find("CUDA Driver Version = ");
    if (dv == std::string_view::npos) return;
    const std::string v = leading_version(t.substr(dv + 22));
    if (auto packed = packed_cuda_version(v)) {
      sink_.cuda().driver_version = packed;
      sink_.fact("nvidia.cuda_max", v, i);
    }
  }

  void in_block(std::string_view t, std::size_t i) {
    if (starts_with(t, "Detected ") && t.find("CUDA Capable device") != std::string_view::npos) {
      sink_.claim(i, kFormat_device_query);
      return;
    }
    if (starts_with(t, "Result = ")) {
      sink_.claim(i, kFormat_device_query);
      seen_ = false;
      return;
    }
    if (starts_with(t, "Device ") && t.find(": \"") != std::string_view::npos) {
      auto index = first_number(t.substr(7));
      const auto q = t.find(": \"");
      const auto end = t.rfind('"');
      if (!index || end <= q + 3) return;
      sink_.claim(i, kFormat_device_query);
      device_ = &device(*index);
      device_->name = std::string(t.substr(q + 3, end - q - 3));
      sink_.fact("gpu.name", *device_->name, i);
      return;
    }
    // Labels with slashes ("CUDA Driver Version / Runtime Version") are not plain labels to
    // split_label, so the value is what follows the colon.
    const auto colon = t.find(':');
    Labelled l;
    constexpr std::string_view kVersions = "CUDA Driver Version / Runtime Version";
    if (starts_with(t, kVersions)) {  // printed without a colon
      l.key = std::string(kVersions);
      l.value = std::string(trim(t.substr(kVersions.size())));
    } else if (colon != std::string_view::npos) {
      l.key = std::string(trim(t.substr(0, colon)));
      l.value = std::string(trim(t.substr(colon + 1)));
    }
    if (l.key.empty() && t.find("Multiprocessors") == std::string_view::npos) return;
    if (l.key == "CUDA Driver Version / Runtime Version") {
      sink_.claim(i, kFormat_device_query);
      auto [driver, runtime] = driver_runtime_versions(l.value);
      if (driver) {
        sink_.cuda().driver_version = driver;
        sink_.fact("nvidia.cuda_max", cuda_version_text(*driver), i);
      }
      if (runtime) sink_.fact("cuda.runtime", cuda_version_text(*runtime), i);
      return;
    }
    if (!device_) {
      return;
    }
    sink_.claim(i, kFormat_device_query);
    if (l.key == "CUDA Capability Major/Minor version number") {
      const std::string v = leading_version(l.value);
      const auto dot = v.find('.');
      auto major = first_number(v.substr(0, dot == std::string::npos ? v.size() : dot));
      auto minor = dot == std::string::npos ? std::nullopt : first_number(v.substr(dot + 1));
      if (major && minor) {
        device_->cc_major = major;
        device_->cc_minor = minor;
        sink_.fact("gpu.cc", v, i);
      }
    } else if (l.key == "Total amount of global memory") {
      const auto paren = l.value.find('(');
      if (paren != std::string::npos) {
        const std::string bytes = leading_version(l.value.substr(paren + 1));
        if (!bytes.empty() && bytes.find('.') == std::string::npos && bytes.size() < 19) {
          device_->total_memory_bytes = std::stoull(bytes);
        }
      }
    } else if (t.find("Multiprocessors") != std::string_view::npos) {
      // "(082) Multiprocessors, (128) CUDA Cores/MP:     10496 CUDA Cores"
      device_->multiprocessors = first_number(t);
      const auto comma = t.find(',');
      if (comma != std::string_view::npos) {
        device_->cores_per_multiprocessor = first_number(t.substr(comma));
      }
    } else if (l.key == "Device PCI Domain ID / Bus ID / location ID") {
      auto parts = split_words(l.value, "/ ");
      if (parts.size() >= 3) {
        device_->pci_domain = first_number(parts[0]);
        device_->pci_bus = first_number(parts[1]);
        device_->pci_device = first_number(parts[2]);
      }
    }
  }

  CudaDevice& device(int ordinal) {
    auto& devices = sink_.cuda().devices;
    for (auto& d : devices) {
      if (d.ordinal == ordinal) return d;
    }
    devices.push_back(CudaDevice{});
    devices.back().ordinal = ordinal;
    return devices.back();
  }

  PasteSink& sink_;
  bool seen_ = false;
  CudaDevice* device_ = nullptr;
};

}  // namespace

void read_device_query(PasteSink& sink) { DeviceQuery(sink).run(); }

}  // namespace gpudoctor
