/* Times CLBlast's SGEMM (C = A·B, fp32, n×n, row-major) on the first device of the OpenCL
 * platform whose name contains argv[2]; prints the best of argv[3] runs in milliseconds.
 * bench/matmul_bench.py builds it at run time: cc clblast_sgemm.c -lclblast -lOpenCL. */
#define CL_TARGET_OPENCL_VERSION 120
#include <clblast_c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static cl_device_id find_device(const char* want) {
  cl_platform_id platforms[16];
  cl_uint count = 0;
  if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS) return NULL;
  for (cl_uint i = 0; i < count && i < 16; ++i) {
    char name[256] = "";
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    cl_device_id device = NULL;
    if (strstr(name, want) != NULL &&
        clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &device, NULL) == CL_SUCCESS) {
      return device;
    }
  }
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s N PLATFORM-NAME RUNS\n", argv[0]);
    return 2;
  }
  const size_t n = (size_t)atol(argv[1]);
  const int runs = atoi(argv[3]);
  cl_device_id device = find_device(argv[2]);
  if (device == NULL) {
    fprintf(stderr, "no OpenCL platform named like '%s'\n", argv[2]);
    return 1;
  }
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
  float* host = malloc(n * n * sizeof(float));
  for (size_t i = 0; i < n * n; ++i) host[i] = (float)((i * 2654435761u) % 1000) / 1000.0f - 0.5f;
  cl_mem buf[3];
  for (int i = 0; i < 3; ++i) {
    buf[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * n * sizeof(float),
                            host, &err);
  }
  double best = -1;
  for (int r = 0; r <= runs; ++r) { /* run 0 is the warm-up: CLBlast compiles its kernels */
    const double t = now_ms();
    CLBlastStatusCode s = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo,
                                       n, n, n, 1.0f, buf[0], 0, n, buf[1], 0, n, 0.0f, buf[2], 0, n,
                                       &queue, NULL);
    clFinish(queue);
    if (s != CLBlastSuccess) {
      fprintf(stderr, "CLBlastSgemm returned %d\n", (int)s);
      return 1;
    }
    const double ms = now_ms() - t;
    if (r > 0 && (best < 0 || ms < best)) best = ms;
  }
  printf("%.3f\n", best);
  return 0;
}
