// OpenCL through the real loader: PoCL on this machine's CPU, and fake ICDs beside it that
// crash, hang or lie (tests/fakes/opencl). Skipped where PoCL or ocl-icd is not installed.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <thread>

#include "core/root.hpp"
#include "json.hpp"
#include "opencl/opencl_enumerate.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using test::TempTree;

std::string fake(const std::string& mode) {
  return std::string(GPUDOCTOR_FAKES) + "/opencl/libfake_opencl_" + mode + ".so";
}

bool pocl_here() {
  return fs::exists("/etc/OpenCL/vendors/pocl.icd") &&
         (fs::exists("/usr/lib/x86_64-linux-gnu/libOpenCL.so.1") ||
          fs::exists("/usr/lib64/libOpenCL.so.1") || fs::exists("/usr/lib/libOpenCL.so.1"));
}

struct Query {
  test::CommandResult run;
  Json json;
};

Query query_opencl(const std::vector<std::string>& env, const std::string& timeout = "5") {
  Query q;
  q.run =
      test::run_gpudoctor({"query", "--json", "--backend", "opencl", "--timeout", timeout}, env);
  q.json = Json::parse(q.run.out, nullptr, false);
  return q;
}

const Json* outcome_for(const Json& j, const std::string& library) {
  for (const auto& p : j.at("probes")) {
    if (p.value("backend", "") == "opencl" && p.value("library", Json()) == library) return &p;
  }
  return nullptr;
}

const Json* pocl_cpu_device(const Json& j) {
  for (const auto& p : j.at("opencl").at("platforms")) {
    if (p.value("name", Json()) != "Portable Computing Language") continue;
    for (const auto& d : p.at("devices")) {
      if (d.value("type", Json()) == "CPU") return &d;
    }
  }
  return nullptr;
}

#define SKIP_WITHOUT_POCL() \
  if (!pocl_here()) GTEST_SKIP() << "PoCL (pocl-opencl-icd) and ocl-icd are not installed"

TEST(OpenClLive, PoclCpuDeviceThroughTheRealLoader) {
  SKIP_WITHOUT_POCL();
  Query q = query_opencl({});
  ASSERT_EQ(q.run.exit_code, 0) << q.run.err;
  ASSERT_FALSE(q.json.is_discarded()) << q.run.out;
  const Json& cl = q.json.at("opencl");
  EXPECT_TRUE(cl.at("loader").is_string());
  EXPECT_TRUE(cl.at("loader_name").is_string());
  const Json* d = pocl_cpu_device(q.json);
  ASSERT_NE(d, nullptr) << q.run.out;
  EXPECT_EQ(d->at("compute_units"), std::thread::hardware_concurrency());
  EXPECT_GT(d->at("global_mem_bytes").get<std::uint64_t>(), 0u);
  EXPECT_GT(d->at("max_alloc_bytes").get<std::uint64_t>(), 0u);
  EXPECT_GT(d->at("max_work_group_size").get<std::uint64_t>(), 0u);
  EXPECT_EQ(d->at("max_work_item_sizes").size(), 3u);
  EXPECT_EQ(d->at("available"), true);
  EXPECT_TRUE(d->at("name").is_string());
  EXPECT_TRUE(d->at("opencl_c_version").is_string());
  EXPECT_TRUE(d->at("pci_bus_id").is_null());  // a CPU has no PCI address
  bool icd_loads = false;
  for (const auto& icd : cl.at("icds")) icd_loads |= icd.value("loads", Json()) == true;
  EXPECT_TRUE(icd_loads);
  const Json* own = nullptr;
  for (const auto& p : q.json.at("probes")) {
    if (p.at("backend") == "opencl" && p.at("label") == "opencl") own = &p;
  }
  ASSERT_NE(own, nullptr);
  EXPECT_EQ(own->at("status"), "ok") << own->dump();
}

