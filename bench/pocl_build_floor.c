/* The part of a cold OpenCL compile that no kernel can avoid, for bench/cold_check_bench.py:
 * builds and runs a one-line kernel on the first OpenCL device (PoCL here), once. Run with an
 * empty POCL_CACHE_DIR it pays the driver's whole compile (front end, kernel library, the
 * work-group function); with a filled one almost nothing. Exit 0 on success. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

static const char* kSource = "__kernel void copy(__global const float* a, __global float* c) {"
                             " c[get_global_id(0)] = a[get_global_id(0)]; }";

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
    fprintf(stderr, "no OpenCL device\n");
    return 2;
  }
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
  cl_program program = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &err);
  if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
    fprintf(stderr, "build failed\n");
    return 2;
  }
  cl_kernel kernel = clCreateKernel(program, "copy", &err);
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256 * sizeof(float), NULL, &err);
  cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256 * sizeof(float), NULL, &err);
  clSetKernelArg(kernel, 0, sizeof a, &a);
  clSetKernelArg(kernel, 1, sizeof c, &c);
  const size_t global = 256, local = 1; /* as the smoke kernel is launched: groups of one */
  err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
  if (err != CL_SUCCESS || clFinish(queue) != CL_SUCCESS) {
    fprintf(stderr, "run failed (%d)\n", err);
    return 2;
  }
  clReleaseMemObject(a);
  clReleaseMemObject(c);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(ctx);
  return 0;
}
