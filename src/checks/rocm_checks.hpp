#pragma once
// The AMD ROCm checks (rocm_checks.cpp); their specs are in check_list.cpp.
#include <vector>

#include "checks/checks.hpp"

namespace gpudoctor {

void check_rocm_gfx_support(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_rocm_device_access(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_rocm_kernel_driver(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_rocm_gpu_in_kfd(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_rocm_visible_devices(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_rocm_igpu_first(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_hip_init(const CheckSpec&, const CheckInput&, std::vector<Finding>&);

}  // namespace gpudoctor
