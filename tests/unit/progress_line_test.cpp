// progress_text and ProgressLine with times given, not measured: what the line says and when,
// and what it writes to its descriptor.
#include "progress_line.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include "render/style.hpp"

namespace gpudoctor {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

const Clock::time_point kNow = Clock::now();

RunningJob job(std::string backend, std::string label, int ms_ago) {
  return {std::move(backend), std::move(label), kNow - milliseconds(ms_ago)};
}

TEST(ProgressText, NothingBeforeAProbeHasRunASecond) {
  EXPECT_FALSE(progress_text({}, kNow, 80, true));
  EXPECT_FALSE(progress_text({job("vulkan", "lvp_icd.x86_64.json", 999)}, kNow, 80, true));
}

TEST(ProgressText, TheOldestProbeWithItsTimeAndHowManyMore) {
  EXPECT_EQ(progress_text({job("vulkan", "lvp_icd.x86_64.json", 2140)}, kNow, 80, true),
            "waiting for vulkan: lvp_icd.x86_64.json (2.1 s)…");
  // Only the ones over a second count; the oldest is named whatever the order.
  EXPECT_EQ(progress_text({job("opencl", "libpocl.so.2", 1500), job("cuda", "libcuda.so.1", 300),
                           job("vulkan", "lvp_icd.x86_64.json", 3000),
                           job("nvml", "libnvidia-ml.so.1", 1200)},
                          kNow, 80, true),
            "waiting for vulkan: lvp_icd.x86_64.json (3.0 s) and 2 more…");
}

TEST(ProgressText, AsciiWhereTheLocaleIsNotUtf8) {
  EXPECT_EQ(progress_text({job("cuda", "libcuda.so.1", 1000)}, kNow, 80, false),
            "waiting for cuda: libcuda.so.1 (1.0 s)...");
}

TEST(ProgressText, ADriversLabelCannotReachTheTerminalRaw) {
  const auto text = progress_text({job("vulkan", "evil\x1b]0;owned\x07\r\n.json", 1500)}, kNow,
                                  200, true);
  ASSERT_TRUE(text);
  EXPECT_EQ(text->find('\x1b'), std::string::npos) << *text;
  EXPECT_EQ(text->find('\r'), std::string::npos) << *text;
  EXPECT_EQ(text->find('\n'), std::string::npos) << *text;
  EXPECT_NE(text->find("\\x1b]0;owned\\x07\\r\\n.json"), std::string::npos) << *text;
}

TEST(ProgressText, ALongLabelGivesWayToTheTimeAndTheLineNeverWraps) {
  const std::string label(200, 'x');
  const auto text =
      progress_text({job("opencl", "/opt/" + label + "/libamdocl64.so", 2500)}, kNow, 60, true);
  ASSERT_TRUE(text);
  EXPECT_EQ(display_width(*text), 59u) << *text;
  EXPECT_EQ(text->rfind(" (2.5 s)…"), text->size() - std::string(" (2.5 s)…").size()) << *text;
  EXPECT_EQ(text->rfind("waiting for opencl: /opt/xx", 0), 0u) << *text;
}

/// What a ProgressLine writes, read back from a pipe.
class Drawn {
 public:
  Drawn() { EXPECT_EQ(::pipe(fds_), 0); }
  ~Drawn() {
    ::close(fds_[0]);
    ::close(fds_[1]);
  }
  int fd() const { return fds_[1]; }
  std::string take() {
    std::string s(4096, '\0');
    const ssize_t n = ::read(fds_[0], s.data(), s.size());
    s.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return s;
  }

 private:
  int fds_[2] = {-1, -1};
};

TEST(ProgressLine, RewritesInPlaceAndErasesWhatItDrew) {
  Drawn pipe;
  {
    ProgressLine line(pipe.fd(), 80, true);
    line.update({RunningJob{"cuda", "libcuda.so.1", Clock::now()}});
    line.update({RunningJob{"vulkan", "a-long-manifest-name.json", Clock::now() - milliseconds(1500)}});
    const std::string first = pipe.take();
    // "(1.5 s)" on an idle machine; the seconds are left unchecked, since a loaded one may take
    // a moment between the job's start and the drawing.
    EXPECT_EQ(first.rfind("\rwaiting for vulkan: a-long-manifest-name.json (", 0), 0u) << first;
    EXPECT_NE(first.find(" s)"), std::string::npos) << first;
    // A shorter line covers what is left of the longer one with spaces.
    line.update({RunningJob{"cuda", "x", Clock::now() - milliseconds(1500)}});
    const std::string second = pipe.take();
    EXPECT_EQ(second.rfind("\rwaiting for cuda: x (", 0), 0u) << second;
    EXPECT_EQ(display_width(second), display_width(first)) << second;
    line.update({});
    const std::string erased = pipe.take();
    const std::string cuda = second.substr(1, second.find_last_not_of(' '));
    EXPECT_EQ(erased, "\r" + std::string(display_width(cuda), ' ') + "\r");
  }
  // Nothing shown: nothing to erase when it goes.
  ProgressLine quiet(pipe.fd(), 80, true);
  // Started just now by the real clock (job() counts from kNow, fixed when the tests began: on a
  // loaded machine more than a second may lie between).
  quiet.update({RunningJob{"cuda", "libcuda.so.1", Clock::now()}});
  quiet.erase();
  ASSERT_EQ(::write(pipe.fd(), "!", 1), 1);
  EXPECT_EQ(pipe.take(), "!");
}

}  // namespace
}  // namespace gpudoctor
