#include "devices.hpp"

#include <algorithm>
#include <unordered_map>

#include "api/pci/gpu_ids.hpp"
#include "backends.hpp"
#include "parse/nvidia_supported_gpus.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// How many devices a key fits, and which one when it is one: the XOR of their indices.
struct Fit {
  std::size_t count = 0;
  std::size_t xor_of = 0;
  void add(std::size_t i) { ++count, xor_of ^= i; }
  void remove(std::size_t i) { --count, xor_of ^= i; }
};

constexpr std::size_t kNoList = static_cast<std::size_t>(-1);

/// A list to join, with the registry row it came from.
struct Joining {
  const DeviceList* list;
  std::size_t backend;
};

/// What the merge keeps beside each device it makes.
struct Made {
  std::size_t by = kNoList;  ///< the list that made it (kNoList: the host CPU)
  NameRank claim = NameRank::kPlaceholder;      ///< the highest rank of a list that saw it
  NameRank name_rank = NameRank::kPlaceholder;  ///< the rank of the list that named it
};

std::string address_key(std::string_view a) {
  auto n = normalize_pci_address(a);
  return n ? *n : to_lower(trim(a));
}

/// Devices that one list saw and a name-joining list has not, by their name in the first.
struct NameIndex {
  std::string_view seen_by;  ///< system_profiler
  std::string_view joiner;   ///< Metal
  std::unordered_map<std::string, Fit> by_name;
  std::unordered_map<std::size_t, std::string> name_of;
};

class Merger {
 public:
  Merger(const Snapshot& snap, const std::vector<Backend>& backends) : snap_(snap) {
    for (std::size_t b = 0; b < backends.size(); ++b) {
      for (const DeviceList& l : backends[b].device_lists) lists_.push_back({&l, b});
    }
    std::stable_sort(lists_.begin(), lists_.end(), [](const Joining& x, const Joining& y) {
      return x.list->order < y.list->order;
    });
    for (const Joining& j : lists_) {
      if (!j.list->joins_by_name_in.empty()) {
        names_.push_back({j.list->joins_by_name_in, j.list->api, {}, {}});
      }
    }
  }

  std::vector<MergedDevice> run() {
    std::vector<DeviceIdentity> ids;
    for (std::size_t l = 0; l < lists_.size(); ++l) {
      const DeviceList& list = *lists_[l].list;
      if (list.identities == nullptr) continue;
      ids.clear();
      list.identities(snap_, ids);
      for (const DeviceIdentity& id : ids) add(l, id);
    }
    for (std::size_t i = 0; i < out_.size(); ++i) name_from_pci_ids(i);
    return std::move(out_);
  }

 private:
  void add(std::size_t l, const DeviceIdentity& id) {
    const DeviceList& list = *lists_[l].list;
    const std::optional<std::string> address =
        id.pci_address ? std::optional<std::string>(address_key(*id.pci_address)) : std::nullopt;
    const std::optional<std::string> uuid =
        id.uuid ? std::optional<std::string>(normalize_uuid(*id.uuid)) : std::nullopt;
    std::optional<std::size_t> at;
    if (id.software) {
      at = cpu_entry();
    } else if (!list.pci_list) {
      at = find(l, id, address, uuid);
    }
    if (!at) {
      at = make(l, id, address);
    } else {
      join(l, id, *at);
    }
    MergedDevice& m = out_[*at];
    if (!id.software && !m.uuid && id.uuid) {
      m.uuid = id.uuid;
      auto [it, added] = by_uuid_.emplace(*uuid, *at);
      if (!added && *at < it->second) it->second = *at;
    }
    if (list.fills_device_id && !m.device_id && id.device_id) {
      const bool indexed = by_ids(m);
      if (indexed) by_vendor_only_[*m.vendor_id].remove(*at);
      m.device_id = id.device_id;
      if (indexed) by_vendor_device_[ids_key(*m.vendor_id, *m.device_id)].add(*at);
    }
    made_[*at].claim = std::max(made_[*at].claim, list.rank);
    seen(l, *at, id);
  }

