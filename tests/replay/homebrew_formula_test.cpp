// The Homebrew formula kept in the repository (packaging/homebrew/gpudoctor.rb, installed with
// `brew install --HEAD` by packaging/homebrew/install-head.sh): brew cannot run here, so its
// structure is checked against the build it drives, and where Ruby is installed its syntax
// (`ruby -c`) and what it declares, evaluated against a stand-in for Homebrew's Formula class.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "test_support.hpp"

namespace gpudoctor {
namespace homebrew_formula_test {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kFormula = std::string(GPUDOCTOR_PACKAGING) + "/homebrew/gpudoctor.rb";
const std::string kRoot =
    std::filesystem::weakly_canonical(std::string(GPUDOCTOR_PACKAGING) + "/..").string();

std::set<std::string> depends_on(const std::string& text) {
  std::set<std::string> out;
  const std::regex line(R"re(depends_on "([^"]+)"( => :build)?)re");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator();
       ++it) {
    out.insert((*it)[0]);
  }
  return out;
}

/// Standard output of a shell command, and whether it exited 0.
std::pair<std::string, bool> run(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) return {"", false};
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  return {out, ::pclose(p) == 0};
}

bool have_ruby() { return run("command -v ruby >/dev/null 2>&1").second; }

TEST(HomebrewFormula, BuildsThisRepositoryWithTheOptionsTheBuildHas) {
  const std::string f = slurp(kFormula);
  ASSERT_FALSE(f.empty()) << kFormula;
  EXPECT_NE(f.find("class Gpudoctor < Formula"), std::string::npos);
  // HEAD only: no tarball to point at, the git history of the repository instead.
  EXPECT_NE(f.find("head REPO, using: :git"), std::string::npos) << f;
  EXPECT_EQ(f.find("\n  url "), std::string::npos) << f;
  EXPECT_EQ(f.find("@URL@"), std::string::npos) << f;
  // The options it passes are the build's own.
  const std::string cmake = slurp(kRoot + "/CMakeLists.txt");
  EXPECT_NE(f.find("-DGPUDOCTOR_BUILD_TESTS=OFF"), std::string::npos);
  EXPECT_NE(cmake.find("option(GPUDOCTOR_BUILD_TESTS"), std::string::npos);
  // The licence is the repository's.
  EXPECT_NE(f.find("license \"Apache-2.0\""), std::string::npos);
  EXPECT_NE(slurp(kRoot + "/LICENSE").find("Apache License"), std::string::npos);
  // The release template and this formula need the same packages.
  const auto release = depends_on(slurp(std::string(GPUDOCTOR_PACKAGING) + "/homebrew/gpudoctor.rb.in"));
  EXPECT_FALSE(release.empty());
  EXPECT_EQ(depends_on(f), release);
}

TEST(HomebrewFormula, InstallScriptUsesTheFormulaWithHead) {
  const std::string s = slurp(std::string(GPUDOCTOR_PACKAGING) + "/homebrew/install-head.sh");
  EXPECT_NE(s.find("packaging/homebrew/gpudoctor.rb"), std::string::npos) << s;
  EXPECT_NE(s.find("brew install --HEAD"), std::string::npos) << s;
  EXPECT_NE(s.find("HOMEBREW_GPUDOCTOR_REPO="), std::string::npos) << s;
  EXPECT_TRUE(run("bash -n '" + std::string(GPUDOCTOR_PACKAGING) + "/homebrew/install-head.sh'").second);
}

TEST(HomebrewFormula, RubyReadsItAndItPointsAtThisClone) {
  if (!have_ruby()) GTEST_SKIP() << "no ruby on PATH: the syntax is not checked";
  auto [syntax, ok] = run("ruby -c '" + kFormula + "' 2>&1");
  EXPECT_TRUE(ok) << syntax;
  EXPECT_NE(syntax.find("Syntax OK"), std::string::npos) << syntax;
  // A stand-in for Homebrew's Formula: records what the class declares, then prints it.
  const std::string stub = R"rb(
class Formula
  @@seen = {}
  def self.seen; @@seen; end
  %i[desc homepage license].each { |m| define_singleton_method(m) { |v| @@seen[m] = v } }
  def self.head(url, **opts); @@seen[:head] = url; @@seen[:head_using] = opts[:using]; end
  def self.depends_on(spec); (@@seen[:deps] ||= []) << spec; end
  def self.on_linux; yield; end
  def self.test(&block); @@seen[:test] = true; end
end
load ARGV[0]
s = Formula.seen
raise "no install" unless Gpudoctor.method_defined?(:install)
puts "head=#{s[:head]}"
puts "using=#{s[:head_using]}"
puts "desc=#{s[:desc]}"
puts "test=#{s[:test]}"
puts "deps=#{s[:deps].size}"
)rb";
  const std::string stub_file = ::testing::TempDir() + "homebrew_formula_stub.rb";
  std::ofstream(stub_file) << stub;
  auto [out, loaded] =
      run("env -u HOMEBREW_GPUDOCTOR_REPO ruby '" + stub_file + "' '" + kFormula + "' 2>&1");
  ASSERT_TRUE(loaded) << out;
  EXPECT_NE(out.find("head=" + kRoot + "\n"), std::string::npos) << out << "\nroot " << kRoot;
  EXPECT_NE(out.find("using=git\n"), std::string::npos) << out;
  EXPECT_NE(out.find("test=true\n"), std::string::npos) << out;
  // HOMEBREW_GPUDOCTOR_REPO names another clone (what install-head.sh sets for a tap's copy).
  auto [other, ok2] = run("HOMEBREW_GPUDOCTOR_REPO=/src/gpudoctor ruby '" + stub_file + "' '" +
                          kFormula + "' 2>&1");
  ASSERT_TRUE(ok2) << other;
  EXPECT_NE(other.find("head=/src/gpudoctor\n"), std::string::npos) << other;
}

}  // namespace homebrew_formula_test
}  // namespace gpudoctor
