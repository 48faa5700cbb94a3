// The progress line end to end: `gpudoctor query` with a Vulkan driver that hangs
// (tests/fakes/vulkan, FAKE_HANG) until its deadline. With standard error on a
// pseudo-terminal the line says what it waits for, in place, and is erased at the end; with
// standard error on a pipe nothing of it is written.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "test_support.hpp"

namespace gpudoctor {
namespace {

bool vulkan_loader_installed() {
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu/", "/usr/lib64/", "/usr/lib/",
                          "/usr/lib/aarch64-linux-gnu/"}) {
    if (::access((std::string(dir) + "libvulkan.so.1").c_str(), R_OK) == 0) return true;
  }
  return false;
}

/// `gpudoctor query` on the hanging driver; standard error on a pseudo-terminal 100 columns
/// wide when `tty`, else on a pipe. Standard output is always a pipe.
test::CommandResult run_query(bool tty, const std::vector<std::string>& args) {
  const std::vector<std::string> env{
      "VK_DRIVER_FILES=" + std::string(GPUDOCTOR_FAKES) + "/vulkan/fake_vk_hang.json",
      "LC_ALL=C.UTF-8"};
  return tty ? test::run_gpudoctor_on_terminal(args, env) : test::run_gpudoctor(args, env);
}

/// The driver hangs to its deadline: 1.6 s leaves the line time to be drawn a few times.
const std::vector<std::string> kQuery{"query", "--backend", "vulkan", "--timeout", "1.6"};
/// Where no line may appear, a little over the second after which one would.
const std::vector<std::string> kShortQuery{"query", "--backend", "vulkan", "--timeout", "1.2"};

TEST(ProgressLine, OnATerminalSaysWhatItWaitsForInPlaceAndErasesIt) {
  if (!vulkan_loader_installed()) GTEST_SKIP() << "no Vulkan loader (libvulkan1)";
  const test::CommandResult c = run_query(true, kQuery);
  ASSERT_LT(c.exit_code, 128) << c.err;
  const std::string says = "waiting for vulkan: fake_vk_hang.json (";
  const auto first = c.err.find("\r" + says);
  ASSERT_NE(first, std::string::npos) << c.err;
  // Rewritten in place: several drawings, each after a carriage return, none on a new line.
  const auto last = c.err.rfind("\r" + says);
  EXPECT_LT(first, last) << c.err;
  EXPECT_EQ(c.err.find('\n', first), std::string::npos) << c.err;
  EXPECT_NE(c.err.find(" s)…", first), std::string::npos) << c.err;
  // Erased at the end: after the last drawing, a carriage return, only spaces, another one.
  const auto erase = c.err.find('\r', last + 1);
  ASSERT_NE(erase, std::string::npos) << c.err;
  const auto end = c.err.find('\r', erase + 1);
  ASSERT_NE(end, std::string::npos) << c.err;
  EXPECT_GT(end - erase, says.size());
  EXPECT_EQ(c.err.substr(erase + 1, end - erase - 1).find_first_not_of(' '), std::string::npos)
      << c.err;
  EXPECT_EQ(c.err.substr(end + 1), "");
  // Standard output, a pipe, has the result and nothing of the line.
  EXPECT_NE(c.out.find("fake_vk_hang.json"), std::string::npos) << c.out;
  EXPECT_EQ(c.out.find("waiting for"), std::string::npos) << c.out;
}

TEST(ProgressLine, NeverWrittenWhenStandardErrorIsNotATerminal) {
  if (!vulkan_loader_installed()) GTEST_SKIP() << "no Vulkan loader (libvulkan1)";
  const test::CommandResult c = run_query(false, kShortQuery);
  ASSERT_LT(c.exit_code, 128) << c.err;
  EXPECT_NE(c.out.find("fake_vk_hang.json"), std::string::npos) << c.out;
  EXPECT_EQ(c.err.find("waiting for"), std::string::npos) << c.err;
  EXPECT_EQ(c.err.find('\r'), std::string::npos) << c.err;
}

TEST(ProgressLine, NotWithJsonEvenOnATerminal) {
  if (!vulkan_loader_installed()) GTEST_SKIP() << "no Vulkan loader (libvulkan1)";
  std::vector<std::string> args = kShortQuery;
  args.push_back("--json");
  const test::CommandResult c = run_query(true, args);
  ASSERT_LT(c.exit_code, 128) << c.err;
  EXPECT_EQ(c.err.find("waiting for"), std::string::npos) << c.err;
}

}  // namespace
}  // namespace gpudoctor
