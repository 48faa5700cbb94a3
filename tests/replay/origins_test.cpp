// One diagnosis for every origin: the same machine read as a --sysroot tree, a report, a brief
// record, and a paste behaves the same under every option of `check` (--only, --skip,
// --fail-on, --oneline, --json, --prometheus). Each origin here has one failing area.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace origins_test {

using test::run_gpudoctor;

constexpr const char* kMachine = "nvidia-driver-library-mismatch";
constexpr const char* kMachineId = "nvidia.driver_library_mismatch";
// torch 2.6.0+cu126 on an RTX 5090 D (sm_120): pytorch/pytorch#150733.
constexpr const char* kPaste = "pastes/collect_env/pytorch-150733-rtx5090d-sm120.txt";
constexpr const char* kPasteId = "python.torch_arch";

struct Origin {
  std::string name;
  std::vector<std::string> source;  ///< the arguments that name the machine
  std::string failing_area;
  std::string failing_id;
};

/// The four origins, the report and the brief written into `dir` first.
std::vector<Origin> origins(const test::TempTree& dir) {
  const std::vector<std::string> tree = {"--sysroot", test::fixture_path(kMachine), "--backend",
                                         "host,pci,nvidia"};
  const std::string report = dir.path() + "/report.json";
  const std::string brief = dir.path() + "/brief.json";
  for (const auto& [out, extra] : {std::pair{report, ""}, std::pair{brief, "--brief"}}) {
    std::vector<std::string> args = {"report", "-o", out};
    if (*extra) args.emplace_back(extra);
    args.insert(args.end(), tree.begin(), tree.end());
    const auto made = run_gpudoctor(args);
    EXPECT_EQ(made.exit_code, 0) << made.err;
  }
  return {
      {"sysroot", tree, "nvidia", kMachineId},
      {"report", {"--from", report}, "nvidia", kMachineId},
      {"brief", {"--from", brief}, "nvidia", kMachineId},
      {"paste", {"--from", test::fixture_path(kPaste)}, "python", kPasteId},
  };
}

test::CommandResult check(const Origin& o, std::vector<std::string> options) {
  // -v: these tests look for finding ids, which are among -v's details.
  std::vector<std::string> args = {"check", "-v", "--color", "never"};
  args.insert(args.end(), o.source.begin(), o.source.end());
  args.insert(args.end(), options.begin(), options.end());
  return run_gpudoctor(args);
}

/// The area lines of `check`'s text: "✗ nvidia  …" → "nvidia".
std::vector<std::string> area_lines(const std::string& out) {
  std::vector<std::string> areas;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == ' ') continue;
    std::istringstream words(line);
    std::string mark, area;
    if (words >> mark >> area && (mark == "✓" || mark == "!" || mark == "✗" || mark == "?" ||
                                  mark == "–" || mark == "•")) {
      areas.push_back(area);
    }
  }
  return areas;
}

class Origins : public ::testing::Test {
 protected:
  test::TempTree dir;
  std::vector<Origin> all = origins(dir);
};

TEST_F(Origins, EachFailsItsAreaWithoutOptions) {
  for (const auto& o : all) {
    const auto r = check(o, {});
    EXPECT_EQ(r.exit_code, 1) << o.name << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find(o.failing_id), std::string::npos) << o.name << "\n" << r.out;
  }
}

TEST_F(Origins, OnlyHostShowsOnlyTheHostAreaAndPasses) {
  for (const auto& o : all) {
    const auto r = check(o, {"--only", "host"});
    EXPECT_EQ(r.exit_code, 0) << o.name << "\n" << r.out << r.err;
    for (const auto& area : area_lines(r.out)) EXPECT_EQ(area, "host") << o.name << "\n" << r.out;
    EXPECT_EQ(r.out.find(o.failing_id), std::string::npos) << o.name << "\n" << r.out;
  }
}

TEST_F(Origins, OnlyTheFailingAreaShowsItAndFails) {
  for (const auto& o : all) {
    const auto r = check(o, {"--only", o.failing_area});
    EXPECT_EQ(r.exit_code, 1) << o.name << "\n" << r.out;
    const auto areas = area_lines(r.out);
    ASSERT_EQ(areas.size(), 1u) << o.name << "\n" << r.out;
    EXPECT_EQ(areas[0], o.failing_area);
  }
}

TEST_F(Origins, SkipTheFailingIdPasses) {
  for (const auto& o : all) {
    const auto r = check(o, {"--skip", o.failing_id});
    EXPECT_EQ(r.exit_code, 0) << o.name << "\n" << r.out << r.err;
    EXPECT_EQ(r.out.find(o.failing_id), std::string::npos) << o.name << "\n" << r.out;
  }
}

TEST_F(Origins, OnelineIsOneLineNamingTheFailure) {
  for (const auto& o : all) {
    const auto r = check(o, {"--oneline"});
    EXPECT_EQ(r.exit_code, 1) << o.name;
    ASSERT_FALSE(r.out.empty()) << o.name;
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << o.name << "\n" << r.out;
    EXPECT_EQ(r.out.rfind("FAIL", 0), 0u) << o.name << "\n" << r.out;
    EXPECT_NE(r.out.find(o.failing_id), std::string::npos) << o.name << "\n" << r.out;
  }
}

