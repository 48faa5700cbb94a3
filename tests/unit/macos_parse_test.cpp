// The macos backend on Linux: its parsers on real outputs (tests/fixtures/macos-system-profiler,
// tests/fixtures/macho, the seed trees; see their READMEs), the command runner with real
// commands, and the probe driven through a fake runner as it runs on a Mac.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "compat/compat_data.hpp"
#include "compat/compat_query.hpp"
#include "core/command_runner.hpp"
#include "core/root.hpp"
#include "macos/macos_probe.hpp"
#include "parse/macos_tools.hpp"
#include "parse/python_env_files.hpp"
#include "parse/system_profiler.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

std::string read_fixture(const std::string& dir, const std::string& file) {
  std::ifstream in(test::fixture_path(dir) + "/" + file, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

constexpr std::uint64_t kGiB = 1ULL << 30;

// --- system_profiler SPDisplaysDataType -json

TEST(MacosParse, AppleM3ProJson) {
  auto r = parse_system_profiler_displays(
      read_fixture("macos-system-profiler", "m3pro-system-bridge-3408.json"));
  ASSERT_FALSE(r.error);
  ASSERT_EQ(r.gpus.size(), 1u);
  const MacGpu& g = r.gpus[0];
  EXPECT_EQ(g.name, "Apple M3 Pro");
  EXPECT_EQ(g.metal, "Metal 3");
  EXPECT_EQ(g.metal_supported, true);
  EXPECT_FALSE(g.vendor);  // the copy read ends before spdisplays_vendor
  ASSERT_EQ(g.displays.size(), 1u);
  EXPECT_EQ(g.displays[0].name, "DELL U2722DE");
  EXPECT_EQ(g.displays[0].resolution, "2560 x 1440 @ 60.00Hz");
  EXPECT_EQ(g.displays[0].main, true);
}

TEST(MacosParse, AppleM1EarlyKeyNamesJson) {
  auto r =
      parse_system_profiler_displays(read_fixture("macos-system-profiler", "m1-stats-394.json"));
  ASSERT_EQ(r.gpus.size(), 1u);
  EXPECT_EQ(r.gpus[0].name, "kHW_AppleM1Item");  // macOS 11.2's item name, as reported
  EXPECT_EQ(r.gpus[0].metal, "GPU family apple7");
  ASSERT_EQ(r.gpus[0].displays.size(), 1u);
  EXPECT_EQ(r.gpus[0].displays[0].name, "Color LCD");
}

TEST(MacosParse, JsonVendorBusAndMemoryKeys) {
  // The key names and enumerated values of the JSON form (sppci_vendor_*, spdisplays_egpu,
  // spdisplays_pcie_device), as system_profiler writes them for an eGPU and an Apple GPU.
  auto r = parse_system_profiler_displays(R"({"SPDisplaysDataType": [
      {"_name": "Radeon RX 560", "spdisplays_device-id": "0x67ef",
       "spdisplays_gpu_removable": "spdisplays_yes", "spdisplays_vendor": "sppci_vendor_amd",
       "sppci_device_type": "spdisplays_egpu", "sppci_bus": "spdisplays_pcie_device",
       "spdisplays_pcie_width": "x4", "spdisplays_vram": "4 GB", "sppci_model": "Radeon RX 560"},
      {"_name": "Apple M1 Pro", "spdisplays_vendor": "sppci_vendor_Apple",
       "sppci_bus": "spdisplays_builtin", "sppci_cores": "16",
       "sppci_device_type": "spdisplays_gpu", "sppci_model": "Apple M1 Pro"}]})");
  ASSERT_EQ(r.gpus.size(), 2u);
  EXPECT_EQ(r.gpus[0].vendor, "AMD");
  EXPECT_EQ(r.gpus[0].vendor_id, 0x1002u);
  EXPECT_EQ(r.gpus[0].device_id, 0x67efu);
  EXPECT_EQ(r.gpus[0].external, true);
  EXPECT_EQ(r.gpus[0].bus, "external");
  EXPECT_EQ(r.gpus[0].removable, true);
  EXPECT_EQ(r.gpus[0].pcie_lane_width, 4);
  EXPECT_EQ(r.gpus[0].vram_bytes, 4 * kGiB);
  EXPECT_EQ(r.gpus[1].vendor, "Apple");
  EXPECT_EQ(r.gpus[1].bus, "built-in");
  EXPECT_EQ(r.gpus[1].external, false);
  EXPECT_EQ(r.gpus[1].cores, 16);
  EXPECT_EQ(r.gpus[1].unified_memory, true);
}

