// The pure parts of gpudoctor on a fleet (issue 16): Slurm hostlists, the one-line verdict, the
// node's name, the Prometheus text, the brief record, the one-pass report scanner and summary.
#include <gtest/gtest.h>

#include "fleet/brief.hpp"
#include "fleet/hostlist.hpp"
#include "fleet/node_name.hpp"
#include "fleet/oneline.hpp"
#include "fleet/report_scan.hpp"
#include "fleet/summary.hpp"
#include "render/prometheus.hpp"

namespace gpudoctor {
namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (std::size_t comma; (comma = s.find(',', at)) != std::string::npos; at = comma + 1) {
    out.push_back(s.substr(at, comma - at));
  }
  out.push_back(s.substr(at));
  return out;
}

// Each expected line is what `scontrol show hostlistsorted` of Debian's slurm-client 22.05.8
// printed for the same names on this machine.
TEST(Hostlist, CompressesAsSlurmSortsAndCompresses) {
  const std::pair<const char*, const char*> cases[] = {
      {"n1,n2,n3,n05,n07,gpu-r012-n06,gpu-r012-n09,gpu-r012-n11,gpu-r012-n12",
       "gpu-r012-n[06,09,11-12],n[1-3,05,07]"},
      {"n1,n01,n001,n2,n10,n9", "n[1-2,9,01,10,001]"},
      {"a,b,a1,c", "a,a1,b,c"},
      {"node1a,node2a", "node1a,node2a"},
      {"n9,n10,n11", "n[9-11]"},
      {"n09,n10,n100", "n[09-10,100]"},
      {"x-1,x-2", "x-[1-2]"},
      {"b1,a1,a2,b2", "a[1-2],b[1-2]"},
      {"n007,n8,n008,n9", "n[8-9,007-008]"},
      {"host", "host"},
      {"a1b2,a1b3", "a1b[2-3]"},
      {"n0,n00,n000", "n[0,00,000]"},
      {"n8,n9,n10,n010,n011", "n[8-10,010-011]"},
      {"n1,n3,N2", "N2,n[1,3]"},
      {"n-01,n-1", "n-[1,01]"},
      {"x1,x,x2", "x,x[1-2]"},
      {"gpu-r10-n1,gpu-r2-n1,gpu-r2-n2", "gpu-r2-n[1-2],gpu-r10-n1"},
      {"rack1-node01,rack1-node02,rack01-node03", "rack01-node03,rack1-node[01-02]"},
      {"n18446744073709551615,n18446744073709551614",
       "n[18446744073709551614-18446744073709551615]"},
      {"a-b,a-a,A-c", "A-c,a-a,a-b"},
      {"node001,node002,node003,node004,node006", "node[001-004,006]"},
  };
  for (const auto& [in, want] : cases) EXPECT_EQ(compress_hostlist(split(in)), want) << in;
}

TEST(Hostlist, ListsANodeOnceAndLeavesSyntaxCharactersAlone) {
  // Slurm prints "n[1,1-2]" for a repeated name; a node has one report here.
  EXPECT_EQ(compress_hostlist(split("n1,n1,n2")), "n[1-2]");
  EXPECT_EQ(compress_hostlist(split("x,x")), "x");
  // A name Slurm would read as a range is no node name: left out (issue 29 §6; summary lists
  // such reports as unreadable).
  EXPECT_EQ(compress_hostlist(split("a[1],a2")), "a2");
  EXPECT_EQ(compress_hostlist(std::vector<std::string>{}), "");
}

Finding finding(const std::string& id, Severity s, const std::string& title = "t") {
  Finding f;
  f.id = id;
  f.severity = s;
  f.title = title;
  return f;
}

TEST(Oneline, VerdictAndFailingIdsComeFirst) {
  const std::vector<Finding> f = {
      finding("nvidia.driver_library_mismatch", Severity::fail,
              "Driver/library version mismatch: the loaded kernel module and the userspace "
              "driver differ"),
      finding("cuda.init", Severity::fail), finding("python.x", Severity::warn),
      finding("opencl.no_icd", Severity::info)};
  const std::string line = render_oneline(f, 8);
  EXPECT_EQ(line.rfind("FAIL 2: nvidia.driver_library_mismatch, cuda.init; WARN 1: python.x | "
                       "Driver/library version mismatch",
                       0),
            0U)
      << line;
  EXPECT_LE(line.size(), kOnelineMax);
  EXPECT_EQ(fleet_exit_code(f, Severity::fail), 1);
}

