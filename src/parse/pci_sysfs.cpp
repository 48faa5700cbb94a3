#include "parse/pci_sysfs.hpp"

#include <cmath>
#include <string>

#include "text.hpp"

namespace gpudoctor {

std::optional<double> parse_link_speed(std::string_view text) {
  auto words = split_words(trim(text));
  if (words.size() < 2 || words[1] != "GT/s") return std::nullopt;
  auto v = parse_double(words[0]);
  if (!v || *v <= 0) return std::nullopt;
  return v;
}

std::optional<int> pcie_generation(double speed_gts) {
  static constexpr struct {
    double gts;
    int gen;
  } kTable[] = {{2.5, 1}, {5.0, 2}, {8.0, 3}, {16.0, 4}, {32.0, 5}, {64.0, 6}};
  for (const auto& row : kTable) {
    if (std::fabs(speed_gts - row.gts) < 0.01) return row.gen;
  }
  return std::nullopt;
}

std::optional<int> parse_link_width(std::string_view text) {
  auto v = parse_uint(trim(text));
  if (!v || *v > 64) return std::nullopt;
  return static_cast<int>(*v);
}

std::optional<int> parse_numa_node(std::string_view text) {
  auto v = parse_int(trim(text));
  if (!v || *v < 0) return std::nullopt;
  return static_cast<int>(*v);
}

std::string_view link_basename(std::string_view link_target) {
  while (!link_target.empty() && link_target.back() == '/') link_target.remove_suffix(1);
  auto slash = link_target.rfind('/');
  return slash == std::string_view::npos ? link_target : link_target.substr(slash + 1);
}

std::optional<int> iommu_group_from_link(std::string_view link_target) {
  auto v = parse_uint(link_basename(link_target));
  if (!v) return std::nullopt;
  return static_cast<int>(*v);
}

std::optional<bool> parse_flag(std::string_view text) {
  text = trim(text);
  if (text == "1") return true;
  if (text == "0") return false;
  return std::nullopt;
}

std::optional<std::uint32_t> parse_hex_attribute(std::string_view text) {
  text = trim(text);
  if (!starts_with(text, "0x") && !starts_with(text, "0X")) return std::nullopt;
  auto v = parse_uint(text);
  if (!v || *v > 0xffffffffu) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

}  // namespace gpudoctor
