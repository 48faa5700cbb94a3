// Built with clang's HIP driver without the HIP headers (-nogpuinc): the launch stub only needs
// a declaration of hipLaunchKernel.
#define __global__ __attribute__((global))
extern "C" int hipLaunchKernel(const void*, unsigned long long, unsigned long long, void**,
                               unsigned long, void*);
struct dim3 { unsigned x, y, z; };
typedef struct ihipStream_t* hipStream_t;
__global__ void add(float* a, const float* b, int n) {
  const int i = __builtin_amdgcn_workitem_id_x();
  if (i < n) a[i] += b[i];
}