TEST(Oneline, IdsThatDoNotFitAreCountedWithinEightyBytes) {
  std::vector<Finding> f;
  for (int i = 0; i < 12; ++i) {
    f.push_back(finding("nvidia.some_long_check_name_" + std::to_string(i), Severity::fail));
  }
  const std::string line = render_oneline(f, 1);
  const std::string head = line.substr(0, kOnelineHead);
  EXPECT_EQ(head.rfind("FAIL 12: nvidia.some_long_check_name_0, ", 0), 0U) << line;
  // The count of the ids left out ends inside the first 80 bytes.
  const auto plus = line.find(", +");
  ASSERT_NE(plus, std::string::npos) << line;
  EXPECT_LT(line.find_first_of(";|", plus) == std::string::npos ? line.size()
                                                                : line.find_first_of(";|", plus),
            kOnelineHead + 1)
      << line;
  EXPECT_LE(line.size(), kOnelineMax);
}

TEST(Oneline, IsPrintableAsciiWithoutNewlines) {
  const std::vector<Finding> f = {finding(
      "gpu.x", Severity::warn, "H100 ×8 → broken\nline two\x1b[31m \u00e9t\u00e9 \xff end")};
  const std::string line = render_oneline(f, 8);
  for (char c : line) {
    EXPECT_TRUE(c >= 0x20 && c < 0x7f)
        << static_cast<int>(static_cast<unsigned char>(c)) << " in " << line;
  }
  EXPECT_NE(line.find("H100 x8 -> broken line two"), std::string::npos) << line;
  EXPECT_EQ(line.rfind("WARN 1: gpu.x | ", 0), 0U) << line;
  EXPECT_EQ(fleet_exit_code(f, Severity::fail), 0);
  EXPECT_EQ(fleet_exit_code(f, Severity::warn), 1);
}

TEST(Oneline, OkAndUnknown) {
  EXPECT_EQ(render_oneline({finding("opencl.no_icd", Severity::info)}, 8),
            "OK: 8 GPUs, no failure or warning, 1 note");
  EXPECT_EQ(render_oneline({}, 1), "OK: 1 GPU, no failure or warning");
  EXPECT_EQ(fleet_exit_code({finding("opencl.no_icd", Severity::info)}, Severity::warn), 0);
  const std::string unknown = render_oneline_unknown(std::string(300, 'x'));
  EXPECT_EQ(unknown.rfind("UNKNOWN: xxx", 0), 0U);
  EXPECT_EQ(unknown.size(), kOnelineMax);
}

TEST(NodeName, FlagThenSlurmThenKubernetesThenHost) {
  const Environment both({{"SLURMD_NODENAME", "n3"}, {"NODE_NAME", "k8s-node-7"}});
  EXPECT_EQ(resolve_node_name(std::string("cli"), both, "host")->name, "cli");
  EXPECT_EQ(resolve_node_name(std::nullopt, both, "host")->source, "SLURMD_NODENAME");
  const Environment k8s({{"SLURMD_NODENAME", "  "}, {"NODE_NAME", "k8s-node-7"}});
  EXPECT_EQ(resolve_node_name(std::nullopt, k8s, "host")->name, "k8s-node-7");
  const auto host = resolve_node_name(std::nullopt, Environment(), std::string("gpu\n01"));
  EXPECT_EQ(host->name, "gpu?01");
  EXPECT_EQ(host->source, "host name");
  EXPECT_FALSE(resolve_node_name(std::string(""), Environment(), std::nullopt));
}

facts::Machine two_gpus() {
  facts::Machine m;
  for (std::size_t i = 0; i < 2; ++i) {
    facts::Device d;
    d.index = i;
    d.kind = "GPU";
    d.identity.gpu = std::to_string(i);
    d.identity.uuid = "GPU-15704b32-f531-14ce-0530-1ac21e4b68e" + std::to_string(i);
    d.identity.pci_bus_id = i ? "00000000:64:00.0" : "00000000:53:00.0";
    d.identity.model_name = "NVIDIA H100 80GB HBM3";
    d.memory_bytes = 85520809984.0;
    m.devices.push_back(d);
  }
  m.compared.push_back({facts::Weight::driver, "driver", "NVIDIA kernel module", "550.127.05"});
  m.compared.push_back({facts::Weight::variable, "variable", "LD_LIBRARY_PATH", "/opt/x"});
  m.smoke.push_back({"cuda", 0, "NVIDIA H100 80GB HBM3", "pass", 5.1e13, 0});
  m.smoke.push_back({"cuda", 1, "NVIDIA H100 80GB HBM3", "fail", std::nullopt, 1});
  return m;
}

