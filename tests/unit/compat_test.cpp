// The compatibility matrices (data/compat): every file loads into the typed model, every row
// names an https document, the tables are internally consistent, and the queries give the
// answers the vendors' documents state.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "compat/compat_data.hpp"
#include "compat/compat_query.hpp"
#include "compat/version.hpp"
#include "json.hpp"

namespace gpudoctor {
namespace compat_test {

Version v(const char* text) {
  auto parsed = parse_version(text);
  EXPECT_TRUE(parsed) << text;
  return parsed.value_or(Version{});
}

const CompatData& data() { return builtin_compat(); }

// ---------------------------------------------------------------- version helper

TEST(CompatVersion, ParsesTheShapesTheStackWrites) {
  auto driver = parse_version("535.104.05");
  ASSERT_TRUE(driver);
  EXPECT_EQ(driver->parts, (std::vector<std::uint32_t>{535, 104, 5}));
  auto torch = parse_version("2.1.0+cu121");
  ASSERT_TRUE(torch);
  EXPECT_EQ(torch->parts, (std::vector<std::uint32_t>{2, 1, 0}));
  EXPECT_EQ(torch->local, "cu121");
  auto rc = parse_version("2.5.0rc1");
  ASSERT_TRUE(rc);
  EXPECT_EQ(rc->suffix, "rc1");
  auto rocm = parse_version("6.3.0-39");
  ASSERT_TRUE(rocm);
  EXPECT_EQ(rocm->suffix, "-39");
  EXPECT_TRUE(parse_version(" v12.4 "));
  EXPECT_FALSE(parse_version(""));
  EXPECT_FALSE(parse_version("N/A"));
  EXPECT_FALSE(parse_version("12..4"));
  EXPECT_FALSE(parse_version("12."));
  EXPECT_FALSE(parse_version("99999999999.1"));
  EXPECT_FALSE(parse_version("12.4 beta"));
}

TEST(CompatVersion, ComparesNumerically) {
  EXPECT_GT(v("535.104.05"), v("535.54.03"));
  EXPECT_LT(v("9.2"), v("10.0"));
  EXPECT_EQ(v("12.4"), v("12.4.0"));
  EXPECT_EQ(v("2.1.0+cu121"), v("2.1.0"));
  EXPECT_LT(v("2.5.0rc1"), v("2.5.0"));
  EXPECT_LT(v("2.5.0a0"), v("2.5.0rc1"));
  EXPECT_LT(v("2.5.0.dev20240801"), v("2.5.0a0"));
  EXPECT_GT(v("1.0.post1"), v("1.0"));
  EXPECT_EQ(compare_to_bound(v("12.4.1"), v("12")), 0);
  EXPECT_LT(compare_to_bound(v("12.4.1"), v("12.5")), 0);
  EXPECT_TRUE(in_range(v("9.5.1.17"), VersionRange{v("9.5"), v("9.5")}));
  EXPECT_FALSE(in_range(v("9.6.0"), VersionRange{v("9.5"), v("9.5")}));
  EXPECT_TRUE(in_range(v("9.27.0.42"), VersionRange{v("9.8"), v("9")}));
  EXPECT_FALSE(in_range(v("10.0.0"), VersionRange{v("9.8"), v("9")}));
  EXPECT_TRUE(in_range(v("3.0"), VersionRange{std::nullopt, std::nullopt}));
  EXPECT_EQ(numeric_string(v("535.104.05")), "535.104.5");
}

TEST(CompatVersion, ReadsWheelTags) {
  EXPECT_EQ(numeric_string(*cuda_version_from_tag("cu121")), "12.1");
  EXPECT_EQ(numeric_string(*cuda_version_from_tag("cu118")), "11.8");
  EXPECT_EQ(numeric_string(*cuda_version_from_tag("cu90")), "9.0");
  EXPECT_EQ(numeric_string(*cuda_version_from_tag("cu102")), "10.2");
  EXPECT_EQ(numeric_string(*cuda_version_from_tag("2.5.0+cu124")), "12.4");
  EXPECT_EQ(numeric_string(*cuda_version_from_tag("cu130")), "13.0");
  EXPECT_FALSE(cuda_version_from_tag("cpu"));
  EXPECT_FALSE(cuda_version_from_tag("rocm6.2"));
  EXPECT_EQ(numeric_string(*rocm_version_from_tag("rocm6.2.4")), "6.2.4");
  EXPECT_EQ(numeric_string(*rocm_version_from_tag("2.5.0+rocm6.2")), "6.2");
  EXPECT_FALSE(rocm_version_from_tag("cu124"));
}

TEST(CompatVersion, ParsesNvccTargets) {
  auto a = parse_sm("sm_90a");
  ASSERT_TRUE(a);
  EXPECT_EQ(to_string(*a), "9.0a");
  EXPECT_EQ(to_string(*parse_sm("120")), "12.0");
  EXPECT_EQ(to_string(*parse_sm("100f")), "10.0f");
  EXPECT_FALSE(parse_sm("9"));
  EXPECT_FALSE(parse_sm("90x"));
}

// ---------------------------------------------------------------- the files themselves

TEST(CompatData, EveryFileLoadsWithoutErrors) {
  CompatLoad load = load_compat(embedded_compat_files());
  for (const std::string& e : load.errors) ADD_FAILURE() << e;
  // Every file in data/compat is a known matrix with its sources (the tree's files are the
  // embedded ones: EmbeddedFilesAreTheFilesInTheTree).
  EXPECT_EQ(load.data.sources.size(), embedded_compat_files().size());
  std::size_t rows = 0;
  for (const auto& [name, text] : embedded_compat_files()) {
    Json doc = Json::parse(text.begin(), text.end(), nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << name;
    rows += doc.at("rows").size();
  }
  EXPECT_EQ(load.rows, rows) << "every row is read into the typed model";
}

TEST(CompatData, EmbeddedFilesAreTheFilesInTheTree) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(GPUDOCTOR_FIXTURES) / ".." / ".." / "data" / "compat";
  std::set<std::string> on_disk;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    std::string name = entry.path().filename().string();
    on_disk.insert(name);
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    auto it = embedded_compat_files().find(name);
    ASSERT_NE(it, embedded_compat_files().end()) << name << " is not embedded";
    EXPECT_EQ(it->second, text.str()) << name << " changed since the build embedded it";
  }
  EXPECT_EQ(on_disk.size(), embedded_compat_files().size());
}

TEST(CompatData, EveryRowCitesAnHttpsDocument) {
  const CompatData& d = data();
  EXPECT_EQ(d.sources.size(), embedded_compat_files().size());
  for (const auto& [file, sources] : d.sources) {
    for (const CompatSource& s : sources) {
      EXPECT_EQ(s.url.rfind("https://", 0), 0u) << file << " " << s.id;
      for (const std::string& via : s.read_via) EXPECT_EQ(via.rfind("https://", 0), 0u) << s.id;
    }
  }
  auto check = [](const Provenance& p, const std::string& what) {
    EXPECT_FALSE(p.sources.empty()) << what;
    EXPECT_EQ(p.url.rfind("https://", 0), 0u) << what << ": " << p.url;
  };
  for (const auto& r : d.cuda_driver_minimums) check(r.from, r.cuda.text);
  for (const auto& r : d.cuda_minor_version_compat) check(r.from, "minor compat");
  for (const auto& r : d.driver_branch_max_cuda) check(r.from, std::to_string(r.branch));
  for (const auto& r : d.cuda_arch_range) check(r.from, r.sm);
  for (const auto& r : d.gpu_models) check(r.from, r.model);
  for (const auto& r : d.gpu_pci_ids) check(r.from, r.pci_name);
  for (const auto& r : d.cudnn) check(r.from, r.build);
  for (const auto& r : d.tensorflow) check(r.from, r.version.text);
  for (const auto& r : d.torch_releases) check(r.from, r.torch.text);
  for (const auto& r : d.torch_archs) check(r.from, r.cuda.text);
  for (const auto& r : d.torch_mps) check(r.from, r.macos_min.text);
  for (const auto& r : d.jax) check(r.from, r.plugin);
  for (const auto& r : d.tensorflow_metal) check(r.from, r.base_package);
  for (const auto& r : d.tensorflow_metal_releases) check(r.from, r.plugin.text);
  for (const auto& r : d.rocm_releases) check(r.from, r.rocm.text);
  for (const auto& r : d.rocm_kernels) check(r.from, r.distro);
  for (const auto& r : d.rocm_gpus) check(r.from, r.gpu);
  for (const auto& r : d.fp32_lanes) check(r.from, r.vendor + " " + r.unit);
  for (const auto& r : d.rocm_overrides) check(r.from, r.value);
  for (const auto& r : d.amdgpu_kfd_chips) check(r.from, r.chip);
  for (const auto& r : d.vulkan_layer_rules) check(r.from, r.layer);
  // Installer-based driver rows cite the installer itself.
  for (const auto& r : d.cuda_driver_minimums) {
    if (r.basis != DriverBasis::kInstaller) continue;
    EXPECT_NE(r.from.url.find("cuda_" + r.cuda.text + "_" + r.driver.text + "_linux.run"),
              std::string::npos)
        << r.from.url;
  }
}

TEST(CompatData, RejectsWhatTheSchemaForbids) {
  auto errors = [](const char* name, const char* text) {
    return load_compat({{name, text}}).errors;
  };
  EXPECT_FALSE(errors("nonsense.json", "{}").empty());
  EXPECT_FALSE(errors("jax.json", "[1]").empty());
  EXPECT_FALSE(
      errors("jax.json", R"({"schema": "rocm/1", "title": "t", "sources": [], "rows": []})")
          .empty());
  const char* http = R"({"schema": "tensorflow_metal/1", "title": "t",
    "sources": [{"id": "a", "url": "http://example.com", "title": "t", "status": "verified"}],
    "rows": [{"tensorflow": {"min": "2.13", "max": null}, "base_package": "tensorflow",
              "plugin_package": "tensorflow-metal", "gpus": [], "source": "a"}]})";
  EXPECT_FALSE(errors("tensorflow_metal.json", http).empty());
  const char* unknown_source = R"({"schema": "tensorflow_metal/1", "title": "t",
    "sources": [{"id": "a", "url": "https://example.com", "title": "t", "status": "verified"}],
    "rows": [{"tensorflow": {"min": "2.13", "max": null}, "base_package": "tensorflow",
              "plugin_package": "tensorflow-metal", "gpus": [], "source": "b"}]})";
  EXPECT_FALSE(errors("tensorflow_metal.json", unknown_source).empty());
  const char* inverted = R"({"schema": "tensorflow_metal/1", "title": "t",
    "sources": [{"id": "a", "url": "https://example.com", "title": "t", "status": "verified"}],
    "rows": [{"tensorflow": {"min": "2.13", "max": "2.12"}, "base_package": "tensorflow",
              "plugin_package": "tensorflow-metal", "gpus": [], "source": "a"}]})";
  EXPECT_FALSE(errors("tensorflow_metal.json", inverted).empty());
  const char* good = R"({"schema": "tensorflow_metal/1", "title": "t",
    "sources": [{"id": "a", "url": "https://example.com", "title": "t", "status": "verified"}],
    "rows": [{"tensorflow": {"min": "2.13", "max": null}, "base_package": "tensorflow",
              "plugin_package": "tensorflow-metal", "gpus": [], "source": "a"}]})";
  EXPECT_TRUE(errors("tensorflow_metal.json", good).empty());
}