TEST_F(Origins, FailOnAndSkipApplyAndSkipDropsItFromTheJson) {
  for (const auto& o : all) {
    EXPECT_EQ(check(o, {"--fail-on", "warn"}).exit_code, 1) << o.name;
    EXPECT_EQ(check(o, {"--fail-on", "warn", "--skip", o.failing_id}).exit_code, 0) << o.name;
    const auto json = check(o, {"--json", "--skip", o.failing_id});
    EXPECT_EQ(json.exit_code, 0) << o.name;
    const Json j = Json::parse(json.out);
    for (const auto& f : j["findings"]) EXPECT_NE(f["id"], o.failing_id) << o.name;
    EXPECT_EQ(j.contains("paste"), o.name == "paste") << o.name;
  }
}

TEST_F(Origins, PrometheusTextfileCountsTheSelectedFailures) {
  for (const auto& o : all) {
    const std::string prom = dir.path() + "/" + o.name + ".prom";
    const auto r = check(o, {"--prometheus", prom, "--only", o.failing_area});
    EXPECT_EQ(r.exit_code, 1) << o.name << "\n" << r.err;
    std::ifstream in(prom);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("id=\"" + o.failing_id + "\""), std::string::npos)
        << o.name << "\n" << text.str();
  }
}

// --- text: never refused, a stated symptom never green -------------------------------------

TEST(PastedText, FactsStatedInProseAreReadAndTheStatedSymptomFails) {
  // pytorch/pytorch#85332: no dump, only lines the person typed around their outputs.
  const auto r = check(Origin{"prose", {"--from", test::fixture_path(
                                                        "pastes/prose/pytorch-85332-is-available-false.txt")}},
                       {"--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const Json j = Json::parse(r.out);
  const Json& s = j["snapshot"];
  EXPECT_EQ(s["origin"], "paste");
  EXPECT_EQ(s["nvml"]["driver_version"], "450.51.05");
  EXPECT_EQ(s["nvidia"]["toolkits"][0]["version"], "10.2.89");
  bool torch = false;
  for (const auto& p : s["python"]["envs"][0]["packages"]) {
    if (p["name"] == "torch") {
      torch = true;
      EXPECT_EQ(p["torch"]["cuda"], "10.2");
    }
  }
  EXPECT_TRUE(torch) << s.dump(2);
  const Json* f = test::find_finding(j, "symptom.unexplained");
  ASSERT_NE(f, nullptr) << r.out;
  EXPECT_EQ((*f)["severity"], "fail");
  EXPECT_NE((*f)["fix"].get<std::string>().find("collect_env"), std::string::npos);
}

TEST(PastedText, NothingRecognisedIsSaidInALineWithWhatWouldDecideAndIsNoError) {
  test::TempTree dir;
  const std::string file =
      dir.write("note.txt", "Hi, after the update my training got slower. Any idea?\n");
  const auto r = check(Origin{"note", {"--from", file}}, {});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Nothing in"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gpudoctor reads: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nvidia-smi"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
}

TEST(PastedText, RawDmesgOpeningWithABracketIsReadNotTakenForJson) {
  // saharmor/dalle-playground#104's dmesg as `dmesg > file` writes it (the ticket's fences off):
  // its first character is '[', which once made it "not a gpudoctor report".
  std::ifstream in(test::fixture_path("pastes/kernel/dalle-playground-104-api-mismatch-dmesg.txt"));
  std::string raw;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("```", 0) != 0 && !(raw.empty() && line.empty())) raw += line + "\n";
  }
  ASSERT_EQ(raw.front(), '[');
  test::TempTree dir;
  const auto r = check(Origin{"dmesg", {"--from", dir.write("dmesg.txt", raw)}}, {});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("nvidia.driver_library_mismatch"), std::string::npos) << r.out;
}

TEST(PastedText, LlamaCppBuildWithoutTheGpusArchitectureFailsOnce) {
  // gpustack/llama-box#44: prebuilt CUDA ARCHS start at 600, two Tesla M60s (5.2).
  const auto r = check(Origin{"ggml", {"--from", test::fixture_path(
                                                   "pastes/llamacpp/llama-box-44-tesla-m60-archs-600.txt")}},
                       {"--json"});
  EXPECT_EQ(r.exit_code, 1);
  const Json j = Json::parse(r.out);
  int found = 0;
  for (const auto& f : j["findings"]) found += f["id"] == "cuda.llamacpp_arch";
  EXPECT_EQ(found, 1) << r.out;
  const auto healthy = check(
      Origin{"ggml", {"--from", test::fixture_path("pastes/llamacpp/llama-cpp-6758-rtx4050-archs-ptx.txt")}},
      {});
  EXPECT_EQ(healthy.exit_code, 0) << healthy.out;
  EXPECT_NE(healthy.out.find("RTX 4050"), std::string::npos) << healthy.out;
}

TEST(PastedText, EmptyOrBinaryInputIsStillRefused) {
  test::TempTree dir;
  for (const std::string& text : {std::string("\n\n  \n"), std::string("\x7f" "ELF\x02\x01\x00\x00", 8)}) {
    const std::string file = dir.write("in.bin", text);
    const auto r = check(Origin{"bad", {"--from", file}}, {});
    EXPECT_EQ(r.exit_code, 2) << r.out;
  }
}

}  // namespace origins_test
}  // namespace gpudoctor
