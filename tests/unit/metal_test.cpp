// The Metal backend above the Objective-C calls, driven through a fake MetalCalls: which
// properties are read (and left unknown where a macOS lacks the selector), GPU family decoding,
// the smoke matmul's host side (layout, sizes passed to the kernel, read-back, verification,
// each failure's text), MPS, the child's report and its assembly, the merge with
// system_profiler's GPU, the facts rows and the smoke finding. The fake executes what the MSL
// kernel and MPS are documented to compute (C = A·B over the buffers it is given); the kernel's
// own MSL is compiled only by a Mac's Metal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <set>

#include "api/metal/metal_families.hpp"
#include "checks/area_status.hpp"
#include "checks/checks.hpp"
#include "compat/compat_data.hpp"
#include "devices.hpp"
#include "facts/facts.hpp"
#include "bench_runners/metal_bench.hpp"
#include "metal/matmul_msl.hpp"
#include "metal/metal_device.hpp"
#include "metal/metal_enumerate.hpp"
#include "metal/metal_matmul.hpp"
#include "metal/metal_probe.hpp"

namespace gpudoctor {
namespace {

using metal::Made;
using metal::Object;

/// A GPU as the fake answers for it.
struct FakeGpu {
  std::string name = "Apple M1 Pro";
  std::set<std::string> selectors = {"name", "registryID", "hasUnifiedMemory",
                                     "recommendedMaxWorkingSetSize", "isLowPower", "isHeadless",
                                     "isRemovable", "location", "locationNumber",
                                     "maxBufferLength", "maxThreadgroupMemoryLength",
                                     "supportsFamily:"};
  std::map<std::string, std::uint64_t> numbers = {{"registryID", 0x100000b95},
                                                  {"recommendedMaxWorkingSetSize", 22906503168},
                                                  {"location", 0},
                                                  {"locationNumber", 0},
                                                  {"maxBufferLength", 17179869184},
                                                  {"maxThreadgroupMemoryLength", 32768}};
  std::map<std::string, bool> flags = {{"hasUnifiedMemory", true},  {"isLowPower", false},
                                       {"isHeadless", false},       {"isRemovable", false}};
  std::set<long> families = {1001, 1002, 1003, 1004, 1005, 1006, 1007, 2002, 3001, 3002, 3003,
                             5001};
  std::set<unsigned long> feature_sets;  ///< what supportsFeatureSet: says yes to
  std::optional<std::string> compile_error;  ///< newLibraryWithSource's NSError
  std::optional<std::string> mps_unavailable;
  std::uint64_t max_threads = 1024;
  bool wrong = false;                        ///< one entry of C comes back off
};

class FakeCalls final : public metal::MetalCalls {
 public:
  explicit FakeCalls(std::vector<FakeGpu> gpus) : gpus_(std::move(gpus)) {}

