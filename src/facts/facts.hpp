#pragma once
// The facts layer: one typed walk per backend turns its section of the snapshot into neutral
// facts (sections of labelled rows, each part with its number and unit where it has one, and
// the facts `diff` compares), so that every output (text query, HTML, diff, metrics) is written
// once and reads no backend struct and no JSON key.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "devices.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor::facts {

/// How much a difference matters to `diff`: most likely the cause first.
enum class Weight {
  failure,
  smoke,
  driver,
  toolkit,
  cudnn,
  framework,
  python,
  device,
  variable,
  warning,
  host,
  api,
  note
};

/// One part of a row: how it reads ("global 16 GiB"), and the number behind it in a base unit
/// ("bytes", "hertz", "celsius", "watts", "seconds") when it has one, for metrics.
struct Part {
  std::string key;   ///< stable: "memory_bytes", "driver_version"
  std::string text;  ///< as a person reads it
  std::optional<double> number;
  std::string unit;
};

/// A labelled row of parts, shown on one line (text joins the parts with " · "). A row with an
/// empty label continues the row above it; a `list` row is an item of a list (an ICD, a
/// toolkit), printed without the label column.
struct Row {
  std::string label;
  std::vector<Part> parts;
  std::string note;  ///< shown dimmed after the parts
  bool list = false;
  int depth = 0;     ///< nesting under the item above it (the packages of an environment)
  bool warning = false;  ///< a problem the backend reported about itself
};

/// A fact `diff` compares. Facts of one machine with the same area and name form a set.
struct Compared {
  Weight weight = Weight::note;
  std::string area;  ///< "driver", "toolkit", "framework", …
  std::string what;  ///< "NVIDIA kernel module"
  std::string value;
};

/// A backend's own part of the page: "NVIDIA driver", "OpenCL ICDs", "Python environments".
struct Section {
  std::string backend;  ///< the backend that wrote it
  std::string title;
  std::string subtitle;  ///< dimmed after the title
  std::vector<Row> rows;
  std::string when_empty;  ///< what an empty section says ("none registered")
};

/// One physical device: what every output needs to name it, and each API's view as rows.
struct Device {
  std::size_t index = 0;
  std::string name;
  std::string kind;  ///< "GPU", "accelerator", "CPU", "other"
  bool software = false;
  std::optional<std::string> pci_address;
  std::optional<std::string> vendor_device;  ///< "10de:2330"
  std::optional<std::string> uuid;
  std::optional<std::string> memory;   ///< the first size any API gives, as people read it
  std::optional<double> memory_bytes;
  std::optional<std::string> kernel_driver;
  std::vector<std::string> apis;  ///< "PCI", "OpenCL", "CUDA", … in the order the rows show them
  std::vector<Row> rows;
};

/// Every fact of one machine.
struct Machine {
  std::vector<Section> sections;  ///< in the registry's order of backends
  std::vector<Device> devices;
  std::vector<Compared> compared;
};

/// The sink each backend's walk writes into.
struct Sink {
  Machine& machine;
  void section(Section s) { machine.sections.push_back(std::move(s)); }
  void compare(Weight weight, std::string area, std::string what,
               const std::optional<std::string>& value);
  /// A set of values, order-free ("12.4, 13.0").
  void compare_set(Weight weight, std::string area, std::string what,
                   const std::vector<std::string>& values);
};

/// Walks every backend of the registry (src/backends.hpp) over the snapshot and its devices.
Machine describe(const Snapshot& snap, const std::vector<MergedDevice>& devices);

/// Rows with this label (and their continuation rows), for tests and for renderers that show
/// one part of a device.
std::string row_text(const Row& row);

}  // namespace gpudoctor::facts
