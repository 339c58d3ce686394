#include <cmath>
#include <vector>
#include "levels.h"

static void cpuDecompose(std::vector<std::vector<float>> &lv)
{
    for (size_t l = 0; l + 1 < lv.size(); ++l) {
        std::vector<float> &f = lv[l];
        std::vector<float> &c = lv[l + 1];
        int nc = (int)c.size(), nf = (int)f.size();
        for (int i = 0; i < nc; ++i)
            c[i] = (i == 0 || i == nc - 1) ? f[2 * i]
                                           : 0.25f * f[2 * i - 1] + 0.5f * f[2 * i] + 0.25f * f[2 * i + 1];
        for (int j = 0; j < nf; ++j) {
            float v = (j & 1) ? 0.5f * (c[j / 2] + c[j / 2 + 1]) : c[j / 2];
            f[j] -= v;
        }
    }
}

int main(int argc, char **argv)
{
    int n0 = argc > 1 ? atoi(argv[1]) : 4097;
    int levels = argc > 2 ? atoi(argv[2]) : 6;

    Pyramid pyr;
    initPyramid(&pyr, n0, levels);

    std::vector<float> signal(n0);
    for (int i = 0; i < n0; ++i) {
        float t = (float)i / (n0 - 1);
        signal[i] = sinf(6.2831853f * 3.0f * t) + 0.3f * sinf(6.2831853f * 40.0f * t) + (t > 0.5f ? 0.5f : 0.0f);
    }
    CU(cudaMemcpy(pyr.lv[0].d, signal.data(), n0 * sizeof(float), cudaMemcpyHostToDevice));

    decompose(&pyr, 0);
    CU(cudaDeviceSynchronize());

    std::vector<std::vector<float>> ref(pyr.levels);
    ref[0] = signal;
    for (int l = 1; l < pyr.levels; ++l)
        ref[l].assign(pyr.lv[l].n, 0.0f);
    cpuDecompose(ref);

    double detailErr = 0.0;
    for (int l = 0; l < pyr.levels; ++l) {
        std::vector<float> got(pyr.lv[l].n);
        CU(cudaMemcpy(got.data(), pyr.lv[l].d, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
        double e = 0.0, energy = 0.0;
        for (size_t i = 0; i < got.size(); ++i) {
            e = fmax(e, fabs((double)got[i] - ref[l][i]));
            energy += (double)got[i] * got[i];
        }
        printf("level %d: n = %5d  energy %10.4f  max err %.2e\n", l, pyr.lv[l].n, energy, e);
        detailErr = fmax(detailErr, e);
    }

    reconstruct(&pyr, 0);
    std::vector<float> back(n0);
    CU(cudaMemcpy(back.data(), pyr.lv[0].d, n0 * sizeof(float), cudaMemcpyDeviceToHost));
    double recErr = 0.0;
    for (int i = 0; i < n0; ++i)
        recErr = fmax(recErr, fabs((double)back[i] - signal[i]));

    bool ok = detailErr < 1e-4 && recErr < 1e-4;
    printf("levels %d, detail err %.2e, reconstruction err %.2e -> %s\n", pyr.levels, detailErr,
           recErr, ok ? "OK" : "MISMATCH");
    freePyramid(&pyr);
    return ok ? 0 : 1;
}
