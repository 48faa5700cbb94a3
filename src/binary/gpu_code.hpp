#pragma once
// One shared library's GPU code: the ELF section table, then the CUDA fatbinaries in
// .nv_fatbin (or the relocatable ones in __nv_relfatbin when there is no .nv_fatbin, as
// cuobjdump does) and the offload bundles in .hip_fatbin.
#include <string>

#include "binary/byte_source.hpp"
#include "model/gpu_code.hpp"

namespace gpudoctor::binary {

GpuCodeLibrary read_gpu_code(const ByteSource& src, std::string path);

}  // namespace gpudoctor::binary
