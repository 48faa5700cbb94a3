#pragma once
// The CUDA smoke kernel: an fp32 matmul with 16×16 shared-memory tiles, shipped as PTX text so
// that gpudoctor builds without nvcc and any driver JITs it for whatever GPU it finds. The
// target is deliberately low (PTX ISA 6.0 = CUDA 9.0 drivers, sm_50): PTX built by a newer
// toolchain than the driver is rejected ("the provided PTX was compiled with an unsupported
// toolchain", wilicc/gpu-burn#145), and PTX for sm_50 JITs for every later architecture.
//
// Generated once from this source with CUDA 13.0
//   nvcc -ptx -arch=compute_75 -O3 matmul.cu -o matmul.ptx
// then lowered with
//   sed -e 's/^\.version 9\.0$/.version 6.0/' -e 's/^\.target sm_75$/.target sm_50/'
// (nothing in it is newer than PTX ISA 3.1, for ld.global.nc), and checked with
//   ptxas -arch=sm_75 matmul.ptx; ptxas -arch=sm_90 matmul.ptx
//
//   #define TILE 16
//   extern "C" __global__ void gpudoctor_sgemm(const float* __restrict__ a,
//                                              const float* __restrict__ b,
//                                              float* __restrict__ c, int n) {
//     __shared__ float as[TILE][TILE];
//     __shared__ float bs[TILE][TILE];
//     int tx = threadIdx.x, ty = threadIdx.y;
//     int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
//     float acc = 0.0f;
//     for (int t = 0; t < n; t += TILE) {
//       as[ty][tx] = (row < n && t + tx < n) ? a[row * n + t + tx] : 0.0f;
//       bs[ty][tx] = (t + ty < n && col < n) ? b[(t + ty) * n + col] : 0.0f;
//       __syncthreads();
//       for (int k = 0; k < TILE; ++k) acc += as[ty][k] * bs[k][tx];
//       __syncthreads();
//     }
//     if (row < n && col < n) c[row * n + col] = acc;
//   }

namespace gpudoctor::cuda {

inline constexpr const char* kMatmulKernelName = "gpudoctor_sgemm";
inline constexpr unsigned kMatmulTile = 16;  ///< threads per block in x and y
inline constexpr const char* kMatmulPtxTarget = "ptx 6.0 sm_50";

/// Parameters: const float* a, const float* b, float* c, int n (n×n row-major).
inline constexpr const char kMatmulPtx[] = R"ptx(
.version 6.0
.target sm_50
.address_size 64