  /// A device in the list's view: PCI address, UUID, then ids where exactly one device fits.
  std::optional<std::size_t> find(std::size_t l, const DeviceIdentity& id,
                                  const std::optional<std::string>& address,
                                  const std::optional<std::string>& uuid) {
    const DeviceList& list = *lists_[l].list;
    if (!list.joins_by_name_in.empty() && id.name) {
      if (auto named = find_by_name(list, *id.name)) return named;
    }
    if (address) {
      if (auto it = by_address_.find(*address); it != by_address_.end()) return it->second;
    }
    if (uuid) {
      if (auto it = by_uuid_.find(*uuid); it != by_uuid_.end()) return it->second;
    }
    if (!list.joins_on_ids || !id.vendor_id) return std::nullopt;
    Fit fit;
    if (id.device_id) {
      for (const auto* index : {&by_vendor_device_, &by_vendor_only_}) {
        const std::uint64_t key =
            index == &by_vendor_device_ ? ids_key(*id.vendor_id, *id.device_id) : *id.vendor_id;
        if (auto it = index->find(key); it != index->end()) {
          fit.count += it->second.count;
          fit.xor_of ^= it->second.xor_of;
        }
      }
    } else if (auto it = by_vendor_.find(*id.vendor_id); it != by_vendor_.end()) {
      fit = it->second;
    }
    if (fit.count > 1 && list.one_per_device && !address && !uuid) {
      return interchangeable(list, *id.vendor_id, id.device_id, fit.count);
    }
    if (fit.count != 1) return std::nullopt;
    // A list that names each device once saw that one already: this is another device.
    if (list.one_per_device && out_[fit.xor_of].saw(list.api)) return std::nullopt;
    return fit.xor_of;
  }

  /// A list that sees each device once and gives it no address (KFD nodes of a tree or paste
  /// without location_id, a rocminfo without its PCI lines) among several GPUs of its vendor:
  /// where every such GPU it has not seen yet is the same chip (one known device id), whichever
  /// it is gets the same model facts (gfx target, compute units), so it joins the first of them
  /// rather than standing beside them as a second, unnamed device. Chips that differ stay apart.
  std::optional<std::size_t> interchangeable(const DeviceList& list, std::uint64_t vendor,
                                             std::optional<std::uint64_t> device,
                                             std::size_t fitting) {
    // Bounded: a node has a few GPUs; a paste of thousands is not matched this way.
    constexpr std::size_t kMaxInterchangeable = 64;
    if (fitting > kMaxInterchangeable) return std::nullopt;
    const auto it = vendor_members_.find(vendor);
    if (it == vendor_members_.end() || it->second.size() > kMaxInterchangeable) return std::nullopt;
    std::optional<std::size_t> first;
    std::optional<std::uint64_t> chip;
    for (std::size_t at : it->second) {
      const MergedDevice& m = out_[at];
      if (m.software || !m.pci || m.saw(list.api)) continue;  // not a bus device, or seen
      if (device) {
        if (m.device_id != device) continue;  // the list's own id picks the chip
      } else {
        if (!m.device_id || (chip && *chip != *m.device_id)) return std::nullopt;
        chip = m.device_id;
      }
      if (!first) first = at;
    }
    return first;
  }

  /// Metal's view of system_profiler's GPU: the same name, or it after a vendor prefix ("AMD
  /// Radeon RX 5700 XT" for "Radeon RX 5700 XT"), where exactly one GPU fits.
  std::optional<std::size_t> find_by_name(const DeviceList& list, const std::string& name) {
    NameIndex* index = names_for(list.api);
    if (index == nullptr) return std::nullopt;
    const std::string want = to_lower(name);
    Fit fit;
    auto count = [&](const std::string& have) {
      if (auto it = index->by_name.find(have); it != index->by_name.end()) {
        fit.count += it->second.count;
        fit.xor_of ^= it->second.xor_of;
      }
    };
    count(want);
    for (std::size_t sp = want.find(' '); sp != std::string::npos; sp = want.find(' ', sp + 1)) {
      if (sp + 1 < want.size()) count(want.substr(sp + 1));
    }
    if (fit.count != 1) return std::nullopt;
    return fit.xor_of;
  }

