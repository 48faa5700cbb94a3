/* A libamdhip64.so at the HIP runtime ABI, for tests: it answers what one real Radeon RX 470/480
 * answered to hipInfo (see README.md), and in its other builds crashes, hangs or finds no
 * device. Only the entry points gpudoctor calls exist; prototypes as in hip_runtime_api.h.
 *
 * Build variants (compile definitions):
 *   FAKE_HIP_COUNT_CRASH   hipGetDeviceCount writes through a null pointer (SIGSEGV)
 *   FAKE_HIP_COUNT_HANG    hipGetDeviceCount never returns
 *   FAKE_HIP_NO_DEVICE     hipGetDeviceCount returns 100 (hipErrorNoDevice)
 *   FAKE_HIP_MEMORY        also hipSetDevice, hipMalloc, hipFree, hipMemcpy and
 *                          hipDeviceSynchronize over host memory, for the bench's rocBLAS
 *                          series with the fake librocblas (fake_rocblas.c)
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int hipError_t;

enum { kSuccess = 0, kInvalidValue = 1, kNoDevice = 100, kInvalidDevice = 101 };

/* hipInfo on a Radeon RX 470/480 (README.md). */
static const char kName[] = "Ellesmere [Radeon RX 470/480]";

/* hipDeviceAttribute_t → value. What hipInfo did not print is absent and answered with
 * hipErrorInvalidValue, so gpudoctor must report it as unknown. */
static const int kAttributes[][2] = {
    {5, 1130000},  /* ClockRate, kHz: "clockRate: 1130 Mhz" */
    {19, 0},       /* L2CacheSize: "l2CacheSize: 0" */
    {60, 2000000}, /* MemoryClockRate, kHz: "memoryClockRate: 2000 Mhz" */
    {59, 256},     /* MemoryBusWidth */
    {63, 32},      /* MultiprocessorCount */
    {67, 2},       /* PciBusId: "pciBusID: 2" */
    {68, 0},       /* PciDeviceId: "pciDeviceID: 0" */
    {74, 65536},   /* MaxSharedMemoryPerBlock: "sharedMemPerBlock: 64.00 KB" */
    {87, 64},      /* WarpSize */
};

hipError_t hipGetDeviceCount(int* count) {
#if defined(FAKE_HIP_COUNT_CRASH)
  volatile int* null = NULL;
  *null = 1;
#elif defined(FAKE_HIP_COUNT_HANG)
  for (;;) pause();
#elif defined(FAKE_HIP_NO_DEVICE)
  (void)count;
  return kNoDevice;
#endif
  if (count == NULL) return kInvalidValue;
  *count = 1;
  return kSuccess;
}

hipError_t hipDeviceGetAttribute(int* value, int attribute, int device) {
  if (value == NULL) return kInvalidValue;
  if (device != 0) return kInvalidDevice;
  for (size_t i = 0; i < sizeof kAttributes / sizeof kAttributes[0]; ++i) {
    if (kAttributes[i][0] == attribute) {
      *value = kAttributes[i][1];
      return kSuccess;
    }
  }
  return kInvalidValue;
}

hipError_t hipDeviceGetName(char* name, int len, int device) {
  if (name == NULL || len <= 0) return kInvalidValue;
  if (device != 0) return kInvalidDevice;
  strncpy(name, kName, (size_t)len - 1);
  name[len - 1] = '\0';
  return kSuccess;
}

const char* hipGetErrorName(hipError_t error) {
  switch (error) {
    case kSuccess: return "hipSuccess";
    case kInvalidValue: return "hipErrorInvalidValue";
    case kNoDevice: return "hipErrorNoDevice";
    case kInvalidDevice: return "hipErrorInvalidDevice";
    default: return "hipErrorUnknown";
  }
}

#if defined(FAKE_HIP_MEMORY)
/* "Device" memory is host memory: the fake librocblas reads it as it is. */
hipError_t hipSetDevice(int device) { return device == 0 ? kSuccess : kInvalidDevice; }

hipError_t hipMalloc(void** ptr, size_t bytes) {
  if (ptr == NULL) return kInvalidValue;
  *ptr = malloc(bytes == 0 ? 1 : bytes);
  return *ptr != NULL ? kSuccess : 2; /* hipErrorOutOfMemory */
}

hipError_t hipFree(void* ptr) {
  free(ptr);
  return kSuccess;
}

hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, int kind) {
  if (dst == NULL || src == NULL || kind < 0 || kind > 4) return kInvalidValue;
  memcpy(dst, src, bytes);
  return kSuccess;
}

hipError_t hipDeviceSynchronize(void) { return kSuccess; }
#endif
