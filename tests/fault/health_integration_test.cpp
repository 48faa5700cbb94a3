// Issue 29, cause 4: every packaged health-check integration ends, on a node whose drivers hang,
// before its engine kills it, with a verdict. Each test runs the packaged file as shipped (the
// Slurm HealthCheckProgram script, the NHC module, node-problem-detector's rule, the DaemonSet's
// loop body) against the built gpudoctor, with enough hanging OpenCL drivers that, one --timeout
// (5 s) each, they would outlast the engine's limit without --deadline.
//
// The engines' limits: slurmd kills HealthCheckProgram after 60 s
// (https://slurm.schedmd.com/slurm.conf.html#OPT_HealthCheckProgram); NHC's watchdog TIMEOUT is
// 30 s (https://github.com/mej/nhc#supported-variables); node-problem-detector ends a plugin at
// its rule's timeout, 60 s in our rule
// (https://github.com/kubernetes/node-problem-detector/blob/master/docs/custom_plugin_monitor.md);
// the DaemonSet's loop runs every 300 s.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "core/isolate.hpp"
#include "hanging_drivers.hpp"
#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

constexpr double kProbeTimeout = 5.0;  // check --no-smoke's default --timeout
constexpr double kSlack = 2.5;          // a loaded test machine: start-up, the checks, the output

std::string packaged(const std::string& rel) {
  std::ifstream in(std::string(GPUDOCTOR_PACKAGING) + "/" + rel);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The number after the first match of `pattern`'s group 1.
double number_after(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stod(m[1].str());
}

/// Hanging drivers enough to outlast `limit` seconds without a deadline.
std::size_t drivers_to_outlast(double limit) {
  return static_cast<std::size_t>(limit / kProbeTimeout + 1) * IsolatedRun::default_max_children();
}

class HealthIntegration : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::opencl_loader_installed()) GTEST_SKIP() << "no OpenCL ICD loader";
  }
};

