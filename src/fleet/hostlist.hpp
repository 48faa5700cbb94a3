#pragma once
// Node names in Slurm's hostlist form, as `sinfo -R` and `scontrol show hostlistsorted` print
// them: "gpu-r012-n[06,09,11-12],login1".
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// Whether `name` can stand in a hostlist as one node: 1 to 253 letters, digits, '-', '_' and
/// '.', starting with a letter or digit (RFC 1123's host names, with the '_' that Slurm and
/// cloud node names use; https://www.rfc-editor.org/rfc/rfc1123#section-2.1). Anything else
/// ('[', ']', ',', blanks, control characters) is hostlist syntax or no name at all: Slurm would
/// expand "gpu[1-512]" to 512 nodes.
bool valid_node_name(std::string_view name);

/// The names sorted and compressed the way Slurm does it: a name ending in digits is a prefix
/// and a number; names with one prefix go in one bracket, consecutive numbers become ranges,
/// zero padding is kept ("n[08-10]", and "n[9-10,010]" since 9 and 010 cannot share one
/// width); names without a number stay as they are. A name that is not valid_node_name is left
/// out (callers show those apart). Duplicates are listed once.
std::string compress_hostlist(const std::vector<std::string_view>& names);
std::string compress_hostlist(const std::vector<std::string>& names);

/// Natural order ("n2" before "n10"), the order compress_hostlist lists prefixes in.
bool natural_less(std::string_view a, std::string_view b);

}  // namespace gpudoctor
