#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CU(call)                                                                \
    do {                                                                        \
        cudaError_t rc_ = (call);                                               \
        if (rc_ != cudaSuccess) {                                               \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__,                   \
                    cudaGetErrorString(rc_));                                   \
            exit(2);                                                            \
        }                                                                       \
    } while (0)

constexpr int kMaxLevels = 16;

struct Level {
    int n;
    float *d;
};

struct Pyramid {
    int levels;
    Level lv[kMaxLevels];
};

void initPyramid(Pyramid *p, int n0, int levels);
void freePyramid(Pyramid *p);

void decompose(Pyramid *p, int l);
void reconstruct(Pyramid *p, int l);

void launchRestrict(const float *fine, int nf, float *coarse, int nc);
void launchProlongAdd(const float *coarse, int nc, float *fine, int nf, float sign);