  std::vector<Object> all_devices() override {
    std::vector<Object> out;
    for (auto& g : gpus_) out.push_back(make({Kind::device, &g}));
    return out;
  }
  bool responds(Object o, const char* s) override { return gpu(o).selectors.count(s) != 0; }
  std::optional<std::string> text(Object o, const char*) override { return gpu(o).name; }
  std::uint64_t unsigned_value(Object o, const char* s) override { return gpu(o).numbers.at(s); }
  bool flag(Object o, const char* s) override { return gpu(o).flags.at(s); }
  bool supports_family(Object o, long family) override {
    asked_families_.push_back(family);
    return gpu(o).families.count(family) != 0;
  }
  bool supports_feature_set(Object o, unsigned long set) override {
    asked_feature_sets_.push_back(set);
    return gpu(o).feature_sets.count(set) != 0;
  }
  Made new_pipeline(Object device, const std::string& source, const char* function) override {
    const FakeGpu& g = gpu(device);
    if (g.compile_error) {
      return {nullptr, "newLibraryWithSource:options:error: could not compile the matmul kernel: " +
                           *g.compile_error};
    }
    sources_.push_back(source);
    EXPECT_STREQ(function, metal::kMatmulFunction);
    return {make({Kind::pipeline, &gpu(device)}), ""};
  }
  std::uint64_t pipeline_max_threads(Object p) override { return obj(p).gpu->max_threads; }
  Made new_queue(Object device) override { return {make({Kind::queue, &gpu(device)}), ""}; }
  Made new_buffer(Object device, const void* bytes, std::size_t length) override {
    Thing t{Kind::buffer, &gpu(device)};
    t.data.resize(length / sizeof(float));
    std::memcpy(t.data.data(), bytes, length);
    return {make(std::move(t)), ""};
  }
  void* contents(Object buffer) override { return obj(buffer).data.data(); }
  std::optional<std::string> dispatch(Object, Object pipeline, const std::vector<Object>& buffers,
                                      const void* constants, std::size_t length,
                                      metal::Size3 groups, metal::Size3 threads) override {
    ++dispatches_;
    EXPECT_EQ(buffers.size(), 3u);
    EXPECT_EQ(length, sizeof(metal::MatmulSizes));
    metal::MatmulSizes sizes{};
    std::memcpy(&sizes, constants, sizeof sizes);
    // The grid covers the padded matrix exactly, one thread per entry.
    EXPECT_EQ(groups.width * threads.width, sizes.n);
    EXPECT_EQ(groups.height * threads.height, sizes.n);
    multiply(obj(buffers[0]).data, obj(buffers[1]).data, obj(buffers[2]).data, sizes.n, sizes.n,
             sizes.ld);
    if (obj(pipeline).gpu->wrong) obj(buffers[2]).data[5] += 1.0f;
    return std::nullopt;
  }
  std::optional<std::string> mps_unavailable(Object device) override {
    return gpu(device).mps_unavailable;
  }
  Made new_mps_matrix(Object buffer, std::uint64_t rows, std::uint64_t columns,
                      std::uint64_t row_bytes) override {
    Thing t{Kind::matrix, obj(buffer).gpu};
    t.buffer = buffer;
    t.rows = rows;
    t.ld = row_bytes / sizeof(float);
    EXPECT_EQ(rows, columns);
    return {make(std::move(t)), ""};
  }
  Made new_mps_multiplication(Object device, std::uint64_t n) override {
    Thing t{Kind::multiplication, &gpu(device)};
    t.rows = n;
    return {make(std::move(t)), ""};
  }
  std::optional<std::string> mps_run(Object, Object mm, Object a, Object b, Object c) override {
    const auto n = obj(mm).rows;
    multiply(obj(obj(a).buffer).data, obj(obj(b).buffer).data, obj(obj(c).buffer).data, n, n,
             obj(a).ld);
    return std::nullopt;
  }
  void release(Object o) override {
    ASSERT_TRUE(live_.count(o)) << "released twice or never made";
    live_.erase(o);
  }

  std::size_t live_objects() const { return live_.size(); }
  int dispatches_ = 0;
  std::vector<long> asked_families_;
  std::vector<unsigned long> asked_feature_sets_;
  std::vector<std::string> sources_;

 private:
  enum class Kind { device, pipeline, queue, buffer, matrix, multiplication };
  struct Thing {
    Kind kind;
    FakeGpu* gpu;
    std::vector<float> data;
    Object buffer = nullptr;
    std::uint64_t rows = 0;
    std::uint64_t ld = 0;
  };

  static void multiply(const std::vector<float>& a, const std::vector<float>& b,
                       std::vector<float>& c, std::uint64_t n, std::uint64_t k_end,
                       std::uint64_t ld) {
    for (std::uint64_t i = 0; i < n; ++i) {
      for (std::uint64_t j = 0; j < n; ++j) {
        float acc = 0;
        for (std::uint64_t k = 0; k < k_end; ++k) acc = std::fma(a[i * ld + k], b[k * ld + j], acc);
        c[i * ld + j] = acc;
      }
    }
  }
  Object make(Thing t) {
    things_.push_back(std::make_unique<Thing>(std::move(t)));
    live_.insert(things_.back().get());
    return things_.back().get();
  }
  Thing& obj(Object o) { return *static_cast<Thing*>(o); }
  FakeGpu& gpu(Object o) { return *obj(o).gpu; }

