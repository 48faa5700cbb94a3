/* A fake Objective-C runtime and Metal at their C ABI, for x86_64 Linux: objc_getClass,
 * sel_registerName, objc_msgSend, objc_autoreleasePoolPush/Pop, MTLCopyAllDevices and
 * MPSSupportsMTLDevice, answering the selectors probes/metal/metal_objc.cpp sends the way
 * Apple documents them (https://developer.apple.com/documentation/metal/mtldevice and the
 * pages of each class below).
 *
 * objc_msgSend is, as Apple's is, a trampoline: it saves the argument registers, looks the
 * method up by receiver and selector, restores them and jumps to the method, a plain C function
 * of the method's exact type. So a caller that casts objc_msgSend to the wrong type, or sends
 * an argument in the wrong register or stack slot, gets wrong values here, as it would on a
 * Mac. An unknown selector aborts, as Apple's unrecognized-selector exception ends a process.
 *
 * What this proves: the call sequence, each cast, and argument and return marshalling under the
 * x86_64 System V ABI (integers, pointers, doubles, 24-byte structs by value on the stack,
 * more than six integer arguments). What it does not: Apple's runtime, arm64's ABI, Metal's
 * behaviour, or that the MSL kernel compiles (this fake computes C = A·B itself).
 *
 * FAKE_METAL_MODE: unset one device with every property; "old" a device without the selectors
 * macOS added later; "two" two devices (the second an eGPU); "compile_error"; "wrong" one entry
 * of C off; "gpu_error" command buffers end with status 5 and an NSError; "crash" SIGSEGV in
 * the dispatch. */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef void* id;
typedef const char* SEL;
typedef void (*IMP)(void);

typedef struct Method {
  const char* name;
  IMP imp;
} Method;

typedef struct FakeClass {
  const struct FakeClass* isa; /* the metaclass, for class objects */
  const char* name;
  const Method* methods; /* ends with {0, 0} */
} FakeClass;

typedef struct Obj {
  const FakeClass* isa;
  int refs;
  struct Obj* next_live;
  /* payload */
  char* text;
  float* data;
  size_t length;
  struct Obj* items[4];
  size_t count;
  uint64_t u[6];
  double alpha, beta;
  const struct Obj* device_kind; /* for devices: which fake GPU */
} Obj;

static const char* mode(void) {
  const char* m = getenv("FAKE_METAL_MODE");
  return m ? m : "";
}
static int mode_is(const char* m) { return strcmp(mode(), m) == 0; }

/* ---- objects, reference counts, autorelease pools ---- */
static long live_objects;

static Obj* new_obj(const FakeClass* cls) {
  Obj* o = calloc(1, sizeof(Obj));
  o->isa = cls;
  o->refs = 1;
  ++live_objects;
  return o;
}

static void obj_release(id self, SEL sel);

#define kPoolMax 4096
static Obj* pool[kPoolMax];
static size_t pool_top;

static id autoreleased(Obj* o) {
  if (pool_top == kPoolMax) abort();
  pool[pool_top++] = o;
  return o;
}

EXPORT void* objc_autoreleasePoolPush(void) { return (void*)(uintptr_t)(pool_top + 1); }
EXPORT void objc_autoreleasePoolPop(void* token) {
  size_t mark = (size_t)(uintptr_t)token - 1;
  while (pool_top > mark) obj_release(pool[--pool_top], "release");
}
/* For the test: objects made and not yet freed. */
EXPORT long fake_objc_live_objects(void) { return live_objects; }

/* ---- NSObject ---- */
static id obj_retain(id self, SEL sel) {
  (void)sel;
  ++((Obj*)self)->refs;
  return self;
}
static void obj_release(id self, SEL sel) {
  (void)sel;
  Obj* o = self;
  if (--o->refs > 0) return;
  for (size_t i = 0; i < o->count; ++i) obj_release(o->items[i], "release");
  free(o->text);
  free(o->data);
  free(o);
  --live_objects;
}
static IMP find_method(const FakeClass* cls, SEL sel);
static unsigned char obj_responds(id self, SEL sel, SEL asked) {
  (void)sel;
  return find_method(((Obj*)self)->isa, asked) != NULL;
}
#define NSOBJECT_METHODS                               \
  {"retain", (IMP)obj_retain}, {"release", (IMP)obj_release}, \
      {"respondsToSelector:", (IMP)obj_responds}

