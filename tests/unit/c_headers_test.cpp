// CUDA's and glibc's declarations of C23's cospi, as each release writes them.
#include <gtest/gtest.h>

#include "parse/c_headers.hpp"

namespace gpudoctor {
namespace c_headers_test {

TEST(CHeaders, CudaCospiDeclarationWithAndWithoutAnExceptionSpecification) {
  // CUDA 12.8's crt/math_functions.h line 5554 (quoted in opencv/opencv#27111).
  EXPECT_EQ(cuda_cospi_has_exception_spec(
                "/* a comment naming cospi(x) */\n"
                "extern __DEVICE_FUNCTIONS_DECL__ __device_builtin__ double                 "
                "sincospi(double x, double *sptr, double *cptr);\n"
                "extern __DEVICE_FUNCTIONS_DECL__ __device_builtin__ double                 "
                "cospi(double x);\n"),
            std::optional<bool>(false));
  // CUDA 13.0's (the toolkit installed on this project's machines, line 2639).
  EXPECT_EQ(cuda_cospi_has_exception_spec(
                "extern __DEVICE_FUNCTIONS_DECL__ __device_builtin__ double                 "
                "cospi(double x) __NV_IEC_60559_FUNCS_EXCEPTION_SPECIFIER;\n"),
            std::optional<bool>(true));
  // The float overload and the C++ wrappers are not the declaration that clashes.
  EXPECT_EQ(cuda_cospi_has_exception_spec("__MATH_FUNCTIONS_DECL__ float cospi(const float a);\n"),
            std::nullopt);
  EXPECT_EQ(cuda_cospi_has_exception_spec(""), std::nullopt);
}

TEST(CHeaders, GlibcDeclaresCospiFrom241) {
  // glibc 2.41's bits/mathcalls.h (as opencv/opencv#27111 quotes its line 79).
  EXPECT_TRUE(glibc_declares_cospi("#if __GLIBC_USE (IEC_60559_FUNCS_EXT_C23)\n"
                                   "__MATHCALL_VEC (cospi,, (_Mdouble_ __x));\n"));
  // glibc 2.36's (Debian 12) has sincos and cos, no cospi.
  EXPECT_FALSE(glibc_declares_cospi("__MATHCALL_VEC (cos,, (_Mdouble_ __x));\n"
                                    "__MATHCALL_VEC (sincos,, (_Mdouble_ __x, _Mdouble_ *__sinx));\n"
                                    "/* acospi is not cospi */ __MATHCALL (acospi,, (_Mdouble_ __x));\n"));
}

}  // namespace c_headers_test
}  // namespace gpudoctor
