/* A fake OpenCL ICD with one sane device that "runs" kernels, for the smoke matmul's
 * fault-injection tests. It takes any program, and its kernel computes C = A·B from the
 * arguments gpudoctor's matmul passes (n, ld, A, B, C), then misbehaves as built:
 *   FAKE_WRONG_RESULT  returns the product with one entry off by 0.25, at row 3, column 5
 *   FAKE_KERNEL_CRASH  dereferences NULL when the kernel is enqueued (SIGSEGV mid-kernel)
 *   FAKE_KERNEL_HANG   never finishes the kernel: clWaitForEvents does not return
 *   FAKE_HELPER        forks a helper when first asked for its platforms, which sleeps for ever
 *                      holding every descriptor the process had (gpudoctor's pipes among them),
 *                      as a driver that starts a daemon does; the driver itself answers sanely
 *   FAKE_HELPER_SETSID the same, the helper in a session of its own (out of the process group)
 *   FAKE_HELPER_HANG   forks the helper, then never returns from clGetDeviceIDs
 * Objects start with the dispatch table pointer, as cl_icd.h requires. */
#include <CL/cl_icd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FAKE_EXPORT __attribute__((visibility("default")))
#define FAKE_ARGS 5

struct _cl_platform_id {
  cl_icd_dispatch* dispatch;
};
struct _cl_device_id {
  cl_icd_dispatch* dispatch;
};
/* Contexts, queues, programs, kernels and events carry nothing beyond the dispatch table. */
struct _cl_context {
  cl_icd_dispatch* dispatch;
};
struct _cl_command_queue {
  cl_icd_dispatch* dispatch;
};
struct _cl_program {
  cl_icd_dispatch* dispatch;
};
struct _cl_event {
  cl_icd_dispatch* dispatch;
};
struct _cl_mem {
  cl_icd_dispatch* dispatch;
  size_t size;
  float* data;
};
struct _cl_kernel {
  cl_icd_dispatch* dispatch;
  unsigned char args[FAKE_ARGS][sizeof(void*)];
};

static cl_icd_dispatch table;
static struct _cl_platform_id platform = {&table};
static struct _cl_device_id device = {&table};
static struct _cl_context context = {&table};
static struct _cl_command_queue queue = {&table};
static struct _cl_program program = {&table};
static struct _cl_kernel kernel = {&table, {{0}}};
static struct _cl_event event = {&table};

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

static cl_int answer_uint(cl_uint v, size_t size, void* value, size_t* size_ret) {
  return answer(&v, sizeof v, size, value, size_ret);
}

static cl_int answer_ulong(cl_ulong v, size_t size, void* value, size_t* size_ret) {
  return answer(&v, sizeof v, size, value, size_ret);
}

/* Exported by name too: ocl-icd looks it up in the library to vet the ICD. */
FAKE_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p, cl_platform_info name,
                                                 size_t size, void* value, size_t* size_ret) {
  (void)p;
  switch (name) {
    case CL_PLATFORM_EXTENSIONS: return answer_string("cl_khr_icd", size, value, size_ret);
    case CL_PLATFORM_ICD_SUFFIX_KHR: return answer_string("FAKE", size, value, size_ret);
    case CL_PLATFORM_PROFILE: return answer_string("FULL_PROFILE", size, value, size_ret);
    case CL_PLATFORM_VERSION: return answer_string("OpenCL 1.2 fake", size, value, size_ret);
    case CL_PLATFORM_NAME: return answer_string("gpudoctor fake compute", size, value, size_ret);
    case CL_PLATFORM_VENDOR: return answer_string("gpudoctor tests", size, value, size_ret);
    default: return CL_INVALID_VALUE;
  }
}

static cl_int CL_API_CALL get_device_ids(cl_platform_id p, cl_device_type type, cl_uint num,
                                         cl_device_id* out, cl_uint* count) {
  (void)p;
  (void)type;
#ifdef FAKE_HELPER_HANG
  for (;;) pause();
#endif
  if (count != NULL) *count = 1;
  if (out != NULL && num > 0) out[0] = &device;
  return CL_SUCCESS;
}

