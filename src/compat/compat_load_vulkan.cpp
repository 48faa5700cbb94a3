// Row reader for vulkan_layers.json.
#include "compat/compat_reader.hpp"

namespace gpudoctor::compat_detail {

void load_vulkan_file(const FileContext& file, const Json& rows, CompatData& data) {
  if (file.name != "vulkan_layers.json") return;
  for_each_row(file, rows, [&](RowReader& r, const Provenance& p) {
    VulkanLayerRule rule;
    rule.layer = r.str("layer");
    rule.hides = r.str("hides");
    rule.from = p;
    auto when = r.json().find("when");
    if (when == r.json().end() || !when->is_object()) {
      r.error("\"when\" must be an object");
      return;
    }
    RowReader w(r, *when, "when");
    rule.when_driver = w.opt_str("driver");
    rule.when_variable = w.opt_str("variable");
    rule.equals = w.opt_str("equals");
    rule.ends_with = w.opt_str("ends_with");
    if (rule.when_driver.has_value() == rule.when_variable.has_value() ||
        (rule.when_variable && rule.equals.has_value() == rule.ends_with.has_value())) {
      r.error("\"when\" needs a driver, or a variable with one of equals and ends_with");
    }
    if (r.ok()) data.vulkan_layer_rules.push_back(std::move(rule));
  });
}

}  // namespace gpudoctor::compat_detail
