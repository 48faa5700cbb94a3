// Issue 13, class 1 (reading): whatever a tree holds where gpudoctor reads (a FIFO, a socket, a
// device, a huge file, a link bomb, a chain of links out of --sysroot), the read ends at once
// with a reason, and nothing outside the root is read. Each tree is made by the test.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>

#include "core/library_search.hpp"
#include "core/root_open.hpp"
#include "core/root.hpp"
#include "environment.hpp"
#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using test::TempTree;

void make_fifo(const std::string& path) {
  fs::create_directories(fs::path(path).parent_path());
  ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0) << std::strerror(errno);
}

/// A listening-less Unix socket bound at path; the descriptor stays open for the test.
int make_socket(const std::string& path) {
  fs::create_directories(fs::path(path).parent_path());
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return -1;
  return fd;
}

void make_link(const std::string& target, const std::string& at) {
  fs::create_directories(fs::path(at).parent_path());
  ASSERT_EQ(::symlink(target.c_str(), at.c_str()), 0) << at << ": " << std::strerror(errno);
}

/// Every reading test runs twice: with openat2 (RESOLVE_IN_ROOT) and with the userspace walk
/// that stands in for it where the kernel or a seccomp filter refuses it.
class RootReading : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { set_open_in_root_enabled(GetParam()); }
  void TearDown() override { set_open_in_root_enabled(true); }
};

std::string lookup_name(const ::testing::TestParamInfo<bool>& info) {
  return info.param ? "openat2" : "walk";
}

TEST_P(RootReading, FifoIsNotOpenedAndSaysWhatItIs) {
  TempTree t;
  make_fifo(t.path() + "/etc/OpenCL/vendors/blocker.icd");
  const Root root(t.path());
  FileText r = root.read_file("/etc/OpenCL/vendors/blocker.icd");
  EXPECT_FALSE(r.text);
  EXPECT_NE(r.error.find("FIFO"), std::string::npos) << r.error;
  EXPECT_FALSE(root.read_line("/etc/OpenCL/vendors/blocker.icd"));
}

TEST_P(RootReading, TailOfALogStartsAtAWholeLine) {
  TempTree t;
  std::string log;
  for (int i = 0; i < 1000; ++i) log += "line " + std::to_string(i) + "\n";
  t.write("var/log/kern.log", log);
  const Root root(t.path());
  FileText r = root.read_tail("/var/log/kern.log", 100);
  ASSERT_TRUE(r.text) << r.error;
  EXPECT_LE(r.text->size(), 100u);
  EXPECT_EQ(r.text->rfind("line 999\n"), r.text->size() - 9);
  EXPECT_EQ(r.text->rfind("line ", 0), 0u) << "starts at a whole line: " << *r.text;
  EXPECT_EQ(*root.read_tail("/var/log/kern.log", 1 << 20).text, log);  // small: all of it
  make_fifo(t.path() + "/var/log/dmesg");
  EXPECT_FALSE(root.read_tail("/var/log/dmesg", 100).text);  // a FIFO is not waited for
}

TEST_P(RootReading, SocketIsNotOpened) {
  TempTree t;
  const int fd = make_socket(t.path() + "/s.icd");
  ASSERT_GE(fd, 0) << std::strerror(errno);
  FileText r = Root(t.path()).read_file("/s.icd");
  ::close(fd);
  EXPECT_FALSE(r.text);
  EXPECT_NE(r.error.find("socket"), std::string::npos) << r.error;
}

TEST_P(RootReading, DeviceNodeIsNotOpened) {
  TempTree t;
  // /dev/zero's numbers: if it were opened and read, it would never end and never fail.
  const std::string node = t.path() + "/etc/OpenCL/vendors/zero.icd";
  fs::create_directories(fs::path(node).parent_path());
  if (::mknod(node.c_str(), S_IFCHR | 0644, makedev(1, 5)) != 0) {
    GTEST_SKIP() << "cannot make a device node here (" << std::strerror(errno)
                 << "): needs root, and a filesystem mounted without nodev";
  }
  FileText r = Root(t.path()).read_file("/etc/OpenCL/vendors/zero.icd");
  EXPECT_FALSE(r.text);
  EXPECT_NE(r.error.find("character device"), std::string::npos) << r.error;
}

