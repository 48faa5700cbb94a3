#pragma once
// The brief record: what a fleet needs of one node (about 1 KB), written by `report --brief`,
// embedded in every full report as "brief", and all that `summary` reads of either.
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/finding.hpp"
#include "facts/facts.hpp"
#include "json.hpp"

namespace gpudoctor {

inline constexpr const char* kBriefKind = "gpudoctor-brief";

struct BriefFinding {
  std::string id;
  Severity severity = Severity::info;
  std::string title;
  std::vector<std::string> evidence;
};

/// Boards of one model on the node ("NVIDIA H100 80GB HBM3" ×8).
struct BriefGpus {
  std::string model;
  int count = 0;
};

/// The smoke matmuls one API ran on the devices of one name.
struct BriefSmoke {
  std::string api;
  std::string device;
  int runs = 0;
  int failed = 0;
  std::vector<double> flops;  ///< FLOP/s of each run that passed and was timed
};

struct Brief {
  std::string node;
  std::string generated_at;  ///< UTC, ISO 8601
  std::string tool_version;
  int failures = 0;
  int warnings = 0;
  int notes = 0;
  std::vector<BriefGpus> gpus;
  /// area ("driver", "host", "toolkit", "cudnn", "framework", "python") → component → version,
  /// as the facts layer names them ("NVIDIA kernel module", "libcuda the loader picks", "torch").
  std::map<std::string, std::map<std::string, std::string>> versions;
  std::vector<BriefSmoke> smoke;
  std::vector<BriefFinding> findings;  ///< all but the ok ones, in check order
};

/// The record of one node from its facts and findings.
Brief make_brief(const facts::Machine& machine, const std::vector<Finding>& findings,
                 std::string node, std::string generated_at, std::string tool_version);

Json brief_json(const Brief& b);

/// A brief record read back; or why it is not one ("brief.gpus[0].count: not a number").
std::variant<Brief, std::string> brief_from_json(const Json& j);

/// The component names of the facts layer that summary pairs: the NVIDIA kernel module against
/// the libcuda the loader picks.
inline constexpr const char* kModuleComponent = "NVIDIA kernel module";
inline constexpr const char* kLibcudaComponent = "libcuda the loader picks";

}  // namespace gpudoctor
