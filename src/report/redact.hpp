#pragma once
#include <map>
#include <string>
#include <vector>

#include "environment.hpp"
#include "json.hpp"

namespace gpudoctor {

/// Names the document alone may not reveal as user names: $USER, $LOGNAME, $SUDO_USER and
/// the last part of $HOME (root is not a secret and stays).
std::vector<std::string> user_names_from(const Environment& env);

/// How many distinct values of each kind were replaced: "host_name", "user_name",
/// "serial_number", "uuid".
using RedactionCounts = std::map<std::string, int>;

struct Redacted {
  Json doc;
  RedactionCounts counts;
};

/// Replaces, in every string of `doc`, the things that identify a person or a machine by
/// stable placeholders, so the report can go to a public ticket and still be replayed:
/// - the value of every "hostname" key → "<host>";
/// - every "serial" value → "<serialN>";
/// - user names as path components (/home/NAME, /Users/NAME, C:\Users\NAME, and `user_names`
///   wherever they are a path component) → "<userN>";
/// - UUIDs (8-4-4-4-12 hex anywhere, 32 hex digits under a key naming a uuid) → the same
///   shape with the hex digits of N, so "GPU-<uuid>" (CUDA, NVML), "<uuid>" (Vulkan) and
///   "<32 hex>" (OpenCL) of one device still name one device, and devices stay distinct.
Redacted redact(Json doc, const std::vector<std::string>& user_names);

}  // namespace gpudoctor