/* ---- NSString, NSError, NSArray ---- */
static const FakeClass string_class;
static const char* string_utf8(id self, SEL sel) {
  (void)sel;
  return ((Obj*)self)->text;
}
static id string_init(id self, SEL sel, const char* s) {
  (void)sel;
  ((Obj*)self)->text = strdup(s);
  return self;
}
static id make_string(const char* s) { return string_init(new_obj(&string_class), "", s); }
static const Method string_methods[] = {
    NSOBJECT_METHODS, {"UTF8String", (IMP)string_utf8}, {"initWithUTF8String:", (IMP)string_init},
    {0, 0}};
static id class_alloc(id self, SEL sel);
static const Method string_class_methods[] = {{"alloc", (IMP)class_alloc}, {0, 0}};
static const FakeClass string_meta = {0, "NSString class", string_class_methods};
static const FakeClass string_class = {&string_meta, "NSString", string_methods};

static id error_description(id self, SEL sel) {
  (void)sel;
  return autoreleased(make_string(((Obj*)self)->text));
}
static const Method error_methods[] = {
    NSOBJECT_METHODS, {"localizedDescription", (IMP)error_description}, {0, 0}};
static const FakeClass error_class = {0, "NSError", error_methods};
static id make_error(const char* text) {
  Obj* e = new_obj(&error_class);
  e->text = strdup(text);
  return autoreleased(e);
}

static unsigned long array_count(id self, SEL sel) {
  (void)sel;
  return ((Obj*)self)->count;
}
static id array_object(id self, SEL sel, unsigned long i) {
  (void)sel;
  Obj* a = self;
  return i < a->count ? a->items[i] : NULL;
}
static const Method array_methods[] = {
    NSOBJECT_METHODS, {"count", (IMP)array_count}, {"objectAtIndex:", (IMP)array_object}, {0, 0}};
static const FakeClass array_class = {0, "NSArray", array_methods};

/* ---- classes as objects ---- */
static id class_alloc(id self, SEL sel) {
  (void)sel;
  return new_obj((const FakeClass*)self);
}

/* ---- MTLBuffer ---- */
static void* buffer_contents(id self, SEL sel) {
  (void)sel;
  return ((Obj*)self)->data;
}
static const Method buffer_methods[] = {NSOBJECT_METHODS, {"contents", (IMP)buffer_contents},
                                        {0, 0}};
static const FakeClass buffer_class = {0, "MTLBuffer", buffer_methods};

/* ---- MTLLibrary, MTLFunction, MTLComputePipelineState ---- */
static const FakeClass function_class;
static id library_function(id self, SEL sel, id name) {
  (void)self;
  (void)sel;
  if (strcmp(((Obj*)name)->text, "gpudoctor_matmul") != 0) return NULL;
  return new_obj(&function_class);
}
static const Method library_methods[] = {
    NSOBJECT_METHODS, {"newFunctionWithName:", (IMP)library_function}, {0, 0}};
static const FakeClass library_class = {0, "MTLLibrary", library_methods};
static const Method function_methods[] = {NSOBJECT_METHODS, {0, 0}};
static const FakeClass function_class = {0, "MTLFunction", function_methods};
static unsigned long pipeline_max_threads(id self, SEL sel) {
  (void)self;
  (void)sel;
  return 1024;
}
static const Method pipeline_methods[] = {
    NSOBJECT_METHODS, {"maxTotalThreadsPerThreadgroup", (IMP)pipeline_max_threads}, {0, 0}};
static const FakeClass pipeline_class = {0, "MTLComputePipelineState", pipeline_methods};

/* ---- C = A·B over n×n, rows ld floats apart, as the kernel and MPS compute it ---- */
static void multiply(const float* a, const float* b, float* c, size_t n, size_t ld) {
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      float acc = 0;
      for (size_t k = 0; k < n; ++k) acc = fmaf(a[i * ld + k], b[k * ld + j], acc);
      c[i * ld + j] = acc;
    }
  }
  if (mode_is("wrong")) c[ld + 3] += 0.5f;
}

/* ---- MTLCommandBuffer, MTLComputeCommandEncoder ---- */
typedef struct MtlSize {
  unsigned long width, height, depth;
} MtlSize;

