/* A fake OpenCL ICD: enough of the ICD ABI for the real loader (ocl-icd or Khronos) to take
 * it, then one kind of misbehaviour, chosen when it is built:
 *   FAKE_CRASH      clGetDeviceIDs dereferences NULL (SIGSEGV)
 *   FAKE_HANG       clGetDeviceIDs never returns
 *   FAKE_ABORT      clGetDeviceIDs calls abort() (SIGABRT), as a driver's failed assertion does
 *   FAKE_GARBAGE    absurd counts and sizes, strings without NUL, values of the wrong size,
 *                   writes past the caller's buffer, unknown error codes
 *   FAKE_PLATFORMS  clIcdGetPlatformIDsKHR claims 4294967295 platforms
 *   FAKE_ATTACK=n   clGetDeviceIDs attacks the program that loaded it (../attack.h), then
 *                   finds no device
 * Objects start with the dispatch table pointer, as cl_icd.h requires. */
#include <CL/cl_icd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef FAKE_ATTACK
#include "attack.h"
#endif

#define FAKE_EXPORT __attribute__((visibility("default")))
#define FAKE_DEVICES 300

struct _cl_platform_id {
  cl_icd_dispatch* dispatch;
};
struct _cl_device_id {
  cl_icd_dispatch* dispatch;
};

static cl_icd_dispatch table;
static struct _cl_platform_id platform = {&table};
static struct _cl_device_id devices[FAKE_DEVICES];

/* Copies a value the way a well-behaved driver does. */
static cl_int answer(const void* src, size_t n, size_t size, void* value, size_t* size_ret) {
  if (value != NULL) {
    if (size < n) return CL_INVALID_VALUE;
    memcpy(value, src, n);
  }
  if (size_ret != NULL) *size_ret = n;
  return CL_SUCCESS;
}

static cl_int answer_string(const char* s, size_t size, void* value, size_t* size_ret) {
  return answer(s, strlen(s) + 1, size, value, size_ret);
}

/* Fills exactly what the caller asked for with letters and no NUL. */
static cl_int answer_unterminated(size_t n, size_t size, void* value, size_t* size_ret) {
  if (value != NULL) memset(value, 'Z', size < n ? size : n);
  if (size_ret != NULL) *size_ret = n;
  return CL_SUCCESS;
}

FAKE_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p, cl_platform_info name,
                                                 size_t size, void* value, size_t* size_ret) {
  (void)p;
  switch (name) {
    /* The loader itself asks for these two; they stay sane so that it takes the ICD. */
    case CL_PLATFORM_EXTENSIONS:
      return answer_string("cl_khr_icd", size, value, size_ret);
    case CL_PLATFORM_ICD_SUFFIX_KHR:
      return answer_string("FAKE", size, value, size_ret);
    case CL_PLATFORM_PROFILE:
      return answer_string("FULL_PROFILE", size, value, size_ret);
    case CL_PLATFORM_VERSION:
      return answer_string("OpenCL 1.2 fake", size, value, size_ret);
#ifdef FAKE_GARBAGE
    case CL_PLATFORM_NAME:
      return answer_unterminated(24, size, value, size_ret);
    case CL_PLATFORM_VENDOR:
      if (size_ret != NULL) *size_ret = (size_t)1 << 40;
      return CL_SUCCESS;
#else
    case CL_PLATFORM_NAME:
      return answer_string("gpudoctor fake ICD", size, value, size_ret);
    case CL_PLATFORM_VENDOR:
      return answer_string("gpudoctor tests", size, value, size_ret);
#endif
    default:
      return CL_INVALID_VALUE;
  }
}

