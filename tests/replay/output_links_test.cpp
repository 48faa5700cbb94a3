// Issue 29 §1, writes that follow a link: the packaged Slurm and NHC health checks run as root
// and write `--prometheus` into node_exporter's textfile directory, so an account that can
// write there could plant a link and have root replace any file. Each attack is made here as
// an attacker would make it; the victim is a file elsewhere that must come out untouched.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "io_run.hpp"
#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace output_links_test {

using test::IoSetup;
using test::run_io;
namespace fs = std::filesystem;

constexpr uid_t kNobody = 65534;

std::vector<std::string> report_args(std::vector<std::string> extra) {
  std::vector<std::string> args{"report", "--sysroot", test::fixture_path("server-a100-sxm4")};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

/// `check` of a fixture machine with no smoke test: what the Slurm health check runs.
std::vector<std::string> check_args(std::vector<std::string> extra) {
  std::vector<std::string> args{"check", "--oneline", "--no-smoke", "--sysroot",
                                test::fixture_path("server-a100-sxm4")};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool is_link(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

std::set<std::string> entries(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

TEST(OutputLinks, AsRootALinkPlantedWhereTheMetricsGoIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root, as the packaged health checks run";
  test::TempTree tree;
  const std::string victim = tree.write("etc/shadow", "precious\n");
  const std::string textfile = tree.mkdir("textfile");
  const std::string prom = textfile + "/gpudoctor.prom";
  ASSERT_EQ(::symlink(victim.c_str(), prom.c_str()), 0);
  for (const auto& args : {check_args({"--prometheus", prom}), report_args({"-o", prom}),
                           report_args({"--html", prom})}) {
    const auto io = run_io(args, {});
    EXPECT_EQ(io.r.exit_code, 2) << args[0] << ": " << io.r.err;
    EXPECT_NE(io.r.err.find("a symbolic link"), std::string::npos) << io.r.err;
    EXPECT_EQ(slurp(victim), "precious\n") << args[0] << " wrote through the link";
    EXPECT_TRUE(is_link(prom));
    EXPECT_EQ(entries(tree.path() + "/etc"), std::set<std::string>{"shadow"});
  }
}

TEST(OutputLinks, AsRootADirectoryOthersCanWriteWithoutTheStickyBitIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root";
  test::TempTree tree;
  const std::string open_dir = tree.mkdir("open");
  ASSERT_EQ(::chmod(open_dir.c_str(), 0777), 0);
  auto io = run_io(check_args({"--prometheus", open_dir + "/gpudoctor.prom"}), {});
  EXPECT_EQ(io.r.exit_code, 2) << io.r.err;
  EXPECT_NE(io.r.err.find("writable by other accounts"), std::string::npos) << io.r.err;
  EXPECT_TRUE(entries(open_dir).empty());
  // The sticky bit (as on /tmp) lets nobody else rename or remove root's file: written.
  ASSERT_EQ(::chmod(open_dir.c_str(), 01777), 0);
  io = run_io(check_args({"--prometheus", open_dir + "/gpudoctor.prom"}), {});
  EXPECT_NE(io.r.exit_code, 2) << io.r.err;
  EXPECT_NE(slurp(open_dir + "/gpudoctor.prom").find("gpudoctor_check_success"), std::string::npos);
}

// A link in a DIRECTORY component of the output path, made by another account (the textfile
// directory swapped for a link by node_exporter's account): root wrote its file wherever the
// link pointed (issue 29 §1: "O_NOFOLLOW semantics at every component the caller does not
// own"). A link root itself made (/var/run -> /run) is still followed.
TEST(OutputLinks, AsRootALinkOfAnotherAccountAmongTheDirectoriesIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root";
  test::TempTree tree;
  const std::string elsewhere = tree.mkdir("etc");
  const std::string exporter = tree.mkdir("exporter");
  const std::string textfile = exporter + "/textfile";
  ASSERT_EQ(::symlink(elsewhere.c_str(), textfile.c_str()), 0);
  ASSERT_EQ(::lchown(textfile.c_str(), kNobody, kNobody), 0);
  for (const auto& args : {check_args({"--prometheus", textfile + "/gpudoctor.prom"}),
                           report_args({"-o", textfile + "/report.json"})}) {
    const auto io = run_io(args, {});
    EXPECT_EQ(io.r.exit_code, 2) << args[0] << ": " << io.r.err;
    EXPECT_NE(io.r.err.find("a symbolic link of another account"), std::string::npos) << io.r.err;
    EXPECT_TRUE(entries(elsewhere).empty()) << args[0] << " wrote through the link";
  }
  // The same link made by root is root's own choice: followed.
  ASSERT_EQ(::lchown(textfile.c_str(), 0, 0), 0);
  const auto io = run_io(check_args({"--prometheus", textfile + "/gpudoctor.prom"}), {});
  EXPECT_NE(io.r.exit_code, 2) << io.r.err;
  EXPECT_EQ(entries(elsewhere), std::set<std::string>{"gpudoctor.prom"});
}

/// Not root: a link named as the output is replaced by the new file, and the file it named,
/// in a directory the writer cannot even write, is left as it was.
TEST(OutputLinks, ALinkIsReplacedNeverFollowedAndTheTemporaryFileIsBesideIt) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to run the command as nobody";
  test::TempTree tree;
  const std::string victim = tree.write("theirs/report.json", "precious\n");
  const std::string mine = tree.mkdir("mine");
  ASSERT_EQ(::chown(mine.c_str(), kNobody, kNobody), 0);
  ASSERT_EQ(::chmod(tree.path().c_str(), 0755), 0);
  ASSERT_EQ(::chmod(victim.c_str(), 0666), 0);  // writable, so only a rename could protect it
  const std::string link = mine + "/latest.json";
  ASSERT_EQ(::symlink(victim.c_str(), link.c_str()), 0);
  ASSERT_EQ(::lchown(link.c_str(), kNobody, kNobody), 0);
  IoSetup as_nobody;
  as_nobody.as_user = kNobody;
  const auto io = run_io(report_args({"-o", link}), as_nobody);
  ASSERT_EQ(io.r.exit_code, 0) << io.r.err;
  EXPECT_EQ(slurp(victim), "precious\n");
  EXPECT_FALSE(is_link(link)) << "the link still stands: the write followed it";
  const Json j = Json::parse(slurp(link), nullptr, false);
  EXPECT_EQ(j.value("kind", ""), "gpudoctor-report");
  EXPECT_EQ(entries(tree.path() + "/theirs"), std::set<std::string>{"report.json"});
  EXPECT_EQ(entries(mine), std::set<std::string>{"latest.json"});
}

TEST(OutputLinks, AnOutputThatIsAlsoAnInputIsAUsageError) {
  test::TempTree tree;
  const std::string report = tree.path() + "/r.json";
  ASSERT_EQ(run_io(report_args({"-o", report}), {}).r.exit_code, 0);
  const std::string before = slurp(report);
  const std::string link = tree.path() + "/same.json";
  ASSERT_EQ(::symlink(report.c_str(), link.c_str()), 0);
  // The same file by its name, through a link, and by another spelling of its path.
  for (const std::string& out : {report, link, tree.path() + "/./x/../r.json"}) {
    const auto io = run_io({"check", "--from", report, "--prometheus", out}, {});
    EXPECT_EQ(io.r.exit_code, 2) << out << ": " << io.r.err;
    EXPECT_NE(io.r.err.find("is also the input --from"), std::string::npos) << io.r.err;
    EXPECT_EQ(slurp(report), before) << "the input was replaced by " << out;
  }
  const std::string bench = tree.write("bench.json", "{}");
  const auto io = run_io(report_args({"--bench", bench, "-o", bench}), {});
  EXPECT_EQ(io.r.exit_code, 2) << io.r.err;
  EXPECT_EQ(slurp(bench), "{}");
}

TEST(OutputLinks, TwoOutputsThatAreOneFileAreAUsageError) {
  test::TempTree tree;
  const std::string x = tree.path() + "/x";
  // Not there yet: told apart by their normalised paths.
  auto io = run_io(report_args({"-o", x, "--html", tree.path() + "/sub/../x"}), {});
  EXPECT_EQ(io.r.exit_code, 2) << io.r.err;
  EXPECT_NE(io.r.err.find("are the same file"), std::string::npos) << io.r.err;
  EXPECT_FALSE(fs::exists(x));
  // There: by device and inode, whatever the names.
  tree.write("x", "old");
  ASSERT_EQ(::link(x.c_str(), (tree.path() + "/hard").c_str()), 0);
  io = run_io(report_args({"-o", x, "--html", tree.path() + "/hard"}), {});
  EXPECT_EQ(io.r.exit_code, 2) << io.r.err;
  EXPECT_EQ(slurp(x), "old");
  // Different files, and a device written twice, are fine.
  io = run_io(report_args({"-o", x, "--html", tree.path() + "/x.html"}), {});
  EXPECT_EQ(io.r.exit_code, 0) << io.r.err;
  io = run_io(report_args({"-o", "/dev/null", "--html", "/dev/null"}), {});
  EXPECT_EQ(io.r.exit_code, 0) << io.r.err;
}

}  // namespace output_links_test
}  // namespace gpudoctor