static cl_int CL_API_CALL get_device_info(cl_device_id d, cl_device_info name, size_t size,
                                          void* value, size_t* size_ret) {
  (void)d;
  switch (name) {
    case CL_DEVICE_NAME: return answer_string("fake compute device", size, value, size_ret);
    case CL_DEVICE_VENDOR: return answer_string("gpudoctor tests", size, value, size_ret);
    case CL_DEVICE_TYPE: return answer_ulong(CL_DEVICE_TYPE_ACCELERATOR, size, value, size_ret);
    case CL_DEVICE_AVAILABLE:
    case CL_DEVICE_COMPILER_AVAILABLE: return answer_uint(CL_TRUE, size, value, size_ret);
    case CL_DEVICE_LOCAL_MEM_TYPE: return answer_uint(CL_GLOBAL, size, value, size_ret);
    case CL_DEVICE_LOCAL_MEM_SIZE: return answer_ulong(65536, size, value, size_ret);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: return answer_ulong(1u << 30, size, value, size_ret);
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: {
      size_t v = 1024;
      return answer(&v, sizeof v, size, value, size_ret);
    }
    default: return CL_INVALID_VALUE;
  }
}

static cl_context CL_API_CALL create_context(const cl_context_properties* props, cl_uint n,
                                             const cl_device_id* devices,
                                             void(CL_CALLBACK* notify)(const char*, const void*,
                                                                       size_t, void*),
                                             void* user, cl_int* rc) {
  (void)props, (void)n, (void)devices, (void)notify, (void)user;
  if (rc != NULL) *rc = CL_SUCCESS;
  return &context;
}

static cl_command_queue CL_API_CALL create_queue(cl_context c, cl_device_id d,
                                                 cl_command_queue_properties props, cl_int* rc) {
  (void)c, (void)d, (void)props;
  if (rc != NULL) *rc = CL_SUCCESS;
  return &queue;
}

static cl_program CL_API_CALL create_program(cl_context c, cl_uint n, const char** sources,
                                             const size_t* lengths, cl_int* rc) {
  (void)c, (void)n, (void)sources, (void)lengths;
  if (rc != NULL) *rc = CL_SUCCESS;
  return &program;
}

static cl_int CL_API_CALL build_program(cl_program p, cl_uint n, const cl_device_id* devices,
                                        const char* options,
                                        void(CL_CALLBACK* notify)(cl_program, void*),
                                        void* user) {
  (void)p, (void)n, (void)devices, (void)options, (void)notify, (void)user;
  return CL_SUCCESS;
}

static cl_kernel CL_API_CALL create_kernel(cl_program p, const char* name, cl_int* rc) {
  (void)p, (void)name;
  if (rc != NULL) *rc = CL_SUCCESS;
  return &kernel;
}

static cl_int CL_API_CALL set_kernel_arg(cl_kernel k, cl_uint index, size_t size,
                                         const void* value) {
  if (index >= FAKE_ARGS || size > sizeof k->args[index]) return CL_INVALID_ARG_INDEX;
  memcpy(k->args[index], value, size);
  return CL_SUCCESS;
}

static cl_mem CL_API_CALL create_buffer(cl_context c, cl_mem_flags flags, size_t size,
                                        void* host, cl_int* rc) {
  struct _cl_mem* m = calloc(1, sizeof *m);
  (void)c, (void)flags, (void)host;
  m->dispatch = &table;
  m->size = size;
  m->data = calloc(1, size);
  if (rc != NULL) *rc = CL_SUCCESS;
  return m;
}