  std::size_t make(std::size_t l, const DeviceIdentity& id,
                   const std::optional<std::string>& address) {
    const DeviceList& list = *lists_[l].list;
    MergedDevice m;
    m.name = id.name.value_or(id.fallback_name);
    if (id.name) m.name_source = std::string(source_of(list));
    m.kind = id.kind;
    m.software = id.software;
    m.pci_address = address;
    m.vendor_id = id.vendor_id;
    m.device_id = id.device_id;
    if (list.pci_list) m.pci = id.position;
    const std::size_t at = out_.size();
    out_.push_back(std::move(m));
    made_.push_back({l, list.rank, id.name ? list.rank : NameRank::kPlaceholder});
    if (address) by_address_.emplace(*address, at);
    const MergedDevice& made = out_.back();
    if (by_ids(made)) {
      by_vendor_[*made.vendor_id].add(at);
      vendor_members_[*made.vendor_id].push_back(at);
      if (made.device_id) {
        by_vendor_device_[ids_key(*made.vendor_id, *made.device_id)].add(at);
      } else {
        by_vendor_only_[*made.vendor_id].add(at);
      }
    }
    return at;
  }

  /// A named list renames a device it joins when no higher-ranked list saw it, and the device
  /// is a PCI function (whose own name is made up) or was made by another list of its backend
  /// (HIP names what KFD made).
  void join(std::size_t l, const DeviceIdentity& id, std::size_t at) {
    const DeviceList& list = *lists_[l].list;
    Made& made = made_[at];
    if (!id.name || id.software || list.rank <= NameRank::kKept || list.rank < made.claim ||
        made.by == kNoList) {
      return;
    }
    const Joining& maker = lists_[made.by];
    const bool same_backend = maker.backend == lists_[l].backend && made.by != l;
    if (!maker.list->pci_list && !same_backend) return;
    out_[at].name = *id.name;
    out_[at].name_source = std::string(source_of(list));
    made.name_rank = list.rank;
  }

  void seen(std::size_t l, std::size_t at, const DeviceIdentity& id) {
    const DeviceList& list = *lists_[l].list;
    if (list.pci_list) return;  // MergedDevice::pci says it, not seen_by
    MergedDevice& m = out_[at];
    auto& positions = m.seen_by[std::string(list.api)];
    const bool first = positions.empty();
    positions.push_back(id.position);
    if (!first) return;
    for (NameIndex& index : names_) {
      if (index.joiner == list.api) {
        if (auto it = index.name_of.find(at); it != index.name_of.end()) {
          index.by_name[it->second].remove(at);
          index.name_of.erase(it);
        }
      } else if (index.seen_by == list.api && !m.saw(index.joiner) && id.name &&
                 !id.name->empty()) {
        std::string key = to_lower(*id.name);
        index.by_name[key].add(at);
        index.name_of.emplace(at, std::move(key));
      }
    }
  }

  /// The host CPU: every software implementation runs on it.
  std::size_t cpu_entry() {
    if (cpu_) return *cpu_;
    MergedDevice m;
    m.kind = DeviceKind::cpu;
    m.software = true;
    m.name = snap_.host && snap_.host->cpu_model ? *snap_.host->cpu_model : "Host CPU";
    if (snap_.host && snap_.host->cpu_model) m.name_source = "host";
    cpu_ = out_.size();
    out_.push_back(std::move(m));
    made_.push_back({});
    return *cpu_;
  }

