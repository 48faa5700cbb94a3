/* A libnvidia-ml.so.1 at the NVML ABI, for tests: it answers what `nvidia-smi -a` showed for
 * one real H100 80GB HBM3 (see README.md for the capture), and in its other builds fails or
 * crashes in nvmlInit_v2. Only the entry points gpudoctor calls exist.
 *
 * Build variants (compile definitions):
 *   FAKE_NVML_INIT_RESULT=N   nvmlInit_v2 returns N (18: driver/library version mismatch)
 *   FAKE_NVML_INIT_CRASH      nvmlInit_v2 writes through a null pointer (SIGSEGV)
 *   FAKE_NVML_INIT_ABORT      nvmlInit_v2 calls abort() (SIGABRT)
 *   FAKE_NVML_INIT_HANG       nvmlInit_v2 never returns
 *   FAKE_NVML_GARBAGE         version strings fill the caller's buffer without a NUL, and
 *                             nvmlDeviceGetCount_v2 claims 4294967295 devices
 *   FAKE_NVML_LIVE            three GPUs for the live state: 0 the idle H100 above, 1 a P100
 *                             whose memory a process holds, 2 an MX330 slowed down by heat
 *                             (README.md: which values are the pastes' and which stand in)
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st* nvmlDevice_t;

enum {
  kSuccess = 0,
  kUninitialized = 1,
  kInvalidArgument = 2,
  kNotSupported = 3,
  kInsufficientSize = 7,
  kArgumentVersionMismatch = 25,
};

typedef struct {
  char busIdLegacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[32];
} nvmlPciInfo_t;

typedef struct {
  unsigned int version;
  unsigned long long total;
  unsigned long long reserved;
  unsigned long long free;
  unsigned long long used;
} nvmlMemory_v2_t;

typedef struct {
  unsigned int gpu;
  unsigned int memory;
} nvmlUtilization_t;

typedef struct {
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
} nvmlProcessInfo_t;

#define MIB 1048576ull

static int g_initialized;
#if defined(FAKE_NVML_LIVE)
#define DEVICE_COUNT 3
#else
#define DEVICE_COUNT 1
#endif
static int g_device_tokens[DEVICE_COUNT];
#define DEVICE ((nvmlDevice_t)&g_device_tokens[0])

/* The index of a handle this library gave out; -1 for any other pointer. */
static int device_index(nvmlDevice_t d) {
  for (int i = 0; i < DEVICE_COUNT; ++i) {
    if (d == (nvmlDevice_t)&g_device_tokens[i]) return i;
  }
  return -1;
}

nvmlReturn_t nvmlInit_v2(void) {
#if defined(FAKE_NVML_INIT_CRASH)
  volatile int* volatile nowhere = NULL;
  *nowhere = 1;
#elif defined(FAKE_NVML_INIT_RESULT)
  return FAKE_NVML_INIT_RESULT;
#elif defined(FAKE_NVML_INIT_ABORT)
  abort();
#elif defined(FAKE_NVML_INIT_HANG)
  for (;;) pause();
#endif
  g_initialized = 1;
  return kSuccess;
}

nvmlReturn_t nvmlShutdown(void) {
  if (!g_initialized) return kUninitialized;
  g_initialized = 0;
  return kSuccess;
}

/* The texts NVML gives for these codes, as its users quote them. */
const char* nvmlErrorString(nvmlReturn_t result) {
  switch (result) {
    case 0:
      return "Success";
    case 1:
      return "Uninitialized";
    case 3:
      return "Not Supported";
    case 18:
      return "RM has detected an NVML/RM version mismatch.";
    default:
      return "Unknown Error";
  }
}

static nvmlReturn_t copy_text(char* out, unsigned int length, const char* text) {
  if (!g_initialized) return kUninitialized;
  if (out == NULL) return kInvalidArgument;
#if defined(FAKE_NVML_GARBAGE)
  (void)text;
  memset(out, '\x1b', length); /* terminal escapes, and no NUL */
#else
  if (strlen(text) + 1 > length) return kInsufficientSize;
  memcpy(out, text, strlen(text) + 1);
#endif
  return kSuccess;
}

#define CHECK_DEVICE(dev)                                \
  do {                                                   \
    if (!g_initialized) return kUninitialized;           \
    if (device_index(dev) < 0) return kInvalidArgument;  \
  } while (0)

/* Only GPU 0 (the H100 capture) answers the calls the other GPUs' pastes do not show. */
#define ONLY_H100(dev)                                   \
  do {                                                   \
    if (device_index(dev) != 0) return kNotSupported;    \
  } while (0)