TEST(Prometheus, LabelsJoinDcgmAndValuesAreEscaped) {
  const facts::Machine m = two_gpus();
  const std::vector<Finding> f = {finding("cuda.init", Severity::fail),
                                  finding("cuda.init", Severity::fail)};
  MetricsInput in;
  in.machine = &m;
  in.findings = &f;
  in.node = "gpu-r012-n06";
  in.tool_version = "0.1.0";
  in.started_at = 1795473557.5;
  in.duration = 2.25;
  const std::string text = render_prometheus(in);
  EXPECT_NE(text.find("gpudoctor_gpu_info{Hostname=\"gpu-r012-n06\",gpu=\"1\",UUID=\"GPU-15704b32-"
                      "f531-14ce-0530-1ac21e4b68e1\",pci_bus_id=\"00000000:64:00.0\",model_name="
                      "\"NVIDIA H100 80GB HBM3\",kind=\"GPU\"} 1\n"),
            std::string::npos)
      << text;
  // Two findings with one id and level are one series counting both.
  EXPECT_NE(
      text.find("gpudoctor_finding{Hostname=\"gpu-r012-n06\",id=\"cuda.init\",level=\"fail\"} 2\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("gpudoctor_findings{Hostname=\"gpu-r012-n06\",level=\"fail\"} 2\n"),
            std::string::npos);
  EXPECT_NE(text.find("gpudoctor_check_failed{Hostname=\"gpu-r012-n06\",fail_on=\"fail\"} 1\n"),
            std::string::npos);
  EXPECT_NE(text.find("gpudoctor_smoke_flops{Hostname=\"gpu-r012-n06\",api=\"cuda\",index=\"0\""),
            std::string::npos);
  EXPECT_NE(text.find(",gpu=\"1\","), std::string::npos);
  EXPECT_NE(text.find("gpudoctor_smoke_passed{Hostname=\"gpu-r012-n06\",api=\"cuda\",index=\"1\""),
            std::string::npos);
  EXPECT_NE(text.find("} 51000000000000\n"), std::string::npos) << text;
  EXPECT_NE(
      text.find("gpudoctor_last_run_timestamp_seconds{Hostname=\"gpu-r012-n06\"} 1795473557.5\n"),
      std::string::npos);
  EXPECT_NE(text.find("gpudoctor_version_info{Hostname=\"gpu-r012-n06\",area=\"driver\",component="
                      "\"NVIDIA kernel module\",version=\"550.127.05\"} 1\n"),
            std::string::npos);
  EXPECT_EQ(text.find("LD_LIBRARY_PATH"), std::string::npos) << "variables are not versions";
  EXPECT_EQ(text.find("severity"), std::string::npos);
  EXPECT_EQ(prometheus_label_value("a\"b\\c\nd\xff"), "a\\\"b\\\\c\\nd\xEF\xBF\xBD");
}

TEST(Prometheus, ACheckThatCouldNotRunSaysSo) {
  MetricsInput in;
  in.node = "n1";
  const std::string text = render_prometheus(in);
  EXPECT_NE(text.find("gpudoctor_check_success{Hostname=\"n1\"} 0\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("gpudoctor_finding"), std::string::npos);
  // Every family has its HELP and TYPE, and only gauges are written.
  std::size_t help = 0, type = 0;
  for (std::size_t at = 0; (at = text.find("# HELP ", at)) != std::string::npos; ++at) ++help;
  for (std::size_t at = 0; (at = text.find("# TYPE ", at)) != std::string::npos; ++at) ++type;
  EXPECT_EQ(help, type);
  EXPECT_EQ(help, 4U);
}

TEST(Brief, RoundTripsAndGroupsSmokeByDevice) {
  const facts::Machine m = two_gpus();
  const std::vector<Finding> f = {finding("cuda.init", Severity::fail),
                                  finding("gpu.ok", Severity::ok)};
  const Brief b = make_brief(m, f, "n1", "2026-11-21T10:55:00Z", "0.1.0");
  ASSERT_EQ(b.gpus.size(), 1U);
  EXPECT_EQ(b.gpus[0].count, 2);
  ASSERT_EQ(b.smoke.size(), 1U);
  EXPECT_EQ(b.smoke[0].runs, 2);
  EXPECT_EQ(b.smoke[0].failed, 1);
  EXPECT_EQ(b.findings.size(), 1U) << "ok findings are left out";
  EXPECT_EQ(b.versions.count("variable"), 0U);
  const auto back = brief_from_json(brief_json(b));
  ASSERT_TRUE(std::holds_alternative<Brief>(back)) << std::get<std::string>(back);
  const Brief& r = std::get<Brief>(back);
  EXPECT_EQ(r.node, "n1");
  EXPECT_EQ(r.failures, 1);
  EXPECT_EQ(r.versions.at("driver").at(kModuleComponent), "550.127.05");
  EXPECT_EQ(r.smoke[0].flops, std::vector<double>{5.1e13});
}

TEST(Brief, WrongTypesNameTheField) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"gpus":[{"model":"x","count":"8"}]})", "brief.gpus[0].count: not a count"},
      {R"({"findings":[{"id":"a","severity":"bad"}]})", "brief.findings[0].severity: not one of"},
      {R"({"findings":[{"severity":"fail"}]})", "brief.findings[0].id: missing"},
      {R"({"smoke":[{"flops":[-1]}]})", "brief.smoke[0].flops[0]: not a FLOP/s figure"},
      {R"({"versions":{"driver":{"x":1}}})", "brief.versions.driver.x: not a string"},
      {R"({"summary":{"failures":-3}})", "brief.summary.failures: not a count"},
      {R"([1,2])", "brief: not an object"},
  };
  for (const auto& [text, why] : cases) {
    const auto r = brief_from_json(Json::parse(text));
    ASSERT_TRUE(std::holds_alternative<std::string>(r)) << text;
    EXPECT_EQ(std::get<std::string>(r).rfind(why, 0), 0U) << std::get<std::string>(r);
  }
}