TEST(MacosParse, JsonErrorsAreMessagesNotThrows) {
  EXPECT_EQ(parse_system_profiler_displays("").error, "not a JSON object");
  EXPECT_EQ(parse_system_profiler_displays("[1]").error, "not a JSON object");
  EXPECT_EQ(parse_system_profiler_displays(R"({"SPDisplaysDataType": 3})").error,
            "no \"SPDisplaysDataType\" list");
  auto odd = parse_system_profiler_displays(
      R"({"SPDisplaysDataType": [7, {"sppci_cores": 5, "spdisplays_pcie_width": "x999"}]})");
  ASSERT_EQ(odd.gpus.size(), 1u);
  EXPECT_FALSE(odd.gpus[0].cores);
  EXPECT_FALSE(odd.gpus[0].pcie_lane_width);
}

// --- the text form

TEST(MacosParse, ExternalRx5700XtText) {
  // Seed 001's eGPU: the facts the blog read off this output by hand.
  auto r = parse_system_profiler_displays_text(read_fixture(
      "mac-egpu-rx5700xt-plaidml", ".gpudoctor/system_profiler-SPDisplaysDataType.txt"));
  ASSERT_FALSE(r.error);
  ASSERT_EQ(r.gpus.size(), 1u);
  const MacGpu& g = r.gpus[0];
  EXPECT_EQ(g.name, "Radeon RX 5700 XT");
  EXPECT_EQ(g.external, true);
  EXPECT_EQ(g.bus, "external");
  EXPECT_EQ(g.pcie_lane_width, 4);
  EXPECT_EQ(g.vram_bytes, 8 * kGiB);
  EXPECT_EQ(g.vendor, "AMD");
  EXPECT_EQ(g.vendor_id, 0x1002u);
  EXPECT_EQ(g.device_id, 0x731fu);
  EXPECT_EQ(g.revision_id, 0xc1u);
  EXPECT_EQ(g.rom_revision, "113-D1990103-O09");
  EXPECT_EQ(g.metal_supported, true);
  EXPECT_EQ(g.metal, "macOS GPUFamily2 v1");
  EXPECT_EQ(g.removable, true);
  EXPECT_FALSE(g.unified_memory);
}

TEST(MacosParse, AppleM3Text) {
  auto r = parse_system_profiler_displays_text(
      read_fixture("macos-system-profiler", "m3-smctemp-26.txt"));
  ASSERT_EQ(r.gpus.size(), 1u);
  const MacGpu& g = r.gpus[0];
  EXPECT_EQ(g.name, "Apple M3");
  EXPECT_EQ(g.bus, "built-in");
  EXPECT_EQ(g.cores, 10);
  EXPECT_EQ(g.vendor_id, 0x106bu);
  EXPECT_EQ(g.metal, "Metal 3");
  EXPECT_EQ(g.unified_memory, true);
  ASSERT_EQ(g.displays.size(), 2u);
  EXPECT_EQ(g.displays[0].name, "Color LCD");
  EXPECT_EQ(g.displays[0].internal, true);
  EXPECT_EQ(g.displays[0].main, true);
  EXPECT_EQ(g.displays[1].name, "ILD-A27FHD-B");
  EXPECT_EQ(g.displays[1].resolution, "1920 x 1080 (1080p FHD - Full High Definition)");
}

TEST(MacosParse, IMacProVega64Text) {
  auto r = parse_system_profiler_displays_text(
      read_fixture("macos-system-profiler", "imacpro-vega64-cpu_info-17.txt"));
  ASSERT_EQ(r.gpus.size(), 1u);
  const MacGpu& g = r.gpus[0];
  EXPECT_EQ(g.name, "Radeon Pro Vega 64");
  EXPECT_EQ(g.bus, "PCIe");
  EXPECT_EQ(g.external, false);
  EXPECT_EQ(g.pcie_lane_width, 16);
  EXPECT_EQ(g.vram_bytes, 16 * kGiB);
  EXPECT_EQ(g.device_id, 0x6860u);
  ASSERT_EQ(g.displays.size(), 1u);
  EXPECT_EQ(g.displays[0].name, "iMac");
  EXPECT_EQ(g.displays[0].internal, true);
  EXPECT_EQ(g.displays[0].resolution, "5120 x 2880 Retina");
}

