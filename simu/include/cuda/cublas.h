/* simu shim <cublas.h>: the legacy cuBLAS API (handle-less calls) plus the v2 types. */
#ifndef CUBLAS_H_
#define CUBLAS_H_
#include "cublas_api.h"
typedef cublasStatus_t cublasStatus;
extern "C" {
cublasStatus_t cublasInit(void);
cublasStatus_t cublasShutdown(void);
cublasStatus_t cublasGetError(void);
cublasStatus_t cublasAlloc(int n, int elemSize, void **devicePtr);
cublasStatus_t cublasFree(void *devicePtr);
void cublasSgemm(char transa, char transb, int m, int n, int k, float alpha, const float *A, int lda,
                 const float *B, int ldb, float beta, float *C, int ldc);
void cublasDgemm(char transa, char transb, int m, int n, int k, double alpha, const double *A, int lda,
                 const double *B, int ldb, double beta, double *C, int ldc);
void cublasSaxpy(int n, float alpha, const float *x, int incx, float *y, int incy);
float cublasSdot(int n, const float *x, int incx, const float *y, int incy);
float cublasSnrm2(int n, const float *x, int incx);
void cublasSscal(int n, float alpha, float *x, int incx);
}
#endif /* CUBLAS_H_ */
