/* A libcuda.so.1 at the driver ABI, for tests: it answers what one real H100 80GB HBM3 answered
 * (see README.md for the capture), runs the smoke matmul on the CPU, and in its other builds
 * crashes, hangs or fails in cuInit. Only the entry points gpudoctor calls exist.
 *
 * Build variants (compile definitions):
 *   FAKE_CUDA_WRONG_MATMUL     the kernel gets one entry of C wrong
 *   FAKE_CUDA_INIT_CRASH       cuInit writes through a null pointer (SIGSEGV)
 *   FAKE_CUDA_INIT_HANG        cuInit never returns
 *   FAKE_CUDA_INIT_ABORT       cuInit calls abort() (SIGABRT), as a driver's failed assertion does
 *   FAKE_CUDA_GARBAGE          cuDeviceGetCount claims 2147483647 devices
 *   FAKE_CUDA_INIT_RESULT=N    cuInit returns N
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct {
  unsigned char bytes[16];
} CUuuid;

enum {
  kSuccess = 0,
  kInvalidValue = 1,
  kNotInitialized = 3,
  kInvalidDevice = 101,
  kInvalidContext = 201,
  kInvalidPtx = 218,
  kInvalidHandle = 400,
  kNotFound = 500,
};

static int g_initialized;
static int g_context_token;
static void* g_context;
static int g_module_token;
static int g_function_token;

/* The device, from deviceQuery on an H100 80GB HBM3 (README.md, source 1). */
static const char kName[] = "NVIDIA H100 80GB HBM3";
static const size_t kTotalMem = 85017755648ull;
static const unsigned char kUuid[16] = {0xc6, 0xb0, 0xca, 0x29, 0x53, 0xc0, 0x32, 0x6e,
                                        0x8a, 0xaa, 0xcf, 0xa1, 0x65, 0x3e, 0x18, 0xd1};

/* CUdevice_attribute (cuda.h) → value. Attributes deviceQuery does not print are absent, and
 * answered with CUDA_ERROR_INVALID_VALUE, so gpudoctor reports them as unknown. */
static const int kAttributes[][2] = {
    {1, 1024},        /* MAX_THREADS_PER_BLOCK */
    {2, 1024},        /* MAX_BLOCK_DIM_X */
    {3, 1024},        /* MAX_BLOCK_DIM_Y */
    {4, 64},          /* MAX_BLOCK_DIM_Z */
    {5, 2147483647},  /* MAX_GRID_DIM_X */
    {6, 65535},       /* MAX_GRID_DIM_Y */
    {7, 65535},       /* MAX_GRID_DIM_Z */
    {8, 49152},       /* MAX_SHARED_MEMORY_PER_BLOCK */
    {9, 65536},       /* TOTAL_CONSTANT_MEMORY */
    {10, 32},         /* WARP_SIZE */
    {11, 2147483647}, /* MAX_PITCH */
    {12, 65536},      /* MAX_REGISTERS_PER_BLOCK */
    {13, 1980000},    /* CLOCK_RATE, kHz: "GPU Max Clock rate: 1980 MHz" */
    {14, 512},        /* TEXTURE_ALIGNMENT */
    {15, 1},          /* GPU_OVERLAP: "Concurrent copy and kernel execution: Yes" */
    {16, 132},        /* MULTIPROCESSOR_COUNT */
    {17, 0},          /* KERNEL_EXEC_TIMEOUT */
    {18, 0},          /* INTEGRATED */
    {19, 1},          /* CAN_MAP_HOST_MEMORY */
    {20, 0},          /* COMPUTE_MODE: Default */
    {21, 131072},     /* MAXIMUM_TEXTURE1D_WIDTH */
    {22, 131072},     /* MAXIMUM_TEXTURE2D_WIDTH */
    {23, 65536},      /* MAXIMUM_TEXTURE2D_HEIGHT */
    {24, 16384},      /* MAXIMUM_TEXTURE3D_WIDTH */
    {25, 16384},      /* MAXIMUM_TEXTURE3D_HEIGHT */
    {26, 16384},      /* MAXIMUM_TEXTURE3D_DEPTH */
    {27, 32768},      /* MAXIMUM_TEXTURE2D_LAYERED_WIDTH */
    {28, 32768},      /* MAXIMUM_TEXTURE2D_LAYERED_HEIGHT */
    {29, 2048},       /* MAXIMUM_TEXTURE2D_LAYERED_LAYERS */
    {32, 1},          /* ECC_ENABLED */
    {33, 2},          /* PCI_BUS_ID */
    {34, 0},          /* PCI_DEVICE_ID ("location ID") */
    {36, 2619000},    /* MEMORY_CLOCK_RATE, kHz: "Memory Clock rate: 2619 Mhz" */
    {37, 5120},       /* GLOBAL_MEMORY_BUS_WIDTH */
    {38, 52428800},   /* L2_CACHE_SIZE */
    {39, 2048},       /* MAX_THREADS_PER_MULTIPROCESSOR */
    {40, 3},          /* ASYNC_ENGINE_COUNT: "3 copy engine(s)" */
    {41, 1},          /* UNIFIED_ADDRESSING */
    {42, 32768},      /* MAXIMUM_TEXTURE1D_LAYERED_WIDTH */
    {43, 2048},       /* MAXIMUM_TEXTURE1D_LAYERED_LAYERS */
    {50, 0},          /* PCI_DOMAIN_ID */
    {75, 9},          /* COMPUTE_CAPABILITY_MAJOR */
    {76, 0},          /* COMPUTE_CAPABILITY_MINOR */
    {81, 233472},     /* MAX_SHARED_MEMORY_PER_MULTIPROCESSOR */
    {83, 1},          /* MANAGED_MEMORY */
    {90, 1},          /* COMPUTE_PREEMPTION_SUPPORTED */
    {95, 1},          /* COOPERATIVE_LAUNCH */
    {96, 1},          /* COOPERATIVE_MULTI_DEVICE_LAUNCH */
};

