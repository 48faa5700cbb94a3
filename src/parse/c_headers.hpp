#pragma once
// Declarations read from C headers the toolchain compiles against: whether CUDA's
// crt/math_functions.h and glibc's bits/mathcalls.h agree on C23's cospi/sinpi. glibc 2.41
// declares them (noexcept in C++); a CUDA header that declares them with no exception
// specification makes nvcc's host pass reject every file that includes <cmath>.
#include <optional>
#include <string_view>

namespace gpudoctor {

/// Whether crt/math_functions.h's host declaration of cospi(double) carries an exception
/// specification (anything between its closing parenthesis and the semicolon: CUDA 13.0's
/// __NV_IEC_60559_FUNCS_EXCEPTION_SPECIFIER); nullopt when no such declaration is found.
std::optional<bool> cuda_cospi_has_exception_spec(std::string_view math_functions_h);

/// Whether glibc's bits/mathcalls.h declares cospi (glibc 2.41 and later).
bool glibc_declares_cospi(std::string_view mathcalls_h);

}  // namespace gpudoctor