TEST(MacosParse, TextWithoutGpusIsAnError) {
  EXPECT_EQ(parse_system_profiler_displays_text("Graphics/Displays:\n\n").error,
            "no \"Chipset Model\" line");
  EXPECT_EQ(parse_profiler_size("1536 MB"), 1536ULL << 20);
  EXPECT_FALSE(parse_profiler_size("8 TB"));
  EXPECT_FALSE(parse_profiler_size("lots"));
}

// --- sysctl, sw_vers, ~/.plaidml

TEST(MacosParse, SysctlAndSwVers) {
  MacosInfo info;
  // archspec/archspec#38: an M1 on macOS 11.0 ("Apple processor"); sysctl prints "name: value".
  apply_sysctl(info, parse_sysctl("machdep.cpu.brand_string: Apple processor\n"
                                  "hw.optional.arm64: 1\nsysctl.proc_translated: 0\n"
                                  "hw.memsize: 17179869184\n"));
  EXPECT_EQ(info.cpu_brand, "Apple processor");
  EXPECT_EQ(info.arm64, true);
  EXPECT_EQ(info.translated, false);
  EXPECT_EQ(info.memory_bytes, 16 * kGiB);
  apply_sw_vers(info,
                parse_sw_vers(read_fixture("mac-egpu-rx5700xt-plaidml", ".gpudoctor/sw_vers.txt")));
  EXPECT_EQ(info.product_version, "10.15.6");
  EXPECT_EQ(info.build_version, "19G2021");
  EXPECT_FALSE(info.product_name);
  MacosInfo intel;  // an Intel Mac: hw.optional.arm64 unknown to its sysctl, so not printed
  apply_sysctl(intel, parse_sysctl("hw.memsize: 68719476736\n"));
  EXPECT_FALSE(intel.arm64);
}

TEST(MacosParse, PlaidmlConfig) {
  // The keys plaidml.settings saves (PLAIDML_DEVICE_IDS, PLAIDML_EXPERIMENTAL) and the device
  // id plaidbench printed in plaidml/plaidml#175.
  auto c = parse_plaidml_config(
      R"({"PLAIDML_DEVICE_IDS": ["metal_amd_radeon_pro_560x.0"], "PLAIDML_EXPERIMENTAL": false})");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->device_ids, std::vector<std::string>{"metal_amd_radeon_pro_560x.0"});
  EXPECT_EQ(c->experimental, false);
  EXPECT_FALSE(parse_plaidml_config("PLAIDML_DEVICE_IDS=x"));
}

// --- Mach-O: the SDK an interpreter was built with

TEST(MacosParse, MachoSdkFromRealHeaders) {
  const std::string old_sdk =
      read_fixture("macho", "markupsafe-1.1.1-cp38-macosx_10_9_x86_64-_speedups.head");
  EXPECT_EQ(macho_macos_sdk(old_sdk), "10.14");  // LC_VERSION_MIN_MACOSX
  EXPECT_EQ(binary_archs(old_sdk), std::vector<std::string>{"x86_64"});
  const std::string arm =
      read_fixture("macho", "markupsafe-3.0.2-cp312-macosx_11_0_arm64-_speedups.head");
  EXPECT_EQ(macho_macos_sdk(arm), "14.5");  // LC_BUILD_VERSION
  EXPECT_EQ(binary_archs(arm), std::vector<std::string>{"arm64"});
  // Cut before the load command: unknown, not a guess.
  EXPECT_FALSE(macho_macos_sdk(old_sdk.substr(0, 1300)));
  EXPECT_FALSE(macho_macos_sdk("#!/bin/sh\n"));
}

// --- tensorflow-metal's table (data/compat/tensorflow_metal.json, from its PyPI page)

TEST(MacosCompat, TensorflowMetalReleases) {
  const CompatData& d = builtin_compat();
  auto v = [](const char* s) { return *parse_version(s); };
  auto r012 = tensorflow_metal_release(d, v("0.1.2"));
  ASSERT_TRUE(r012);
  EXPECT_TRUE(in_range(v("2.5.0"), r012->tensorflow));
  EXPECT_FALSE(in_range(v("2.6.0"), r012->tensorflow));
  EXPECT_EQ(r012->macos_min->text, "12.0");
  EXPECT_EQ(tensorflow_metal_release(d, v("0.5.0"))->macos_min->text, "12.1");
  EXPECT_EQ(tensorflow_metal_for_tf(d, v("2.6.2"))->plugin.text, "0.2.0");
  EXPECT_EQ(tensorflow_metal_for_tf(d, v("2.17.0"))->plugin.text, "1.1.0");
  EXPECT_FALSE(tensorflow_metal_release(d, v("1.2.0")));  // its own table misnames it
  EXPECT_FALSE(tensorflow_metal_for_tf(d, v("2.4.0")));
}

