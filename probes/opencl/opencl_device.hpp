#pragma once
#include <string>

#include "model/opencl.hpp"
#include "opencl/opencl_api.hpp"
#include "opencl/opencl_info_reader.hpp"

namespace gpudoctor::opencl {

/// Every OpenClDevice field the device answers believably; what fails or lies is recorded in
/// problems under `what` ("platform 0 device 1"). Runs only in an isolated child.
OpenClDevice read_device(const OpenClApi& api, cl_device_id id, const std::string& what,
                         QueryProblems& problems);

}  // namespace gpudoctor::opencl
