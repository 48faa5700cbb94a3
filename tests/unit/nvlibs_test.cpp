// The CUDA-library facts read from files (ELF dynamic sections, dpkg records, wheel
// requirements) and the checks built on them, on inputs from real files and reports named in
// each test.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "checks/checks.hpp"
#include "checks/python_facts.hpp"
#include "compat/compat_data.hpp"
#include "compat/framework_libs.hpp"
#include "parse/dpkg_status.hpp"
#include "parse/elf_dynamic.hpp"
#include "parse/python_requirement.hpp"

namespace gpudoctor {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// What binutils' readelf says about a file's dynamic section, one "TAG value" line each.
std::string readelf_dynamic(const std::string& path) {
  std::string out;
  FILE* p = ::popen(("readelf -d '" + path + "' 2>/dev/null").c_str(), "r");
  if (!p) return out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  ::pclose(p);
  return out;
}

std::string fake(const std::string& rel) { return std::string(GPUDOCTOR_FAKES) + "/" + rel; }

// ---------------------------------------------------------------------------------------------
// ELF dynamic sections, against readelf on libraries the build links

TEST(ElfDynamic, SonameAndNeededAsReadelfSaysThem) {
  for (const char* rel : {"cuda/h100/libcuda.so.1", "cuda/missing-dependency/libcuda.so.1"}) {
    SCOPED_TRACE(rel);
    const std::string bytes = slurp(fake(rel));
    auto d = parse_elf_dynamic(read_from_string(bytes));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->soname, std::optional<std::string>("libcuda.so.1"));
    const std::string re = readelf_dynamic(fake(rel));
    if (re.empty()) GTEST_SKIP() << "readelf not installed";
    EXPECT_NE(re.find("Library soname: [libcuda.so.1]"), std::string::npos);
    for (const auto& n : d->needed) {
      EXPECT_NE(re.find("Shared library: [" + n + "]"), std::string::npos) << n;
    }
    std::size_t listed = 0;
    for (std::size_t at = 0; (at = re.find("(NEEDED)", at)) != std::string::npos; ++at) ++listed;
    EXPECT_EQ(d->needed.size(), listed);
  }
  auto d = parse_elf_dynamic(read_from_string(slurp(fake("cuda/missing-dependency/libcuda.so.1"))));
  ASSERT_TRUE(d);
  EXPECT_NE(std::find(d->needed.begin(), d->needed.end(), "libgpudoctor-absent.so"),
            d->needed.end());
}

TEST(ElfDynamic, RunpathAndRpathAreToldApart) {
  // TensorFlow 2.14's libtensorflow_framework.so.2 has DT_RUNPATH with the nvidia wheel folders;
  // 2.6's has DT_RPATH $ORIGIN/ (data/compat/framework_cuda_libs.json).
  auto run = parse_elf_dynamic(read_from_string(slurp(fake("elf/libgpudoctor-runpath.so.2"))));
  ASSERT_TRUE(run);
  EXPECT_EQ(run->soname, std::optional<std::string>("libgpudoctor-runpath.so.2"));
  EXPECT_EQ(run->runpath, std::optional<std::string>("$ORIGIN/:$ORIGIN/../nvidia/cudnn/lib"));
  EXPECT_FALSE(run->rpath);
  auto old = parse_elf_dynamic(read_from_string(slurp(fake("elf/libgpudoctor-rpath.so.2"))));
  ASSERT_TRUE(old);
  EXPECT_EQ(old->rpath, std::optional<std::string>("$ORIGIN/"));
  EXPECT_FALSE(old->runpath);
  const std::string re = readelf_dynamic(fake("elf/libgpudoctor-runpath.so.2"));
  if (!re.empty()) {
    EXPECT_NE(re.find("Library runpath: [$ORIGIN/:$ORIGIN/../nvidia/cudnn/lib]"), std::string::npos)
        << re;
  }
}

