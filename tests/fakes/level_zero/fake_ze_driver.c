/* A Level Zero driver at its ABI, for the tests: the real loader (Debian's libze1) loads it as
 * it loads Intel's libze_intel_gpu.so.1, by that name from the library path or through
 * ZE_ENABLE_ALT_DRIVERS, and reaches it only through the tables the driver hands out
 * (ze_ddi.h, zet_ddi.h, zes_ddi.h: the loader v1.8.12 asks every driver for every table and
 * gives up on init when a getter is missing, source/loader/ze_ldrddi.cpp). One device, by mode:
 *
 *   FAKE_ZE_ARC          an Intel Arc A770 (8086:56a0, "DG2 [Arc A770]" in pci.ids) at 0000:03:00.0
 *                        that runs gpudoctor's matmul kernel on the CPU
 *   FAKE_ZE_MAX          a Data Center GPU Max 1550 (8086:0bd5, "Ponte Vecchio XT (2 Tile)") with
 *                        its two tiles as sub-devices, from a driver whose UUID is all zeros
 *                        (unknown: gpudoctor must not show it as a UUID)
 *   FAKE_ZE_WRONG_RESULT the Arc, whose kernel gets one entry of C wrong
 *   FAKE_ZE_INIT_CRASH   segfaults in zeInit
 *   FAKE_ZE_DEVICE_HANG  never returns from zeDeviceGet
 *   FAKE_ZE_GARBAGE      a device whose name has no NUL and holds terminal controls, with
 *                        4294967295 slices of 4294967295 sub-slices, and 4 billion tiles
 *
 * The kernel: zeModuleCreate takes SPIR-V (magic 0x07230203) that names gpudoctor_sgemm;
 * zeKernelCreate knows that one name; a launch runs its arguments (n, ld, A, B, C) through
 * the same row-by-row loop as probes/opencl/smoke_matmul.cl, once per work item. Commands are
 * recorded in the command list and run when the queue executes it, as a GPU would. */
#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

#if defined(FAKE_ZE_WRONG_RESULT)
#define FAKE_ZE_ARC 1
#endif

/* Handles: addresses of these objects. */
static int g_driver, g_device, g_tiles[2], g_context;

static ze_result_t fake_init(ze_init_flags_t flags) {
  (void)flags;
#if defined(FAKE_ZE_INIT_CRASH)
  volatile int* volatile nowhere = NULL;
  *nowhere = 42;
#endif
  return ZE_RESULT_SUCCESS;
}

static ze_result_t fake_driver_get(uint32_t* count, ze_driver_handle_t* drivers) {
  if (count == NULL) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (drivers != NULL && *count >= 1) drivers[0] = (ze_driver_handle_t)&g_driver;
  *count = 1;
  return ZE_RESULT_SUCCESS;
}

static ze_result_t fake_driver_api_version(ze_driver_handle_t d, ze_api_version_t* v) {
  (void)d;
  *v = ZE_API_VERSION_1_3;
  return ZE_RESULT_SUCCESS;
}

static ze_result_t fake_driver_properties(ze_driver_handle_t d, ze_driver_properties_t* p) {
  (void)d;
#if defined(FAKE_ZE_MAX)
  memset(p->uuid.id, 0, ZE_MAX_DRIVER_UUID_SIZE);
#else
  for (int i = 0; i < ZE_MAX_DRIVER_UUID_SIZE; ++i) p->uuid.id[i] = (uint8_t)(0xd0 + i);
#endif
  p->driverVersion = (1u << 24) | (3u << 16) | 26241u; /* 1.3.26241 */
  return ZE_RESULT_SUCCESS;
}

static ze_result_t fake_device_get(ze_driver_handle_t d, uint32_t* count,
                                   ze_device_handle_t* devices) {
  (void)d;
#if defined(FAKE_ZE_DEVICE_HANG)
  (void)count;
  (void)devices;
  for (;;) pause();
#endif
  if (devices != NULL && *count >= 1) devices[0] = (ze_device_handle_t)&g_device;
  *count = 1;
  return ZE_RESULT_SUCCESS;
}