static const FakeClass encoder_class;
static id command_encoder(id self, SEL sel) {
  (void)sel;
  Obj* e = new_obj(&encoder_class);
  e->items[3] = self; /* its command buffer, not retained */
  return autoreleased(e);
}
static void command_commit(id self, SEL sel) {
  (void)sel;
  ((Obj*)self)->u[0] = mode_is("gpu_error") ? 5 : 4;
}
static void command_wait(id self, SEL sel) {
  (void)self;
  (void)sel;
}
static unsigned long command_status(id self, SEL sel) {
  (void)sel;
  return ((Obj*)self)->u[0];
}
static id command_error(id self, SEL sel) {
  (void)sel;
  return ((Obj*)self)->u[0] == 5 ? make_error("fake: the command buffer was aborted") : NULL;
}
static const Method command_methods[] = {NSOBJECT_METHODS,
                                         {"computeCommandEncoder", (IMP)command_encoder},
                                         {"commit", (IMP)command_commit},
                                         {"waitUntilCompleted", (IMP)command_wait},
                                         {"status", (IMP)command_status},
                                         {"error", (IMP)command_error},
                                         {0, 0}};
static const FakeClass command_class = {0, "MTLCommandBuffer", command_methods};

static void encoder_pipeline(id self, SEL sel, id pipeline) {
  (void)sel;
  if (((Obj*)pipeline)->isa != &pipeline_class) abort();
  ((Obj*)self)->u[5] = 1;
}
static void encoder_buffer(id self, SEL sel, id buffer, unsigned long offset, unsigned long index) {
  (void)sel;
  if (index >= 3 || offset != 0 || ((Obj*)buffer)->isa != &buffer_class) abort();
  ((Obj*)self)->u[index] = (uintptr_t)buffer;
}
static void encoder_bytes(id self, SEL sel, const void* bytes, unsigned long length,
                          unsigned long index) {
  (void)sel;
  Obj* e = self;
  if (index != 3 || length != 2 * sizeof(unsigned)) abort();
  e->data = malloc(length);
  memcpy(e->data, bytes, length);
}
static void encoder_dispatch(id self, SEL sel, MtlSize groups, MtlSize threads) {
  (void)sel;
  Obj* e = self;
  unsigned sizes[2];
  if (mode_is("crash")) raise(SIGSEGV);
  if (e->data == NULL || e->u[5] != 1) abort();
  memcpy(sizes, e->data, sizeof sizes);
  /* One thread per entry of the padded C, in 16×16 threadgroups. */
  if (threads.width != 16 || threads.height != 16 || threads.depth != 1 || groups.depth != 1 ||
      groups.width * 16 != sizes[0] || groups.height * 16 != sizes[0]) {
    fprintf(stderr, "fake Metal: dispatch %lux%lux%lu groups of %lux%lux%lu for n=%u\n",
            groups.width, groups.height, groups.depth, threads.width, threads.height,
            threads.depth, sizes[0]);
    abort();
  }
  multiply(((Obj*)e->u[0])->data, ((Obj*)e->u[1])->data, ((Obj*)e->u[2])->data, sizes[0],
           sizes[1]);
}
static void encoder_end(id self, SEL sel) {
  (void)self;
  (void)sel;
}
static const Method encoder_methods[] = {
    NSOBJECT_METHODS,
    {"setComputePipelineState:", (IMP)encoder_pipeline},
    {"setBuffer:offset:atIndex:", (IMP)encoder_buffer},
    {"setBytes:length:atIndex:", (IMP)encoder_bytes},
    {"dispatchThreadgroups:threadsPerThreadgroup:", (IMP)encoder_dispatch},
    {"endEncoding", (IMP)encoder_end},
    {0, 0}};
static const FakeClass encoder_class = {0, "MTLComputeCommandEncoder", encoder_methods};

/* ---- MTLCommandQueue ---- */
static id queue_command_buffer(id self, SEL sel) {
  (void)self;
  (void)sel;
  return autoreleased(new_obj(&command_class));
}
static const Method queue_methods[] = {
    NSOBJECT_METHODS, {"commandBuffer", (IMP)queue_command_buffer}, {0, 0}};
static const FakeClass queue_class = {0, "MTLCommandQueue", queue_methods};

/* ---- MetalPerformanceShaders: MPSMatrixDescriptor, MPSMatrix, MPSMatrixMultiplication ---- */
static const FakeClass mps_descriptor_class;
static id mps_descriptor_make(id cls, SEL sel, unsigned long rows, unsigned long columns,
                              unsigned long row_bytes, uint32_t data_type) {
  (void)cls;
  (void)sel;
  if (data_type != 0x10000020u) return NULL; /* MPSDataTypeFloat32 only */
  Obj* d = new_obj(&mps_descriptor_class);
  d->u[0] = rows;
  d->u[1] = columns;
  d->u[2] = row_bytes;
  return autoreleased(d);
}
static const Method mps_descriptor_methods[] = {NSOBJECT_METHODS, {0, 0}};
static const Method mps_descriptor_class_methods[] = {
    {"matrixDescriptorWithRows:columns:rowBytes:dataType:", (IMP)mps_descriptor_make}, {0, 0}};
