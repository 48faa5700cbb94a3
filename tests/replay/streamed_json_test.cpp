// `check --json` and `query --json` are written as they are made (src/json_writer.hpp); on
// every fixture machine they must be the bytes the DOM gave: the built gpudoctor's output is
// the same document read back and dumped again, and the library's streamed writer and its DOM
// builder agree on the snapshot read back from that output.
#include <gtest/gtest.h>

#include "devices.hpp"
#include "json_writer.hpp"
#include "render/check_text.hpp"
#include "render/query_text.hpp"
#include "snapshot_io.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

/// Machines whose snapshots between them fill every section: NVIDIA with Python
/// environments, ROCm with an override, a Mac, Vulkan layers, Fabric Manager, WSL. The golden
/// `query --json` files of every fixture machine check the rest byte for byte.
const char* const kMachines[] = {
    "server-h100-torch-cu124",      "rocm-mi210-override-gfx1030",
    "mac-m1pro-torch-mps",          "python-torch26-jax06-cudnn-conflict",
    "vulkan-mullins-radeon-kmd",    "nvidia-dgx-a100-fabricmanager-mismatch",
    "wsl2-linux-driver-inside",
};

template <typename F>
std::string streamed(F write) {
  std::string text;
  JsonWriter out([&text](std::string_view piece) {
    text.append(piece);
    return true;
  });
  write(out);
  EXPECT_TRUE(out.flush());
  return text;
}

TEST(StreamedJson, CheckAndQueryOnEveryFixtureMachineAreTheBytesTheDomGives) {
  for (const std::string machine : kMachines) {
    SCOPED_TRACE(machine);
    const auto r = test::run_gpudoctor(
        {"check", "--json", "--no-smoke", "--sysroot", test::fixture_path(machine)});
    ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
    const Json doc = Json::parse(r.out);
    EXPECT_EQ(r.out, dump_json(doc, 2) + "\n");

    auto loaded = snapshot_from_json_text(r.out);
    ASSERT_TRUE(std::holds_alternative<Snapshot>(loaded)) << std::get<std::string>(loaded);
    const Snapshot& snap = std::get<Snapshot>(loaded);
    const auto devices = merge_devices(snap);
    const auto findings = test::run_all_checks(snap);
    EXPECT_EQ(streamed([&](JsonWriter& out) { write_check_json(out, snap, devices, findings); }),
              dump_json(check_json(snap, devices, findings), 2));
    EXPECT_EQ(streamed([&](JsonWriter& out) { write_query_json(out, snap, devices); }),
              dump_json(query_json(snap, devices), 2));
  }
}

}  // namespace
}  // namespace gpudoctor