std::string brief_text(const std::string& node) {
  Brief b;
  b.node = node;
  b.generated_at = "2026-11-21T10:55:00Z";
  return dump_json(brief_json(b));
}

TEST(ReportScan, ReadsTheBriefOfAReportAndRefusesWhatIsNotJson) {
  const std::string report =
      R"({"bench":null,"brief":)" + brief_text("n7") +
      R"(,"kind":"gpudoctor-report","snapshot":{"a":[1,2.5e3,-0,true,null,"\u00e9\n"]}})";
  auto r = read_brief(report);
  ASSERT_TRUE(std::holds_alternative<Brief>(r)) << std::get<std::string>(r);
  EXPECT_EQ(std::get<Brief>(r).node, "n7");
  ASSERT_TRUE(std::holds_alternative<Brief>(read_brief(brief_text("n8"))));

  const std::pair<std::string, const char*> bad[] = {
      {report.substr(0, report.size() - 3), "not JSON: unexpected end"},
      {"", "not JSON: unexpected end"},
      {report + "x", "not JSON: text after the document"},
      {R"({"brief":)" + brief_text("n") + R"(,"x":"a\qb"})", "not JSON: bad escape"},
      {R"({"brief":)" + brief_text("n") + ",\"x\":\"\xc3\x28\"}", "not JSON: invalid UTF-8"},
      {R"({"brief":)" + brief_text("n") + ",\"x\":\"a\tb\"}", "not JSON: control character"},
      {R"({"x":01})", "not JSON: expected"},
      {R"({"x":tru})", "not JSON: not a JSON value"},
      {std::string(600, '[') + std::string(600, ']'), "not JSON: nested too deep"},
      {R"({"kind":"gpudoctor-report"})", "not a gpudoctor report (no brief record, no snapshot)"},
      {"[1]", "not a gpudoctor report (not a JSON object)"},
      {R"({"brief":{"schema_version":99}})", "written by a newer gpudoctor"},
      {R"({"brief":{"gpus":{}}})", "brief.gpus: not an array"},
  };
  for (const auto& [text, why] : bad) {
    const auto out = read_brief(text);
    ASSERT_TRUE(std::holds_alternative<std::string>(out)) << text.substr(0, 80);
    EXPECT_EQ(std::get<std::string>(out).rfind(why, 0), 0U) << std::get<std::string>(out);
  }
}

