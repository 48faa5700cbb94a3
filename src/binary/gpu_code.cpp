#include "binary/gpu_code.hpp"

#include "binary/elf_sections.hpp"
#include "binary/fatbin.hpp"
#include "binary/offload_bundle.hpp"

namespace gpudoctor::binary {

namespace {

void note_error(GpuCodeLibrary& lib, const std::string& section,
                const std::optional<std::string>& error) {
  if (!error) return;
  lib.error = (lib.error ? *lib.error + "; " : std::string()) + section + ": " + *error;
}

}  // namespace

GpuCodeLibrary read_gpu_code(const ByteSource& src, std::string path) {
  GpuCodeLibrary lib;
  lib.path = std::move(path);
  lib.size_bytes = src.size;
  ElfFile elf = read_elf_sections(src);
  if (elf.error) {
    lib.error = *elf.error;
    return lib;
  }
  const ElfSection* cuda = find_section(elf, ".nv_fatbin");
  if (cuda == nullptr) cuda = find_section(elf, "__nv_relfatbin");
  if (cuda != nullptr && cuda->in_file) {
    FatbinScan scan = scan_fatbins(src, cuda->offset, cuda->size);
    lib.sass = std::move(scan.sass);
    lib.ptx = std::move(scan.ptx);
    lib.lto = std::move(scan.lto);
    lib.cuda_fatbins = scan.containers;
    note_error(lib, cuda->name, scan.error);
  }
  const ElfSection* hip = find_section(elf, ".hip_fatbin");
  if (hip != nullptr && hip->in_file) {
    BundleScan scan = scan_offload_bundles(src, hip->offset, hip->size);
    lib.amdgpu = std::move(scan.targets);
    lib.offload_bundles = scan.bundles + scan.compressed;
    lib.compressed_bundles = scan.compressed;
    note_error(lib, hip->name, scan.error);
  }
  return lib;
}

}  // namespace gpudoctor::binary
