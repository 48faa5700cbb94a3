#pragma once
// Node names in Slurm's hostlist form, as `sinfo -R` and `scontrol show hostlistsorted` print
// them: "gpu-r012-n[06,09,11-12],login1".
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// The names sorted and compressed the way Slurm does it: a name ending in digits is a prefix
/// and a number; names with one prefix go in one bracket, consecutive numbers become ranges,
/// zero padding is kept ("n[08-10]", and "n[9-10,010]" since 9 and 010 cannot share one
/// width); names without a number, or with characters Slurm would read as syntax ('[', ']',
/// ','), stay as they are. Duplicates are listed once.
std::string compress_hostlist(const std::vector<std::string_view>& names);
std::string compress_hostlist(const std::vector<std::string>& names);

/// Natural order ("n2" before "n10"), the order compress_hostlist lists prefixes in.
bool natural_less(std::string_view a, std::string_view b);

}  // namespace gpudoctor