// --- the command runner

TEST(MacosRunner, RunsCapturesAndKillsAtTheDeadline) {
  SpawnRunner runner;
  auto ok = runner.run({"/bin/sh", "-c", "echo \"$GPUDOCTOR_X\"; echo oops >&2; exit 3"},
                       {"GPUDOCTOR_X=given"}, std::chrono::milliseconds(5000));
  EXPECT_FALSE(ok.error);
  EXPECT_EQ(ok.out, "given\n");  // standard error is not mixed in
  EXPECT_EQ(ok.exit_code, 3);
  auto t0 = std::chrono::steady_clock::now();
  auto hung = runner.run({"/bin/sleep", "30"}, {}, std::chrono::milliseconds(200));
  EXPECT_TRUE(hung.timed_out);
  EXPECT_FALSE(hung.exit_code);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  auto missing = runner.run({"/nonexistent/system_profiler"}, {}, std::chrono::seconds(1));
  EXPECT_TRUE(missing.error);
}

// --- the probe, as on a Mac, through a fake runner

class RecordedRunner : public CommandRunner {
 public:
  std::map<std::string, std::string> outputs;  ///< argv joined with ' ' → standard output
  mutable std::vector<std::string> env_seen;
  CommandOutput run(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                    std::chrono::milliseconds) const override {
    std::string key;
    for (const auto& a : argv) key += (key.empty() ? "" : " ") + a;
    env_seen.insert(env_seen.end(), env.begin(), env.end());
    CommandOutput out;
    auto it = outputs.find(key);
    if (it == outputs.end()) {
      out.exit_code = 1;  // system_profiler before 10.15 rejects -json and prints nothing
    } else {
      out.exit_code = 0;
      out.out = it->second;
    }
    return out;
  }
};

TEST(MacosProbe, LiveThroughTheRunnerFallsBackToText) {
  RecordedRunner runner;
  runner.outputs["/usr/bin/sw_vers"] = "ProductName:\tMac OS X\nProductVersion:\t10.15.6\n";
  runner.outputs["/usr/sbin/system_profiler SPDisplaysDataType"] = read_fixture(
      "mac-egpu-rx5700xt-plaidml", ".gpudoctor/system_profiler-SPDisplaysDataType.txt");
  Root root("/");
  Environment env(std::map<std::string, std::string>{{"DYLD_LIBRARY_PATH", "/usr/local/cuda/lib"}});
  ProbeContext ctx{root, env, true, false};
  ProbeOutcome outcome;
  auto info = probe_macos(ctx, &runner, std::chrono::milliseconds(1000), outcome);
  ASSERT_TRUE(info);
  EXPECT_EQ(outcome.status, ProbeStatus::ok);
  EXPECT_EQ(info->product_version, "10.15.6");
  ASSERT_EQ(info->gpus.size(), 1u);
  EXPECT_EQ(info->gpus[0].pcie_lane_width, 4);
  EXPECT_EQ(info->dyld_library_path, "/usr/local/cuda/lib");
  // sw_vers is asked for the real version, never the 10.16 compatibility answer.
  EXPECT_NE(std::find(runner.env_seen.begin(), runner.env_seen.end(), "SYSTEM_VERSION_COMPAT=0"),
            runner.env_seen.end());
  // The two commands that said nothing are named.
  ASSERT_EQ(info->errors.size(), 2u);
  EXPECT_NE(info->errors[0].find("/usr/sbin/sysctl"), std::string::npos);
}

TEST(MacosProbe, NotMacosAndNotAMacTree) {
  Root host("/");
  Environment env;
  ProbeOutcome live;
  EXPECT_FALSE(probe_macos(ProbeContext{host, env, true, false}, nullptr,
                           std::chrono::milliseconds(100), live));
  EXPECT_EQ(live.status, ProbeStatus::skipped);
  EXPECT_EQ(live.detail, "not macOS");
  Root linux_tree(test::fixture_path("kvm-virtio-vm"));
  ProbeOutcome recorded;
  EXPECT_FALSE(probe_macos(ProbeContext{linux_tree, env, false, false}, nullptr,
                           std::chrono::milliseconds(100), recorded));
  EXPECT_EQ(recorded.status, ProbeStatus::skipped);
}

}  // namespace
}  // namespace gpudoctor