  /// Every GPU gets a chip, and a name where no API named it, from the root's pci.ids or the
  /// built-in copy: KFD's "AMD GPU (gfx1031)" becomes pci.ids' "Navi 22 […]".
  void name_from_pci_ids(std::size_t i) {
    MergedDevice& m = out_[i];
    if (m.kind == DeviceKind::cpu || !m.vendor_id || !m.device_id || *m.vendor_id > 0xffff ||
        *m.device_id > 0xffff) {
      return;
    }
    std::optional<std::string> name;
    if (m.pci) name = snap_.pci->devices[*m.pci].device_name;
    const bool from_root = name.has_value() && m.pci &&
                           snap_.pci->devices[*m.pci].name_source !=
                               std::optional<std::string>(std::string(kNameFromBuiltinPciIds));
    if (!name) {
      auto builtin = builtin_device_name(static_cast<std::uint16_t>(*m.vendor_id),
                                         static_cast<std::uint16_t>(*m.device_id));
      if (builtin) name = std::string(*builtin);
    }
    if (name && !m.chip) m.chip = chip_from_pci_name(*name);
    // The installed NVIDIA driver's own table names its GPUs before any pci.ids does.
    if (auto driver_name = driver_table_name(m);
        driver_name && made_[i].name_rank == NameRank::kPlaceholder) {
      m.name = *driver_name;
      m.name_source = std::string(kNameFromDriverTable);
      return;
    }
    if (!name) return;
    if (made_[i].name_rank == NameRank::kPlaceholder) {
      m.name = *name;
      m.name_source = std::string(from_root ? kNameFromPciIds : kNameFromBuiltinPciIds);
    }
  }

  /// The name supported-gpus.json gives this board (its subsystem's row, else the device's).
  std::optional<std::string> driver_table_name(const MergedDevice& m) const {
    if (!snap_.nvidia || !snap_.nvidia->driver_gpu_table || m.vendor_id != kPciVendorNvidia) {
      return std::nullopt;
    }
    std::optional<std::uint16_t> sub_vendor;
    std::optional<std::uint16_t> sub_device;
    if (m.pci) {
      sub_vendor = snap_.pci->devices[*m.pci].subsystem_vendor_id;
      sub_device = snap_.pci->devices[*m.pci].subsystem_device_id;
    }
    const DriverGpuEntry* row =
        supported_gpu_row(snap_.nvidia->driver_gpu_table->gpus,
                          static_cast<std::uint16_t>(*m.device_id), sub_vendor, sub_device);
    if (row == nullptr) return std::nullopt;
    return row->name;
  }

  /// Whether ids may find `m`: a GPU or accelerator whose vendor is known.
  static bool by_ids(const MergedDevice& m) {
    return m.vendor_id && (m.kind == DeviceKind::gpu || m.kind == DeviceKind::accelerator);
  }
  static std::uint64_t ids_key(std::uint32_t vendor, std::uint32_t device) {
    return (static_cast<std::uint64_t>(vendor) << 32) | device;
  }
  static std::string_view source_of(const DeviceList& list) {
    return list.name_source.empty() ? list.api : list.name_source;
  }
  NameIndex* names_for(std::string_view joiner) {
    for (auto& n : names_) {
      if (n.joiner == joiner) return &n;
    }
    return nullptr;
  }

  const Snapshot& snap_;
  std::vector<Joining> lists_;
  std::vector<MergedDevice> out_;
  std::vector<Made> made_;
  std::optional<std::size_t> cpu_;
  std::unordered_map<std::string, std::size_t> by_address_;
  std::unordered_map<std::string, std::size_t> by_uuid_;
  std::unordered_map<std::uint64_t, Fit> by_vendor_;         ///< vendor → GPUs of it
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> vendor_members_;  ///< the same, listed
  std::unordered_map<std::uint64_t, Fit> by_vendor_device_;  ///< vendor:device → GPUs
  std::unordered_map<std::uint64_t, Fit> by_vendor_only_;    ///< vendor → GPUs without device id
  std::vector<NameIndex> names_;
};

}  // namespace

const char* to_string(DeviceKind k) {
  switch (k) {
    case DeviceKind::gpu: return "gpu";
    case DeviceKind::accelerator: return "accelerator";
    case DeviceKind::cpu: return "cpu";
    case DeviceKind::other: return "other";
  }
  return "other";
}

