/* Lets one function body compile for the host and the GPU: nvcc sees
 * __host__ __device__, a plain C compiler sees nothing. */
#ifndef HOSTDEVICE_H
#define HOSTDEVICE_H
#ifdef __CUDACC__
#define HOSTDEVICE __host__ __device__
#else
#define HOSTDEVICE
#endif
#endif