  std::vector<FakeGpu> gpus_;
  std::vector<std::unique_ptr<Thing>> things_;
  std::set<Object> live_;
};

TEST(MetalFamilies, ValuesAndNamesFromAppleHeader) {
  const auto& all = metal::gpu_families();
  auto value_of = [&](std::string_view name) {
    auto f = std::find_if(all.begin(), all.end(), [&](const auto& g) { return g.name == name; });
    return f == all.end() ? -1L : f->value;
  };
  EXPECT_EQ(value_of("Apple1"), 1001);
  EXPECT_EQ(value_of("Apple7"), 1007);
  EXPECT_EQ(value_of("Mac2"), 2002);
  EXPECT_EQ(value_of("Common3"), 3003);
  EXPECT_EQ(value_of("Metal3"), 5001);
  for (const auto& f : all) EXPECT_EQ(f.source.rfind("https://developer.apple.com/", 0), 0u);
  EXPECT_EQ(metal::family_names({5001, 1007, 2002, 42}),
            (std::vector<std::string>{"Apple7", "Mac2", "Metal3"}));
  const std::vector<std::string> m1 = {"Apple1", "Apple7", "Mac2", "MacCatalyst2", "Common3"};
  EXPECT_EQ(metal::highest_family(m1, "Apple"), "Apple7");
  EXPECT_EQ(metal::highest_family(m1, "Mac"), "Mac2");  // not MacCatalyst2
  EXPECT_EQ(metal::highest_family(m1, "Metal"), std::nullopt);
  EXPECT_EQ(metal::location_name(2), "external");
  EXPECT_EQ(metal::location_name(std::numeric_limits<std::uint64_t>::max()), "unspecified");
  EXPECT_EQ(metal::location_name(7), std::nullopt);
}

TEST(MetalDevice, AppleSiliconReadsEveryProperty) {
  FakeCalls calls({FakeGpu{}});
  auto devices = calls.all_devices();
  const MetalDevice d = metal::read_device(calls, devices[0], 0);
  EXPECT_EQ(d.name, "Apple M1 Pro");
  EXPECT_EQ(d.registry_id, 0x100000b95u);
  EXPECT_EQ(d.unified_memory, true);
  EXPECT_EQ(d.recommended_max_working_set_bytes, 22906503168u);
  EXPECT_EQ(d.location, "built-in");
  EXPECT_EQ(d.removable, false);
  EXPECT_EQ(d.max_buffer_length_bytes, 17179869184u);
  EXPECT_EQ(d.families_known, true);
  EXPECT_EQ(d.families, (std::vector<std::string>{"Apple1", "Apple2", "Apple3", "Apple4",
                                                  "Apple5", "Apple6", "Apple7", "Mac2",
                                                  "Common1", "Common2", "Common3", "Metal3"}));
  EXPECT_EQ(calls.asked_families_.size(), metal::gpu_families().size());
  for (Object o : devices) calls.release(o);
}

TEST(MetalDevice, OldMacosLeavesMissingSelectorsUnknownAndNeverSendsThem) {
  FakeGpu old;
  old.name = "NVIDIA GeForce GTX 750 Ti";
  old.selectors = {"name", "isLowPower", "isHeadless", "registryID", "isRemovable"};
  old.numbers = {{"registryID", 0x1000002ab}};
  old.flags = {{"isLowPower", false}, {"isHeadless", false}, {"isRemovable", false}};
  FakeCalls calls({old});
  auto devices = calls.all_devices();
  const MetalDevice d = metal::read_device(calls, devices[0], 0);
  EXPECT_EQ(d.name, "NVIDIA GeForce GTX 750 Ti");
  EXPECT_EQ(d.unified_memory, std::nullopt);
  EXPECT_EQ(d.location, std::nullopt);
  EXPECT_EQ(d.max_buffer_length_bytes, std::nullopt);
  EXPECT_EQ(d.families_known, false);
  EXPECT_TRUE(d.families.empty());
  EXPECT_TRUE(calls.asked_families_.empty());  // supportsFamily: was never sent
  EXPECT_TRUE(calls.asked_feature_sets_.empty());  // nor supportsFeatureSet:, not there either
  EXPECT_EQ(d.feature_set, std::nullopt);
  for (Object o : devices) calls.release(o);
}

// macOS 10.11–10.14 (seed 002: a GTX 750 Ti on High Sierra) have supportsFeatureSet: and not
// supportsFamily:; the newest macOS feature set it says yes to is the device's.
TEST(MetalDevice, BeforeCatalinaTheFeatureSetIsAskedInstead) {
  FakeGpu old;
  old.name = "NVIDIA GeForce GTX 750 Ti";
  old.selectors = {"name", "isLowPower", "isHeadless", "registryID", "isRemovable",
                   "supportsFeatureSet:"};
  old.numbers = {{"registryID", 0x1000002ab}};
  old.flags = {{"isLowPower", false}, {"isHeadless", false}, {"isRemovable", false}};
  old.feature_sets = {10000, 10001, 10003};
  FakeCalls calls({old});
  auto devices = calls.all_devices();
  const MetalDevice d = metal::read_device(calls, devices[0], 0);
  EXPECT_EQ(d.families_known, false);
  EXPECT_TRUE(calls.asked_families_.empty());
  EXPECT_EQ(d.feature_set, "macOS_GPUFamily1_v3");
  // Every macOS feature set was asked, never the texture tier alias 10002.
  EXPECT_EQ(calls.asked_feature_sets_,
            (std::vector<unsigned long>{10000, 10001, 10003, 10004, 10005}));
  for (Object o : devices) calls.release(o);
}

TEST(MetalFamilies, FeatureSetsFromAppleHeader) {
  const auto& sets = metal::mac_feature_sets();
  ASSERT_EQ(sets.size(), 5u);
  EXPECT_EQ(sets.front().value, 10000u);
  EXPECT_EQ(sets.front().name, "macOS_GPUFamily1_v1");
  EXPECT_EQ(sets.back().value, 10005u);
  EXPECT_EQ(sets.back().name, "macOS_GPUFamily2_v1");
  for (const auto& f : sets) EXPECT_EQ(f.source.rfind("https://developer.apple.com/", 0), 0u);
  EXPECT_EQ(metal::highest_feature_set({10000, 10001, 10003, 10004, 10005}),
            "macOS_GPUFamily2_v1");
  EXPECT_EQ(metal::highest_feature_set({10003, 10000}), "macOS_GPUFamily1_v3");
  EXPECT_EQ(metal::highest_feature_set({10002}), std::nullopt);  // a texture tier, no family
  EXPECT_EQ(metal::highest_feature_set({}), std::nullopt);
}

TEST(MetalDevice, EgpuIsExternalAndRemovable) {
  FakeGpu egpu;
  egpu.name = "AMD Radeon RX 5700 XT";
  egpu.numbers["location"] = 2;
  egpu.numbers["locationNumber"] = 1;
  egpu.flags["isRemovable"] = true;
  egpu.flags["hasUnifiedMemory"] = false;
  egpu.families = {2001, 2002, 3001, 3002, 3003, 5001};
  FakeCalls calls({egpu});
  auto devices = calls.all_devices();
  const MetalDevice d = metal::read_device(calls, devices[0], 0);
  EXPECT_EQ(d.location, "external");
  EXPECT_EQ(d.removable, true);
  EXPECT_EQ(d.unified_memory, false);
  EXPECT_EQ(metal::highest_family(d.families, "Mac"), "Mac2");
  for (Object o : devices) calls.release(o);
}

JobReport run_enumerate(FakeCalls& calls, MetalInfo& info, bool smoke) {
  metal::EnumerateOptions options;
  options.smoke = smoke;
  options.smoke_n = 100;  // not a multiple of the tile: padding must not change C
  info.library = "/System/Library/Frameworks/Metal.framework/Metal";
  return metal::enumerate(calls, options, info);
}

TEST(MetalSmoke, CorrectDevicePassesAndEverythingIsReleased) {
  FakeCalls calls({FakeGpu{}});
  MetalInfo info;
  const JobReport rep = run_enumerate(calls, info, true);
  EXPECT_EQ(rep.status, ProbeStatus::ok);
  ASSERT_EQ(info.smoke.size(), 1u);
  const SmokeResult& r = info.smoke[0];
  EXPECT_EQ(r.status, "pass") << r.reason.value_or("");
  EXPECT_EQ(r.api, "metal");
  EXPECT_EQ(r.device, "Apple M1 Pro");
  EXPECT_EQ(r.n, 100);
  EXPECT_EQ(r.kernel, std::string(metal::kKernelDescription));
  EXPECT_EQ(r.library, info.library);
  EXPECT_EQ(r.wrong_entries, 0);
  EXPECT_GE(calls.dispatches_, 2);  // a warm-up, then the timed run
  ASSERT_EQ(calls.sources_.size(), 1u);
  EXPECT_NE(calls.sources_[0].find("kernel void gpudoctor_matmul"), std::string::npos);
  EXPECT_EQ(calls.live_objects(), 0u);
  EXPECT_NE(rep.detail.find("1 device"), std::string::npos);
  // The child's data reads back as the section.
  EXPECT_EQ(rep.data.get<MetalInfo>().smoke.size(), 1u);
}

TEST(MetalSmoke, WrongEntryFailsWithWhereItIs) {
  FakeGpu g;
  g.wrong = true;
  FakeCalls calls({g});
  MetalInfo info;
  run_enumerate(calls, info, true);
  ASSERT_EQ(info.smoke.size(), 1u);
  EXPECT_EQ(info.smoke[0].status, "fail");
  EXPECT_EQ(info.smoke[0].wrong_entries, 1);
  EXPECT_EQ(info.smoke[0].worst_row, 0);
  EXPECT_EQ(info.smoke[0].worst_col, 5);
}

TEST(MetalSmoke, CompileErrorFailsWithMetalsWords) {
  FakeGpu g;
  g.compile_error = "program_source:9:5: error: use of undeclared identifier 'threadgroup_barier'";
  FakeCalls calls({g});
  MetalInfo info;
  run_enumerate(calls, info, true);
  ASSERT_EQ(info.smoke.size(), 1u);
  EXPECT_EQ(info.smoke[0].status, "fail");
  EXPECT_NE(info.smoke[0].reason->find("newLibraryWithSource"), std::string::npos);
  EXPECT_NE(info.smoke[0].reason->find("undeclared identifier"), std::string::npos);
  EXPECT_EQ(calls.dispatches_, 0);
  EXPECT_EQ(calls.live_objects(), 0u);
}

TEST(MetalSmoke, SmallThreadgroupsAndSmallBuffersSkip) {
  FakeGpu few;
  few.max_threads = 128;
  FakeCalls calls({few});
  MetalInfo info;
  run_enumerate(calls, info, true);
  ASSERT_EQ(info.smoke.size(), 1u);
  EXPECT_EQ(info.smoke[0].status, "skip");
  EXPECT_NE(info.smoke[0].reason->find("needs 256"), std::string::npos);

  FakeGpu tiny;
  tiny.numbers["maxBufferLength"] = 4096;
  FakeCalls calls2({tiny});
  MetalInfo info2;
  run_enumerate(calls2, info2, true);
  EXPECT_EQ(info2.smoke[0].status, "skip");
  EXPECT_NE(info2.smoke[0].reason->find("maxBufferLength"), std::string::npos);
  EXPECT_EQ(calls2.live_objects(), 0u);
}

TEST(MetalSmoke, MpsSeriesRunsAndVerifies) {
  FakeCalls calls({FakeGpu{}});
  auto devices = calls.all_devices();
  {
    metal::MetalMatmul mps(calls, devices[0], "Apple M1 Pro", metal::MatmulEngine::mps);
    smoke::MatmulRequest req;
    req.n = 70;
    const SmokeResult r = mps.run(req);
    EXPECT_EQ(r.status, "pass") << r.reason.value_or("");
    EXPECT_EQ(r.kernel, std::string(metal::kMpsDescription));
  }
  FakeGpu no_mps;
  no_mps.mps_unavailable = "MetalPerformanceShaders does not support this GPU";
  FakeCalls calls2({no_mps});
  auto devices2 = calls2.all_devices();
  {
    metal::MetalMatmul mps(calls2, devices2[0], "GPU", metal::MatmulEngine::mps);
    const SmokeResult r = mps.run({});
    EXPECT_EQ(r.status, "skip");
    EXPECT_EQ(r.reason, no_mps.mps_unavailable);
  }
  for (Object o : devices) calls.release(o);
  for (Object o : devices2) calls2.release(o);
  EXPECT_EQ(calls.live_objects(), 0u);
}

TEST(MetalProbe, NoDeviceIsMissing) {
  FakeCalls calls({});
  MetalInfo info;
  EXPECT_EQ(run_enumerate(calls, info, true).status, ProbeStatus::missing);
  EXPECT_TRUE(info.smoke.empty());
}

TEST(MetalProbe, ChildThatDiedInTheSmokeTestFailsThatDevice) {
  MetalInfo progress;
  progress.library = "/System/Library/Frameworks/Metal.framework/Metal";
  progress.devices.push_back(MetalDevice{0, std::string("AMD Radeon Pro 5500M")});
  progress.devices.push_back(MetalDevice{1, std::string("Intel(R) UHD Graphics 630")});
  Json data(progress);
  data[metal::kSmokeRunningKey] = "AMD Radeon Pro 5500M";
  IsolatedResult r;
  r.outcome = ProbeOutcome{"metal", "Metal.framework", progress.library, ProbeStatus::crashed,
                           "Metal.framework crashed: SIGSEGV (Segmentation fault)"};
  r.data = data;
  MetalInfo info;
  const ProbeOutcome out = metal::assemble(info, {r}, true);
  EXPECT_EQ(out.status, ProbeStatus::crashed);
  ASSERT_EQ(info.smoke.size(), 2u);
  EXPECT_EQ(info.smoke[0].device, "AMD Radeon Pro 5500M");
  EXPECT_EQ(info.smoke[0].status, "fail");
  EXPECT_NE(info.smoke[0].reason->find("SIGSEGV"), std::string::npos);
  EXPECT_EQ(info.smoke[1].status, "skip");

  MetalInfo under_sysroot;
  EXPECT_EQ(metal::assemble(under_sysroot, {}, false).status, ProbeStatus::skipped);
}

Snapshot mac_snapshot() {
  Snapshot snap;
  snap.macos = MacosInfo{};
  MacGpu egpu;
  egpu.name = "Radeon RX 5700 XT";
  egpu.vendor_id = 0x1002;
  egpu.device_id = 0x731f;
  egpu.external = true;
  MacGpu igpu;
  igpu.name = "Intel UHD Graphics 630";
  snap.macos->gpus = {igpu, egpu};
  snap.metal = MetalInfo{};
  MetalDevice m0{0, std::string("AMD Radeon RX 5700 XT")};
  m0.removable = true;
  m0.location = "external";
  m0.families = {"Mac1", "Mac2", "Common3", "Metal3"};
  MetalDevice m1{1, std::string("Intel(R) UHD Graphics 630")};
  MetalDevice m2{2, std::string("Apple Paravirtual device")};
  snap.metal->devices = {m0, m1, m2};
  return snap;
}

TEST(MetalMerge, JoinsSystemProfilersGpuByName) {
  const Snapshot snap = mac_snapshot();
  const auto merged = merge_devices(snap);
  ASSERT_EQ(merged.size(), 4u);
  // "AMD Radeon RX 5700 XT" ends with system_profiler's "Radeon RX 5700 XT" after a space.
  EXPECT_EQ(merged[1].in("macos"), std::vector<std::size_t>{1});
  EXPECT_EQ(merged[1].in("metal"), std::vector<std::size_t>{0});
  EXPECT_EQ(merged[1].name, "Radeon RX 5700 XT");
  // "Intel(R) UHD Graphics 630" is not "Intel UHD Graphics 630": kept apart, not guessed.
  EXPECT_TRUE(merged[0].in("metal").empty());
  EXPECT_EQ(merged[2].name, "Intel(R) UHD Graphics 630");
  EXPECT_EQ(merged[2].name_source, "metal");
  EXPECT_EQ(merged[3].in("metal"), std::vector<std::size_t>{2});
  const Json j = devices_json(snap, merged);
  EXPECT_EQ(j[1]["metal"][0]["location"], "external");
}

TEST(MetalFacts, DeviceRowAndSmokeFinding) {
  Snapshot snap = mac_snapshot();
  snap.macos->product_version = "10.15.7";
  SmokeResult wrong;
  wrong.api = "metal";
  wrong.device = "AMD Radeon RX 5700 XT";
  wrong.status = "fail";
  wrong.reason = "1 of 65536 entries wrong";
  wrong.max_abs_error = 1.0;
  SmokeResult fine = wrong;
  fine.status = "pass";
  fine.reason.reset();
  fine.max_abs_error = 0.0;
  SmokeResult igpu = fine, vm = fine;
  igpu.device = "Intel(R) UHD Graphics 630";
  vm.device = "Apple Paravirtual device";
  snap.metal->smoke = {wrong, igpu, vm};  // one per device, in Metal's order
  const auto merged = merge_devices(snap);
  const facts::Machine m = facts::describe(snap, merged);
  std::string rows;
  for (const auto& r : m.devices[1].rows) rows += facts::row_text(r) + "\n";
  EXPECT_NE(rows.find("AMD Radeon RX 5700 XT · external, removable (eGPU)"), std::string::npos) << rows;
  EXPECT_NE(rows.find("families Mac2, Common3, Metal3"), std::string::npos) << rows;
  ASSERT_EQ(m.smoke.size(), 3u);
  EXPECT_EQ(m.smoke[0].device_index, 1u);
  EXPECT_EQ(m.smoke[1].device_index, 2u);

  const auto findings = run_checks(CheckInput{snap, merged, builtin_compat()});
  auto f = std::find_if(findings.begin(), findings.end(),
                        [](const Finding& x) { return x.id == "smoke.failed"; });
  ASSERT_NE(f, findings.end());
  EXPECT_NE(f->title.find("Metal smoke matmul on AMD Radeon RX 5700 XT gave wrong results"),
            std::string::npos);
  ASSERT_TRUE(f->fix);
  EXPECT_NE(f->fix->find("Software Update"), std::string::npos);
  EXPECT_EQ(f->fix->find("dpkg"), std::string::npos);
}

std::optional<AreaStatus> metal_area(const Snapshot& snap) {
  const auto merged = merge_devices(snap);
  for (const auto& a : area_statuses(snap, merged, {})) {
    if (a.area == "metal") return a;
  }
  return std::nullopt;
}

TEST(MetalArea, OkOnlyWithDevicesFromALiveProbe) {
  Snapshot snap = mac_snapshot();
  snap.metal->library = "/System/Library/Frameworks/Metal.framework/Metal";
  auto a = metal_area(snap);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->state, AreaState::ok);
  EXPECT_NE(a->summary.find("AMD Radeon RX 5700 XT"), std::string::npos) << a->summary;

