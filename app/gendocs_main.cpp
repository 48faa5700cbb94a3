// gpudoctor-gendocs: writes the man page and the shell completions, read from the program
// itself (its CLI, backend registry and check list), into a directory. Run by the build; not
// installed.
//   gpudoctor-gendocs OUT_DIR SCHEMA_DIR DOC_DIR
#include <fstream>
#include <iostream>

#include "build_info.hpp"
#include "cli_spec.hpp"
#include "manual/manual.hpp"
#include "tool_version.hpp"

using namespace gpudoctor;

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: gpudoctor-gendocs OUT_DIR SCHEMA_DIR DOC_DIR\n";
    return 2;
  }
  std::vector<std::string> unclassified;
  ManualInput in{describe_cli(&unclassified),
                 registry_backends(),
                 registry_checks(),
                 kToolVersion,
                 std::string(kSourceDate.value_or("")),
                 argv[2],
                 argv[3]};
  for (const auto& name : unclassified) {
    std::cerr << "gpudoctor-gendocs: " << name
              << " takes a value of no known kind: give it a metavar (FILE, DIR) or a row in "
                 "app/cli_spec.cpp known_kinds()\n";
  }
  const std::string dir = argv[1];
  const std::pair<const char*, std::string> files[] = {
      {"gpudoctor.1", render_man_page(in)},
      {"gpudoctor.bash", render_bash_completion(in)},
      {"_gpudoctor", render_zsh_completion(in)},
      {"gpudoctor.fish", render_fish_completion(in)},
  };
  for (const auto& [name, text] : files) {
    std::ofstream out(dir + "/" + name, std::ios::binary);
    out << text;
    if (!out) {
      std::cerr << "gpudoctor-gendocs: cannot write " << dir << "/" << name << "\n";
      return 1;
    }
  }
  return unclassified.empty() ? 0 : 1;
}
