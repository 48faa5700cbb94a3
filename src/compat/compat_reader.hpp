#pragma once
// Internal to the loader: typed field access on one JSON row that records every problem instead
// of throwing, so one bad row names itself and the rest still load.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compat/compat_data.hpp"
#include "json.hpp"

namespace gpudoctor::compat_detail {

class RowReader {
 public:
  RowReader(const Json& row, std::string where, std::vector<std::string>& errors)
      : row_(row), where_(std::move(where)), errors_(errors) {}
  /// A reader for an object nested in `parent`'s row; its errors make the parent not ok.
  RowReader(RowReader& parent, const Json& value, const std::string& what)
      : row_(value), where_(parent.where_ + "." + what), errors_(parent.errors_), ok_(parent.ok_) {}
  RowReader(const RowReader&) = delete;
  RowReader& operator=(const RowReader&) = delete;

  void error(const std::string& message);
  bool ok() const { return *ok_; }
  const Json& json() const { return row_; }

  bool has(const char* key) const;  ///< present and not null
  std::string str(const char* key);
  std::optional<std::string> opt_str(const char* key);
  bool boolean(const char* key);
  int count(const char* key, int max);  ///< a whole number from 1 to max
  Version version(const char* key);
  std::optional<Version> opt_version(const char* key);
  /// {"min": "...", "max": "..."}; either bound may be null. Checks min <= max.
  VersionRange range(const char* key);
  std::vector<VersionRange> range_list(const char* key);
  std::vector<std::string> str_list(const char* key);
  std::vector<Version> version_list(const char* key);
  CompatOs os(const char* key);

  /// An array member to read further; nullptr (and an error) when absent or not an array.
  const Json* array(const char* key);

 private:
  std::optional<Version> version_value(const Json& value, const std::string& what);
  VersionRange range_value(const Json& value, const std::string& what);

  const Json& row_;
  std::string where_;
  std::vector<std::string>& errors_;
  bool own_ok_ = true;
  bool* ok_ = &own_ok_;
};

/// One file: its sources, and each row handed to `read_row` with a reader and the provenance.
struct FileContext {
  std::string name;
  const std::vector<CompatSource>* sources = nullptr;
  std::vector<std::string>* errors = nullptr;
  std::size_t* rows = nullptr;
};

/// Calls `read_row(reader, provenance)` for every element of `rows`, after checking the row's
/// "source" ids and "url"; `read_row` keeps the row only when `reader.ok()`.
void for_each_row(const FileContext& file, const Json& rows,
                  const std::function<void(RowReader&, const Provenance&)>& read_row);

void load_nvidia_file(const FileContext& file, const Json& rows, CompatData& data);
void load_framework_file(const FileContext& file, const Json& rows, CompatData& data);
void load_cuda_libs_file(const FileContext& file, const Json& rows, CompatData& data);

}  // namespace gpudoctor::compat_detail