static ze_result_t fake_sub_devices(ze_device_handle_t d, uint32_t* count,
                                    ze_device_handle_t* subs) {
#if defined(FAKE_ZE_GARBAGE)
  (void)d;
  (void)subs;
  *count = 4000000000u;
  return ZE_RESULT_SUCCESS;
#elif defined(FAKE_ZE_MAX)
  if (d != (ze_device_handle_t)&g_device) {
    *count = 0;
    return ZE_RESULT_SUCCESS;
  }
  if (subs != NULL) {
    for (uint32_t i = 0; i < *count && i < 2; ++i) subs[i] = (ze_device_handle_t)&g_tiles[i];
    if (*count > 2) *count = 2;
    return ZE_RESULT_SUCCESS;
  }
  *count = 2;
  return ZE_RESULT_SUCCESS;
#else
  (void)d;
  (void)subs;
  *count = 0;
  return ZE_RESULT_SUCCESS;
#endif
}

static ze_result_t fake_device_properties(ze_device_handle_t d, ze_device_properties_t* p) {
  p->type = ZE_DEVICE_TYPE_GPU;
  p->vendorId = 0x8086;
#if defined(FAKE_ZE_GARBAGE)
  (void)d;
  p->deviceId = 0xffffffffu;
  p->flags = 0xffffffffu;
  p->numSlices = 0xffffffffu;
  p->numSubslicesPerSlice = 0xffffffffu;
  p->numEUsPerSubslice = 0xffffffffu;
  for (size_t i = 0; i < sizeof p->name; ++i) {
    static const char kGarbage[] = {'\xff', '\xfe', '\x1b', '[', '2', 'J', '\x07', 'A'};
    p->name[i] = kGarbage[i % sizeof kGarbage];
  }
#elif defined(FAKE_ZE_MAX)
  /* Max 1550: 128 Xe-cores of 8 vector engines over 2 tiles (stand-in slice counts). */
  const int tile = d == (ze_device_handle_t)&g_tiles[1] ? 1 : (d == (ze_device_handle_t)&g_tiles[0] ? 0 : -1);
  p->deviceId = 0x0bd5;
  p->flags = tile >= 0 ? ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE : 0;
  p->subdeviceId = tile >= 0 ? (uint32_t)tile : 0;
  p->coreClockRate = 1600;
  p->maxMemAllocSize = 64ull << 30;
  p->numThreadsPerEU = 8;
  p->physicalEUSimdWidth = 16;
  p->numSlices = tile >= 0 ? 1 : 2;
  p->numSubslicesPerSlice = 64;
  p->numEUsPerSubslice = 8;
  for (int i = 0; i < ZE_MAX_DEVICE_UUID_SIZE; ++i) p->uuid.id[i] = (uint8_t)(0x40 + i + 16 * (tile + 1));
  strcpy(p->name, "Intel(R) Data Center GPU Max 1550");
#else
  (void)d;
  /* Arc A770: 32 Xe-cores of 16 EUs (512), 2.1 GHz graphics clock: Intel's product page,
   * https://www.intel.com/content/www/us/en/products/sku/229151/intel-arc-a770-graphics-16gb/specifications.html */
  p->deviceId = 0x56a0;
  p->coreClockRate = 2100;
  p->maxMemAllocSize = 4294959104ull;
  p->maxHardwareContexts = 65536;
  p->numThreadsPerEU = 8;
  p->physicalEUSimdWidth = 8;
  p->numSlices = 1;
  p->numSubslicesPerSlice = 32;
  p->numEUsPerSubslice = 16;
  p->timerResolution = 1;
  p->timestampValidBits = 36;
  p->kernelTimestampValidBits = 32;
  for (int i = 0; i < ZE_MAX_DEVICE_UUID_SIZE; ++i) p->uuid.id[i] = (uint8_t)(0xa0 + i);
  strcpy(p->name, "Intel(R) Arc(TM) A770 Graphics");
#endif
  return ZE_RESULT_SUCCESS;
}

