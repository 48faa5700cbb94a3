#pragma once
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace gpudoctor::test {

/// A fresh directory under $TMPDIR, removed with everything in it.
class TempTree {
 public:
  TempTree() {
    namespace fs = std::filesystem;
    std::string tmpl = (fs::temp_directory_path() / "gpudoctor-test-XXXXXX").string();
    path_ = ::mkdtemp(tmpl.data()) != nullptr ? tmpl : "";
  }
  ~TempTree() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  const std::string& path() const { return path_; }
  /// Writes a file at a path relative to the tree, creating its directories.
  std::string write(const std::string& rel, const std::string& text) const {
    namespace fs = std::filesystem;
    fs::path p = fs::path(path_) / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::string mkdir(const std::string& rel) const {
    namespace fs = std::filesystem;
    fs::create_directories(fs::path(path_) / rel);
    return (fs::path(path_) / rel).string();
  }

 private:
  std::string path_;
};

}  // namespace gpudoctor::test
