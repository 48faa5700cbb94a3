#version 450
// gpudoctor's FMA peak shader: what fp32 rate a Vulkan device sustains on nothing but
// independent multiply-adds in registers, the ceiling a matmul shader is measured against
// (issue 18 §1). Each invocation runs `iterations` rounds of 8 independent vec4 FMA chains
// (64 FLOP a round), enough chains that a CPU driver's SIMD lanes and a GPU's pipelines never
// wait on one; it writes one vec4 so nothing is optimized away. The host (vulkan_fma_peak.cpp)
// counts FLOP = invocations × iterations × 64.
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

layout(std430, binding = 0) writeonly buffer Sink { vec4 sink[]; };
layout(push_constant) uniform Params { int iterations; } params;

void main() {
  const uint id = gl_GlobalInvocationID.x;
  vec4 a0 = vec4(float(id) * 1e-9), a1 = a0 + 0.1, a2 = a0 + 0.2, a3 = a0 + 0.3;
  vec4 a4 = a0 + 0.4, a5 = a0 + 0.5, a6 = a0 + 0.6, a7 = a0 + 0.7;
  const vec4 m = vec4(0.9999), d = vec4(1e-7);
  for (int i = 0; i < params.iterations; ++i) {
    a0 = fma(a0, m, d); a1 = fma(a1, m, d); a2 = fma(a2, m, d); a3 = fma(a3, m, d);
    a4 = fma(a4, m, d); a5 = fma(a5, m, d); a6 = fma(a6, m, d); a7 = fma(a7, m, d);
  }
  sink[id] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