static ze_result_t fake_memory_properties(ze_device_handle_t d, uint32_t* count,
                                          ze_device_memory_properties_t* p) {
  (void)d;
  if (p == NULL) {
    *count = 1;
    return ZE_RESULT_SUCCESS;
  }
  if (*count >= 1) {
    p[0].maxClockRate = 2000;
    p[0].maxBusWidth = 256;
    p[0].totalSize = 16225243136ull; /* stand-in: 15.1 GiB, as A770 16GB reports less than 16 */
    strcpy(p[0].name, "DDR");
    *count = 1;
  }
  return ZE_RESULT_SUCCESS;
}

static ze_result_t fake_pci_properties(ze_device_handle_t d, ze_pci_ext_properties_t* p) {
  (void)d;
  p->address.domain = 0;
  p->address.bus = 3;
  p->address.device = 0;
  p->address.function = 0;
  p->maxSpeed.genVersion = 4;
  p->maxSpeed.width = 16;
  p->maxSpeed.maxBandwidth = -1;
  return ZE_RESULT_SUCCESS;
}

/* ---- compute: context, memory, module, kernel, command list and queue ---- */

enum { kMaxCommands = 64 };
typedef struct {
  int launch; /* 1: kernel launch; 0: copy */
  void* dst;
  const void* src;
  size_t bytes;
  int n, ld;
  float *a, *b, *c;
  uint32_t rows;
} Command;
typedef struct {
  Command commands[kMaxCommands];
  int count;
  int closed;
} CommandList;
typedef struct {
  int n, ld;
  float *a, *b, *c;
  uint32_t group_x;
} Kernel;
static int g_module, g_queue;

