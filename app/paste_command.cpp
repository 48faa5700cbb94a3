#include "paste_command.hpp"

#include "file_io.hpp"

#include <unistd.h>

#include <iostream>

#include "checks/checks.hpp"
#include "devices.hpp"
#include "paste/read_pasted.hpp"
#include "render/check_text.hpp"
#include "render/style.hpp"
#include "tool_version.hpp"

namespace gpudoctor {

int run_check_on_paste(const Options& opt, const std::string& name, const std::string& text,
                       const Environment& env) {
  PastedReading reading = read_pasted(text);
  if (reading.parts.empty()) {
    std::cerr << "gpudoctor: --from " << name
              << ": not JSON, and not a dump gpudoctor reads (collect_env, "
                 "nvidia-smi, jax/TensorFlow info, rocminfo, rocm-smi, system_profiler, clinfo, "
                 "vulkaninfo, an ollama log, pip/conda lists)\n";
    return 2;
  }
  reading.snapshot.tool_version = kToolVersion;
  const Snapshot& snap = reading.snapshot;
  const auto devices = merge_devices(snap);
  auto findings = run_checks(CheckInput{snap, devices, builtin_compat()});
  quote_findings(reading, findings);
  drop_unfounded(reading, findings);
  const auto asks = what_would_decide(reading, findings);
  if (opt.json) {
    Json j = check_json(snap, devices, findings);
    j["paste"] = paste_json(reading, asks);
    return emit(dump_json(j, 2) + "\n", check_exit_code(findings), false, Style::plain());
  } else {
    const Style style = Style::for_stream(opt.color, ::isatty(STDOUT_FILENO) != 0, env);
    return emit(render_check_text(snap, devices, findings, style) +
                    render_paste_text(reading, asks),
                check_exit_code(findings), true, style);
  }
  return check_exit_code(findings);
}

}  // namespace gpudoctor