template <typename Row, typename Key>
void expect_unique(const std::vector<Row>& rows, Key key, const char* table) {
  std::set<decltype(key(rows.front()))> seen;
  for (const Row& r : rows) EXPECT_TRUE(seen.insert(key(r)).second) << table << ": duplicate row";
}

TEST(CompatData, NoTableHasTwoRowsForOneKey) {
  const CompatData& d = data();
  auto os = [](CompatOs o) { return static_cast<int>(o); };
  expect_unique(
      d.cuda_driver_minimums,
      [&](const auto& r) {
        return numeric_string(r.cuda) + "/" + std::to_string(os(r.os)) + "/" +
               std::to_string(static_cast<int>(r.basis));
      },
      "cuda_driver_minimums");
  expect_unique(
      d.cuda_minor_version_compat,
      [&](const auto& r) {
        return r.cuda.min->text + "-" + r.cuda.max->text + "/" + std::to_string(os(r.os));
      },
      "cuda_minor_version_compat");
  expect_unique(
      d.driver_branch_max_cuda, [](const auto& r) { return r.branch; }, "driver_branch");
  expect_unique(
      d.cuda_arch_range, [](const auto& r) { return r.sm; }, "cuda_arch_range");
  expect_unique(
      d.gpu_models, [](const auto& r) { return r.model; }, "gpu models");
  expect_unique(
      d.gpu_pci_ids, [](const auto& r) { return r.device_id; }, "gpu pci ids");
  expect_unique(
      d.cudnn,
      [](const auto& r) {
        return r.cudnn.min->text + "-" + r.cudnn.max->text + "/" + r.cuda.min->text + "-" +
               r.cuda.max->text;
      },
      "cudnn");
  expect_unique(
      d.tensorflow,
      [&](const auto& r) {
        return std::to_string(os(r.os)) + (r.gpu ? "gpu" : "cpu") + numeric_string(r.version);
      },
      "tensorflow");
  expect_unique(
      d.torch_releases, [](const auto& r) { return numeric_string(r.torch); }, "torch");
  expect_unique(
      d.torch_archs,
      [](const auto& r) {
        return r.torch.min->text + "/" + numeric_string(r.cuda) + "/" + r.platform;
      },
      "torch archs");
  expect_unique(
      d.rocm_releases, [](const auto& r) { return numeric_string(r.rocm); }, "rocm");
  expect_unique(
      d.rocm_kernels, [](const auto& r) { return r.distro + " " + r.version; }, "kernels");
  expect_unique(
      d.rocm_gpus, [](const auto& r) { return r.gpu; }, "rocm gpus");
  expect_unique(
      d.amdgpu_kfd_chips, [](const auto& r) { return r.chip; }, "kfd chips");
  std::vector<std::uint16_t> ids;  // no PCI id belongs to two ASICs
  for (const auto& c : d.amdgpu_kfd_chips) {
    ids.insert(ids.end(), c.device_ids.begin(), c.device_ids.end());
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
  expect_unique(
      d.rocm_overrides, [](const auto& r) { return r.gfx.front() + "=" + r.value; }, "overrides");
}

TEST(CompatData, TablesAreConsistent) {
  const CompatData& d = data();
  // A later toolkit release never needs an older driver (per OS).
  for (CompatOs os : {CompatOs::kLinux, CompatOs::kWindows}) {
    std::vector<CudaDriverMinimum> rows;
    for (const auto& r : d.cuda_driver_minimums) {
      if (r.os == os) rows.push_back(r);
    }
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return a.cuda < b.cuda; });
    for (std::size_t i = 1; i < rows.size(); ++i) {
      EXPECT_LE(rows[i - 1].driver, rows[i].driver)
          << rows[i - 1].cuda.text << " -> " << rows[i].cuda.text;
    }
  }
  // Every PCI id belongs to a model row, and only to NVIDIA's vendor id.
  for (const GpuPciId& id : d.gpu_pci_ids) {
    EXPECT_EQ(id.vendor_id, 0x10de);
    EXPECT_TRUE(compute_capability_for_pci(d, id.vendor_id, id.device_id)) << id.pci_name;
  }
  // Derived branch rows agree with the toolkit table they come from.
  for (const DriverBranchMaxCuda& b : d.driver_branch_max_cuda) {
    auto toolkit = min_driver_for_cuda(d, b.max_cuda, CompatOs::kLinux);
    ASSERT_TRUE(toolkit) << b.branch;
    EXPECT_LE(toolkit->driver.parts[0], static_cast<std::uint32_t>(b.branch)) << b.branch;
  }
  // Every ROCm release's GPU targets have at least one GPU row.
  for (const RocmRelease& r : d.rocm_releases) {
    for (const std::string& gfx : r.gfx) {
      bool found = std::any_of(d.rocm_gpus.begin(), d.rocm_gpus.end(),
                               [&](const RocmGpu& g) { return g.gfx == gfx; });
      EXPECT_TRUE(found) << r.rocm.text << " " << gfx;
    }
  }
}

}  // namespace compat_test
}  // namespace gpudoctor
