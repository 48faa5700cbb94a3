// Issue 29: what a paste costs is bounded by what a real one can hold. A pasted package list
// keeps at most PasteSink::kMaxPastedPackages packages an environment and says it cut the rest
// (bench/complexity_bench.py's "packages" series measures the memory this bounds).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
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

// Issue 29 (very long lines): a line is read up to kMaxPasteLineBytes, its rest said not read;
// a 30 MB line of one message took every reader's scan of all of it (87 s at -O0), and a line
// of 100 KB overflowed the stack in std::regex_match (SIGSEGV; the second case below).
TEST(PasteLimits, ALineLongerThanTheCapIsReadToTheCapAndSaysSo) {
  std::string text = "RuntimeError: CUDA error: no kernel image is available for execution on the device ";
  text += std::string(kMaxPasteLineBytes + 4096, 'A');
  text += "\nnext line\n";
  const PastedReading r = read_pasted(text);
  ASSERT_GE(r.lines.size(), 2u);
  EXPECT_TRUE(r.lines[0].cut);
  EXPECT_LE(r.lines[0].text.size(), kMaxPasteLineBytes);
  EXPECT_FALSE(r.lines[1].cut);
  EXPECT_EQ(r.lines[1].text, "next line");
  ASSERT_EQ(r.not_read.size(), 1u);
  EXPECT_NE(r.not_read[0].find("1 line's text past its first 16 KiB"), std::string::npos);
  // Letters up to a colon: the shape of a CuPy row, whose regex recursed a character at a time.
  const PastedReading row = read_pasted("CuPy Version : 13.0\n" + std::string(500000, 'A') + " : x\n");
  ASSERT_GE(row.lines.size(), 2u);
  EXPECT_TRUE(row.lines[1].cut);
  // A cut never splits a UTF-8 sequence.
  std::string euro = std::string(kMaxPasteLineBytes - 1, 'x') + "\xe2\x82\xac" + "tail\n";
  const PastedReading e = read_pasted(euro);
  ASSERT_FALSE(e.lines.empty());
  EXPECT_EQ(e.lines[0].text.size(), kMaxPasteLineBytes - 1);
}

TEST(PasteLimits, AListUnderTheCapIsReadWhole) {
  std::string text = "Package                 Version\n----------------------- -------\n";
  for (int i = 0; i < 1000; ++i) text += "pkg-" + std::to_string(i) + "   1.0\n";
  const PastedReading r = read_pasted(text);
  ASSERT_TRUE(r.snapshot.python);
  EXPECT_EQ(r.snapshot.python->envs[0].packages.size(), 1000u);
  EXPECT_TRUE(r.snapshot.python->errors.empty());
}

// nvidia-smi -q with more GPUs than any node has: the first kMaxPastedGpus are read, the rest
// said not read (a GPU costs a few KB in the model, a pasted one a few dozen bytes of text).
TEST(PasteLimits, NvidiaGpusPastTheCapAreSaidNotRead) {
  const std::size_t cap = PasteSink::kMaxPastedGpus;
  std::string text = "==============NVSMI LOG==============\n\nDriver Version                      : 550.54.15\n"
                     "Attached GPUs                       : " + std::to_string(cap + 10) + "\n";
  for (std::size_t i = 0; i < cap + 10; ++i) {
    char bus[32];
    std::snprintf(bus, sizeof bus, "GPU 00000000:%02zX:%02zX.0\n", (i >> 8) & 0xff, i & 0xff);
    text += bus;
    text += "    Product Name                          : NVIDIA A100-SXM4-80GB\n";
  }
  const PastedReading r = read_pasted(text);
  ASSERT_TRUE(r.snapshot.nvml);
  EXPECT_EQ(r.snapshot.nvml->devices.size(), cap);
  ASSERT_EQ(r.not_read.size(), 1u);
  EXPECT_NE(r.not_read[0].find("past " + std::to_string(cap)), std::string::npos) << r.not_read[0];
}

}  // namespace paste_limits_test
}  // namespace gpudoctor
