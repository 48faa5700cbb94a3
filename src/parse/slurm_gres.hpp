#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// Slurm's hostlist expressions, as gres.conf's NodeName= and File= take them:
/// "gpu[01-04,07],login1" and "/dev/nvidia[0-3]" (ranges keep their zero padding; several
/// bracket groups multiply). Nothing when the text is not one, or names more than `cap`.
std::optional<std::vector<std::string>> expand_hostlist(std::string_view text,
                                                        std::size_t cap = 4096);

/// What gres.conf says for one node (slurm.schedmd.com/gres.conf.html): the GPU device files its
/// Name=gpu lines give it, and its AutoDetect (a NodeName= line's over the global one).
struct GresConfForNode {
  std::optional<std::string> autodetect;   ///< "nvml", "rsmi", "oneapi", "nrt", "nvidia", "off"
  std::optional<std::string> autodetect_line;
  std::vector<std::string> gpu_files;      ///< File= of the Name=gpu lines that apply, expanded
  std::optional<std::string> files_line;   ///< the first such line, as written
  /// Lines restricted by NodeName= that could not be matched to this node (no host name, or a
  /// hostlist too large to expand): what they say is not counted.
  std::size_t lines_not_matched = 0;
};

/// Reads gres.conf's text for the node `hostname` (its short name; nothing: only the lines
/// without NodeName= are known to apply).
GresConfForNode parse_gres_conf(std::string_view text, const std::optional<std::string>& hostname);

/// The value slurm.conf gives `key` (slurm.schedmd.com/slurm.conf.html: keys are
/// case-insensitive, '#' starts a comment; the last line naming the key is taken): "PluginDir" ->
/// "/usr/lib64/slurm". Nothing where no line names it or its value is empty.
std::optional<std::string> slurm_conf_value(std::string_view text, std::string_view key);

}  // namespace gpudoctor
