#pragma once
// The identity projections of the backends that list devices: each returns the backend's
// device lists for its registry row (src/backends.cpp). A new backend declares its own beside
// its facts walk.
#include <vector>

#include "devices.hpp"

namespace gpudoctor::device_lists {

std::vector<DeviceList> pci();
std::vector<DeviceList> macos();
std::vector<DeviceList> nvml();
std::vector<DeviceList> cuda();
std::vector<DeviceList> rocm();  ///< two lists: kApiKfd, then kApiHip
std::vector<DeviceList> vulkan();
std::vector<DeviceList> metal();
std::vector<DeviceList> opencl();

}  // namespace gpudoctor::device_lists
