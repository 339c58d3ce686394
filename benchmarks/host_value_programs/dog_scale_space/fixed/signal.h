#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define SS_CHECK(x)                                                             \
    do {                                                                        \
        cudaError_t e_ = (x);                                                   \
        if (e_ != cudaSuccess) {                                                \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                    cudaGetErrorString(e_));                                    \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

constexpr int kRadius = 4;
constexpr int kMaxOctaves = 12;

struct Signal {
    int n;
    float *base;
    float *smooth;
    float *dog;
};

struct ScaleSpace {
    int octaves;
    int blockSize;
    Signal oct[kMaxOctaves];
    int *d_extrema;
};

void initScaleSpace(ScaleSpace &ss, int n0, int octaves, int blockSize);
void freeScaleSpace(ScaleSpace &ss);
void buildOctaves(ScaleSpace &ss, int o);

void setGaussianWeights(float sigma);
void smoothAndDiff(const Signal &s, int blockSize, int *d_count);
void downsample(const Signal &src, Signal &dst, int blockSize);