#define ANSWER(ptr, value)                      \
  do {                                          \
    if ((ptr) == NULL) return kInvalidArgument; \
    *(ptr) = (value);                           \
    return kSuccess;                            \
  } while (0)

/* "Driver Version: 545.23.08", "CUDA Version: 12.3". The NVML version is by construction the
 * CUDA major version followed by the driver version. */
nvmlReturn_t nvmlSystemGetDriverVersion(char* v, unsigned int n) {
  return copy_text(v, n, "545.23.08");
}
nvmlReturn_t nvmlSystemGetNVMLVersion(char* v, unsigned int n) {
  return copy_text(v, n, "12.545.23.08");
}
nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int* v) {
  if (!g_initialized) return kUninitialized;
  ANSWER(v, 12030);
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int* count) {
  if (!g_initialized) return kUninitialized;
#if defined(FAKE_NVML_GARBAGE)
  ANSWER(count, 4294967295u);
#else
  ANSWER(count, (unsigned int)DEVICE_COUNT);
#endif
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device) {
  if (!g_initialized) return kUninitialized;
  if (index >= DEVICE_COUNT) return kInvalidArgument;
  ANSWER(device, (nvmlDevice_t)&g_device_tokens[index]);
}

/* GPU 1: "Tesla P100-SXM2..." as nvidia-smi cut it, named in full by its device id 15f9; GPU 2:
 * "NVIDIA GeForce ..." as nvidia-smi cut it, an MX330 by its issue's title. */
static const char* const kNames[] = {"NVIDIA H100 80GB HBM3", "Tesla P100-SXM2-16GB",
                                     "NVIDIA GeForce MX330"};

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char* v, unsigned int n) {
  CHECK_DEVICE(d);
  return copy_text(v, n, kNames[device_index(d)]);
}
nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char* v, unsigned int n) {
  CHECK_DEVICE(d);
  ONLY_H100(d);
  return copy_text(v, n, "GPU-10f35015-e921-bfab-2eb8-4e9b6664d5f1");
}
nvmlReturn_t nvmlDeviceGetSerial(nvmlDevice_t d, char* v, unsigned int n) {
  CHECK_DEVICE(d);
  ONLY_H100(d);
  return copy_text(v, n, "1654123038646");
}
nvmlReturn_t nvmlDeviceGetVbiosVersion(nvmlDevice_t d, char* v, unsigned int n) {
  CHECK_DEVICE(d);
  ONLY_H100(d);
  return copy_text(v, n, "96.00.74.00.0D");
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t* pci) {
  CHECK_DEVICE(d);
  if (pci == NULL) return kInvalidArgument;
  memset(pci, 0, sizeof *pci);
  if (device_index(d) == 1) { /* "00000000:05:00.0"; device id 15f9 (pci.ids' P100 SXM2 16GB) */
    strcpy(pci->busIdLegacy, "0000:05:00.0");
    strcpy(pci->busId, "00000000:05:00.0");
    pci->bus = 0x05;
    pci->pciDeviceId = 0x15F910DEu;
    return kSuccess;
  }
  if (device_index(d) == 2) { /* "00000000:2D:00.0"; device id 1d16 (pci.ids' GeForce MX330) */
    strcpy(pci->busIdLegacy, "0000:2D:00.0");
    strcpy(pci->busId, "00000000:2D:00.0");
    pci->bus = 0x2D;
    pci->pciDeviceId = 0x1D1610DEu;
    return kSuccess;
  }
  strcpy(pci->busIdLegacy, "0000:19:00.0");
  strcpy(pci->busId, "00000000:19:00.0");
  pci->domain = 0x0000;
  pci->bus = 0x19;
  pci->device = 0x00;
  pci->pciDeviceId = 0x233010DEu;
  pci->pciSubSystemId = 0x16C110DEu;
  return kSuccess;
}

nvmlReturn_t nvmlDeviceGetArchitecture(nvmlDevice_t d, unsigned int* arch) {
  CHECK_DEVICE(d);
  ONLY_H100(d);
  ANSWER(arch, 9u); /* "Product Architecture: Hopper" = NVML_DEVICE_ARCH_HOPPER */
}

/* nvidia-smi -a does not show the compute capability, so this capture cannot answer it. */
nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int* major, int* minor) {
  CHECK_DEVICE(d);
  (void)major;
  (void)minor;
  return kNotSupported;
}