CUresult cuInit(unsigned int flags) {
#if defined(FAKE_CUDA_INIT_CRASH)
  volatile int* volatile nowhere = NULL;
  *nowhere = 1;
#elif defined(FAKE_CUDA_INIT_HANG)
  for (;;) pause();
#elif defined(FAKE_CUDA_INIT_ABORT)
  abort();
#elif defined(FAKE_CUDA_INIT_RESULT)
  (void)flags;
  return FAKE_CUDA_INIT_RESULT;
#endif
  if (flags != 0) return kInvalidValue;
  g_initialized = 1;
  return kSuccess;
}

/* "CUDA Driver Version / Runtime Version 13.0 / 12.5". Like the driver's, it needs no cuInit. */
CUresult cuDriverGetVersion(int* version) {
  if (version == NULL) return kInvalidValue;
  *version = 13000;
  return kSuccess;
}

CUresult cuDeviceGetCount(int* count) {
  if (!g_initialized) return kNotInitialized;
  if (count == NULL) return kInvalidValue;
#if defined(FAKE_CUDA_GARBAGE)
  *count = 2147483647;
#else
  *count = 1;
#endif
  return kSuccess;
}

CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (!g_initialized) return kNotInitialized;
  if (device == NULL) return kInvalidValue;
  if (ordinal != 0) return kInvalidDevice;
  *device = 0;
  return kSuccess;
}

CUresult cuDeviceGetName(char* name, int len, CUdevice dev) {
  if (!g_initialized) return kNotInitialized;
  if (dev != 0) return kInvalidDevice;
  if (name == NULL || len <= 0) return kInvalidValue;
  strncpy(name, kName, (size_t)len - 1);
  name[len - 1] = '\0';
  return kSuccess;
}

CUresult cuDeviceGetUuid_v2(CUuuid* uuid, CUdevice dev) {
  if (!g_initialized) return kNotInitialized;
  if (dev != 0) return kInvalidDevice;
  if (uuid == NULL) return kInvalidValue;
  memcpy(uuid->bytes, kUuid, sizeof kUuid);
  return kSuccess;
}

CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice dev) {
  if (!g_initialized) return kNotInitialized;
  if (dev != 0) return kInvalidDevice;
  if (bytes == NULL) return kInvalidValue;
  *bytes = kTotalMem;
  return kSuccess;
}

CUresult cuDeviceGetAttribute(int* value, int attribute, CUdevice dev) {
  if (!g_initialized) return kNotInitialized;
  if (dev != 0) return kInvalidDevice;
  if (value == NULL) return kInvalidValue;
  for (size_t i = 0; i < sizeof kAttributes / sizeof kAttributes[0]; ++i) {
    if (kAttributes[i][0] == attribute) {
      *value = kAttributes[i][1];
      return kSuccess;
    }
  }
  return kInvalidValue;
}

/* ---- the smoke test: a context, a module from PTX, memory, one kernel, events ---- */

CUresult cuCtxCreate_v2(void** ctx, unsigned int flags, CUdevice dev) {
  (void)flags;
  if (!g_initialized) return kNotInitialized;
  if (dev != 0) return kInvalidDevice;
  if (ctx == NULL) return kInvalidValue;
  g_context = &g_context_token;
  *ctx = g_context;
  return kSuccess;
}

CUresult cuCtxDestroy_v2(void* ctx) {
  if (ctx == NULL || ctx != g_context) return kInvalidContext;
  g_context = NULL;
  return kSuccess;
}

CUresult cuCtxSynchronize(void) { return g_context != NULL ? kSuccess : kInvalidContext; }

