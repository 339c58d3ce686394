#include "signal.h"

void initScaleSpace(ScaleSpace &ss, int n0, int octaves, int blockSize)
{
    ss.octaves = 0;
    ss.blockSize = blockSize;
    int n = n0;
    for (int o = 0; o < octaves && o < kMaxOctaves && n > 2 * kRadius; ++o) {
        Signal &s = ss.oct[o];
        s.n = n;
        SS_CHECK(cudaMalloc(&s.base, n * sizeof(float)));
        SS_CHECK(cudaMalloc(&s.smooth, n * sizeof(float)));
        SS_CHECK(cudaMalloc(&s.dog, n * sizeof(float)));
        ss.octaves = o + 1;
        n /= 2;
    }
    SS_CHECK(cudaMalloc(&ss.d_extrema, kMaxOctaves * sizeof(int)));
    SS_CHECK(cudaMemset(ss.d_extrema, 0, kMaxOctaves * sizeof(int)));
}

void freeScaleSpace(ScaleSpace &ss)
{
    for (int o = 0; o < ss.octaves; ++o) {
        cudaFree(ss.oct[o].base);
        cudaFree(ss.oct[o].smooth);
        cudaFree(ss.oct[o].dog);
    }
    cudaFree(ss.d_extrema);
    ss.octaves = 0;
}

void buildOctaves(ScaleSpace &ss, int o)
{
    if (o >= ss.octaves)
        return;
    smoothAndDiff(ss.oct[o], ss.blockSize, ss.d_extrema + o);
    if (o + 1 < ss.octaves)
        downsample(ss.oct[o], ss.oct[o + 1], ss.blockSize);
    buildOctaves(ss, o + 1);
}
