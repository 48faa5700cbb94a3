#pragma once
// Slurm's configuration files where packages and source builds put them: one list of places for
// every probe that reads them (the GPU node's gres.conf and PluginDir, the daemons' log files).
#include <optional>
#include <string>

#include "core/root.hpp"

namespace gpudoctor {

/// A Slurm configuration file read from the first place that has it.
struct SlurmConfFile {
  std::string path;  ///< "/etc/slurm/gres.conf"
  std::string text;
};

/// `name` ("slurm.conf", "gres.conf") from /etc/slurm, /etc/slurm-llnl (Debian's older
/// packages), /usr/local/etc or /opt/slurm/etc (builds from source); nothing where none has it.
std::optional<SlurmConfFile> read_slurm_conf(const Root& root, const std::string& name);

}  // namespace gpudoctor