  // .globl  gpudoctor_sgemm
// _ZZ15gpudoctor_sgemmE2as has been demoted
// _ZZ15gpudoctor_sgemmE2bs has been demoted

.visible .entry gpudoctor_sgemm(
  .param .u64 gpudoctor_sgemm_param_0,
  .param .u64 gpudoctor_sgemm_param_1,
  .param .u64 gpudoctor_sgemm_param_2,
  .param .u32 gpudoctor_sgemm_param_3
)
{
  .reg .pred   %p<12>;
  .reg .f32   %f<63>;
  .reg .b32   %r<37>;
  .reg .b64   %rd<16>;
  // demoted variable
  .shared .align 4 .b8 _ZZ15gpudoctor_sgemmE2as[1024];
  // demoted variable
  .shared .align 4 .b8 _ZZ15gpudoctor_sgemmE2bs[1024];

  ld.param.u64   %rd4, [gpudoctor_sgemm_param_0];
  ld.param.u64   %rd5, [gpudoctor_sgemm_param_1];
  ld.param.u64   %rd6, [gpudoctor_sgemm_param_2];
  ld.param.u32   %r20, [gpudoctor_sgemm_param_3];
  mov.u32   %r21, %ctaid.y;
  shl.b32   %r22, %r21, 4;
  mov.u32   %r33, %tid.y;
  add.s32   %r2, %r22, %r33;
  mov.u32   %r23, %ctaid.x;
  shl.b32   %r3, %r23, 4;
  mov.u32   %r35, %tid.x;
  add.s32   %r5, %r3, %r35;
  setp.lt.s32   %p1, %r20, 1;
  mov.f32   %f62, 0f00000000;
  @%p1 bra   $L__BB0_7;

  shl.b32   %r25, %r33, 6;
  mov.u32   %r26, _ZZ15gpudoctor_sgemmE2as;
  add.s32   %r8, %r26, %r25;
  shl.b32   %r27, %r35, 2;
  add.s32   %r6, %r8, %r27;
  mov.u32   %r28, _ZZ15gpudoctor_sgemmE2bs;
  add.s32   %r29, %r28, %r25;
  add.s32   %r7, %r29, %r27;
  add.s32   %r9, %r28, %r27;
  mad.lo.s32   %r30, %r20, %r2, %r35;
  cvta.to.global.u64   %rd7, %rd4;
  mul.wide.s32   %rd8, %r30, 4;
  add.s64   %rd15, %rd7, %rd8;
  mad.lo.s32   %r31, %r33, %r20, %r35;
  add.s32   %r34, %r31, %r3;
  shl.b32   %r11, %r20, 4;
  mov.f32   %f9, 0f00000000;
  mov.u32   %r36, 0;
  cvta.to.global.u64   %rd9, %rd5;
  mov.f32   %f62, %f9;

$L__BB0_2:
  setp.ge.s32   %p2, %r35, %r20;
  setp.ge.s32   %p3, %r2, %r20;
  or.pred    %p4, %p3, %p2;
  mov.f32   %f60, %f9;
  @%p4 bra   $L__BB0_4;

  ld.global.nc.f32   %f60, [%rd15];

$L__BB0_4:
  st.shared.f32   [%r6], %f60;
  setp.ge.s32   %p5, %r33, %r20;
  setp.ge.s32   %p6, %r5, %r20;
  mov.f32   %f61, 0f00000000;
  or.pred    %p7, %p6, %p5;
  @%p7 bra   $L__BB0_6;

  mul.wide.s32   %rd10, %r34, 4;
  add.s64   %rd11, %rd9, %rd10;
  ld.global.nc.f32   %f61, [%rd11];

$L__BB0_6:
  st.shared.f32   [%r7], %f61;
  bar.sync   0;
  ld.shared.f32   %f12, [%r9];
  ld.shared.f32   %f13, [%r8];
  fma.rn.f32   %f14, %f13, %f12, %f62;
  ld.shared.f32   %f15, [%r9+64];
  ld.shared.f32   %f16, [%r8+4];
  fma.rn.f32   %f17, %f16, %f15, %f14;
  ld.shared.f32   %f18, [%r9+128];
  ld.shared.f32   %f19, [%r8+8];
  fma.rn.f32   %f20, %f19, %f18, %f17;
  ld.shared.f32   %f21, [%r9+192];
  ld.shared.f32   %f22, [%r8+12];
  fma.rn.f32   %f23, %f22, %f21, %f20;
  ld.shared.f32   %f24, [%r9+256];
  ld.shared.f32   %f25, [%r8+16];
  fma.rn.f32   %f26, %f25, %f24, %f23;
  ld.shared.f32   %f27, [%r9+320];
  ld.shared.f32   %f28, [%r8+20];
  fma.rn.f32   %f29, %f28, %f27, %f26;
  ld.shared.f32   %f30, [%r9+384];
  ld.shared.f32   %f31, [%r8+24];
  fma.rn.f32   %f32, %f31, %f30, %f29;
  ld.shared.f32   %f33, [%r9+448];
  ld.shared.f32   %f34, [%r8+28];
  fma.rn.f32   %f35, %f34, %f33, %f32;
  ld.shared.f32   %f36, [%r9+512];
  ld.shared.f32   %f37, [%r8+32];
  fma.rn.f32   %f38, %f37, %f36, %f35;
  ld.shared.f32   %f39, [%r9+576];
  ld.shared.f32   %f40, [%r8+36];
  fma.rn.f32   %f41, %f40, %f39, %f38;
  ld.shared.f32   %f42, [%r9+640];
  ld.shared.f32   %f43, [%r8+40];
  fma.rn.f32   %f44, %f43, %f42, %f41;
  ld.shared.f32   %f45, [%r9+704];
  ld.shared.f32   %f46, [%r8+44];
  fma.rn.f32   %f47, %f46, %f45, %f44;
  ld.shared.f32   %f48, [%r9+768];
  ld.shared.f32   %f49, [%r8+48];
  fma.rn.f32   %f50, %f49, %f48, %f47;
  ld.shared.f32   %f51, [%r9+832];
  ld.shared.f32   %f52, [%r8+52];
  fma.rn.f32   %f53, %f52, %f51, %f50;
  ld.shared.f32   %f54, [%r9+896];
  ld.shared.f32   %f55, [%r8+56];
  fma.rn.f32   %f56, %f55, %f54, %f53;
  ld.shared.f32   %f57, [%r9+960];
  ld.shared.f32   %f58, [%r8+60];
  fma.rn.f32   %f62, %f58, %f57, %f56;
  bar.sync   0;
  add.s64   %rd15, %rd15, 64;
  add.s32   %r35, %r35, 16;
  add.s32   %r34, %r34, %r11;
  add.s32   %r33, %r33, 16;
  add.s32   %r36, %r36, 16;
  setp.lt.s32   %p8, %r36, %r20;
  @%p8 bra   $L__BB0_2;

$L__BB0_7:
  setp.ge.s32   %p9, %r5, %r20;
  setp.ge.s32   %p10, %r2, %r20;
  or.pred    %p11, %p10, %p9;
  @%p11 bra   $L__BB0_9;

  mad.lo.s32   %r32, %r2, %r20, %r5;
  cvta.to.global.u64   %rd12, %rd6;
  mul.wide.s32   %rd13, %r32, 4;
  add.s64   %rd14, %rd12, %rd13;
  st.global.f32   [%rd14], %f62;

$L__BB0_9:
  ret;

}
)ptx";

}  // namespace gpudoctor::cuda
