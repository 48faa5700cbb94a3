#pragma once
// The macOS checks (their specs are in check_list.cpp) and what they share. Each looks only at
// a snapshot with a `macos` section: a live Mac, or a recorded one.
#include <optional>
#include <string>
#include <vector>

#include "checks/checks.hpp"
#include "checks/python_facts.hpp"
#include "compat/version.hpp"

namespace gpudoctor {

void check_macos_rosetta_python(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_macos_version_compat(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_macos_dyld_library_path(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_macos_cuda(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_macos_mps(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_macos_tensorflow_metal(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_macos_plaidml(const CheckSpec&, const CheckInput&, std::vector<Finding>&);

namespace macos_detail {

/// The macOS version (sw_vers ProductVersion), when the snapshot is of a Mac and says it.
std::optional<Version> macos_version(const Snapshot& s);

/// The interpreter's Mach-O architectures say it cannot run natively on Apple silicon.
bool x86_only(const PythonEnv& env);

}  // namespace macos_detail

}  // namespace gpudoctor