static ze_result_t fake_context_create(ze_driver_handle_t d, const ze_context_desc_t* desc,
                                       ze_context_handle_t* ctx) {
  (void)d;
  (void)desc;
  *ctx = (ze_context_handle_t)&g_context;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_context_destroy(ze_context_handle_t c) {
  (void)c;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_mem_alloc_device(ze_context_handle_t c, const ze_device_mem_alloc_desc_t* desc,
                                         size_t size, size_t alignment, ze_device_handle_t d,
                                         void** out) {
  (void)c;
  (void)desc;
  (void)d;
  (void)alignment;
  *out = calloc(1, size ? size : 1);
  return *out ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
}
static ze_result_t fake_mem_free(ze_context_handle_t c, void* p) {
  (void)c;
  free(p);
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_module_create(ze_context_handle_t c, ze_device_handle_t d,
                                      const ze_module_desc_t* desc, ze_module_handle_t* m,
                                      ze_module_build_log_handle_t* log) {
  (void)c;
  (void)d;
  if (log) *log = NULL;
  if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV || desc->inputSize < 20 ||
      *(const uint32_t*)desc->pInputModule != 0x07230203u) {
    return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
  }
  if (memmem(desc->pInputModule, desc->inputSize, "gpudoctor_sgemm", 15) == NULL) {
    return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  }
  *m = (ze_module_handle_t)&g_module;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_module_destroy(ze_module_handle_t m) {
  (void)m;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_kernel_create(ze_module_handle_t m, const ze_kernel_desc_t* desc,
                                      ze_kernel_handle_t* k) {
  (void)m;
  if (strcmp(desc->pKernelName, "gpudoctor_sgemm") != 0) return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  Kernel* kernel = calloc(1, sizeof *kernel);
  *k = (ze_kernel_handle_t)kernel;
  return kernel ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
}
static ze_result_t fake_kernel_destroy(ze_kernel_handle_t k) {
  free(k);
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_kernel_set_group_size(ze_kernel_handle_t k, uint32_t x, uint32_t y,
                                              uint32_t z) {
  if (y != 1 || z != 1 || x == 0) return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
  ((Kernel*)k)->group_x = x;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_kernel_set_argument(ze_kernel_handle_t k, uint32_t index, size_t size,
                                            const void* value) {
  Kernel* kernel = (Kernel*)k;
  if (index <= 1) {
    if (size != sizeof(int)) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
    memcpy(index == 0 ? &kernel->n : &kernel->ld, value, sizeof(int));
    return ZE_RESULT_SUCCESS;
  }
  if (index > 4) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
  if (size != sizeof(void*)) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
  float* ptr = NULL;
  if (value != NULL) memcpy(&ptr, value, sizeof ptr);
  if (index == 2) kernel->a = ptr;
  if (index == 3) kernel->b = ptr;
  if (index == 4) kernel->c = ptr;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_list_create(ze_context_handle_t c, ze_device_handle_t d,
                                    const ze_command_list_desc_t* desc, ze_command_list_handle_t* l) {
  (void)c;
  (void)d;
  (void)desc;
  CommandList* list = calloc(1, sizeof *list);
  *l = (ze_command_list_handle_t)list;
  return list ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
}
static ze_result_t fake_list_destroy(ze_command_list_handle_t l) {
  free(l);
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_list_close(ze_command_list_handle_t l) {
  ((CommandList*)l)->closed = 1;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_list_reset(ze_command_list_handle_t l) {
  ((CommandList*)l)->count = 0;
  ((CommandList*)l)->closed = 0;
  return ZE_RESULT_SUCCESS;
}
static Command* fake_append(ze_command_list_handle_t l) {
  CommandList* list = (CommandList*)l;
  if (list->closed || list->count >= kMaxCommands) return NULL;
  Command* c = &list->commands[list->count++];
  memset(c, 0, sizeof *c);
  return c;
}
static ze_result_t fake_list_copy(ze_command_list_handle_t l, void* dst, const void* src,
                                  size_t size, ze_event_handle_t signal, uint32_t waits,
                                  ze_event_handle_t* wait_events) {
  (void)signal;
  (void)waits;
  (void)wait_events;
  Command* c = fake_append(l);
  if (c == NULL) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  c->dst = dst;
  c->src = src;
  c->bytes = size;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_list_barrier(ze_command_list_handle_t l, ze_event_handle_t signal,
                                     uint32_t waits, ze_event_handle_t* wait_events) {
  (void)l;
  (void)signal;
  (void)waits;
  (void)wait_events;
  return ZE_RESULT_SUCCESS; /* commands run in order anyway */
}
static ze_result_t fake_list_launch(ze_command_list_handle_t l, ze_kernel_handle_t k,
                                    const ze_group_count_t* groups, ze_event_handle_t signal,
                                    uint32_t waits, ze_event_handle_t* wait_events) {
  (void)signal;
  (void)waits;
  (void)wait_events;
  const Kernel* kernel = (const Kernel*)k;
  if (kernel->group_x == 0 || groups->groupCountY != 1 || groups->groupCountZ != 1) {
    return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
  }
  Command* c = fake_append(l);
  if (c == NULL) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  c->launch = 1;
  c->n = kernel->n;
  c->ld = kernel->ld;
  c->a = kernel->a;
  c->b = kernel->b;
  c->c = kernel->c;
  c->rows = groups->groupCountX * kernel->group_x;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_queue_create(ze_context_handle_t c, ze_device_handle_t d,
                                     const ze_command_queue_desc_t* desc, ze_command_queue_handle_t* q) {
  (void)c;
  (void)d;
  (void)desc;
  *q = (ze_command_queue_handle_t)&g_queue;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_queue_destroy(ze_command_queue_handle_t q) {
  (void)q;
  return ZE_RESULT_SUCCESS;
}
/* One work item of the smoke kernel (probes/opencl/smoke_matmul.cl), for each row. */
static void fake_run_matmul(const Command* c) {
  for (uint32_t row = 0; row < c->rows; ++row) {
    const float* a_row = c->a + (size_t)row * c->ld;
    float* c_row = c->c + (size_t)row * c->ld;
    for (int col = 0; col < c->n; ++col) c_row[col] = 0.0f;
    for (int k = 0; k < c->n; ++k) {
      const float a_k = a_row[k];
      const float* b_row = c->b + (size_t)k * c->ld;
      for (int col = 0; col < c->n; ++col) c_row[col] = fmaf(a_k, b_row[col], c_row[col]);
    }
  }
#if defined(FAKE_ZE_WRONG_RESULT)
  c->c[(size_t)(c->rows / 2) * c->ld + 7] += 1.0f;
#endif
}
static ze_result_t fake_queue_execute(ze_command_queue_handle_t q, uint32_t count,
                                      ze_command_list_handle_t* lists, ze_fence_handle_t fence) {
  (void)q;
  (void)fence;
  for (uint32_t i = 0; i < count; ++i) {
    const CommandList* list = (const CommandList*)lists[i];
    if (!list->closed) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    for (int j = 0; j < list->count; ++j) {
      const Command* c = &list->commands[j];
      if (c->launch) {
        if (c->a == NULL || c->b == NULL || c->c == NULL) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
        fake_run_matmul(c);
      } else {
        memcpy(c->dst, c->src, c->bytes);
      }
    }
  }
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_queue_synchronize(ze_command_queue_handle_t q, uint64_t timeout) {
  (void)q;
  (void)timeout;
  return ZE_RESULT_SUCCESS;
}

/* ---- Sysman (zes_ddi.h): the root device's live state, fixed figures the tests assert ----
 * arc: 16 GiB of which 6 GiB in use, 61 C, 2000 of 2400 MHz, the engines busy half the time
 * (each zesEngineGetActivity advances the clock by 50 ms and the busy time by 25 ms);
 * max: 128 GiB of which 1 GiB in use, 44 C, 1600 of 1600 MHz, idle. Other modes: no Sysman
 * (the empty tables below: the loader answers ZE_RESULT_ERROR_UNINITIALIZED). */
#if defined(FAKE_ZE_ARC) || defined(FAKE_ZE_MAX)
static int g_mem, g_temp, g_freq, g_engine;
static uint64_t g_engine_reads;
#if defined(FAKE_ZE_MAX)
#define FAKE_ZES_MEM_SIZE (128ull << 30)
#define FAKE_ZES_MEM_USED (1ull << 30)
#define FAKE_ZES_TEMP 44.0
#define FAKE_ZES_FREQ 1600.0
#define FAKE_ZES_FREQ_MAX 1600.0
#define FAKE_ZES_BUSY_US 0u
#else
#define FAKE_ZES_MEM_SIZE (16ull << 30)
#define FAKE_ZES_MEM_USED (6ull << 30)
#define FAKE_ZES_TEMP 61.0
#define FAKE_ZES_FREQ 2000.0
#define FAKE_ZES_FREQ_MAX 2400.0
#define FAKE_ZES_BUSY_US 25000u
#endif

/* One handle of each kind, on the root device only. */
#define FAKE_ZES_ENUM(name, handle_t, object)                                          \
  static ze_result_t name(zes_device_handle_t d, uint32_t* count, handle_t* out) {     \
    if (count == NULL) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;                    \
    if (d != (zes_device_handle_t)&g_device) {                                         \
      *count = 0;                                                                      \
      return ZE_RESULT_SUCCESS;                                                        \
    }                                                                                  \
    if (out != NULL && *count >= 1) out[0] = (handle_t)&object;                        \
    *count = 1;                                                                        \
    return ZE_RESULT_SUCCESS;                                                          \
  }
FAKE_ZES_ENUM(fake_zes_enum_mem, zes_mem_handle_t, g_mem)
FAKE_ZES_ENUM(fake_zes_enum_temp, zes_temp_handle_t, g_temp)
FAKE_ZES_ENUM(fake_zes_enum_freq, zes_freq_handle_t, g_freq)
FAKE_ZES_ENUM(fake_zes_enum_engine, zes_engine_handle_t, g_engine)

static ze_result_t fake_zes_mem_state(zes_mem_handle_t h, zes_mem_state_t* s) {
  if (h != (zes_mem_handle_t)&g_mem || s == NULL) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  s->health = ZES_MEM_HEALTH_OK;
  s->size = FAKE_ZES_MEM_SIZE;
  s->free = FAKE_ZES_MEM_SIZE - FAKE_ZES_MEM_USED;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_zes_temp_properties(zes_temp_handle_t h, zes_temp_properties_t* p) {
  if (h != (zes_temp_handle_t)&g_temp || p == NULL) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  p->type = ZES_TEMP_SENSORS_GPU;
  p->onSubdevice = 0;
  p->maxTemperature = 105.0;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_zes_temp_state(zes_temp_handle_t h, double* t) {
  if (h != (zes_temp_handle_t)&g_temp || t == NULL) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  *t = FAKE_ZES_TEMP;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_zes_freq_properties(zes_freq_handle_t h, zes_freq_properties_t* p) {
  if (h != (zes_freq_handle_t)&g_freq || p == NULL) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  p->type = ZES_FREQ_DOMAIN_GPU;
  p->min = 300.0;
  p->max = FAKE_ZES_FREQ_MAX;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_zes_freq_state(zes_freq_handle_t h, zes_freq_state_t* s) {
  if (h != (zes_freq_handle_t)&g_freq || s == NULL) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  s->currentVoltage = -1.0;
  s->request = FAKE_ZES_FREQ;
  s->tdp = FAKE_ZES_FREQ_MAX;
  s->efficient = 300.0;
  s->actual = FAKE_ZES_FREQ;
  s->throttleReasons = 0;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_zes_engine_properties(zes_engine_handle_t h, zes_engine_properties_t* p) {
  if (h != (zes_engine_handle_t)&g_engine || p == NULL) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  p->type = ZES_ENGINE_GROUP_ALL;
  p->onSubdevice = 0;
  return ZE_RESULT_SUCCESS;
}
static ze_result_t fake_zes_engine_activity(zes_engine_handle_t h, zes_engine_stats_t* s) {
  if (h != (zes_engine_handle_t)&g_engine || s == NULL) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  ++g_engine_reads;
  s->timestamp = 1000000u + g_engine_reads * 50000u;
  s->activeTime = g_engine_reads * FAKE_ZES_BUSY_US;
  return ZE_RESULT_SUCCESS;
}
#endif

/* ---- the tables the loader asks for ---- */

#define FAKE_TABLE(getter, type)                                          \
  EXPORT ze_result_t getter(ze_api_version_t version, type* table) {     \
    (void)version;                                                        \
    if (table == NULL) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;       \
    memset(table, 0, sizeof *table);                                      \
    return ZE_RESULT_SUCCESS;                                             \
  }
#define FAKE_FILLED_TABLE(getter, type, fill)                             \
  EXPORT ze_result_t getter(ze_api_version_t version, type* table) {     \
    (void)version;                                                        \
    if (table == NULL) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;       \
    memset(table, 0, sizeof *table);                                      \
    fill;                                                                 \
    return ZE_RESULT_SUCCESS;                                             \
  }

FAKE_FILLED_TABLE(zeGetGlobalProcAddrTable, ze_global_dditable_t, table->pfnInit = fake_init)
FAKE_FILLED_TABLE(zeGetDriverProcAddrTable, ze_driver_dditable_t,
                  (table->pfnGet = fake_driver_get, table->pfnGetApiVersion = fake_driver_api_version,
                   table->pfnGetProperties = fake_driver_properties))
FAKE_FILLED_TABLE(zeGetDeviceProcAddrTable, ze_device_dditable_t,
                  (table->pfnGet = fake_device_get, table->pfnGetSubDevices = fake_sub_devices,
                   table->pfnGetProperties = fake_device_properties,
                   table->pfnGetMemoryProperties = fake_memory_properties,
                   table->pfnPciGetPropertiesExt = fake_pci_properties))
FAKE_FILLED_TABLE(zeGetContextProcAddrTable, ze_context_dditable_t,
                  (table->pfnCreate = fake_context_create, table->pfnDestroy = fake_context_destroy))
FAKE_FILLED_TABLE(zeGetMemProcAddrTable, ze_mem_dditable_t,
                  (table->pfnAllocDevice = fake_mem_alloc_device, table->pfnFree = fake_mem_free))
FAKE_FILLED_TABLE(zeGetModuleProcAddrTable, ze_module_dditable_t,
                  (table->pfnCreate = fake_module_create, table->pfnDestroy = fake_module_destroy))
FAKE_FILLED_TABLE(zeGetKernelProcAddrTable, ze_kernel_dditable_t,
                  (table->pfnCreate = fake_kernel_create, table->pfnDestroy = fake_kernel_destroy,
                   table->pfnSetGroupSize = fake_kernel_set_group_size,
                   table->pfnSetArgumentValue = fake_kernel_set_argument))
FAKE_FILLED_TABLE(zeGetCommandListProcAddrTable, ze_command_list_dditable_t,
                  (table->pfnCreate = fake_list_create, table->pfnDestroy = fake_list_destroy,
                   table->pfnClose = fake_list_close, table->pfnReset = fake_list_reset,
                   table->pfnAppendMemoryCopy = fake_list_copy,
                   table->pfnAppendBarrier = fake_list_barrier,
                   table->pfnAppendLaunchKernel = fake_list_launch))
FAKE_FILLED_TABLE(zeGetCommandQueueProcAddrTable, ze_command_queue_dditable_t,
                  (table->pfnCreate = fake_queue_create, table->pfnDestroy = fake_queue_destroy,
                   table->pfnExecuteCommandLists = fake_queue_execute,
                   table->pfnSynchronize = fake_queue_synchronize))
FAKE_TABLE(zeGetDeviceExpProcAddrTable, ze_device_exp_dditable_t)
FAKE_TABLE(zeGetImageProcAddrTable, ze_image_dditable_t)
FAKE_TABLE(zeGetImageExpProcAddrTable, ze_image_exp_dditable_t)
FAKE_TABLE(zeGetFenceProcAddrTable, ze_fence_dditable_t)
FAKE_TABLE(zeGetEventPoolProcAddrTable, ze_event_pool_dditable_t)
FAKE_TABLE(zeGetEventProcAddrTable, ze_event_dditable_t)
FAKE_TABLE(zeGetEventExpProcAddrTable, ze_event_exp_dditable_t)
FAKE_TABLE(zeGetModuleBuildLogProcAddrTable, ze_module_build_log_dditable_t)
FAKE_TABLE(zeGetKernelExpProcAddrTable, ze_kernel_exp_dditable_t)
FAKE_TABLE(zeGetSamplerProcAddrTable, ze_sampler_dditable_t)
FAKE_TABLE(zeGetPhysicalMemProcAddrTable, ze_physical_mem_dditable_t)
FAKE_TABLE(zeGetVirtualMemProcAddrTable, ze_virtual_mem_dditable_t)
FAKE_TABLE(zeGetFabricVertexExpProcAddrTable, ze_fabric_vertex_exp_dditable_t)
FAKE_TABLE(zeGetFabricEdgeExpProcAddrTable, ze_fabric_edge_exp_dditable_t)
FAKE_TABLE(zetGetDeviceProcAddrTable, zet_device_dditable_t)
FAKE_TABLE(zetGetContextProcAddrTable, zet_context_dditable_t)
FAKE_TABLE(zetGetCommandListProcAddrTable, zet_command_list_dditable_t)
FAKE_TABLE(zetGetModuleProcAddrTable, zet_module_dditable_t)
FAKE_TABLE(zetGetKernelProcAddrTable, zet_kernel_dditable_t)
FAKE_TABLE(zetGetMetricGroupProcAddrTable, zet_metric_group_dditable_t)
FAKE_TABLE(zetGetMetricGroupExpProcAddrTable, zet_metric_group_exp_dditable_t)
FAKE_TABLE(zetGetMetricProcAddrTable, zet_metric_dditable_t)
FAKE_TABLE(zetGetMetricStreamerProcAddrTable, zet_metric_streamer_dditable_t)
FAKE_TABLE(zetGetMetricQueryPoolProcAddrTable, zet_metric_query_pool_dditable_t)
FAKE_TABLE(zetGetMetricQueryProcAddrTable, zet_metric_query_dditable_t)
FAKE_TABLE(zetGetTracerExpProcAddrTable, zet_tracer_exp_dditable_t)
FAKE_TABLE(zetGetDebugProcAddrTable, zet_debug_dditable_t)
FAKE_TABLE(zesGetDriverProcAddrTable, zes_driver_dditable_t)
#if defined(FAKE_ZE_ARC) || defined(FAKE_ZE_MAX)
FAKE_FILLED_TABLE(zesGetDeviceProcAddrTable, zes_device_dditable_t,
                  (table->pfnEnumMemoryModules = fake_zes_enum_mem,
                   table->pfnEnumTemperatureSensors = fake_zes_enum_temp,
                   table->pfnEnumFrequencyDomains = fake_zes_enum_freq,
                   table->pfnEnumEngineGroups = fake_zes_enum_engine))
FAKE_FILLED_TABLE(zesGetFrequencyProcAddrTable, zes_frequency_dditable_t,
                  (table->pfnGetProperties = fake_zes_freq_properties,
                   table->pfnGetState = fake_zes_freq_state))
FAKE_FILLED_TABLE(zesGetEngineProcAddrTable, zes_engine_dditable_t,
                  (table->pfnGetProperties = fake_zes_engine_properties,
                   table->pfnGetActivity = fake_zes_engine_activity))
FAKE_FILLED_TABLE(zesGetMemoryProcAddrTable, zes_memory_dditable_t,
                  table->pfnGetState = fake_zes_mem_state)
FAKE_FILLED_TABLE(zesGetTemperatureProcAddrTable, zes_temperature_dditable_t,
                  (table->pfnGetProperties = fake_zes_temp_properties,
                   table->pfnGetState = fake_zes_temp_state))
#else
FAKE_TABLE(zesGetDeviceProcAddrTable, zes_device_dditable_t)
FAKE_TABLE(zesGetFrequencyProcAddrTable, zes_frequency_dditable_t)
FAKE_TABLE(zesGetEngineProcAddrTable, zes_engine_dditable_t)
FAKE_TABLE(zesGetMemoryProcAddrTable, zes_memory_dditable_t)
FAKE_TABLE(zesGetTemperatureProcAddrTable, zes_temperature_dditable_t)
#endif
FAKE_TABLE(zesGetSchedulerProcAddrTable, zes_scheduler_dditable_t)
FAKE_TABLE(zesGetPerformanceFactorProcAddrTable, zes_performance_factor_dditable_t)
FAKE_TABLE(zesGetPowerProcAddrTable, zes_power_dditable_t)
FAKE_TABLE(zesGetStandbyProcAddrTable, zes_standby_dditable_t)
FAKE_TABLE(zesGetFirmwareProcAddrTable, zes_firmware_dditable_t)
FAKE_TABLE(zesGetFabricPortProcAddrTable, zes_fabric_port_dditable_t)
FAKE_TABLE(zesGetPsuProcAddrTable, zes_psu_dditable_t)
FAKE_TABLE(zesGetFanProcAddrTable, zes_fan_dditable_t)
FAKE_TABLE(zesGetLedProcAddrTable, zes_led_dditable_t)
FAKE_TABLE(zesGetRasProcAddrTable, zes_ras_dditable_t)
FAKE_TABLE(zesGetDiagnosticsProcAddrTable, zes_diagnostics_dditable_t)
