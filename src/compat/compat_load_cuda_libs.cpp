// Row reader for framework_cuda_libs.json: how frameworks find the CUDA libraries they load,
// the nvidia-* wheels their releases pin, and the CUDA libraries their own libraries link.
#include "compat/compat_reader.hpp"
#include "parse/python_requirement.hpp"

namespace gpudoctor::compat_detail {

void load_cuda_libs_file(const FileContext& file, const Json& rows, CompatData& data) {
  if (file.name != "framework_cuda_libs.json") return;
  for_each_row(file, rows, [&](RowReader& r, const Provenance& p) {
    const std::string kind = r.str("kind");
    if (kind == "search") {
      FrameworkLibrarySearch s;
      s.framework = r.str("framework");
      s.version = r.range("version");
      s.tag = r.str("tag");
      if (s.tag != "DT_RPATH" && s.tag != "DT_RUNPATH") r.error("\"tag\" must be DT_RPATH or DT_RUNPATH");
      s.wheel_dirs = r.str_list("wheel_dirs");
      s.from = p;
      if (r.ok()) data.framework_library_search.push_back(std::move(s));
    } else if (kind == "pin") {
      FrameworkWheelPin w;
      w.framework = r.str("framework");
      w.version = r.version("version");
      w.package = r.str("package");
      w.requirement = r.str("requirement");
      if (!parse_requirement(w.package + w.requirement)) r.error("\"requirement\" does not parse");
      w.extra = r.opt_str("extra");
      w.from = p;
      if (r.ok()) data.framework_wheel_pins.push_back(std::move(w));
    } else if (kind == "needed") {
      FrameworkNeeded n;
      n.framework = r.str("framework");
      n.version = r.range("version");
      n.library = r.str("library");
      n.needed = r.str_list("needed");
      if (n.needed.empty()) r.error("\"needed\" names no library");
      n.from = p;
      if (r.ok()) data.framework_needed.push_back(std::move(n));
    } else {
      r.error("\"kind\" must be search, pin or needed");
    }
  });
}

}  // namespace gpudoctor::compat_detail
