// The lines Docker, Podman and containerd print around the NVIDIA container runtime's own
// message: the daemon's "Error response from daemon: … OCI runtime create failed: … error running
// prestart hook #0 …" wrapper, the hook's "Auto-detected mode as 'legacy'", compose's progress.
// The cause itself (nvidia-container-cli's requirement error, "could not select device driver",
// libnvidia-ml.so.1 not loadable) is a message entry (data/messages/container.json); these lines
// only say that a container runtime printed it, so they are read, not left as unrecognised.
#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_container = "Docker / container runtime";

bool container_wrapper(std::string_view t) {
  for (std::string_view w : {"Error response from daemon:", "OCI runtime create failed",
                             "error running prestart hook", "error running hook",
                             "Auto-detected mode as '"}) {
    if (t.find(w) != std::string_view::npos) return true;
  }
  return false;
}

/// docker pull's and compose's own lines next to such an error.
bool container_progress(std::string_view t) {
  return starts_with(t, "Status: Downloaded newer image for ") || starts_with(t, "Attaching to ") ||
         starts_with(t, "Gracefully stopping...") || starts_with(t, "[+] Running ") ||
         starts_with(t, "✔ Container ") || starts_with(t, "✔ Network ") ||
         starts_with(t, "⠙ Container ");
}

}  // namespace

void read_container_lines(PasteSink& sink) {
  const auto& lines = sink.lines();
  bool any = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i) || lines[i].fence) continue;
    const std::string_view t = trim(lines[i].text);
    if (t.size() > 4000 || !container_wrapper(t)) continue;
    sink.claim(i, kFormat_container);
    sink.fact("container.error", std::string(t.substr(0, 200)), i);
    any = true;
  }
  if (!any) return;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!sink.claimed(i) && !lines[i].fence && container_progress(trim(lines[i].text))) {
      sink.claim(i, kFormat_container);
    }
  }
}

}  // namespace gpudoctor
