// `pip list`, `pip freeze`, `pip show` and `conda list`, and the package lines other dumps carry.
#include <algorithm>
#include <cctype>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_package_lists = "package list";

std::string normalise(std::string_view name) {
  std::string n = to_lower(trim(name));
  std::replace(n.begin(), n.end(), '_', '-');
  std::replace(n.begin(), n.end(), '.', '-');
  return n;
}

bool version_like(std::string_view v) {
  return !v.empty() && std::isdigit(static_cast<unsigned char>(v.front())) != 0 &&
         v.find_first_of(" \t") == std::string_view::npos;
}

bool name_like(std::string_view n) {
  return !n.empty() && std::isalnum(static_cast<unsigned char>(n.front())) != 0 &&
         std::any_of(n.begin(), n.end(),
                     [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }) &&
         std::all_of(n.begin(), n.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' ||
                  c == '.';
         });
}

/// "cuda12.1" or "cuda121" inside a conda build string → "12.1".
std::optional<std::string> conda_build_cuda(std::string_view build) {
  const auto at = build.find("cuda");
  if (at == std::string_view::npos) return std::nullopt;
  std::string digits;
  for (std::size_t i = at + 4; i < build.size(); ++i) {
    const char c = build[i];
    if (std::isdigit(static_cast<unsigned char>(c)) == 0 && c != '.') break;
    digits += c;
  }
  if (digits.find('.') != std::string::npos) return leading_version(digits);
  if (digits.size() == 3) return digits.substr(0, 2) + "." + digits.substr(2);
  if (digits.size() == 2) return digits.substr(0, 1) + "." + digits.substr(1);
  return std::nullopt;
}

bool is_tensorflow(const std::string& n) {
  return n == "tensorflow" || n == "tensorflow-gpu" || n == "tensorflow-cpu" ||
         n == "tf-nightly" || n == "tensorflow-intel" || n == "tensorflow-macos";
}

}  // namespace

void apply_local_version(TorchBuildInfo& b) {
  if (!b.local_version) return;
  const std::string& l = *b.local_version;
  if (starts_with(l, "cu") && l.size() >= 4) {
    const std::string digits = l.substr(2);
    if (std::all_of(digits.begin(), digits.end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
      b.cuda = digits.substr(0, digits.size() - 1) + "." + digits.substr(digits.size() - 1);
    }
  } else if (starts_with(l, "rocm")) {
    b.hip = l.substr(4);
    b.rocm = l.substr(4);
  }
}

void add_listed_package(PasteSink& sink, std::string_view raw_name, std::string_view raw_version,
                        std::string_view build, std::size_t i) {
  std::string name = normalise(raw_name);
  if (name == "pytorch") name = "torch";
  const std::string version(trim(raw_version));
  if (!name_like(name) || !version_like(version)) return;
  PythonPackage& p = sink.package(name);
  if (sink.dropped(p)) return;  // past the cap: neither kept nor quoted
  const auto plus = version.find('+');
  if (!p.version) p.version = version.substr(0, plus);
  for (const char* series : {"12", "11", "13"}) {
    if (ends_with(name, std::string("-cu") + series) ||
        name.find(std::string("cuda") + series) != std::string::npos) {
      p.cuda_series = series;
    }
  }
  sink.fact("package." + name, std::string(trim(raw_name)) + " " + version, i);
  if (name == "torch" && !p.torch) {
    // The build is known from the version's suffix (PyTorch's own wheels) or the conda build
    // string; a plain "2.1.0" from PyPI says nothing of it.
    TorchBuildInfo b;
    b.version = version;
    if (plus != std::string::npos) {
      b.local_version = version.substr(plus + 1);
      apply_local_version(b);
      p.torch = b;
    } else if (auto cuda = conda_build_cuda(build)) {
      b.cuda = cuda;
      p.torch = b;
    } else if (build.find("cpu") != std::string_view::npos) {
      b.local_version = "cpu";
      p.torch = b;
    }
  }
  if (is_tensorflow(name) && !p.tensorflow) {
    TensorflowBuildInfo tf;
    tf.file = "(pasted package list)";
    if (name == "tensorflow-cpu") tf.is_cuda_build = false;
    p.tensorflow = tf;
  }
}

void read_package_lists(PasteSink& sink) {
  const auto& lines = sink.lines();
  bool table = false;  // inside a pip list / conda list table
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i)) {
      table = false;
      continue;
    }
    const std::string_view t = trim(lines[i].text);
    if (t.empty() || lines[i].fence) {
      table = false;
      continue;
    }
    const auto words = split_words(t);
    // Headers: "Package    Version", "# Name   Version   Build  Channel", conda's comments.
    if ((words.size() >= 2 && words[0] == "Package" && words[1] == "Version") ||
        starts_with(t, "# packages in environment at") || starts_with(t, "# Name") ||
        (t == "#" && table)) {
      table = true;
      sink.claim(i, kFormat_package_lists);
      continue;
    }
    if (table && t.find_first_not_of("- ") == std::string_view::npos) {
      sink.claim(i, kFormat_package_lists);
      continue;
    }
    if (const auto eq = t.find("=="); eq != std::string_view::npos && words.size() == 1) {
      const std::string_view name = t.substr(0, eq);
      const std::string_view version = t.substr(eq + 2);
      if (name_like(name) && version_like(version)) {
        add_listed_package(sink, name, version, "", i);
        sink.claim(i, kFormat_package_lists);
      }
      continue;
    }
    if (words.size() == 3 && words[1] == "@" && name_like(words[0])) {  // pip freeze, local build
      sink.claim(i, kFormat_package_lists);
      continue;
    }
    if (starts_with(t, "Name: ") && i + 1 < lines.size()) {  // pip show
      const Labelled next = split_label(trim(lines[i + 1].text));
      if (next.key == "Version" && name_like(t.substr(6))) {
        add_listed_package(sink, t.substr(6), next.value, "", i + 1);
        sink.claim(i, kFormat_package_lists);
        sink.claim(i + 1, kFormat_package_lists);
        ++i;
      }
      continue;
    }
    const bool row = words.size() >= 2 && words.size() <= 8 && name_like(words[0]) &&
                     version_like(words[1]);
    if (!row) {
      table = false;
      continue;
    }
    // Rows without a header count when two or more come together (tf_env_collect's pip lines).
    const bool next_row = [&] {
      if (i + 1 >= lines.size() || sink.claimed(i + 1)) return false;
      const auto w = split_words(trim(lines[i + 1].text));
      return w.size() >= 2 && w.size() <= 8 && name_like(w[0]) && version_like(w[1]);
    }();
    const bool previous_row = i > 0 && sink.owner(i - 1) == kFormat_package_lists;
    if (!table && !next_row && !previous_row) continue;
    add_listed_package(sink, words[0], words[1], words.size() > 2 ? words[2] : "", i);
    sink.claim(i, kFormat_package_lists);
  }
}

}  // namespace gpudoctor