std::optional<std::string> normalize_pci_address(std::string_view address) {
  // domain:bus:device.function, domain of any width (NVML uses 8 hex digits)
  std::string a = to_lower(trim(address));
  auto c1 = a.find(':');
  auto c2 = a.find(':', c1 == std::string::npos ? 0 : c1 + 1);
  auto dot = a.find('.', c2 == std::string::npos ? 0 : c2 + 1);
  if (c1 == std::string::npos || c2 == std::string::npos || dot == std::string::npos) {
    return std::nullopt;
  }
  auto dom = parse_uint("0x" + a.substr(0, c1));
  auto bus = parse_uint("0x" + a.substr(c1 + 1, c2 - c1 - 1));
  auto dev = parse_uint("0x" + a.substr(c2 + 1, dot - c2 - 1));
  auto fn = parse_uint("0x" + a.substr(dot + 1));
  if (!dom || !bus || !dev || !fn || *dom > 0xffff || *bus > 0xff || *dev > 0x1f || *fn > 7) {
    return std::nullopt;
  }
  return hex(*dom, 4) + ":" + hex(*bus, 2) + ":" + hex(*dev, 2) + "." + hex(*fn, 1);
}

std::string normalize_uuid(std::string_view uuid) {
  std::string s = to_lower(trim(uuid));
  if (starts_with(s, "gpu-")) s = s.substr(4);
  if (starts_with(s, "mig-")) s = s.substr(4);
  s.erase(std::remove(s.begin(), s.end(), '-'), s.end());
  return s;
}

std::vector<MergedDevice> merge_devices(const Snapshot& snap) {
  return merge_devices(snap, all_backends());
}

std::vector<MergedDevice> merge_devices(const Snapshot& snap, const std::vector<Backend>& backends) {
  return Merger(snap, backends).run();
}

const std::vector<std::size_t>& MergedDevice::in(std::string_view api) const {
  static const std::vector<std::size_t> none;
  const auto it = seen_by.find(api);
  return it == seen_by.end() ? none : it->second;
}

bool MergedDevice::saw(std::string_view api) const { return !in(api).empty(); }

std::optional<std::pair<std::size_t, std::size_t>> opencl_position(const OpenClInfo& info,
                                                                   std::size_t i) {
  for (std::size_t p = 0; p < info.platforms.size(); ++p) {
    const std::size_t n = info.platforms[p].devices.size();
    if (i < n) return std::make_pair(p, i);
    i -= n;
  }
  return std::nullopt;
}

std::size_t opencl_device_count(const OpenClInfo& info) {
  std::size_t n = 0;
  for (const auto& p : info.platforms) n += p.devices.size();
  return n;
}

Json devices_json(const Snapshot& snap, const std::vector<MergedDevice>& devices) {
  return devices_json(snap, devices, all_backends());
}

Json devices_json(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                  const std::vector<Backend>& backends) {
  Json arr = Json::array();
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const MergedDevice& m = devices[i];
    Json j = {{"index", i},
              {"name", m.name},
              {"name_source", m.name_source},
              {"chip", m.chip},
              {"kind", to_string(m.kind)},
              {"software", m.software},
              {"pci_address", m.pci_address},
              {"vendor_id", m.vendor_id},
              {"device_id", m.device_id},
              {"uuid", m.uuid}};
    j["pci"] = m.pci ? Json(snap.pci->devices[*m.pci]) : Json(nullptr);
    for (const auto& b : backends) {
      for (const DeviceList& l : b.device_lists) {
        if (l.json == nullptr) continue;
        const auto& positions = m.in(l.api);
        if (l.json_first_only) {
          j[std::string(l.api)] = positions.empty() ? Json(nullptr) : l.json(snap, positions.front());
          continue;
        }
        Json list = Json::array();
        for (auto p : positions) list.push_back(l.json(snap, p));
        j[std::string(l.api)] = std::move(list);
      }
    }
    arr.push_back(std::move(j));
  }
  return arr;
}

}  // namespace gpudoctor