static const FakeClass mps_descriptor_meta = {0, "MPSMatrixDescriptor class",
                                              mps_descriptor_class_methods};
static const FakeClass mps_descriptor_class = {&mps_descriptor_meta, "MPSMatrixDescriptor",
                                               mps_descriptor_methods};

static const FakeClass mps_matrix_class;
static id mps_matrix_init(id self, SEL sel, id buffer, id descriptor) {
  (void)sel;
  Obj* m = self;
  const Obj* d = descriptor;
  if (((Obj*)buffer)->isa != &buffer_class || d->isa != &mps_descriptor_class) abort();
  memcpy(m->u, d->u, 3 * sizeof m->u[0]);
  m->u[3] = (uintptr_t)buffer;
  return self;
}
static const Method mps_matrix_methods[] = {
    NSOBJECT_METHODS, {"initWithBuffer:descriptor:", (IMP)mps_matrix_init}, {0, 0}};
static const Method alloc_only[] = {{"alloc", (IMP)class_alloc}, {0, 0}};
static const FakeClass mps_matrix_meta = {0, "MPSMatrix class", alloc_only};
static const FakeClass mps_matrix_class = {&mps_matrix_meta, "MPSMatrix", mps_matrix_methods};

static id mps_mm_init(id self, SEL sel, id device, unsigned char transpose_left,
                      unsigned char transpose_right, unsigned long rows, unsigned long columns,
                      unsigned long interior, double alpha, double beta) {
  (void)sel;
  (void)device;
  Obj* m = self;
  if (transpose_left || transpose_right || rows != columns || rows != interior) abort();
  m->u[0] = rows;
  m->alpha = alpha;
  m->beta = beta;
  return self;
}
static void mps_mm_encode(id self, SEL sel, id command_buffer, id a, id b, id c) {
  (void)sel;
  const Obj* m = self;
  const Obj* ma = a;
  if (((Obj*)command_buffer)->isa != &command_class) abort();
  if (m->alpha != 1.0 || m->beta != 0.0) {
    fprintf(stderr, "fake MPS: alpha %g beta %g\n", m->alpha, m->beta);
    abort();
  }
  multiply(((Obj*)ma->u[3])->data, ((Obj*)((Obj*)b)->u[3])->data, ((Obj*)((Obj*)c)->u[3])->data,
           m->u[0], ma->u[2] / sizeof(float));
}
static const Method mps_mm_methods[] = {
    NSOBJECT_METHODS,
    {"initWithDevice:transposeLeft:transposeRight:resultRows:resultColumns:interiorColumns:"
     "alpha:beta:",
     (IMP)mps_mm_init},
    {"encodeToCommandBuffer:leftMatrix:rightMatrix:resultMatrix:", (IMP)mps_mm_encode},
    {0, 0}};
static const FakeClass mps_mm_meta = {0, "MPSMatrixMultiplication class", alloc_only};
static const FakeClass mps_mm_class = {&mps_mm_meta, "MPSMatrixMultiplication", mps_mm_methods};

/* ---- MTLDevice ---- */
typedef struct Gpu {
  const char* name;
  uint64_t registry_id, working_set, max_buffer;
  unsigned char unified, low_power, removable;
  unsigned long location, location_number;
  long families[16];
  unsigned long feature_sets[8]; /* supportsFeatureSet:: family 1 up to its macOS 10.13 version */
} Gpu;
static const Gpu gpus[2] = {
    {"Fake Metal GPU", 0x100000abcu, 1ull << 34, 1ull << 33, 1, 0, 0, 0, 0,
     {1001, 1002, 1003, 1004, 1005, 1006, 1007, 2002, 3001, 3002, 3003, 5001},
     {10000, 10001, 10003}},
    {"Fake eGPU", 0x100000defu, 1ull << 33, 1ull << 32, 0, 0, 1, 2, 1,
     {2001, 2002, 3001, 3002, 3003, 5001},
     {10000, 10001, 10003, 10004, 10005}},
};
static const Gpu* gpu_of(id self) { return &gpus[((Obj*)self)->u[0]]; }

