// `gpudoctor report` is written as it is made (write_report, redacting string by string in
// three walks); it must be the bytes of the DOM it replaced (build_report + dump_json), with
// its redaction numbering, counts, URL credentials removed and the node's name kept as they
// were, on real fixture machines with a user's environment around them.
#include <gtest/gtest.h>

#include "devices.hpp"
#include "json_writer.hpp"
#include "report/report.hpp"
#include "snapshot_io.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

std::string streamed_report(const ReportInput& in) {
  std::string text;
  JsonWriter out([&text](std::string_view piece) {
    text.append(piece);
    return true;
  });
  write_report(out, in);
  EXPECT_TRUE(out.flush());
  return text;
}

Snapshot snapshot_of(const std::string& machine) {
  const auto r = test::run_gpudoctor(
      {"query", "--json", "--sysroot", test::fixture_path(machine)});
  auto loaded = snapshot_from_json_text(r.out);
  EXPECT_TRUE(std::holds_alternative<Snapshot>(loaded)) << r.err;
  return std::holds_alternative<Snapshot>(loaded) ? std::get<Snapshot>(loaded) : Snapshot{};
}

/// A user's shell on a cluster node: their name, the node's name, a package index with a
/// token in its URL, a GPU picked by UUID.
Environment users_environment() {
  return Environment({{"USER", "alice"},
                      {"HOME", "/home/alice"},
                      {"HOSTNAME", "node17.cluster.example.org"},
                      {"PIP_INDEX_URL", "https://alice:s3cret@pypi.example.org/simple"},
                      {"CUDA_VISIBLE_DEVICES", "GPU-6b2e8a52-4d3f-11ee-be56-0242ac120002"},
                      {"LD_LIBRARY_PATH", "/home/alice/cuda/lib64:/usr/local/cuda/lib64"},
                      {"PATH", "/home/alice/.local/bin:/usr/bin"}});
}

TEST(StreamedReport, TheBytesOfTheDomRedactedOrNotWithANodeNameAndABench) {
  for (const char* machine : {"server-h100-torch-cu124", "rocm-mi210-override-gfx1030",
                              "python-user-jax-cuda12", "mac-m1pro-torch-mps"}) {
    SCOPED_TRACE(machine);
    Snapshot snap = snapshot_of(machine);
    // The user's name and the node's name where a probe would have found them.
    if (!snap.host) snap.host.emplace();
    snap.host->hostname = "node17.cluster.example.org";
    ProbeOutcome probe;
    probe.backend = "python";
    probe.label = "/home/alice/envs/train/bin/python";
    probe.detail = "node17 ran https://bob:pw@example.org/x as alice";
    snap.probes.push_back(probe);
    const auto devices = merge_devices(snap);
    const auto findings = test::run_all_checks(snap);
    const Environment env = users_environment();
    for (bool redact : {true, false}) {
      for (bool named : {false, true}) {
        SCOPED_TRACE(std::string(redact ? "redacted" : "not redacted") +
                     (named ? ", named node" : ""));
        ReportInput in{snap, devices, findings, env, "2026-11-24T05:00:00Z", redact, std::nullopt};
        if (named) {
          in.node_name = "node17";
          in.node_source = "SLURMD_NODENAME";
          in.bench = Json{{"results", Json::array({{{"device", "alice's GPU on node17"}}})}};
        }
        const std::string text = streamed_report(in);
        EXPECT_EQ(text, dump_json(build_report(in), 2));
        // Redaction happened (or not) while writing, and credentials never stay.
        EXPECT_EQ(text.find("s3cret"), std::string::npos);
        EXPECT_EQ(text.find("bob:pw"), std::string::npos);
        EXPECT_EQ(text.find("/home/alice") == std::string::npos, redact);
        EXPECT_EQ(text.find("<host>") != std::string::npos, redact);
        EXPECT_EQ(text.find("\"node\": \"node17\"") != std::string::npos, named);
      }
    }
  }
}

TEST(StreamedReport, AMemberNameWithCredentialsIsRenamedAsTheDomRenamesIt) {
  // Under --no-redact every variable is kept, names included; one named like a URL with
  // credentials is renamed, which moves it: the report is then built whole.
  const Snapshot snap = snapshot_of("server-h100-torch-cu124");
  const auto devices = merge_devices(snap);
  const auto findings = test::run_all_checks(snap);
  const Environment env({{"USER", "alice"}, {"https://alice:pw@zz.example.org", "1"}});
  const ReportInput in{snap, devices, findings, env, "2026-11-24T05:00:00Z", false, std::nullopt};
  const std::string text = streamed_report(in);
  EXPECT_EQ(text, dump_json(build_report(in), 2));
  EXPECT_EQ(text.find("alice:pw"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