TEST(OpenClLive, SameLibraryRegisteredTwiceIsProbedOnce) {
  SKIP_WITHOUT_POCL();
  Query first = query_opencl({});
  ASSERT_FALSE(first.json.is_discarded());
  const Json& icd = first.json.at("opencl").at("icds").at(0);
  ASSERT_TRUE(icd.at("resolved").is_string());
  // The same file by another path (Debian's /lib is /usr/lib), through OCL_ICD_FILENAMES.
  const std::string again = fs::canonical(icd.at("resolved").get<std::string>()).string();
  Query q = query_opencl({"OCL_ICD_FILENAMES=" + again});
  ASSERT_FALSE(q.json.is_discarded()) << q.run.out;
  ASSERT_EQ(q.json.at("opencl").at("icds").size(), 2u);
  for (const auto& i : q.json.at("opencl").at("icds")) EXPECT_EQ(i.at("loads"), true);
  EXPECT_EQ(q.json.at("opencl").at("platforms").size(), 1u);
  int jobs = 0;
  for (const auto& p : q.json.at("probes")) jobs += p.at("backend") == "opencl";
  EXPECT_EQ(jobs, 2);  // the backend's own outcome and one child
}

TEST(OpenClLive, SysrootListsIcdsAndLoadsNothing) {
  TempTree tree;
  tree.write("etc/OpenCL/vendors/pocl.icd", "libpocl.so.2\n");
  auto r =
      test::run_gpudoctor({"query", "--json", "--backend", "opencl", "--sysroot", tree.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json j = Json::parse(r.out);
  ASSERT_EQ(j.at("opencl").at("icds").size(), 1u);
  EXPECT_TRUE(j.at("opencl").at("icds")[0].at("loads").is_null());
  int opencl_probes = 0;
  for (const auto& p : j.at("probes")) opencl_probes += p.at("backend") == "opencl";
  EXPECT_EQ(opencl_probes, 1);  // the backend's own outcome, no job
}

/// Runs the query with one fake ICD beside the real PoCL and checks the run survived it.
Query query_with_fake(const std::string& mode) {
  const std::string lib = fake(mode);
  EXPECT_TRUE(fs::exists(lib)) << lib;
  // Under GPUDOCTOR_SANITIZE, ASan would turn the fake's SIGSEGV into exit status 1.
  Query q = query_opencl({"OCL_ICD_FILENAMES=" + lib, "ASAN_OPTIONS=handle_segv=0"}, "2");
  EXPECT_EQ(q.run.exit_code, 0) << q.run.err;
  EXPECT_LT(q.run.seconds, 2.0 + 4.0);
  EXPECT_FALSE(q.json.is_discarded()) << q.run.out;
  if (q.json.is_discarded()) return q;
  EXPECT_NE(pocl_cpu_device(q.json), nullptr) << "PoCL must still be reported";
  // Each child saw its one ICD: PoCL once, and nothing of PoCL's under the fake's name.
  int pocl = 0;
  for (const auto& p : q.json.at("opencl").at("platforms")) {
    if (p.value("name", Json()) != "Portable Computing Language") continue;
    ++pocl;
    EXPECT_NE(p.at("library"), lib);
  }
  EXPECT_EQ(pocl, 1);
  return q;
}

TEST(OpenClFault, CrashingIcdIsReportedAndPoclStillSeen) {
  SKIP_WITHOUT_POCL();
  Query q = query_with_fake("crash");
  const Json* out = outcome_for(q.json, fake("crash"));
  ASSERT_NE(out, nullptr) << q.run.out;
  EXPECT_EQ(out->at("status"), "crashed");
  EXPECT_NE(out->at("detail").get<std::string>().find("SIGSEGV"), std::string::npos);
  EXPECT_NE(out->at("detail").get<std::string>().find("libfake_opencl_crash.so"),
            std::string::npos);
}

TEST(OpenClFault, HangingIcdIsKilledAtTheDeadline) {
  SKIP_WITHOUT_POCL();
  Query q = query_with_fake("hang");
  EXPECT_GE(q.run.seconds, 1.9);
  const Json* out = outcome_for(q.json, fake("hang"));
  ASSERT_NE(out, nullptr) << q.run.out;
  EXPECT_EQ(out->at("status"), "timed_out");
  EXPECT_NE(out->at("detail").get<std::string>().find("libfake_opencl_hang.so"), std::string::npos);
}

TEST(OpenClFault, LyingIcdIsReadDefensively) {
  SKIP_WITHOUT_POCL();
  Query q = query_with_fake("garbage");
  const Json* out = outcome_for(q.json, fake("garbage"));
  ASSERT_NE(out, nullptr) << q.run.out;
  EXPECT_EQ(out->at("status"), "failed");
  const std::string detail = out->at("detail");
  EXPECT_NE(detail.find("libfake_opencl_garbage.so"), std::string::npos);
  EXPECT_NE(detail.find("answered implausibly"), std::string::npos);
  // Its platform is kept, with what could be believed, capped.
  const Json* fake_platform = nullptr;
  for (const auto& p : q.json.at("opencl").at("platforms")) {
    if (p.at("library") == fake("garbage")) fake_platform = &p;
  }
  ASSERT_NE(fake_platform, nullptr);
  EXPECT_EQ(fake_platform->at("name"), std::string(24, 'Z'));  // unterminated, cut at its size
  EXPECT_TRUE(fake_platform->at("vendor").is_null());          // claimed 1 TiB
  const Json& devices = fake_platform->at("devices");
  EXPECT_EQ(devices.size(), opencl::kMaxDevices);  // claimed 2^31
  const Json& d = devices[0];
  EXPECT_EQ(d.at("name"), std::string(13, 'Z'));
  EXPECT_TRUE(d.at("vendor").is_null());
  EXPECT_TRUE(d.at("vendor_id").is_null());  // two bytes for a cl_uint
  EXPECT_TRUE(d.at("type").is_null());       // no known type bit
  EXPECT_TRUE(d.at("version").is_null());    // wrote past the buffer
  EXPECT_TRUE(d.at("driver_version").is_null());
  EXPECT_TRUE(d.at("max_work_item_sizes").empty());
  EXPECT_TRUE(d.at("pci_bus_id").is_null());  // bus 999
  EXPECT_EQ(d.at("compute_units"), 7);
}

TEST(OpenClFault, AbsurdPlatformCountIsNotHandedToTheLoader) {
  SKIP_WITHOUT_POCL();
  Query q = query_with_fake("platforms");
  const Json* out = outcome_for(q.json, fake("platforms"));
  ASSERT_NE(out, nullptr) << q.run.out;
  EXPECT_EQ(out->at("status"), "failed");
  EXPECT_NE(out->at("detail").get<std::string>().find("4294967295 platforms"), std::string::npos);
}

TEST(OpenClFault, BrokenAndDanglingIcdFilesInOclIcdVendors) {
  SKIP_WITHOUT_POCL();
  TempTree tree;
  tree.write("pocl.icd", *Root("/").read("/etc/OpenCL/vendors/pocl.icd"));
  tree.write("broken.icd", "");
  tree.write("missing.icd", "libgpudoctor-no-such-icd.so.1\n");
  tree.write("notanicd.icd", "libm.so.6\n");
  Query q = query_opencl({"OCL_ICD_VENDORS=" + tree.path()}, "5");
  ASSERT_EQ(q.run.exit_code, 0) << q.run.err;
  ASSERT_FALSE(q.json.is_discarded()) << q.run.out;
  const Json& cl = q.json.at("opencl");
  EXPECT_EQ(cl.at("vendors_dir"), tree.path());
  EXPECT_EQ(cl.at("vendors_env"), "OCL_ICD_VENDORS");
  std::map<std::string, Json> by_file;
  for (const auto& icd : cl.at("icds"))
    by_file[fs::path(icd.at("file").get<std::string>()).filename()] = icd;
  ASSERT_EQ(by_file.size(), 4u);
  EXPECT_TRUE(by_file["broken.icd"].at("error").is_string());
  EXPECT_TRUE(by_file["missing.icd"].at("resolved").is_null());
  EXPECT_NE(by_file["missing.icd"].at("error").get<std::string>().find("libgpudoctor-no-such-icd"),
            std::string::npos);
  EXPECT_EQ(by_file["notanicd.icd"].at("loads"), false);
  EXPECT_EQ(by_file["pocl.icd"].at("loads"), true);
  EXPECT_NE(pocl_cpu_device(q.json), nullptr);
}

TEST(OpenClFault, EmptyVendorsDirectoryIsMissing) {
  TempTree tree;
  Query q = query_opencl({"OCL_ICD_VENDORS=" + tree.path()});
  ASSERT_EQ(q.run.exit_code, 0) << q.run.err;
  const Json* own = nullptr;
  for (const auto& p : q.json.at("probes")) {
    if (p.at("backend") == "opencl" && p.at("label") == "opencl") own = &p;
  }
  ASSERT_NE(own, nullptr);
  EXPECT_EQ(own->at("status"), "missing");
  EXPECT_EQ(own->at("detail"),
            "no OpenCL ICD registered (no .icd file in OCL_ICD_VENDORS=" + tree.path() + ")");
}

}  // namespace
}  // namespace gpudoctor