TEST_F(HealthIntegration, SlurmHealthCheckProgramDrainsTheNodeBeforeSlurmdKillsIt) {
  const std::string script = std::string(GPUDOCTOR_PACKAGING) + "/slurm/gpudoctor-healthcheck";
  const double deadline = number_after(packaged("slurm/gpudoctor-healthcheck"),
                                       R"(GPUDOCTOR_DEADLINE:-([0-9.]+))");
  const double wrapper = number_after(packaged("slurm/gpudoctor-healthcheck"),
                                      R"(GPUDOCTOR_TIMEOUT:-([0-9.]+))");
  ASSERT_GT(deadline, 0);
  EXPECT_LT(deadline + kSlack, wrapper);  // gpudoctor ends before `timeout` would kill it
  EXPECT_LT(wrapper, 60.0);               // and that before slurmd's kill
  const test::HangingDrivers drivers(drivers_to_outlast(60.0));
  test::TempTree t;
  const std::string scontrol = t.write("scontrol",
                                       "#!/bin/sh\n"
                                       "case \"$1\" in\n"
                                       "  show) echo \"NodeName=gpu-n01 Arch=x86_64 State=IDLE "
                                       "ThreadsPerCore=1\" ;;\n"
                                       "  update) echo \"$*\" >> \"$(dirname \"$0\")/updates\" ;;\n"
                                       "esac\n");
  ::chmod(scontrol.c_str(), 0755);
  auto r = test::run_program({"/bin/bash", script},
                             {drivers.opencl_env(), "GPUDOCTOR=" GPUDOCTOR_BIN,
                              "SCONTROL=" + scontrol, "SLURMD_NODENAME=gpu-n01"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_LT(r.seconds, deadline + kSlack) << r.out;
  std::ifstream in(t.path() + "/updates");
  std::stringstream updates;
  updates << in.rdbuf();
  EXPECT_NE(updates.str().find("state=drain reason=gpudoctor: FAIL"), std::string::npos)
      << updates.str() << "\n" << r.out;
  EXPECT_NE(updates.str().find("probe.timed_out"), std::string::npos) << updates.str();
}

TEST_F(HealthIntegration, NhcCheckFailsTheNodeWithinNhcsWatchdog) {
  const std::string module = std::string(GPUDOCTOR_PACKAGING) + "/slurm/gpudoctor.nhc";
  const double deadline =
      number_after(packaged("slurm/gpudoctor.nhc"), R"(GPUDOCTOR_DEADLINE:-([0-9.]+))");
  ASSERT_GT(deadline, 0);
  EXPECT_LT(deadline + kSlack, 30.0);
  const test::HangingDrivers drivers(drivers_to_outlast(30.0));
  // NHC's own helpers, as its driver script defines them: die records the failure.
  const std::string body =
      "die() { echo \"DIE $*\"; return 1; }; dbg() { :; }; log() { echo \"LOG $*\"; }; "
      ". \"$0\"; check_gpudoctor";
  auto r = test::run_program({"/bin/bash", "-c", body, module},
                             {drivers.opencl_env(), "GPUDOCTOR=" GPUDOCTOR_BIN});
  EXPECT_LT(r.seconds, deadline + kSlack) << r.out;
  EXPECT_NE(r.out.find("DIE 1 check_gpudoctor:  gpudoctor: FAIL"), std::string::npos) << r.out;
}

TEST_F(HealthIntegration, NodeProblemDetectorRuleGetsItsVerdictBeforeItsTimeout) {
  const std::string yaml = packaged("kubernetes/node-problem-detector-gpudoctor.yaml");
  const auto at = yaml.find("gpudoctor.json: |");
  ASSERT_NE(at, std::string::npos);
  const Json config = Json::parse(yaml.substr(yaml.find('{', at)), nullptr, false);
  ASSERT_TRUE(config.is_object()) << yaml.substr(at);
  const Json& rule = config.at("rules").at(0);
  const double rule_timeout = std::stod(rule.at("timeout").get<std::string>());
  const double plugin_timeout =
      std::stod(config.at("pluginConfig").at("timeout").get<std::string>());
  EXPECT_LE(rule_timeout, plugin_timeout);  // a rule's timeout may not exceed the plugin's
  std::vector<std::string> argv{GPUDOCTOR_BIN};
  double deadline = -1;
  for (std::size_t i = 0; i < rule.at("args").size(); ++i) {
    argv.push_back(rule.at("args")[i].get<std::string>());
    if (argv.back() == "--deadline") deadline = std::stod(rule.at("args")[i + 1].get<std::string>());
  }
  ASSERT_GT(deadline, 0);
  EXPECT_LT(deadline + kSlack, rule_timeout);
  const test::HangingDrivers drivers(drivers_to_outlast(rule_timeout));
  auto r = test::run_program(argv, {drivers.opencl_env()});
  EXPECT_EQ(r.exit_code, 1) << r.out;  // NonOK: the condition is set, with this message
  EXPECT_LT(r.seconds, deadline + kSlack);
  EXPECT_EQ(r.out.rfind("FAIL ", 0), 0u) << r.out;
}

TEST_F(HealthIntegration, KubernetesDaemonSetWritesAVerdictEveryPeriod) {
  const std::string yaml = packaged("kubernetes/gpudoctor-daemonset.yaml");
  // The loop body, as the folded scalar joins it: "gpudoctor check … --prometheus FILE;".
  std::smatch m;
  ASSERT_TRUE(std::regex_search(yaml, m, std::regex(R"(gpudoctor (check[^;]*);)")));
  std::string command = std::regex_replace(m[1].str(), std::regex(R"(\s+)"), " ");
  const double period = number_after(yaml, R"(sleep ([0-9]+))");
  const double deadline = number_after(command, R"(--deadline ([0-9.]+))");
  ASSERT_GT(deadline, 0) << command;
  EXPECT_LT(deadline + kSlack, period);
  test::TempTree t;
  const std::string textfile = t.path() + "/gpudoctor.prom";
  command = std::regex_replace(command, std::regex(R"(--prometheus \S+)"),
                               "--prometheus " + textfile);
  const test::HangingDrivers drivers(drivers_to_outlast(60.0));
  auto r = test::run_program({"/bin/sh", "-c", std::string(GPUDOCTOR_BIN) + " " + command},
                             {drivers.opencl_env()});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_LT(r.seconds, deadline + kSlack);
  std::ifstream in(textfile);
  std::stringstream metrics;
  metrics << in.rdbuf();
  EXPECT_NE(metrics.str().find("probe.timed_out"), std::string::npos) << metrics.str();
  EXPECT_NE(metrics.str().find("probe.not_examined"), std::string::npos) << metrics.str();
}

}  // namespace
}  // namespace gpudoctor