TEST_P(RootReading, HugeFileIsReadOnlyUpToTheLimit) {
  TempTree t;
  const std::string big = t.write("big.json", "");
  ASSERT_EQ(::truncate(big.c_str(), off_t{1} << 30), 0);  // 1 GiB, sparse
  auto text = Root(t.path()).read("/big.json", 4096);
  ASSERT_TRUE(text);
  EXPECT_EQ(text->size(), 4096u);
}

TEST_P(RootReading, LinkBombEndsWithTooManyLinks) {
  // Three links whose expansion doubles at every level would take minutes of lookups if
  // every expansion were followed; the kernel's limit of 40 links per lookup ends it at once.
  TempTree t;
  std::string many_c;
  std::string many_b;
  for (int i = 0; i < 1000; ++i) {
    many_c += "c/";
    many_b += "b/";
  }
  make_link(".", t.path() + "/d/c");
  make_link(many_c, t.path() + "/d/b");
  make_link(many_b + "x", t.path() + "/d/a");
  const Root root(t.path());
  FileText r = root.read_file("/d/a");
  EXPECT_FALSE(r.text);
  EXPECT_NE(r.error.find("symbolic links"), std::string::npos) << r.error;
  EXPECT_FALSE(root.exists("/d/a"));
  EXPECT_TRUE(root.list("/d/a").empty());
}

TEST_P(RootReading, LoopingLinksEndWithTooManyLinks) {
  TempTree t;
  make_link("b", t.path() + "/l/a");
  make_link("a", t.path() + "/l/b");
  FileText r = Root(t.path()).read_file("/l/a");
  EXPECT_FALSE(r.text);
  EXPECT_NE(r.error.find("symbolic links"), std::string::npos) << r.error;
}

/// A file outside the root that a hostile tree points at.
class Escape : public RootReading {
 protected:
  void SetUp() override {
    RootReading::SetUp();
    outside_ = host_.write("secret/os-release", "PRETTY_NAME=\"escaped the sysroot\"\n");
  }
  TempTree host_;
  TempTree tree_;
  std::string outside_;
};

