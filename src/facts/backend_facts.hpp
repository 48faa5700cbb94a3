#pragma once
// Each backend's walk over its section of the snapshot, one file each (src/facts/<backend>_facts.cpp);
// the registry (src/backends.cpp) lists them.
#include <string>
#include <vector>

#include "facts/facts.hpp"

namespace gpudoctor::facts {

/// The backend's own sections and the facts diff compares.
void host_facts(const Snapshot& snap, Sink& out);
void opencl_facts(const Snapshot& snap, Sink& out);
void vulkan_facts(const Snapshot& snap, Sink& out);
void nvidia_facts(const Snapshot& snap, Sink& out);
void cuda_facts(const Snapshot& snap, Sink& out);
void nvml_facts(const Snapshot& snap, Sink& out);
void rocm_facts(const Snapshot& snap, Sink& out);
void macos_facts(const Snapshot& snap, Sink& out);
void python_facts(const Snapshot& snap, Sink& out);

/// The backend's view of one merged device, as rows.
void pci_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);
void opencl_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);
void vulkan_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);
void cuda_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);
void nvml_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);
void rocm_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);
void macos_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows);

/// One line of each platform for `check`'s area lines.
std::string rocm_summary(const RocmInfo& r);
std::string macos_summary(const MacosInfo& m);

}  // namespace gpudoctor::facts
