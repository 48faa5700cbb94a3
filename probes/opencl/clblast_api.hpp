#pragma once
// The one CLBlast entry point the bench calls, opened at run time (Debian: libclblast1). The
// prototype and enum values are those of clblast_c.h of CLBlast 1.5.3; nothing here needs that
// header or links the library.
#include <cstddef>

#include "opencl/opencl_api.hpp"

namespace gpudoctor::opencl {

inline constexpr int kClblastSuccess = 0;         // CLBlastSuccess
inline constexpr int kClblastLayoutRowMajor = 101;  // CLBlastLayoutRowMajor
inline constexpr int kClblastTransposeNo = 111;     // CLBlastTransposeNo

using ClblastSgemmFn = int(int layout, int a_transpose, int b_transpose, std::size_t m,
                           std::size_t n, std::size_t k, float alpha, cl_mem a,
                           std::size_t a_offset, std::size_t a_ld, cl_mem b,
                           std::size_t b_offset, std::size_t b_ld, float beta, cl_mem c,
                           std::size_t c_offset, std::size_t c_ld, cl_command_queue* queue,
                           cl_event* event);

}  // namespace gpudoctor::opencl
