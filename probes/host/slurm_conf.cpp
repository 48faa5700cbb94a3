#include "host/slurm_conf.hpp"

namespace gpudoctor {

std::optional<SlurmConfFile> read_slurm_conf(const Root& root, const std::string& name) {
  for (const char* dir : {"/etc/slurm", "/etc/slurm-llnl", "/usr/local/etc", "/opt/slurm/etc"}) {
    const std::string path = std::string(dir) + "/" + name;
    if (auto text = root.read(path, 1u << 20)) return SlurmConfFile{path, std::move(*text)};
  }
  return std::nullopt;
}

}  // namespace gpudoctor