static id device_name(id self, SEL sel) {
  (void)sel;
  return autoreleased(make_string(gpu_of(self)->name));
}
static uint64_t device_registry(id self, SEL sel) {
  (void)sel;
  return gpu_of(self)->registry_id;
}
static unsigned char device_unified(id self, SEL sel) {
  (void)sel;
  return gpu_of(self)->unified;
}
static uint64_t device_working_set(id self, SEL sel) {
  (void)sel;
  return gpu_of(self)->working_set;
}
static unsigned char device_low_power(id self, SEL sel) {
  (void)sel;
  return gpu_of(self)->low_power;
}
static unsigned char device_headless(id self, SEL sel) {
  (void)self;
  (void)sel;
  return 0;
}
static unsigned char device_removable(id self, SEL sel) {
  (void)sel;
  return gpu_of(self)->removable;
}
static unsigned long device_location(id self, SEL sel) {
  (void)sel;
  return gpu_of(self)->location;
}
static unsigned long device_location_number(id self, SEL sel) {
  (void)sel;
  return gpu_of(self)->location_number;
}
static unsigned long device_max_buffer(id self, SEL sel) {
  (void)sel;
  return gpu_of(self)->max_buffer;
}
static unsigned long device_threadgroup_memory(id self, SEL sel) {
  (void)self;
  (void)sel;
  return 32768;
}
static unsigned char device_supports_family(id self, SEL sel, long family) {
  (void)sel;
  for (const long* f = gpu_of(self)->families; *f != 0; ++f) {
    if (*f == family) return 1;
  }
  return 0;
}
static unsigned char device_supports_feature_set(id self, SEL sel, unsigned long set) {
  (void)sel;
  for (const unsigned long* f = gpu_of(self)->feature_sets; *f != 0; ++f) {
    if (*f == set) return 1;
  }
  return 0;
}
static id device_queue(id self, SEL sel) {
  (void)self;
  (void)sel;
  return new_obj(&queue_class);
}
static id device_library(id self, SEL sel, id source, id options, id* error) {
  (void)self;
  (void)sel;
  if (options != NULL || error == NULL) abort();
  if (mode_is("compile_error") ||
      strstr(((Obj*)source)->text, "kernel void gpudoctor_matmul(") == NULL) {
    *error = make_error("fake: program_source:1:1: error: the fake compiler refused it");
    return NULL;
  }
  return new_obj(&library_class);
}
static id device_pipeline(id self, SEL sel, id function, id* error) {
  (void)self;
  (void)sel;
  if (((Obj*)function)->isa != &function_class || error == NULL) abort();
  return new_obj(&pipeline_class);
}
static id device_buffer(id self, SEL sel, const void* bytes, unsigned long length,
                        unsigned long options) {
  (void)self;
  (void)sel;
  if (options != 0 || length % sizeof(float) != 0) abort(); /* MTLResourceStorageModeShared */
  Obj* b = new_obj(&buffer_class);
  b->data = malloc(length);
  b->length = length;
  memcpy(b->data, bytes, length);
  return b;
}
#define DEVICE_BASE_METHODS                                                       \
  NSOBJECT_METHODS, {"name", (IMP)device_name}, {"registryID", (IMP)device_registry}, \
      {"isLowPower", (IMP)device_low_power}, {"isHeadless", (IMP)device_headless},    \
      {"isRemovable", (IMP)device_removable}, {"newCommandQueue", (IMP)device_queue},  \
      {"newLibraryWithSource:options:error:", (IMP)device_library},                    \
      {"newComputePipelineStateWithFunction:error:", (IMP)device_pipeline},           \
      {"newBufferWithBytes:length:options:", (IMP)device_buffer},                      \
      {"supportsFeatureSet:", (IMP)device_supports_feature_set}
static const Method device_methods[] = {
    DEVICE_BASE_METHODS,
    {"hasUnifiedMemory", (IMP)device_unified},
    {"recommendedMaxWorkingSetSize", (IMP)device_working_set},
    {"location", (IMP)device_location},
    {"locationNumber", (IMP)device_location_number},
    {"maxBufferLength", (IMP)device_max_buffer},
    {"maxThreadgroupMemoryLength", (IMP)device_threadgroup_memory},
    {"supportsFamily:", (IMP)device_supports_family},
    {0, 0}};
static const FakeClass device_class = {0, "MTLDevice", device_methods};
/* A macOS before the selectors added to MTLDevice later. */
static const Method old_device_methods[] = {DEVICE_BASE_METHODS, {0, 0}};
static const FakeClass old_device_class = {0, "MTLDevice (old)", old_device_methods};