TEST_P(Escape, ChainOfFortyOneLinksDoesNotLeaveTheRoot) {
  // etc/os-release → l1 → l2 → … → l40 → the host file (absolute). That is 41 links: past the
  // limit, so nothing is read (before, the 41st was handed to the kernel, which followed it
  // out of the tree); and an absolute target means the root's, not this machine's.
  make_link("../links/l1", tree_.path() + "/etc/os-release");
  for (int i = 1; i < 40; ++i) {
    make_link("l" + std::to_string(i + 1), tree_.path() + "/links/l" + std::to_string(i));
  }
  make_link(outside_, tree_.path() + "/links/l40");
  const Root root(tree_.path());
  FileText chain = root.read_file("/etc/os-release");
  EXPECT_FALSE(chain.text);
  EXPECT_NE(chain.error.find("symbolic links"), std::string::npos) << chain.error;
  EXPECT_FALSE(root.read("/links/l39"));  // two links from the host file: read under the root
  auto r = test::run_gpudoctor({"query", "--json", "--backend", "host", "--sysroot", tree_.path()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("escaped the sysroot"), std::string::npos) << r.out;
}

TEST_P(Escape, DotDotAndAbsoluteTargetsStayInTheRoot) {
  std::string up;
  for (int i = 0; i < 30; ++i) up += "../";
  make_link(up + outside_.substr(1), tree_.path() + "/etc/os-release");
  make_link(outside_, tree_.path() + "/etc/lsb-release");
  const Root root(tree_.path());
  EXPECT_FALSE(root.read("/etc/os-release"));
  EXPECT_FALSE(root.read("/etc/lsb-release"));
  EXPECT_FALSE(root.read("/../../../../" + outside_));
  EXPECT_EQ(root.resolve("/etc/os-release"), outside_);  // the same path, inside the tree
  // The same file, put inside the tree at that path, is what is read.
  tree_.write(outside_.substr(1), "inside\n");
  EXPECT_EQ(root.read("/etc/os-release"), "inside\n");
  EXPECT_EQ(root.read("/etc/lsb-release"), "inside\n");
}

TEST_P(RootReading, RelativeLinksAndDotDotResolveAsTheKernelDoes) {
  TempTree t;
  t.write("usr/lib/x/libfoo.so.1.2", "ELF");
  make_link("x/libfoo.so.1.2", t.path() + "/usr/lib/libfoo.so.1");
  make_link("usr/lib", t.path() + "/lib");
  make_link(".././libfoo.so.1", t.path() + "/usr/lib/x/again");
  const Root root(t.path());
  EXPECT_EQ(root.resolve("/lib/libfoo.so.1"), "/usr/lib/x/libfoo.so.1.2");
  EXPECT_EQ(root.read("/lib/libfoo.so.1"), "ELF");
  // ".." after a link: the parent of where the link led, as the kernel resolves it.
  EXPECT_EQ(root.resolve("/lib/x/again"), "/usr/lib/x/libfoo.so.1.2");
  for (const char* p : {"/lib/x/again", "/lib/libfoo.so.1", "/usr/lib/x/../../lib/x"}) {
    EXPECT_EQ(t.path() + root.resolve(p), fs::canonical(t.path() + p).string()) << p;
  }
  EXPECT_EQ(root.resolve("/lib/none/../libfoo.so.1"), "/usr/lib/libfoo.so.1");
  EXPECT_EQ(root.link_target("/lib"), "usr/lib");
  EXPECT_TRUE(root.is_directory("/lib"));
  EXPECT_EQ(root.list("/lib"), (std::vector<std::string>{"libfoo.so.1", "x"}));
}

TEST_P(RootReading, IncludeBombInLdSoConfIsReadOnce) {
  // Every file includes its own directory: read again for every include, 20 files nest 8 deep
  // as 20^8 reads.
  TempTree t;
  t.write("etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
  for (int i = 0; i < 20; ++i) {
    t.write("etc/ld.so.conf.d/" + std::to_string(i) + ".conf",
            "include /etc/ld.so.conf.d/*.conf\n/opt/lib" + std::to_string(i) + "\n");
  }
  const Root root(t.path());
  const Environment env;
  LibrarySearch search(root, env);
  int found = 0;
  for (const auto& d : search.directories()) found += d.rfind("/opt/lib", 0) == 0 ? 1 : 0;
  EXPECT_EQ(found, 20);
}

INSTANTIATE_TEST_SUITE_P(BothLookups, RootReading, ::testing::Bool(), lookup_name);
INSTANTIATE_TEST_SUITE_P(BothLookups, Escape, ::testing::Bool(), lookup_name);

// --- the same, through the probes that read such places ---------------------------------------

TEST(ReadingProbes, FifoIcdInOclIcdVendorsIsReportedNotWaitedFor) {
  TempTree t;
  make_fifo(t.path() + "/vendors/blocker.icd");
  auto r = test::run_gpudoctor({"query", "--json", "--backend", "opencl"},
                               {"OCL_ICD_VENDORS=" + t.path() + "/vendors"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json icds = Json::parse(r.out).at("opencl").at("icds");
  ASSERT_EQ(icds.size(), 1u) << icds.dump(2);
  EXPECT_NE(icds[0].value("error", "").find("FIFO"), std::string::npos) << icds.dump(2);
}

TEST(ReadingProbes, FifoAndHugeManifestsInVkDriverFiles) {
  TempTree t;
  make_fifo(t.path() + "/fifo.json");
  const std::string big = t.write("big.json", "");
  ASSERT_EQ(::truncate(big.c_str(), off_t{1} << 30), 0);
  auto r = test::run_gpudoctor({"query", "--json", "--backend", "vulkan"},
                               {"VK_DRIVER_FILES=" + t.path() + "/fifo.json:" + big});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json manifests = Json::parse(r.out).at("vulkan").at("manifests");
  ASSERT_EQ(manifests.size(), 2u) << manifests.dump(2);
  for (const auto& m : manifests) EXPECT_TRUE(m.contains("error")) << m.dump(2);
}

TEST(ReadingProbes, FifoOrDeviceNamedAsTheDriverLibraryIsNotHandedToAChild) {
  // The loader opens the library blocking: a child given a FIFO waited out its whole deadline.
  TempTree t;
  make_fifo(t.path() + "/libfifo.so");
  make_link("/dev/null", t.path() + "/libdev.so");
  t.write("vendors/fifo.icd", t.path() + "/libfifo.so\n");
  t.write("vendors/dev.icd", t.path() + "/libdev.so\n");
  const std::string manifest =
      t.write("vk.json", R"({"file_format_version": "1.0.0", "ICD": {"library_path": ")" +
                             t.path() + R"(/libfifo.so", "api_version": "1.3.0"}})");
  auto r = test::run_gpudoctor(
      {"query", "--json", "--backend", "opencl,vulkan", "--timeout", "2"},
      {"OCL_ICD_VENDORS=" + t.path() + "/vendors", "VK_DRIVER_FILES=" + manifest});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json j = Json::parse(r.out);
  for (const auto& p : j.at("probes")) {
    EXPECT_NE(p.at("status"), "timed_out") << "a child waited on it: " << p.dump(2);
  }
  const Json icds = j.at("opencl").at("icds");
  ASSERT_EQ(icds.size(), 2u) << icds.dump(2);
  EXPECT_NE(icds[0].value("error", "").find("character device"), std::string::npos) << icds[0];
  EXPECT_NE(icds[1].value("error", "").find("FIFO"), std::string::npos) << icds[1];
  const Json manifests = j.at("vulkan").at("manifests");
  ASSERT_EQ(manifests.size(), 1u) << manifests.dump(2);
  EXPECT_NE(manifests[0].value("error", "").find("FIFO"), std::string::npos) << manifests[0];
}

TEST(ReadingProbes, FifoInASysrootSysfsDoesNotBlockThePciProbe) {
  // libpci's own sysfs scan opened every attribute with a blocking open().
  TempTree t;
  const std::string dev = "sys/bus/pci/devices/0000:01:00.0/";
  t.write(dev + "device", "0x2684\n");
  t.write(dev + "class", "0x030000\n");
  make_fifo(t.path() + "/" + dev + "vendor");
  t.write("sys/bus/pci/devices/0000:02:00.0/vendor", "0x10de\n");
  t.write("sys/bus/pci/devices/0000:02:00.0/device", "0x2684\n");
  t.write("sys/bus/pci/devices/0000:02:00.0/class", "0x030000\n");
  auto r = test::run_gpudoctor({"query", "--json", "--backend", "pci", "--sysroot", t.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json pci = Json::parse(r.out).at("pci");
  ASSERT_EQ(pci.at("devices").size(), 1u) << pci.dump(2);
  EXPECT_EQ(pci.at("devices")[0].at("address"), "0000:02:00.0");
}

TEST(ReadingProbes, FifosInAPythonEnvironmentAndCudaHome) {
  TempTree t;
  const std::string site = "venv/lib/python3.11/site-packages/";
  t.write("venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.2\n");
  t.write(site + "torch-2.5.1.dist-info/RECORD", "");
  make_fifo(t.path() + "/" + site + "torch-2.5.1.dist-info/METADATA");
  make_fifo(t.path() + "/cuda/version.json");
  auto r = test::run_gpudoctor(
      {"query", "--json", "--backend", "python,nvidia", "--python-env", t.path() + "/venv"},
      {"CUDA_HOME=" + t.path() + "/cuda"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Json::parse(r.out, nullptr, false).is_object()) << r.out;
}

TEST(ReadingProbes, SysrootSlashLoadsNoVendorLibrary) {
  // The README: --sysroot DIR reads files under DIR and loads no vendor library; "/" too. The
  // crashing ICD would say so if it were loaded.
  TempTree t;
  auto r = test::run_gpudoctor(
      {"query", "--json", "--backend", "opencl", "--sysroot", "/"},
      {"OCL_ICD_VENDORS=" + t.path(),
       "OCL_ICD_FILENAMES=" + std::string(GPUDOCTOR_FAKES) + "/opencl/libfake_opencl_crash.so"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j.at("live"), false);
  for (const auto& p : j.at("probes")) {
    EXPECT_NE(p.at("status"), "crashed") << p.dump(2);
    EXPECT_EQ(p.at("label"), "opencl") << "a child ran: " << p.dump(2);
  }
}

}  // namespace
}  // namespace gpudoctor