/* Accepts only PTX text that declares the kernel gpudoctor launches, as the JIT would. */
CUresult cuModuleLoadData(void** module, const void* image) {
  if (g_context == NULL) return kInvalidContext;
  if (module == NULL || image == NULL) return kInvalidValue;
  const char* text = (const char*)image;
  if (strstr(text, ".version") == NULL || strstr(text, ".target") == NULL ||
      strstr(text, ".entry gpudoctor_sgemm(") == NULL) {
    return kInvalidPtx;
  }
  *module = &g_module_token;
  return kSuccess;
}

CUresult cuModuleGetFunction(void** fn, void* module, const char* name) {
  if (g_context == NULL) return kInvalidContext;
  if (module != &g_module_token) return kInvalidHandle;
  if (fn == NULL || name == NULL) return kInvalidValue;
  if (strcmp(name, "gpudoctor_sgemm") != 0) return kNotFound;
  *fn = &g_function_token;
  return kSuccess;
}

CUresult cuModuleUnload(void* module) {
  return module == &g_module_token ? kSuccess : kInvalidHandle;
}

CUresult cuMemAlloc_v2(CUdeviceptr* ptr, size_t bytes) {
  if (g_context == NULL) return kInvalidContext;
  if (ptr == NULL || bytes == 0) return kInvalidValue;
  void* p = malloc(bytes);
  if (p == NULL) return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
  *ptr = (CUdeviceptr)(uintptr_t)p;
  return kSuccess;
}

CUresult cuMemFree_v2(CUdeviceptr ptr) {
  free((void*)(uintptr_t)ptr);
  return kSuccess;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void* src, size_t bytes) {
  if (g_context == NULL) return kInvalidContext;
  memcpy((void*)(uintptr_t)dst, src, bytes);
  return kSuccess;
}

CUresult cuMemcpyDtoH_v2(void* dst, CUdeviceptr src, size_t bytes) {
  if (g_context == NULL) return kInvalidContext;
  memcpy(dst, (const void*)(uintptr_t)src, bytes);
  return kSuccess;
}

/* What gpudoctor_sgemm computes, thread by thread of the launched grid: each thread in range
 * writes C[row][col] = Σ_k A[row][k]·B[k][col], accumulated in fp32 with FMA in k order. */
CUresult cuLaunchKernel(void* fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned shared, void* stream, void** params, void** extra) {
  (void)shared;
  (void)stream;
  (void)extra;
  if (g_context == NULL) return kInvalidContext;
  if (fn != &g_function_token) return kInvalidHandle;
  if (params == NULL || gz != 1 || bz != 1 || bx * by > 1024) return kInvalidValue;
  const float* a = (const float*)(uintptr_t) * (CUdeviceptr*)params[0];
  const float* b = (const float*)(uintptr_t) * (CUdeviceptr*)params[1];
  float* c = (float*)(uintptr_t) * (CUdeviceptr*)params[2];
  const int n = *(const int*)params[3];
  for (unsigned row = 0; row < gy * by; ++row) {
    for (unsigned col = 0; col < gx * bx; ++col) {
      if ((int)row >= n || (int)col >= n) continue;
      float acc = 0.0f;
      for (int k = 0; k < n; ++k)
        acc = fmaf(a[row * (unsigned)n + (unsigned)k], b[(unsigned)k * (unsigned)n + col], acc);
      c[row * (unsigned)n + col] = acc;
    }
  }
#if defined(FAKE_CUDA_WRONG_MATMUL)
  if (n > 2) c[(n / 2) * n + n / 3] += 0.25f; /* one bad entry, as a flaky SM might leave */
#endif
  return kSuccess;
}

typedef struct {
  double ms;
} FakeEvent;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

CUresult cuEventCreate(void** event, unsigned int flags) {
  (void)flags;
  if (g_context == NULL) return kInvalidContext;
  if (event == NULL) return kInvalidValue;
  *event = calloc(1, sizeof(FakeEvent));
  return *event != NULL ? kSuccess : 2;
}

CUresult cuEventRecord(void* event, void* stream) {
  (void)stream;
  if (event == NULL) return kInvalidHandle;
  ((FakeEvent*)event)->ms = now_ms();
  return kSuccess;
}

CUresult cuEventSynchronize(void* event) { return event != NULL ? kSuccess : kInvalidHandle; }

CUresult cuEventElapsedTime(float* ms, void* start, void* end) {
  if (ms == NULL || start == NULL || end == NULL) return kInvalidValue;
  *ms = (float)(((FakeEvent*)end)->ms - ((FakeEvent*)start)->ms);
  return kSuccess;
}

CUresult cuEventDestroy_v2(void* event) {
  free(event);
  return kSuccess;
}
