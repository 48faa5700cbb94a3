// OpenCL without loading anything: the .icd parser, the codes, discovery under a root, and
// folding children's reports. tests/opencl_live_test.cpp loads PoCL and the fake ICDs.
#include <gtest/gtest.h>

#include "core/isolate.hpp"
#include "core/root.hpp"
#include "environment.hpp"
#include "json.hpp"
#include "opencl/opencl_enumerate.hpp"
#include "opencl/opencl_probe.hpp"
#include "api/pci/gpu_ids.hpp"
#include "api/opencl/opencl_codes.hpp"
#include "parse/icd_files.hpp"
#include "temp_tree.hpp"

namespace gpudoctor {
namespace {

using test::TempTree;
// --- the .icd file -------------------------------------------------------------------------

TEST(OpenClIcdFile, TakesTheFirstLineWithoutItsNewline) {
  // Debian 12's pocl-opencl-icd writes the name with no newline at all.
  EXPECT_EQ(parse_icd_file("libpocl.so.2.10.0").library, "libpocl.so.2.10.0");
  EXPECT_FALSE(parse_icd_file("libpocl.so.2.10.0").error);
  EXPECT_EQ(parse_icd_file("libnvidia-opencl.so.1\n").library, "libnvidia-opencl.so.1");
  EXPECT_EQ(parse_icd_file("/opt/amdgpu/lib64/libamdocl64.so\nsecond line\n").library,
            "/opt/amdgpu/lib64/libamdocl64.so");
}

TEST(OpenClIcdFile, EmptyOrBlankFileIsAnError) {
  EXPECT_TRUE(parse_icd_file("").error);
  EXPECT_TRUE(parse_icd_file("\n").error);
  EXPECT_TRUE(parse_icd_file("   \n").error);
}

TEST(OpenClIcdFile, CrlfAndBlanksStayInTheNameAndAreReported) {
  IcdFileEntry e = parse_icd_file("libamdocl64.so\r\n");
  EXPECT_EQ(e.library, "libamdocl64.so\r");
  ASSERT_TRUE(e.error);
  EXPECT_NE(e.error->find("carriage return"), std::string::npos);
  EXPECT_TRUE(parse_icd_file("libfoo.so \n").error);
}

TEST(OpenClIcdFile, BinaryContentIsNotALibraryName) {
  EXPECT_TRUE(parse_icd_file(std::string("\x7f"
                                         "ELF\x02\x01\x01",
                                         7))
                  .error);
  // ocl-icd measures the name with strnlen: a NUL ends it.
  EXPECT_EQ(parse_icd_file(std::string("libpocl.so.2\0junk", 17)).library, "libpocl.so.2");
}

TEST(OpenClIcdFile, NamesThatCount) {
  EXPECT_TRUE(is_icd_file_name("pocl.icd"));
  EXPECT_TRUE(is_icd_file_name("a.icd"));
  EXPECT_FALSE(is_icd_file_name(".icd"));
  EXPECT_FALSE(is_icd_file_name("pocl.icd.disabled"));
  EXPECT_FALSE(is_icd_file_name("README"));
}

// --- codes ---------------------------------------------------------------------------------

TEST(OpenClCodes, ErrorsByName) {
  EXPECT_EQ(cl_call_failed("clGetPlatformIDs", -1001),
            "clGetPlatformIDs returned -1001 (CL_PLATFORM_NOT_FOUND_KHR)");
  EXPECT_EQ(cl_call_failed("clGetDeviceInfo", -30),
            "clGetDeviceInfo returned -30 (CL_INVALID_VALUE)");
  EXPECT_EQ(cl_call_failed("clGetDeviceInfo", -9999), "clGetDeviceInfo returned -9999");
  EXPECT_FALSE(cl_error_name(12345));
}

TEST(OpenClCodes, DeviceTypes) {
  EXPECT_EQ(cl_device_type_name(1 << 2), "GPU");
  EXPECT_EQ(cl_device_type_name((1 << 1) | 1), "CPU");  // with CL_DEVICE_TYPE_DEFAULT
  EXPECT_EQ(cl_device_type_name(1 << 3), "ACCELERATOR");
  EXPECT_EQ(cl_device_type_name((1 << 1) | (1 << 2)), "CPU|GPU");
  EXPECT_FALSE(cl_device_type_name(1));
  EXPECT_FALSE(cl_device_type_name(0xdead0000u));
}

TEST(OpenClCodes, PciAddressesAndUuids) {
  EXPECT_EQ(pci_address(0, 1, 0, 0), "0000:01:00.0");
  EXPECT_EQ(pci_address(0x10000, 0xe1, 0x1f, 7), "10000:e1:1f.7");
  EXPECT_FALSE(pci_address(0, 999, 99, 9));
  const std::uint8_t u[16] = {0x5a, 0x1b, 0, 0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  EXPECT_EQ(uuid_hex(u), "5a1b00ff0102030405060708090a0b0c");
  EXPECT_EQ(split_extensions(" cl_khr_icd  cl_khr_fp64 cl_khr_icd\n"),
            (std::vector<std::string>{"cl_khr_icd", "cl_khr_fp64"}));
}

// --- discovery under a root ----------------------------------------------------------------

class OpenClDiscover : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(tree_.path().empty());
    tree_.write("etc/OpenCL/vendors/pocl.icd", "libpocl.so.2\n");
    tree_.write("etc/OpenCL/vendors/empty.icd", "");
    tree_.write("etc/OpenCL/vendors/crlf.icd", "libcrlf.so\r\n");
    tree_.write("etc/OpenCL/vendors/abs.icd", "/opt/vendor/lib/libabs.so\n");
    tree_.write("etc/OpenCL/vendors/gone.icd", "libgone.so.1\n");
    tree_.write("etc/OpenCL/vendors/README", "not an icd");
    tree_.mkdir("etc/OpenCL/vendors/dir.icd");
    tree_.write("usr/lib/x86_64-linux-gnu/libpocl.so.2", "");
    tree_.write("usr/lib/x86_64-linux-gnu/libOpenCL.so.1", "");
    tree_.write("opt/vendor/lib/libabs.so", "");
  }
  OpenClInfo discover_with(std::map<std::string, std::string> vars) {
    const Root root(tree_.path());
    const Environment env(std::move(vars));
    return opencl::discover(ProbeContext{root, env, false});
  }
  const OpenClIcd* icd_of(const OpenClInfo& info, const std::string& file_suffix) {
    for (const auto& i : info.icds) {
      if (i.file && i.file->size() >= file_suffix.size() &&
          i.file->compare(i.file->size() - file_suffix.size(), file_suffix.size(), file_suffix) ==
              0) {
        return &i;
      }
    }
    return nullptr;
  }
  TempTree tree_;
};

TEST_F(OpenClDiscover, ReadsEveryIcdFileAndResolvesItsLibrary) {
  OpenClInfo info = discover_with({});
  EXPECT_EQ(info.vendors_dir, "/etc/OpenCL/vendors");
  EXPECT_FALSE(info.vendors_env);
  EXPECT_EQ(info.loader, "/usr/lib/x86_64-linux-gnu/libOpenCL.so.1");
  ASSERT_EQ(info.icds.size(), 6u);  // README and non-.icd names are not registrations

  const OpenClIcd* pocl = icd_of(info, "/pocl.icd");
  ASSERT_NE(pocl, nullptr);
  EXPECT_EQ(pocl->source, "/etc/OpenCL/vendors");
  EXPECT_EQ(pocl->library, "libpocl.so.2");
  EXPECT_EQ(pocl->resolved, "/usr/lib/x86_64-linux-gnu/libpocl.so.2");
  EXPECT_FALSE(pocl->error);
  EXPECT_FALSE(pocl->loads);  // nothing is loaded under a root

  EXPECT_EQ(icd_of(info, "/abs.icd")->resolved, "/opt/vendor/lib/libabs.so");
  EXPECT_TRUE(icd_of(info, "/empty.icd")->error);
  EXPECT_TRUE(icd_of(info, "/crlf.icd")->error);
  EXPECT_FALSE(icd_of(info, "/crlf.icd")->resolved);
  EXPECT_TRUE(icd_of(info, "/dir.icd")->error);
  const OpenClIcd* gone = icd_of(info, "/gone.icd");
  EXPECT_FALSE(gone->resolved);
  ASSERT_TRUE(gone->error);
  EXPECT_NE(gone->error->find("libgone.so.1"), std::string::npos);
}

TEST_F(OpenClDiscover, IcdFilenamesComeFirst) {
  OpenClInfo info =
      discover_with({{"OCL_ICD_FILENAMES", "/opt/vendor/lib/libabs.so::libmissing.so"}});
  ASSERT_EQ(info.icds.size(), 8u);
  EXPECT_EQ(info.icds[0].source, "OCL_ICD_FILENAMES");
  EXPECT_FALSE(info.icds[0].file);
  EXPECT_EQ(info.icds[0].resolved, "/opt/vendor/lib/libabs.so");
  EXPECT_EQ(info.icds[1].library, "libmissing.so");
  EXPECT_TRUE(info.icds[1].error);
}

TEST_F(OpenClDiscover, IcdVendorsAsDirectoryFileOrLibrary) {
  tree_.write("tmp/vendors/only.icd", "libpocl.so.2");
  OpenClInfo dir = discover_with({{"OCL_ICD_VENDORS", "/tmp/vendors"}});
  EXPECT_EQ(dir.vendors_env, "OCL_ICD_VENDORS");
  EXPECT_EQ(dir.vendors_dir, "/tmp/vendors");
  ASSERT_EQ(dir.icds.size(), 1u);
  EXPECT_EQ(dir.icds[0].source, "OCL_ICD_VENDORS");
  EXPECT_TRUE(dir.icds[0].resolved);

  // A bare .icd name is looked for in the vendors directory first.
  OpenClInfo file = discover_with({{"OCL_ICD_VENDORS", "pocl.icd"}});
  ASSERT_EQ(file.icds.size(), 1u);
  EXPECT_EQ(file.icds[0].file, "/etc/OpenCL/vendors/pocl.icd");

  OpenClInfo lib = discover_with({{"OCL_ICD_VENDORS", "/opt/vendor/lib/libabs.so"}});
  ASSERT_EQ(lib.icds.size(), 1u);
  EXPECT_FALSE(lib.icds[0].file);
  EXPECT_EQ(lib.icds[0].resolved, "/opt/vendor/lib/libabs.so");

  OpenClInfo typo = discover_with({{"OCL_ICD_VENDORS", "/opt/no/such/dir"}});
  ASSERT_EQ(typo.icds.size(), 1u);
  ASSERT_TRUE(typo.icds[0].error);
  EXPECT_NE(typo.icds[0].error->find("neither a directory nor an .icd file"), std::string::npos);
}

TEST_F(OpenClDiscover, OpenClVendorPathReplacesTheDefault) {
  tree_.write("opt/icds/x.icd", "libpocl.so.2");
  OpenClInfo info = discover_with({{"OPENCL_VENDOR_PATH", "/opt/icds"}});
  EXPECT_EQ(info.vendors_dir, "/opt/icds");
  EXPECT_EQ(info.vendors_env, "OPENCL_VENDOR_PATH");
  ASSERT_EQ(info.icds.size(), 1u);
  EXPECT_EQ(info.icds[0].source, "OPENCL_VENDOR_PATH");
}

TEST_F(OpenClDiscover, NoJobsUnderARoot) {
  const Root root(tree_.path());
  const Environment env;
  const ProbeContext ctx{root, env, false};
  OpenClInfo info = opencl::discover(ctx);
  EXPECT_TRUE(opencl::jobs(ctx, info).empty());
  std::vector<IsolatedResult> none;
  ProbeOutcome out = opencl::assemble(info, none, false);
  EXPECT_EQ(out.status, ProbeStatus::ok);
  EXPECT_NE(out.detail.find("not loaded under --sysroot"), std::string::npos);
}

// --- folding children's reports ------------------------------------------------------------

OpenClInfo two_icds() {
  OpenClInfo info;
  info.loader = "/usr/lib/x86_64-linux-gnu/libOpenCL.so.1";
  info.vendors_dir = "/etc/OpenCL/vendors";
  for (const char* lib : {"libbad.so", "libgood.so"}) {
    OpenClIcd icd;
    icd.source = "/etc/OpenCL/vendors";
    icd.library = lib;
    icd.resolved = std::string("/usr/lib/") + lib;
    info.icds.push_back(icd);
  }
  return info;
}

IsolatedResult good_result() {
  opencl::IcdReport rep;
  rep.loads = true;
  rep.loader_name = "OpenCL ICD Loader";
  OpenClPlatform p;
  p.name = "Good";
  p.devices.push_back(OpenClDevice{});
  rep.platforms.push_back(p);
  IsolatedResult r;
  r.outcome = {"opencl", "good.icd", "libgood.so", ProbeStatus::ok, "1 platform", 0.5};
  r.data = Json(rep);
  return r;
}

TEST(OpenClAssemble, ACrashedIcdDoesNotHideTheOthers) {
  OpenClInfo info = two_icds();
  std::vector<IsolatedResult> results(2);
  results[0].outcome = {"opencl",
                        "bad.icd",
                        "libbad.so",
                        ProbeStatus::crashed,
                        "libbad.so crashed: SIGSEGV (Segmentation fault)",
                        0.1};
  results[1] = good_result();
  ProbeOutcome out = opencl::assemble(info, results, true);
  EXPECT_EQ(out.status, ProbeStatus::ok);
  EXPECT_NE(out.detail.find("libbad.so crashed"), std::string::npos);
  EXPECT_EQ(info.icds[0].error, "libbad.so crashed: SIGSEGV (Segmentation fault)");
  EXPECT_FALSE(info.icds[0].loads);
  EXPECT_EQ(info.icds[1].loads, true);
  ASSERT_EQ(info.platforms.size(), 1u);
  EXPECT_EQ(info.platforms[0].library, "libgood.so");
  EXPECT_EQ(info.loader_name, "OpenCL ICD Loader");
}

TEST(OpenClAssemble, MalformedDataFailsNamingTheLibrary) {
  OpenClInfo info = two_icds();
  std::vector<IsolatedResult> results{good_result(), good_result()};
  results[0].data = Json{{"platforms", "not a list"}};
  ProbeOutcome out = opencl::assemble(info, results, true);
  EXPECT_EQ(results[0].outcome.status, ProbeStatus::failed);
  EXPECT_NE(results[0].outcome.detail.find("libbad.so"), std::string::npos);
  EXPECT_EQ(out.status, ProbeStatus::ok);
  EXPECT_EQ(info.platforms.size(), 1u);
}

TEST(OpenClAssemble, NoLoaderFailsWhateverTheIcds) {
  OpenClInfo info = two_icds();
  info.loader.reset();
  std::vector<IsolatedResult> results{good_result(), good_result()};
  ProbeOutcome out = opencl::assemble(info, results, true);
  EXPECT_EQ(out.status, ProbeStatus::failed);
  EXPECT_NE(out.detail.find("libOpenCL.so.1"), std::string::npos);
}

TEST(OpenClAssemble, EveryIcdFailedOrNoneRegistered) {
  OpenClInfo info = two_icds();
  std::vector<IsolatedResult> results(2);
  results[0].outcome = {"opencl", "bad.icd", "libbad.so", ProbeStatus::timed_out, "hung"};
  results[1].outcome = {"opencl", "good.icd", "libgood.so", ProbeStatus::failed, "lied"};
  EXPECT_EQ(opencl::assemble(info, results, true).status, ProbeStatus::failed);

  OpenClInfo empty;
  empty.vendors_dir = "/etc/OpenCL/vendors";
  std::vector<IsolatedResult> none;
  ProbeOutcome out = opencl::assemble(empty, none, true);
  EXPECT_EQ(out.status, ProbeStatus::missing);
  EXPECT_EQ(out.detail, "no OpenCL ICD registered (no .icd file in /etc/OpenCL/vendors)");
}

}  // namespace
}  // namespace gpudoctor