/* "FB Memory Usage: Total 81559 MiB, Reserved 328 MiB, Used 2 MiB, Free 81227 MiB". */
nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t d, nvmlMemory_v2_t* m) {
  CHECK_DEVICE(d);
  if (m == NULL) return kInvalidArgument;
  if (m->version != (unsigned int)(sizeof(nvmlMemory_v2_t) | (2u << 24))) {
    return kArgumentVersionMismatch;
  }
  if (device_index(d) == 1) { /* "12799MiB / 16280MiB" */
    m->total = 16280 * MIB;
    m->reserved = 0;
    m->used = 12799 * MIB;
    m->free = (16280 - 12799) * MIB;
    return kSuccess;
  }
  if (device_index(d) == 2) { /* "578MiB /  2002MiB" */
    m->total = 2002 * MIB;
    m->reserved = 0;
    m->used = 578 * MIB;
    m->free = (2002 - 578) * MIB;
    return kSuccess;
  }
  m->total = 81559 * MIB;
  m->reserved = 328 * MIB;
  m->used = 2 * MIB;
  m->free = 81227 * MIB;
  return kSuccess;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned int* t) {
  static const unsigned int kTemp[] = {33, 36, 67}; /* "33 C"; "36C"; "67C" */
  CHECK_DEVICE(d);
  if (sensor != 0) return kInvalidArgument;
  ANSWER(t, kTemp[device_index(d)]);
}

/* The H100's nvidia-smi shows only T.Limit margins, not these thresholds; the MX330's
 * "GPU Shutdown Temp: 102 C", "GPU Slowdown Temp: 97 C" (nvidia-smi -q -d TEMPERATURE). */
nvmlReturn_t nvmlDeviceGetTemperatureThreshold(nvmlDevice_t d, int type, unsigned int* t) {
  CHECK_DEVICE(d);
  if (device_index(d) != 2) return kNotSupported;
  if (type == 0) ANSWER(t, 102u);
  if (type == 1) ANSWER(t, 97u);
  return kNotSupported;
}

/* "Utilization: Gpu 0 %, Memory 0 %". The other GPUs' tables show GPU-Util only (0%, 7%),
 * not the memory figure this call also returns, so they do not answer it. */
nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t* u) {
  CHECK_DEVICE(d);
  ONLY_H100(d);
  if (u == NULL) return kInvalidArgument;
  u->gpu = 0;
  u->memory = 0;
  return kSuccess;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int* mw) {
  CHECK_DEVICE(d);
  if (device_index(d) == 1) ANSWER(mw, 41000u); /* "41W / 300W" */
  if (device_index(d) == 2) return kNotSupported; /* "N/A /  N/A" */
  ANSWER(mw, 72020u); /* "Power Draw: 72.02 W" */
}

nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned int* mw) {
  CHECK_DEVICE(d);
  if (device_index(d) == 1) ANSWER(mw, 300000u);
  if (device_index(d) == 2) return kNotSupported;
  ANSWER(mw, 700000u); /* "Current Power Limit: 700.00 W" */
}

/* "Clocks: Graphics 345, SM 345, Memory 2619 MHz"; "Max Clocks: 1980, 1980, 2619 MHz". */
nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned int* mhz) {
  static const unsigned int kCurrent[] = {345, 345, 2619, 765};
  CHECK_DEVICE(d);
  ONLY_H100(d);
  if (type < 0 || type > 3) return kInvalidArgument;
  ANSWER(mhz, kCurrent[type]);
}
nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, int type, unsigned int* mhz) {
  static const unsigned int kMax[] = {1980, 1980, 2619, 1545};
  CHECK_DEVICE(d);
  ONLY_H100(d);
  if (type < 0 || type > 3) return kInvalidArgument;
  ANSWER(mhz, kMax[type]);
}

/* "PCIe Generation: Max 5, Current 5"; "Link Width: Max 16x, Current 16x". */
nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned int* v) {
  CHECK_DEVICE(d);
  ONLY_H100(d);
  ANSWER(v, 5u);
}
nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t d, unsigned int* v) {
  CHECK_DEVICE(d);
  ONLY_H100(d);
  ANSWER(v, 5u);
}
nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned int* v) {
  CHECK_DEVICE(d);
  ONLY_H100(d);
  ANSWER(v, 16u);
}
nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d, unsigned int* v) {
  CHECK_DEVICE(d);
  ONLY_H100(d);
  ANSWER(v, 16u);
}

