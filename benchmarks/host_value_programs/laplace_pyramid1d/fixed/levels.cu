#include "levels.h"

void initPyramid(Pyramid *p, int n0, int levels)
{
    if (levels > kMaxLevels)
        levels = kMaxLevels;
    p->levels = 0;
    int n = n0;
    for (int l = 0; l < levels && n >= 3; ++l) {
        p->lv[l].n = n;
        CU(cudaMalloc(&p->lv[l].d, n * sizeof(float)));
        CU(cudaMemset(p->lv[l].d, 0, n * sizeof(float)));
        p->levels = l + 1;
        n = (n + 1) / 2;
    }
}

void freePyramid(Pyramid *p)
{
    for (int l = 0; l < p->levels; ++l)
        CU(cudaFree(p->lv[l].d));
    p->levels = 0;
}
