#include "parse/accounts.hpp"

#include "text.hpp"

namespace gpudoctor {

namespace {

std::optional<std::uint32_t> id_value(std::string_view s) {
  auto v = parse_uint(trim(s));
  if (!v || *v > 0xffffffffu) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

/// The colon-separated fields of a passwd / group line (empty fields kept).
std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    auto colon = line.find(':', start);
    out.push_back(line.substr(start, colon == std::string_view::npos ? colon : colon - start));
    if (colon == std::string_view::npos) return out;
    start = colon + 1;
  }
}

}  // namespace

ProcessIds parse_proc_status_ids(std::string_view text) {
  ProcessIds ids;
  for (std::string_view line : split_lines(text)) {
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = line.substr(0, colon);
    const auto words = split_words(line.substr(colon + 1), " \t");
    if ((key == "Uid" || key == "Gid") && words.size() >= 2) {
      (key == "Uid" ? ids.uid : ids.gid) = id_value(words[1]);  // real, effective, saved, fs
    } else if (key == "Groups") {
      for (const auto& w : words) {
        if (auto g = id_value(w)) ids.groups.push_back(*g);
      }
    }
  }
  return ids;
}

std::vector<PasswdEntry> parse_passwd(std::string_view text) {
  std::vector<PasswdEntry> out;
  for (std::string_view line : split_lines(text)) {
    auto f = fields(line);
    if (f.size() < 4 || f[0].empty()) continue;
    auto uid = id_value(f[2]);
    auto gid = id_value(f[3]);
    if (uid && gid) out.push_back({std::string(f[0]), *uid, *gid});
  }
  return out;
}

std::vector<GroupEntry> parse_group_entries(std::string_view text) {
  std::vector<GroupEntry> out;
  for (std::string_view line : split_lines(text)) {
    auto f = fields(line);
    if (f.size() < 3 || f[0].empty()) continue;
    auto gid = id_value(f[2]);
    if (!gid) continue;
    GroupEntry g{std::string(f[0]), *gid, {}};
    if (f.size() >= 4) g.members = split_words(trim(f[3]), ",");
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace gpudoctor