static cl_int CL_API_CALL release_mem(cl_mem m) {
  free(m->data);
  free(m);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL write_buffer(cl_command_queue q, cl_mem m, cl_bool blocking,
                                       size_t offset, size_t size, const void* src, cl_uint n,
                                       const cl_event* wait, cl_event* ev) {
  (void)q, (void)blocking, (void)n, (void)wait, (void)ev;
  memcpy((char*)m->data + offset, src, size);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL read_buffer(cl_command_queue q, cl_mem m, cl_bool blocking,
                                      size_t offset, size_t size, void* dst, cl_uint n,
                                      const cl_event* wait, cl_event* ev) {
  (void)q, (void)blocking, (void)n, (void)wait, (void)ev;
  memcpy(dst, (const char*)m->data + offset, size);
  return CL_SUCCESS;
}

/* The matmul gpudoctor asked for, from the kernel's arguments: n, ld, A, B, C. */
static void run_matmul(void) {
  cl_int n, ld;
  cl_mem a, b, c;
  memcpy(&n, kernel.args[0], sizeof n);
  memcpy(&ld, kernel.args[1], sizeof ld);
  memcpy(&a, kernel.args[2], sizeof a);
  memcpy(&b, kernel.args[3], sizeof b);
  memcpy(&c, kernel.args[4], sizeof c);
  for (cl_int i = 0; i < n; ++i) {
    for (cl_int j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (cl_int k = 0; k < n; ++k) acc += a->data[i * ld + k] * b->data[k * ld + j];
      c->data[i * ld + j] = acc;
    }
  }
#ifdef FAKE_WRONG_RESULT
  c->data[3 * ld + 5] += 0.25f;
#endif
}

static cl_int CL_API_CALL enqueue_kernel(cl_command_queue q, cl_kernel k, cl_uint dims,
                                         const size_t* offset, const size_t* global,
                                         const size_t* local, cl_uint n, const cl_event* wait,
                                         cl_event* ev) {
  (void)q, (void)k, (void)dims, (void)offset, (void)global, (void)local, (void)n, (void)wait;
#ifdef FAKE_KERNEL_CRASH
  *(volatile int*)0 = 1;
#endif
  run_matmul();
  if (ev != NULL) *ev = &event;
  return CL_SUCCESS;
}

static cl_int CL_API_CALL wait_for_events(cl_uint n, const cl_event* events) {
  (void)n, (void)events;
#ifdef FAKE_KERNEL_HANG
  for (;;) pause();
#endif
  return CL_SUCCESS;
}

/* Every kernel takes exactly one millisecond. */
static cl_int CL_API_CALL event_profiling(cl_event e, cl_profiling_info name, size_t size,
                                          void* value, size_t* size_ret) {
  (void)e;
  return answer_ulong(name == CL_PROFILING_COMMAND_END ? 2000000 : 1000000, size, value,
                      size_ret);
}

static cl_int CL_API_CALL finish(cl_command_queue q) {
  (void)q;
  return CL_SUCCESS;
}

/* Releasing the static objects does nothing; one function fits every handle type. */
static cl_int CL_API_CALL release_static(void* object) {
  (void)object;
  return CL_SUCCESS;
}

#if defined(FAKE_HELPER) || defined(FAKE_HELPER_SETSID) || defined(FAKE_HELPER_HANG)
static void start_helper(void) {
  static int started = 0;
  if (started) return;
  started = 1;
  if (fork() == 0) {
#ifdef FAKE_HELPER_SETSID
    setsid();
#endif
    for (;;) pause();
  }
}
#else
static void start_helper(void) {}
#endif

FAKE_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num, cl_platform_id* platforms,
                                                      cl_uint* count) {
  start_helper();
  table.clGetPlatformInfo = clGetPlatformInfo;
  table.clGetDeviceIDs = get_device_ids;
  table.clGetDeviceInfo = get_device_info;
  table.clCreateContext = create_context;
  table.clCreateCommandQueue = create_queue;
  table.clCreateProgramWithSource = create_program;
  table.clBuildProgram = build_program;
  table.clCreateKernel = create_kernel;
  table.clSetKernelArg = set_kernel_arg;
  table.clCreateBuffer = create_buffer;
  table.clReleaseMemObject = release_mem;
  table.clEnqueueWriteBuffer = write_buffer;
  table.clEnqueueReadBuffer = read_buffer;
  table.clEnqueueNDRangeKernel = enqueue_kernel;
  table.clWaitForEvents = wait_for_events;
  table.clGetEventProfilingInfo = event_profiling;
  table.clFinish = finish;
  table.clReleaseContext = (cl_api_clReleaseContext)release_static;
  table.clReleaseCommandQueue = (cl_api_clReleaseCommandQueue)release_static;
  table.clReleaseProgram = (cl_api_clReleaseProgram)release_static;
  table.clReleaseKernel = (cl_api_clReleaseKernel)release_static;
  table.clReleaseEvent = (cl_api_clReleaseEvent)release_static;
  if (count != NULL) *count = 1;
  if (platforms != NULL && num > 0) platforms[0] = &platform;
  return CL_SUCCESS;
}

FAKE_EXPORT void* CL_API_CALL clGetExtensionFunctionAddress(const char* name) {
  void* address = NULL;
  clIcdGetPlatformIDsKHR_fn fn = clIcdGetPlatformIDsKHR;
  /* ISO C has no cast between function and object pointers; POSIX guarantees the copy works. */
  if (strcmp(name, "clIcdGetPlatformIDsKHR") == 0) memcpy(&address, &fn, sizeof address);
  return address;
}
