#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

/// What an OpenCL loader takes from one .icd file: the library name on its first line.
struct IcdFileEntry {
  std::string library;               ///< exactly what the loader passes to dlopen; may be empty
  std::optional<std::string> error;  ///< why the loader will skip the file or not find the library
};

/// Whether a vendors-directory entry is read as an ICD registration: ocl-icd takes names of at
/// least five characters that end in ".icd" (the Khronos loader also takes a bare ".icd").
bool is_icd_file_name(std::string_view name);

/// Parses the text of an .icd file as the loaders do: ocl-icd takes the first line, the
/// Khronos loader the whole file; both drop one trailing newline and nothing else, so a
/// carriage return or a blank stays part of the name dlopen is given.
IcdFileEntry parse_icd_file(std::string_view text);

}  // namespace gpudoctor