FAKE_EXPORT cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id p, cl_device_type type,
                                              cl_uint num_entries, cl_device_id* out,
                                              cl_uint* num_devices) {
  (void)p;
  (void)type;
#if defined(FAKE_CRASH)
  (void)num_entries;
  (void)out;
  (void)num_devices;
  *(volatile int*)0 = 1;
  return CL_SUCCESS;
#elif defined(FAKE_HANG)
  (void)num_entries;
  (void)out;
  (void)num_devices;
  for (;;) pause();
#elif defined(FAKE_ABORT)
  (void)num_entries;
  (void)out;
  (void)num_devices;
  abort();
#elif defined(FAKE_ATTACK)
  (void)num_entries;
  (void)out;
  if (fake_attack()) return CL_OUT_OF_HOST_MEMORY;
  if (num_devices != NULL) *num_devices = 0;
  return CL_DEVICE_NOT_FOUND;
#else
  cl_uint i;
  if (num_devices != NULL) *num_devices = 0x80000000u;
  for (i = 0; out != NULL && i < num_entries && i < FAKE_DEVICES; ++i) out[i] = &devices[i];
  return CL_SUCCESS;
#endif
}

FAKE_EXPORT cl_int CL_API_CALL clGetDeviceInfo(cl_device_id d, cl_device_info name, size_t size,
                                               void* value, size_t* size_ret) {
  (void)d;
  switch (name) {
    case CL_DEVICE_NAME:
      return answer_unterminated(13, size, value, size_ret);
    case CL_DEVICE_VENDOR:
      if (size_ret != NULL) *size_ret = (size_t)1 << 40;
      return CL_SUCCESS;
    case CL_DEVICE_VENDOR_ID: {
      cl_ushort v = 0xbeef; /* two bytes for a four-byte value */
      return answer(&v, sizeof v, size, value, size_ret);
    }
    case CL_DEVICE_TYPE: {
      cl_device_type t = 0xdead0000u;
      return answer(&t, sizeof t, size, value, size_ret);
    }
    case CL_DEVICE_MAX_COMPUTE_UNITS: {
      cl_uint v = 7;
      return answer(&v, sizeof v, size, value, size_ret);
    }
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: {
      cl_uint v = 1000000;
      return answer(&v, sizeof v, size, value, size_ret);
    }
    case CL_DEVICE_VERSION:
      /* Writes 32 bytes more than it was given room for. */
      if (value != NULL) memset(value, 'V', size + 32);
      if (size_ret != NULL) *size_ret = 16;
      return CL_SUCCESS;
    case CL_DEVICE_EXTENSIONS:
      return answer_string("cl_khr_fp64 \xff\xfe cl_khr_pci_bus_info", size, value, size_ret);
    case CL_DEVICE_PCI_BUS_INFO_KHR: {
      cl_device_pci_bus_info_khr info = {0, 999, 99, 9};
      return answer(&info, sizeof info, size, value, size_ret);
    }
    case CL_DRIVER_VERSION:
      return -9999;
    default:
      return CL_INVALID_VALUE;
  }
}

FAKE_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                      cl_platform_id* platforms,
                                                      cl_uint* num_platforms) {
  table.clGetPlatformInfo = clGetPlatformInfo;
  table.clGetDeviceIDs = clGetDeviceIDs;
  table.clGetDeviceInfo = clGetDeviceInfo;
  for (int i = 0; i < FAKE_DEVICES; ++i) devices[i].dispatch = &table;
#ifdef FAKE_PLATFORMS
  if (num_platforms != NULL) *num_platforms = 0xffffffffu;
#else
  if (num_platforms != NULL) *num_platforms = 1;
#endif
  if (platforms != NULL && num_entries > 0) platforms[0] = &platform;
  return CL_SUCCESS;
}

FAKE_EXPORT void* CL_API_CALL clGetExtensionFunctionAddress(const char* name) {
  void* address = NULL;
  clIcdGetPlatformIDsKHR_fn fn = clIcdGetPlatformIDsKHR;
  /* ISO C has no cast between function and object pointers; POSIX guarantees the copy works. */
  if (strcmp(name, "clIcdGetPlatformIDsKHR") == 0) memcpy(&address, &fn, sizeof address);
  return address;
}
