#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "environment.hpp"
#include "json.hpp"
#include "json_writer.hpp"

namespace gpudoctor {

/// Names the document alone may not reveal as user names: $USER, $LOGNAME, $SUDO_USER and
/// the last part of $HOME (root is not a secret and stays).
std::vector<std::string> user_names_from(const Environment& env);

/// The machine's host name as the environment tells it ($HOSTNAME, exported in containers).
std::vector<std::string> host_names_from(const Environment& env);

/// How many distinct values of each kind were replaced: "host_name", "user_name",
/// "serial_number", "uuid".
using RedactionCounts = std::map<std::string, int>;

struct Redacted {
  Json doc;
  RedactionCounts counts;
};

/// Replaces, in every string of `doc`, the things that identify a person or a machine by
/// stable placeholders, so the report can go to a public ticket and still be replayed:
/// - the value of every "hostname" key → "<host>", and that host name (and its first label)
///   wherever it stands alone in any other string: paths, variable values, a kernel version;
/// - who built the kernel, "(user@host)" in /proc/version → "(<userN>@<hostN>)";
/// - every "serial" value → "<serialN>";
/// - user names (`user_names`, and those found after /home/, /Users/, C:\Users\) wherever they
///   stand alone, save in a string that is only the name (the user "ubuntu" on Ubuntu) or,
///   for a name like a system directory ("dev"), outside a home directory → "<userN>";
/// - UUIDs: 8-4-4-4-12 hex anywhere (NVIDIA's GPU-…, MIG-…, Vulkan's), 32 hex digits anywhere
///   (OpenCL's, a machine-id), AMD's "GPU-" and 16 hex digits (16 alone under a key naming a
///   uuid), either case → the same shape with the hex digits of N, so the views of one
///   device still name one device, and devices stay distinct.
/// `host_names` adds names the document does not hold under "hostname" (host_names_from).
Redacted redact(Json doc, const std::vector<std::string>& user_names,
                const std::vector<std::string>& host_names = {});

/// redact(), for a document written through a JsonWriter rather than held (a report of tens
/// of MB): write it once through collector(), then through start_redacting()'s filter, which
/// replaces what redact() replaces, numbering in the order the strings come. Each
/// start_redacting() numbers afresh, so a first redacting walk can count (counts()) what a
/// second one then writes.
class StreamRedaction {
 public:
  StreamRedaction(const std::vector<std::string>& user_names,
                  const std::vector<std::string>& host_names);
  ~StreamRedaction();
  StreamRedaction(const StreamRedaction&) = delete;
  StreamRedaction& operator=(const StreamRedaction&) = delete;

  JsonStringFilter& collector();
  JsonStringFilter& start_redacting();
  /// What the last redacting walk replaced.
  RedactionCounts counts() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace gpudoctor
