// Slurm's gres.conf as slurmd reads it for one node: hostlists, NodeName= lines, AutoDetect.
// The texts are the EXAMPLES of gres.conf(5) of Slurm 22.05 (Debian 12's slurm-client,
// /usr/share/man/man5/gres.conf.5.gz; https://slurm.schedmd.com/gres.conf.html).
#include <gtest/gtest.h>

#include "parse/slurm_gres.hpp"

namespace gpudoctor {
namespace {

using Names = std::vector<std::string>;

TEST(SlurmHostlist, RangesListsPaddingAndProducts) {
  EXPECT_EQ(expand_hostlist("tux[0-2]"), (Names{"tux0", "tux1", "tux2"}));
  EXPECT_EQ(expand_hostlist("/dev/nvidia[0,2-3]"),
            (Names{"/dev/nvidia0", "/dev/nvidia2", "/dev/nvidia3"}));
  EXPECT_EQ(expand_hostlist("gpu[08-10],login1"), (Names{"gpu08", "gpu09", "gpu10", "login1"}));
  EXPECT_EQ(expand_hostlist("r[1-2]n[1-2]"), (Names{"r1n1", "r1n2", "r2n1", "r2n2"}));
  EXPECT_EQ(expand_hostlist("node7"), (Names{"node7"}));
}

TEST(SlurmHostlist, MalformedOrHugeIsNothing) {
  EXPECT_FALSE(expand_hostlist("tux[0-"));
  EXPECT_FALSE(expand_hostlist("tux[a-b]"));
  EXPECT_FALSE(expand_hostlist("tux[9-1]"));
  EXPECT_FALSE(expand_hostlist("n[0-999999999]"));                 // one range past the cap
  EXPECT_FALSE(expand_hostlist("a[0-99]b[0-99]c[0-99]", 4096));  // a product past it
  EXPECT_FALSE(expand_hostlist(""));
}

constexpr const char* kPositive =
    "## Explicitly specify devices on nodes tux0-tux15\n"
    "# NodeName=tux[0-15]  Name=gpu File=/dev/nvidia[0-3]\n"
    "# NOTE: tux3 nvidia1 device is out of service\n"
    "NodeName=tux[0-2]  Name=gpu File=/dev/nvidia[0-3]\n"
    "NodeName=tux3  Name=gpu File=/dev/nvidia[0,2-3]\n"
    "NodeName=tux[4-15]  Name=gpu File=/dev/nvidia[0-3]\n";

TEST(SlurmGresConf, NodeNameLinesApplyToTheirNodesOnly) {
  const auto tux3 = parse_gres_conf(kPositive, std::string("tux3.cluster.example"));
  EXPECT_EQ(tux3.gpu_files, (Names{"/dev/nvidia0", "/dev/nvidia2", "/dev/nvidia3"}));
  EXPECT_EQ(tux3.files_line, std::optional<std::string>("NodeName=tux3  Name=gpu File=/dev/nvidia[0,2-3]"));
  EXPECT_TRUE(parse_gres_conf(kPositive, std::string("login1")).gpu_files.empty());
  // No host name: the NodeName= lines cannot be matched, and are counted as such.
  const auto unknown = parse_gres_conf(kPositive, std::nullopt);
  EXPECT_TRUE(unknown.gpu_files.empty());
  EXPECT_EQ(unknown.lines_not_matched, 3u);
}

TEST(SlurmGresConf, ANodesAutoDetectOverridesTheGlobalOne) {
  constexpr const char* kExceptOne =
      "AutoDetect=nvml\n"
      "NodeName=tux3 AutoDetect=off Name=gpu File=/dev/nvidia[0-3]\n";
  EXPECT_EQ(parse_gres_conf(kExceptOne, std::string("tux1")).autodetect,
            std::optional<std::string>("nvml"));
  const auto tux3 = parse_gres_conf(kExceptOne, std::string("tux3"));
  EXPECT_EQ(tux3.autodetect, std::optional<std::string>("off"));
  EXPECT_EQ(tux3.gpu_files.size(), 4u);

  constexpr const char* kMixed =
      "NodeName=tux[0-7] AutoDetect=nvml\n"
      "NodeName=tux[8-11] AutoDetect=rsmi\n"
      "NodeName=tux[12-15] Name=gpu File=/dev/nvidia[0-3]\n";
  EXPECT_EQ(parse_gres_conf(kMixed, std::string("tux9")).autodetect,
            std::optional<std::string>("rsmi"));
  EXPECT_FALSE(parse_gres_conf(kMixed, std::string("tux13")).autodetect);
}

TEST(SlurmGresConf, OtherGresAndCommentsAreNotGpus) {
  constexpr const char* kMps =
      "AutoDetect=nvml\n"
      "Name=gpu Type=gtx560 File=/dev/nvidia0 COREs=0,1\n"
      "Name=gpu Type=tesla  File=/dev/nvidia1 COREs=2,3\n"
      "Name=mps Count=100 File=/dev/nvidia0 COREs=0,1\n"
      "# Name=gpu File=/dev/nvidia7\n";
  const auto g = parse_gres_conf(kMps, std::nullopt);
  EXPECT_EQ(g.gpu_files, (Names{"/dev/nvidia0", "/dev/nvidia1"}));
  EXPECT_EQ(g.autodetect, std::optional<std::string>("nvml"));
}

// slurm.conf's keys are case-insensitive and '#' starts a comment (slurm.conf(5)); the value is
// the first word after '='.
TEST(SlurmConf, ValueOfAKey) {
  const std::string conf =
      "# PluginDir=/not/this\n"
      "ClusterName=tux\n"
      "pluginDIR=/usr/lib64/slurm:/opt/slurm/lib  # both\n"
      "SlurmdLogFile=/var/log/slurm/slurmd.%h.log\n"
      "SlurmctldLogFile=\n";
  EXPECT_EQ(slurm_conf_value(conf, "PluginDir"),
            std::optional<std::string>("/usr/lib64/slurm:/opt/slurm/lib"));
  EXPECT_EQ(slurm_conf_value(conf, "SlurmdLogFile"),
            std::optional<std::string>("/var/log/slurm/slurmd.%h.log"));
  EXPECT_EQ(slurm_conf_value(conf, "SlurmctldLogFile"), std::nullopt);
  EXPECT_EQ(slurm_conf_value(conf, "GresTypes"), std::nullopt);
  EXPECT_EQ(slurm_conf_value(conf, "Cluster"), std::nullopt);  // a key, not a prefix of one
}

}  // namespace
}  // namespace gpudoctor