TEST(ReportScan, AcceptsExactlyWhatNlohmannAccepts) {
  // A report-like document, then thousands of copies each with one byte changed or cut short:
  // the one-pass scanner must call JSON exactly what the full parser calls JSON.
  // JSON escapes (\u00e9, \", \n, \t, \\, \/), raw UTF-8 of two, three and four bytes, numbers
  // in every form, literals, empty containers.
  const std::string doc = R"({"brief":)" + brief_text("gpu-r012-n06") +
                          R"(,"snapshot":{"a":[1,-2.5e-3,0,true,false,null],)"
                          R"("s":"caf\u00e9 \"q\" é → 😀 \n\t\\\/","o":{"e":{},"l":[]}}})";
  ASSERT_TRUE(Json::accept(doc));
  static const char kBytes[] = "{}[]:,\"\\/ \t\n0-+.eEutfnlr\x01\x1f\x7f\x80\xbf\xc3\xe2\xf0\xff";
  const std::string bytes = std::string(kBytes, sizeof kBytes - 1) + '\0';
  std::uint32_t seed = 16;
  auto next = [&seed]() { return seed = seed * 1664525u + 1013904223u; };
  int accepted = 0;
  int refused = 0;
  for (int i = 0; i < 4000; ++i) {
    std::string text = doc;
    if (i % 10 == 0) {
      text.resize(next() % text.size());
    } else {
      text[next() % text.size()] = bytes[next() % bytes.size()];
    }
    const bool json = Json::accept(text);
    const auto scanned = scan_json(text);
    bool ours = std::holds_alternative<TopLevel>(scanned);
    if (ours) {
      const std::size_t end = std::get<TopLevel>(scanned).end;
      ours = text.find_first_not_of(" \t\n\r", end) == std::string::npos;
    }
    EXPECT_EQ(ours, json) << "mutation " << i << ": " << text;
    ++(json ? accepted : refused);
  }
  // Both sides of the line are exercised, many times.
  EXPECT_GT(accepted, 500);
  EXPECT_GT(refused, 500);
}

TEST(ReportScan, SplitsAStreamOfRecords) {
  const std::string stream = brief_text("n1") + "\n" + brief_text("n2") + "\n  \n{\"x\":";
  const Documents d = split_documents(stream);
  ASSERT_EQ(d.texts.size(), 2U);
  EXPECT_EQ(std::get<Brief>(read_brief(d.texts[1])).node, "n2");
  ASSERT_TRUE(d.error);
  EXPECT_EQ(d.error->rfind("document 3: unexpected end", 0), 0U) << *d.error;
}

/// A node as the fixtures' reports describe it: the H100 server of vllm-project/vllm#11778
/// (driver 550.127.05, torch 2.5.1+cu124), or with what changes given.
NodeReport node(const std::string& name, int gpus = 8, const std::string& libcuda = "550.127.05",
                double flops = 4.0e13, const std::string& at = "2026-11-21T10:55:00Z") {
  NodeReport r;
  r.source = name + ".json";
  r.brief.node = name;
  r.brief.generated_at = at;
  r.brief.gpus = {{"NVIDIA H100 80GB HBM3", gpus}};
  r.brief.versions["driver"][kModuleComponent] = "550.127.05";
  r.brief.versions["driver"][kLibcudaComponent] = libcuda;
  r.brief.versions["framework"]["torch"] = "2.5.1+cu124";
  r.brief.smoke = {{"cuda", "NVIDIA H100 80GB HBM3", gpus, 0, std::vector<double>(gpus, flops)}};
  return r;
}

