// A pasted text that states one value twice with different numbers (two NVIDIA drivers, two
// torch versions): which is this machine's is not known, so the checks that used the first one
// read may have judged the wrong one. Said, with both values and their lines, never chosen
// silently (src/paste/stated_conflicts.cpp records the pairs).
#include "checks/check_list.hpp"
#include "checks/check_util.hpp"

namespace gpudoctor {

void check_stated_conflicts(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  for (const Symptom& s : in.snap.symptoms) {
    if (s.id != "paste.conflicting_values") continue;
    const auto value = [&](const char* k) {
      const auto it = s.values.find(k);
      return it == s.values.end() ? std::string() : it->second;
    };
    Finding f = make_finding(self, Severity::warn,
                             "The paste states " + value("what") + " twice with different values: " +
                                 value("first") + " (line " + value("first_line") + ") and " +
                                 value("second") + " (line " + value("second_line") + ")");
    f.evidence.push_back("the checks above used the first value read (line " +
                         value("first_line") + "); if the other one is this machine's, their "
                         "verdicts may not hold");
    f.fix = "say which one is the machine that fails: run the command that printed it once more "
            "in that environment (nvidia-smi, `python -m torch.utils.collect_env`, nvcc --version) "
            "and paste that output alone";
    out.push_back(std::move(f));
  }
}

}  // namespace gpudoctor
