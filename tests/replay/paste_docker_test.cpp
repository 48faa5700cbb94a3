// Docker / nvidia-container-cli errors (tests/fixtures/pastes/docker/ and the Windows table with
// one): the cause with the CUDA the image requires next to the driver's, the wrapper lines read,
// and the same verdict whatever the paste's decoration.
#include "paste_fragments.hpp"
#include "paste_support.hpp"

namespace gpudoctor {
namespace paste_docker_test {

using namespace paste_test;
using namespace paste_fragments;

const Symptom* symptom_of(const Snapshot& s, const std::string& id) {
  for (const auto& x : s.symptoms) {
    if (x.id == id) return &x;
  }
  return nullptr;
}

TEST(PasteDocker, RequiredCudaAndTheDriversCudaAreBothRead) {
  const auto c = check_text(paste_fixture("nvidia-smi-windows/petric2-27-windows-551-container-cuda128.txt"));
  const auto& s = c.reading.snapshot;
  const Symptom* req = symptom_of(s, "nvidia_container.cuda_requirement");
  ASSERT_NE(req, nullptr);
  EXPECT_EQ(req->values.at("cuda"), "12.8");
  ASSERT_TRUE(s.nvml);
  EXPECT_EQ(s.nvml->driver_version, "551.78");
  EXPECT_EQ(s.nvml->cuda_driver_version, 12040);
  EXPECT_TRUE(ids(c.findings, Severity::fail).count("cuda.driver_too_old")) << describe(c.findings);
  EXPECT_TRUE(has_part(c.reading, "Docker / container runtime"));
}

TEST(PasteDocker, EachErrorNamesItsCauseInEveryDecoration) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"docker/dashdot-1226-cuda128-rtx4050.txt", "cuda.driver_too_old"},
      {"docker/vitis-ai-103-cuda100-escaped.txt", "cuda.driver_too_old"},
      {"docker/vortex-106-cuda102-build-step.txt", "cuda.driver_too_old"},
      {"docker/nvidia-docker-688-cuda-ge-9.0-exec-command.txt", "cuda.driver_too_old"},
      {"docker/nvidia-docker-753-cuda92-fragment.txt", "cuda.driver_too_old"},
      {"docker/nvidia-docker-1642-could-not-select-no-quotes.txt", "nvidia.container_toolkit"},
      {"docker/stable-diffusion-217-driver-nvidia-compose.txt", "nvidia.container_toolkit"},
      {"docker/sd-webui-docker-129-wsl2-libnvidia-ml.txt", "cuda.no_driver"},
      {"docker/libnvidia-container-231-rocky-cli-list.txt", "cuda.no_driver"},
  };
  for (const auto& [file, id] : cases) {
    SCOPED_TRACE(file);
    for (const auto& [how, piece] : fragments(paste_fixture(file))) {
      SCOPED_TRACE(how);
      if (how == "cut mid-line" || how == "without its first line") {
        // What is left may no longer hold the message; it is never refused.
        EXPECT_TRUE(looks_like_text(piece));
        continue;
      }
      const auto c = check_text(piece);
      EXPECT_TRUE(ids(c.findings, Severity::fail).count(id)) << describe(c.findings);
    }
  }
}

TEST(PasteDocker, TheDaemonsWrapperLinesAreRead) {
  const auto c = check_text(paste_fixture("docker/dashdot-1226-cuda128-rtx4050.txt"));
  EXPECT_TRUE(has_part(c.reading, "Docker / container runtime"));
  // Only the shell prompt that ran compose is left.
  ASSERT_EQ(c.reading.unrecognised.size(), 1u);
  EXPECT_EQ(c.reading.unrecognised[0].first, 2);
}

}  // namespace paste_docker_test
}  // namespace gpudoctor