TEST(ElfDynamic, NotElfTruncatedOrCorruptGivesNothingAndNeverReadsFar) {
  EXPECT_FALSE(parse_elf_dynamic(read_from_string("")));
  EXPECT_FALSE(parse_elf_dynamic(read_from_string("#!/bin/sh\necho not a library\n")));
  std::string bytes = slurp(fake("cuda/h100/libcuda.so.1"));
  EXPECT_FALSE(parse_elf_dynamic(read_from_string(bytes.substr(0, 40))));  // header cut short
  std::string corrupt = bytes;
  corrupt[56] = '\xff';  // e_phnum 0xffff program headers
  corrupt[57] = '\xff';
  std::uint64_t largest = 0;
  auto d = parse_elf_dynamic([&](std::uint64_t off, std::size_t size) -> std::optional<std::string> {
    largest = std::max<std::uint64_t>(largest, size);
    return read_from_string(corrupt)(off, size);
  });
  EXPECT_FALSE(d);
  EXPECT_LE(largest, 64u * 1024u);
  std::string big_endian = bytes;
  big_endian[5] = 2;
  EXPECT_FALSE(parse_elf_dynamic(read_from_string(big_endian)));
}

// ---------------------------------------------------------------------------------------------
// dpkg's status file

TEST(DpkgStatus, FabricManagerStanzas) {
  // Stanza layout of /var/lib/dpkg/status; the package name and version as NVIDIA's repository
  // names them (nvidia-fabricmanager-520_520.61.05-1_amd64.deb, NVIDIA/gpu-operator#610).
  const std::string status =
      "Package: nvidia-fabricmanager-dev-520\nStatus: install ok installed\nVersion: 520.61.05-1\n"
      "\n"
      "Package: nvidia-fabricmanager-520\nStatus: install ok installed\nPriority: optional\n"
      "Description: Fabric Manager for NVSwitch based systems.\n continuation line\n"
      "Version: 520.61.05-1\n\n"
      "Package: nvidia-fabricmanager-515\nStatus: deinstall ok config-files\nVersion: 515.65.01-1\n";
  auto pkgs = parse_dpkg_status(status, "nvidia-fabricmanager");
  ASSERT_EQ(pkgs.size(), 3u);
  EXPECT_EQ(pkgs[1].name, "nvidia-fabricmanager-520");
  EXPECT_TRUE(pkgs[1].installed);
  EXPECT_FALSE(pkgs[2].installed);
  EXPECT_EQ(debian_upstream_version(pkgs[1].version), "520.61.05");
  // Ubuntu's own build: packages.ubuntu.com, nvidia-fabricmanager-570 (570.172.08-0ubuntu1).
  EXPECT_EQ(debian_upstream_version("570.172.08-0ubuntu1"), "570.172.08");
  EXPECT_EQ(debian_upstream_version("1:2.3-4"), "2.3");
  EXPECT_TRUE(parse_dpkg_status("Package: libc6\nVersion: 2.36-9\n", "nvidia").empty());
}

// ---------------------------------------------------------------------------------------------
// Requires-Dist lines, as the wheels on PyPI write them

TEST(Requirement, TheThreeSpellingsOfThePins) {
  // torch-2.3.1 METADATA (setuptools' parenthesised form)
  auto r = parse_requirement(
      "nvidia-cudnn-cu12 (==8.9.2.26) ; platform_system == \"Linux\" and platform_machine == "
      "\"x86_64\"");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name, "nvidia-cudnn-cu12");
  EXPECT_EQ(pinned_version(r->specifiers)->text, "8.9.2.26");
  EXPECT_TRUE(r->on_linux);
  EXPECT_FALSE(r->extra);
  // tensorflow-2.20.0 METADATA
  r = parse_requirement("nvidia-cudnn-cu12<10.0,>=9.3.0.75; extra == \"and-cuda\"");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->extra, std::optional<std::string>("and-cuda"));
  EXPECT_FALSE(pinned_version(r->specifiers));
  EXPECT_TRUE(satisfies(*parse_version("9.10.2.21"), r->specifiers));
  EXPECT_FALSE(satisfies(*parse_version("9.1.0.70"), r->specifiers));
  EXPECT_FALSE(satisfies(*parse_version("10.0.0"), r->specifiers));
  EXPECT_EQ(specifier_text(r->specifiers), "<10.0,>=9.3.0.75");
  // jax-cuda12-plugin-0.4.31 METADATA (underscore in the extra)
  r = parse_requirement("nvidia-cudnn-cu12 <10.0,>=9.1 ; extra == 'with_cuda'");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->extra, std::optional<std::string>("with-cuda"));
  EXPECT_TRUE(satisfies(*parse_version("9.1.0.70"), r->specifiers));
  // A Windows-only line does not apply here.
  r = parse_requirement("pywin32 ; platform_system == \"Windows\"");
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->on_linux);
  EXPECT_FALSE(parse_requirement(""));
  EXPECT_FALSE(parse_requirement("x (==not a version)"));
}