  snap.live = false;  // a Mac's files under --sysroot: Metal was not loaded
  a = metal_area(snap);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->state, AreaState::not_examined);

  snap.live = true;
  snap.metal.reset();  // a report made without the metal backend
  a = metal_area(snap);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->state, AreaState::not_examined);

  snap.metal = MetalInfo{};
  snap.metal->library = "/System/Library/Frameworks/Metal.framework/Metal";
  a = metal_area(snap);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->state, AreaState::absent);
}

TEST(MetalArea, LinuxSnapshotSaysNothingAboutMetal) {
  Snapshot snap;
  snap.host = HostInfo{};
  snap.metal = MetalInfo{};  // even a stray section (a hand-edited report) is not shown
  EXPECT_FALSE(metal_area(snap));
}

TEST(MetalBench, KernelAndMpsSeriesPerDevice) {
  FakeGpu egpu;
  egpu.name = "AMD Radeon RX 5700 XT";
  egpu.mps_unavailable = "MetalPerformanceShaders does not support this GPU (MPSSupportsMTLDevice)";
  FakeCalls calls({FakeGpu{}, egpu});
  const auto series = bench::metal_series(calls, "Metal", {16, 48}, true);
  ASSERT_EQ(series.size(), 4u);
  EXPECT_EQ(series[0].api, "metal");
  EXPECT_EQ(series[0].blas, std::nullopt);
  EXPECT_EQ(series[0].kernel, std::string(metal::kKernelDescription));
  ASSERT_EQ(series[0].points.size(), 2u);
  EXPECT_TRUE(series[0].points[1].gflops.has_value());
  EXPECT_EQ(series[1].blas, "MPS");
  EXPECT_EQ(series[1].points.size(), 2u);
  EXPECT_EQ(series[1].error, std::nullopt);
  EXPECT_EQ(series[3].device, "AMD Radeon RX 5700 XT");
  EXPECT_TRUE(series[3].points.empty());
  EXPECT_EQ(series[3].error, egpu.mps_unavailable);
  EXPECT_EQ(calls.live_objects(), 0u);
  EXPECT_EQ(bench::metal_series(calls, "Metal", {16}, false).size(), 2u);  // --no-vendor-blas
}

}  // namespace
}  // namespace gpudoctor