/* "ECC Mode: Current Enabled, Pending Enabled"; every ECC error count 0. */
nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t d, int* current, int* pending) {
  CHECK_DEVICE(d);
  if (device_index(d) == 2) return kNotSupported; /* "N/A" */
  if (current == NULL || pending == NULL) return kInvalidArgument;
  *current = 1;
  *pending = 1;
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t d, int type, int counter,
                                         unsigned long long* count) {
  CHECK_DEVICE(d);
  if (device_index(d) == 2) return kNotSupported; /* the P100's "Volatile Uncorr. ECC 0" */
  if (type < 0 || type > 1 || counter < 0 || counter > 1) return kInvalidArgument;
  ANSWER(count, 0ull);
}

nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t d, int* mode) {
  CHECK_DEVICE(d);
  ONLY_H100(d);
  ANSWER(mode, 1); /* "Persistence Mode: Enabled" */
}

nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned int* current, unsigned int* pending) {
  CHECK_DEVICE(d);
  ONLY_H100(d);
  if (current == NULL || pending == NULL) return kInvalidArgument;
  *current = 0; /* "MIG Mode: Current Disabled, Pending Disabled" */
  *pending = 0;
  return kSuccess;
}

nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t d, int* mode) {
  CHECK_DEVICE(d);
  ONLY_H100(d);
  ANSWER(mode, 0); /* "Compute Mode: Default" */
}

/* "Clocks Event Reasons: Idle Active", every other reason Not Active. */
/* GPU 1: none active (stand-in: the table does not show them); GPU 2: SW Thermal Slowdown
 * (stand-in for the thread's diagnosis: clocks held down at the Max Operating Temp). */
nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long* bits) {
  static const unsigned long long kBits[] = {0x1ull, 0x0ull, 0x20ull};
  CHECK_DEVICE(d);
  ANSWER(bits, kBits[device_index(d)]);
}

/* "Retired Pages: N/A" on the H100 (it remaps rows instead); the P100: none (stand-in). */
nvmlReturn_t nvmlDeviceGetRetiredPages(nvmlDevice_t d, int cause, unsigned int* count,
                                       unsigned long long* addresses) {
  (void)addresses;
  CHECK_DEVICE(d);
  if (device_index(d) != 1) return kNotSupported;
  if (cause < 0 || cause > 1) return kInvalidArgument;
  ANSWER(count, 0u);
}
nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t d, int* pending) {
  CHECK_DEVICE(d);
  if (device_index(d) != 1) return kNotSupported;
  ANSWER(pending, 0);
}

/* "Remapped Rows: Correctable Error 0, Uncorrectable Error 0, Pending No, Remapping Failure
 * Occurred No". */
nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t d, unsigned int* corr, unsigned int* unc,
                                       unsigned int* pending, unsigned int* failure) {
  CHECK_DEVICE(d);
  ONLY_H100(d);
  if (corr == NULL || unc == NULL || pending == NULL || failure == NULL) return kInvalidArgument;
  *corr = 0;
  *unc = 0;
  *pending = 0;
  *failure = 0;
  return kSuccess;
}

/* "Processes: None" on the H100 and the MX330 (stand-in); on the P100 one compute process
 * holding nearly all of the 12799 MiB in use (stand-in: see README.md). */
#define HELD_PID 23456u
static nvmlReturn_t no_processes(nvmlDevice_t d, unsigned int* count, nvmlProcessInfo_t* infos) {
  (void)infos;
  CHECK_DEVICE(d);
  ANSWER(count, 0u);
}
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d, unsigned int* count,
                                                     nvmlProcessInfo_t* infos) {
  CHECK_DEVICE(d);
  if (device_index(d) != 1) return no_processes(d, count, infos);
  if (count == NULL) return kInvalidArgument;
  if (infos == NULL || *count < 1) {
    *count = 1;
    return kInsufficientSize;
  }
  memset(&infos[0], 0, sizeof infos[0]);
  infos[0].pid = HELD_PID;
  infos[0].usedGpuMemory = 12789 * MIB;
  infos[0].gpuInstanceId = 0xFFFFFFFFu;
  infos[0].computeInstanceId = 0xFFFFFFFFu;
  *count = 1;
  return kSuccess;
}

nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char* name, unsigned int length) {
  if (!g_initialized) return kUninitialized;
  if (name == NULL || length == 0) return kInvalidArgument;
  if (pid != HELD_PID) return 6; /* NVML_ERROR_NOT_FOUND */
  return copy_text(name, length, "/home/alice/venv/bin/python3");
}
nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t d, unsigned int* count,
                                                      nvmlProcessInfo_t* infos) {
  return no_processes(d, count, infos);
}
