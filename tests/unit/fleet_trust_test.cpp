// Issue 29 §6, fleet views that trust what reports say: a report names its own node and its own
// time, and summary puts those names into Slurm hostlists that operators paste into
// `scontrol update nodename=…`, and those times into "stale". A name or a time no node could
// honestly have must not reach either.
#include <gtest/gtest.h>

#include "fleet/hostlist.hpp"
#include "fleet/summary.hpp"

namespace gpudoctor {
namespace fleet_trust_test {

NodeReport node(const std::string& name, const std::string& at = "2026-11-21T10:55:00Z") {
  NodeReport r;
  r.source = "reports/" + std::to_string(name.size()) + ".json";
  r.brief.node = name;
  r.brief.generated_at = at;
  r.brief.failures = 1;
  r.brief.findings.push_back({"cuda.init", Severity::fail, "cuInit failed", {}});
  return r;
}

TEST(FleetTrust, NodeNamesWithHostlistSyntaxNeverReachAHostlist) {
  // Each would make Slurm expand the list to nodes that never reported: a range, a second
  // name, a blank (scontrol splits on it), a newline, a terminal escape.
  const std::vector<std::string> forged = {
      "gpu[1-512]", "gpu7,login1", "gpu7 login1", "gpu7\nlogin1", "gpu\x1b[2J7", "-gpu7", ""};
  EXPECT_TRUE(valid_node_name("gpu-r012-n06"));
  EXPECT_TRUE(valid_node_name("node17.cluster.example.org"));
  EXPECT_TRUE(valid_node_name("ip-10-0-0-1_a"));
  std::vector<NodeReport> nodes = {node("gpu1"), node("gpu2")};
  for (const auto& name : forged) {
    EXPECT_FALSE(valid_node_name(name)) << name;
    nodes.push_back(node(name));
  }
  const Summary s = summarize(nodes, {}, {});
  EXPECT_EQ(s.failing.hostlist, "gpu[1-2]");
  ASSERT_EQ(s.findings.size(), 1U);
  EXPECT_EQ(s.findings[0].nodes.hostlist, "gpu[1-2]");
  // Left out visibly: each is an unreadable report that says why.
  ASSERT_EQ(s.unreadable.size(), forged.size());
  for (const auto& u : s.unreadable) {
    EXPECT_NE(u.why.find("not a node name"), std::string::npos) << u.why;
  }
  // In text the forged names appear only quoted in the reasons, never in a node list.
  const std::string text = render_summary_text(s);
  EXPECT_NE(text.find("failing: 2 (gpu[1-2])"), std::string::npos) << text;
  EXPECT_NE(text.find("node name \"gpu[1-512]\" is not a node name"), std::string::npos) << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  // compress_hostlist itself lists no such name, whoever calls it.
  EXPECT_EQ(compress_hostlist(std::vector<std::string>{"n1", "n[2-9]", "a,b", "n2"}), "n[1-2]");
}

TEST(FleetTrust, AReportDatedInTheFutureMakesNoOtherNodeStale) {
  SummaryOptions opt;
  opt.now = 1795262100;  // 2026-11-21T11:55:00Z, an hour after the reports
  std::vector<NodeReport> nodes;
  for (int i = 1; i <= 20; ++i) nodes.push_back(node("n" + std::to_string(i)));
  nodes.push_back(node("n21", "9999-12-31T23:59:59Z"));
  // A few minutes ahead is clock skew, not a forgery: that node counts as it is.
  nodes.push_back(node("n22", "2026-11-21T12:00:00Z"));
  const Summary s = summarize(nodes, {}, opt);
  std::map<std::string, std::string> found;
  for (const auto& o : s.outliers) found[o.kind] += o.nodes.hostlist + ";";
  EXPECT_EQ(found.count("stale"), 0U) << found["stale"];
  EXPECT_EQ(found["future"], "n21;");
  EXPECT_EQ(s.newest, "2026-11-21T12:00:00Z");
  // An older report of a node does not lose to a forged future one of the same node.
  std::vector<NodeReport> twice = {node("n1", "9999-01-01T00:00:00Z"), node("n1")};
  twice[1].brief.failures = 0;
  twice[1].brief.findings.clear();
  const Summary t = summarize(twice, {}, opt);
  EXPECT_TRUE(t.failing.empty());
}

}  // namespace fleet_trust_test
}  // namespace gpudoctor
