// Issue 29: what a paste costs is bounded by what a real one can hold. A pasted package list
// keeps at most PasteSink::kMaxPastedPackages packages an environment and says it cut the rest
// (bench/complexity_bench.py's "packages" series measures the memory this bounds).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "paste/paste_sink.hpp"
#include "paste/read_pasted.hpp"

namespace gpudoctor {
namespace paste_limits_test {

TEST(PasteLimits, APackageListPastTheCapIsCutAndSaysSo) {
  const std::size_t cap = PasteSink::kMaxPastedPackages;
  std::string text = "Package                 Version\n----------------------- -------\n";
  text += "torch                   2.5.1\n";
  for (std::size_t i = 0; i < cap + 500; ++i) {
    text += "pkg-" + std::to_string(i) + "                  1.0." + std::to_string(i % 7) + "\n";
  }
  const PastedReading r = read_pasted(text);
  ASSERT_TRUE(r.snapshot.python);
  ASSERT_EQ(r.snapshot.python->envs.size(), 1u);
  const auto& env = r.snapshot.python->envs[0];
  EXPECT_EQ(env.packages.size(), cap);
  // What came first is kept: torch, the first row, is there.
  EXPECT_TRUE(std::any_of(env.packages.begin(), env.packages.end(),
                          [](const PythonPackage& p) { return p.name == "torch"; }));
  const auto& errors = r.snapshot.python->errors;
  EXPECT_EQ(std::count_if(errors.begin(), errors.end(),
                          [](const std::string& e) {
                            return e.find("goes on past") != std::string::npos;
                          }),
            1);
}

TEST(PasteLimits, AListUnderTheCapIsReadWhole) {
  std::string text = "Package                 Version\n----------------------- -------\n";
  for (int i = 0; i < 1000; ++i) text += "pkg-" + std::to_string(i) + "   1.0\n";
  const PastedReading r = read_pasted(text);
  ASSERT_TRUE(r.snapshot.python);
  EXPECT_EQ(r.snapshot.python->envs[0].packages.size(), 1000u);
  EXPECT_TRUE(r.snapshot.python->errors.empty());
}

}  // namespace paste_limits_test
}  // namespace gpudoctor