TEST(Requirement, CompatibleReleaseAndWildcards) {
  auto r = parse_requirement("tensorflow-estimator (<2.8,~=2.7.0rc0)");  // tensorflow-2.7.0
  ASSERT_TRUE(r);
  EXPECT_TRUE(satisfies(*parse_version("2.7.0"), r->specifiers));
  EXPECT_FALSE(satisfies(*parse_version("2.8.0"), r->specifiers));
  r = parse_requirement("nvidia-cudnn-cu12==9.*");
  ASSERT_TRUE(r);
  EXPECT_TRUE(satisfies(*parse_version("9.5.1.17"), r->specifiers));
  EXPECT_FALSE(satisfies(*parse_version("8.9.7.29"), r->specifiers));
}

// ---------------------------------------------------------------------------------------------
// The runtime rule on the cuDNN a framework loads

TEST(CudnnRule, TheMessagesOfRealReports) {
  auto v = [](const char* s) { return *parse_version(s); };
  // "Loaded runtime CuDNN library: 8.8.0 but source was compiled with: 8.9.4" (tensorflow/docs#2291)
  EXPECT_FALSE(cudnn_runtime_compatible(v("8.8.0"), v("8.9.4")));
  // "9.5.1 but source was compiled with: 9.8.0" (jax-ml/jax#29315)
  EXPECT_FALSE(cudnn_runtime_compatible(v("9.5.1"), v("9.8.0")));
  // "9.10.1 … 9.13.1" (conda-forge/jaxlib-feedstock#329)
  EXPECT_FALSE(cudnn_runtime_compatible(v("9.10.1"), v("9.13.1")));
  EXPECT_FALSE(cudnn_runtime_compatible(v("9.1.0"), v("8.9.2")));  // another major
  EXPECT_TRUE(cudnn_runtime_compatible(v("8.9.7.29"), v("8.9.4.25")));
  EXPECT_TRUE(cudnn_runtime_compatible(v("9.10.2.21"), v("9.8")));
}

// ---------------------------------------------------------------------------------------------
// The table

TEST(FrameworkCudaLibs, WhereTensorflowLooksChangedTwice) {
  const CompatData& data = builtin_compat();
  auto at = [&](const char* v) {
    return framework_library_search(data, "tensorflow", *parse_version(v));
  };
  ASSERT_TRUE(at("2.6.0"));
  EXPECT_EQ(at("2.6.0")->tag, "DT_RPATH");
  EXPECT_EQ(at("2.7.0")->tag, "DT_RUNPATH");
  EXPECT_TRUE(at("2.13.1")->wheel_dirs.empty());
  ASSERT_TRUE(at("2.14.1"));
  EXPECT_NE(std::find(at("2.14.1")->wheel_dirs.begin(), at("2.14.1")->wheel_dirs.end(),
                      "nvidia/cudnn/lib"),
            at("2.14.1")->wheel_dirs.end());
  ASSERT_TRUE(at("2.3.0"));  // the 2.3.0 wheel read (tensorflow-2.3.0-cp38…whl)
  EXPECT_EQ(at("2.3.0")->tag, "DT_RPATH");
  EXPECT_FALSE(at("2.2.0"));  // no wheel of it was read: no answer rather than a guess
  auto pins = framework_pins(data, "torch", "nvidia-cudnn-cu12");
  ASSERT_FALSE(pins.empty());
  for (std::size_t i = 1; i < pins.size(); ++i) EXPECT_LT(pins[i - 1].version, pins[i].version);
}

}  // namespace
}  // namespace gpudoctor
