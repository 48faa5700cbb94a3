// One cause, one finding: a libcuda that crashes is probe.crashed alone, not also a
// "no libcuda" finding and a second copy of the crash (docs/severity.md).
#include <gtest/gtest.h>

#include "area_check.hpp"
#include "cuda_fakes.hpp"

namespace gpudoctor {
namespace {

using test::check;
using test::count;
using test::state;

TEST(AreaStatus, ACrashedLibcudaIsOneFinding) {
  test::ScopedLibraryPath crash(test::cuda_fake_dir("cuda-init-crash"));
  auto c = check({"--backend", "cuda", "--no-smoke", "--timeout", "2"});
  EXPECT_EQ(count(c, "probe.crashed"), 1) << c.findings.dump(2);
  EXPECT_EQ(count(c, "cuda.no_driver"), 0);  // not also "not found"
  EXPECT_EQ(c.findings.size(), 1u) << c.findings.dump(2);
  EXPECT_EQ(state(c, "cuda"), "fail");
}

}  // namespace
}  // namespace gpudoctor