TEST(Summary, GroupsFindingsWithHostlistsAndEvidenceVariants) {
  std::vector<NodeReport> nodes;
  for (int i = 1; i <= 12; ++i)
    nodes.push_back(node("gpu-r012-n" + std::string(i < 10 ? "0" : "") + std::to_string(i)));
  // nvidia.driver_library_mismatch as oddmario/NVIDIA-Ubuntu-Driver-Guide#4 reports it.
  for (int i : {6, 9, 11, 12}) {
    auto& b = nodes[i - 1].brief;
    b.failures = 1;
    b.findings.push_back({"nvidia.driver_library_mismatch",
                          Severity::fail,
                          "Driver/library version mismatch",
                          {i == 6 ? "kernel module: 550.90.07" : "kernel module: 550.54.15"}});
  }
  const Summary s = summarize(nodes, {{"bad.json", "not JSON: unexpected end at byte 6"}}, {});
  ASSERT_EQ(s.findings.size(), 1U);
  EXPECT_EQ(s.findings[0].nodes.hostlist, "gpu-r012-n[06,09,11-12]");
  ASSERT_EQ(s.findings[0].variants.size(), 2U);
  EXPECT_EQ(s.findings[0].variants[0].nodes.hostlist, "gpu-r012-n[09,11-12]");
  EXPECT_EQ(s.findings[0].variants[1].evidence[0], "kernel module: 550.90.07");
  EXPECT_EQ(s.failing.hostlist, "gpu-r012-n[06,09,11-12]");
  EXPECT_EQ(s.reports, 13U);
  ASSERT_EQ(s.unreadable.size(), 1U);
  const std::string text = render_summary_text(s);
  EXPECT_NE(text.find("FAIL nvidia.driver_library_mismatch on 4 nodes: gpu-r012-n[06,09,11-12]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("bad.json: not JSON: unexpected end at byte 6"), std::string::npos) << text;
  const Json j = summary_json(s);
  EXPECT_EQ(j["findings"][0]["nodes"]["names"].size(), 4U);
  EXPECT_EQ(j["unreadable"][0]["source"], "bad.json");
}

TEST(Summary, FindsTheOutliers) {
  std::vector<NodeReport> nodes;
  for (int i = 0; i < 200; ++i) nodes.push_back(node("n" + std::to_string(i)));
  nodes[5] = node("n5", 7);                                                // a GPU fell off the bus
  nodes[17] = node("n17", 8, "550.127.05", 1.1e13);                        // slow
  nodes[42] = node("n42", 8, "550.90.07");                                 // the odd libcuda
  nodes[99] = node("n99", 8, "550.127.05", 4e13, "2026-11-18T08:00:00Z");  // stale
  nodes[100] = node("n100", 8, "550.127.05", 4e13, "yesterday");
  nodes.push_back(node("n3", 8, "550.127.05", 4e13, "2026-11-01T00:00:00Z"));  // superseded
  const Summary s = summarize(nodes, {}, {});
  EXPECT_EQ(s.names.size(), 200U);
  EXPECT_EQ(s.superseded, std::vector<std::string>{"n3.json"});
  std::map<std::string, std::string> found;
  for (const auto& o : s.outliers) found[o.kind + " " + o.what] += o.nodes.hostlist + ";";
  EXPECT_EQ(found["fewer_gpus NVIDIA H100 80GB HBM3"], "n5;");
  EXPECT_EQ(found["slow_smoke cuda NVIDIA H100 80GB HBM3"], "n17;");
  EXPECT_EQ(found["rare_version driver libcuda the loader picks"], "n42;");
  EXPECT_EQ(found["stale reports"], "n99;");
  EXPECT_EQ(found["no_time reports"], "n100;");
  EXPECT_EQ(found.size(), 5U);
  ASSERT_EQ(s.module_vs_libcuda.size(), 2U);
  EXPECT_EQ(s.module_vs_libcuda[1].value, "550.127.05 / 550.90.07");
  EXPECT_EQ(s.gpus[0].usual, 8);
}

TEST(Summary, TextIsSafeForATerminal) {
  std::vector<NodeReport> nodes = {node("n1\x1b]0;pwned\x07")};
  nodes[0].brief.findings.push_back({"x.y", Severity::warn, "title \x1b[2J\xc2\x9b", {}});
  const std::string text = render_summary_text(summarize(nodes, {{"f\x1b", "w\x1b"}}, {}));
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find('\x07'), std::string::npos) << text;
  EXPECT_EQ(text.find("\xc2\x9b"), std::string::npos) << text;
}

TEST(Summary, ParsesUtc) {
  EXPECT_EQ(parse_utc("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(parse_utc("2026-11-21T10:55:00Z"), 1795258500);
  EXPECT_EQ(parse_utc("2026-11-21T10:55:00.250Z"), 1795258500);
  EXPECT_FALSE(parse_utc("2026-11-21T10:55:00+01:00"));
  EXPECT_FALSE(parse_utc("2026-13-21T10:55:00Z"));
  EXPECT_FALSE(parse_utc(""));
}

}  // namespace
}  // namespace gpudoctor