EXPORT id MTLCopyAllDevices(void) {
  Obj* array = new_obj(&array_class);
  array->count = mode_is("two") ? 2 : 1;
  for (size_t i = 0; i < array->count; ++i) {
    Obj* d = new_obj(mode_is("old") ? &old_device_class : &device_class);
    d->u[0] = i;
    array->items[i] = d;
  }
  return array;
}

EXPORT unsigned char MPSSupportsMTLDevice(id device) {
  return device != NULL && gpu_of(device)->unified;
}

/* ---- the runtime ---- */
EXPORT id objc_getClass(const char* name) {
  static const FakeClass* const classes[] = {&string_class, &mps_descriptor_class,
                                             &mps_matrix_class, &mps_mm_class};
  for (size_t i = 0; i < sizeof classes / sizeof classes[0]; ++i) {
    if (strcmp(classes[i]->name, name) == 0) return (id)classes[i];
  }
  return NULL;
}

EXPORT SEL sel_registerName(const char* name) {
  static char* interned[512];
  static size_t count;
  for (size_t i = 0; i < count; ++i) {
    if (strcmp(interned[i], name) == 0) return interned[i];
  }
  if (count == 512) abort();
  interned[count] = strdup(name);
  return interned[count++];
}

static IMP find_method(const FakeClass* cls, SEL sel) {
  for (const Method* m = cls->methods; m->name != NULL; ++m) {
    if (strcmp(m->name, sel) == 0) return m->imp;
  }
  return NULL;
}

static long nil_method(void) { return 0; }

/* Called by the trampoline with the message's receiver and selector. */
__attribute__((visibility("hidden"))) IMP fake_objc_lookup(id self, SEL sel) {
  if (self == NULL) return (IMP)nil_method; /* messages to nil return zero */
  const FakeClass* cls = ((Obj*)self)->isa;
  IMP imp = find_method(cls, sel);
  if (imp == NULL) {
    fprintf(stderr, "fake objc: -[%s %s]: unrecognized selector sent to instance\n", cls->name,
            sel);
    abort();
  }
  return imp;
}

/* objc_msgSend: keep every argument register (and %al, the vector-register count of a
 * variadic call) across the lookup, then jump to the method with the stack as the caller left
 * it, so that arguments passed in memory reach the method where it expects them. */
__asm__(
    ".text\n"
    ".globl objc_msgSend\n"
    ".type objc_msgSend,@function\n"
    "objc_msgSend:\n"
    "  pushq %rbp\n"
    "  movq %rsp, %rbp\n"
    "  subq $192, %rsp\n"
    "  movq %rdi, 0(%rsp)\n"
    "  movq %rsi, 8(%rsp)\n"
    "  movq %rdx, 16(%rsp)\n"
    "  movq %rcx, 24(%rsp)\n"
    "  movq %r8, 32(%rsp)\n"
    "  movq %r9, 40(%rsp)\n"
    "  movq %rax, 48(%rsp)\n"
    "  movdqu %xmm0, 64(%rsp)\n"
    "  movdqu %xmm1, 80(%rsp)\n"
    "  movdqu %xmm2, 96(%rsp)\n"
    "  movdqu %xmm3, 112(%rsp)\n"
    "  movdqu %xmm4, 128(%rsp)\n"
    "  movdqu %xmm5, 144(%rsp)\n"
    "  movdqu %xmm6, 160(%rsp)\n"
    "  movdqu %xmm7, 176(%rsp)\n"
    "  call fake_objc_lookup\n"
    "  movq %rax, %r11\n"
    "  movq 0(%rsp), %rdi\n"
    "  movq 8(%rsp), %rsi\n"
    "  movq 16(%rsp), %rdx\n"
    "  movq 24(%rsp), %rcx\n"
    "  movq 32(%rsp), %r8\n"
    "  movq 40(%rsp), %r9\n"
    "  movq 48(%rsp), %rax\n"
    "  movdqu 64(%rsp), %xmm0\n"
    "  movdqu 80(%rsp), %xmm1\n"
    "  movdqu 96(%rsp), %xmm2\n"
    "  movdqu 112(%rsp), %xmm3\n"
    "  movdqu 128(%rsp), %xmm4\n"
    "  movdqu 144(%rsp), %xmm5\n"
    "  movdqu 160(%rsp), %xmm6\n"
    "  movdqu 176(%rsp), %xmm7\n"
    "  movq %rbp, %rsp\n"
    "  popq %rbp\n"
    "  jmp *%r11\n"
    ".size objc_msgSend, .-objc_msgSend\n");
