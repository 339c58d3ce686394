#include <algorithm>
#include <cmath>
#include <vector>
#include "signal.h"

static void cpuOctaves(std::vector<float> x, int octaves, float sigma, std::vector<int> &extrema,
                       std::vector<double> &energy)
{
    std::vector<float> w(2 * kRadius + 1);
    float sum = 0.0f;
    for (int k = -kRadius; k <= kRadius; ++k)
        sum += (w[k + kRadius] = expf(-0.5f * k * k / (sigma * sigma)));
    for (float &v : w)
        v /= sum;
    for (int o = 0; o < octaves; ++o) {
        int n = (int)x.size();
        std::vector<float> sm(n);
        int cnt = 0;
        double e = 0.0;
        for (int i = 0; i < n; ++i) {
            float acc = 0.0f;
            for (int k = -kRadius; k <= kRadius; ++k) {
                int j = i + k < 0 ? 0 : (i + k >= n ? n - 1 : i + k);
                acc += w[k + kRadius] * x[j];
            }
            sm[i] = acc;
            float d = acc - x[i];
            e += (double)d * d;
            cnt += fabsf(d) > 0.05f;
        }
        extrema.push_back(cnt);
        energy.push_back(e);
        std::vector<float> next(n / 2);
        for (int i = 0; i < n / 2; ++i)
            next[i] = 0.5f * (sm[2 * i] + sm[std::min(2 * i + 1, n - 1)]);
        x.swap(next);
    }
}

int main(int argc, char **argv)
{
    int n0 = argc > 1 ? atoi(argv[1]) : 4097;
    int octaves = argc > 2 ? atoi(argv[2]) : 5;
    const float sigma = 1.6f;

    ScaleSpace ss;
    initScaleSpace(ss, n0, octaves, 256);
    setGaussianWeights(sigma);

    std::vector<float> x(n0);
    for (int i = 0; i < n0; ++i)
        x[i] = sinf(0.02f * i) + 0.5f * sinf(0.9f * i) + ((i / 300) % 2 ? 0.4f : -0.4f);
    SS_CHECK(cudaMemcpy(ss.oct[0].base, x.data(), n0 * sizeof(float), cudaMemcpyHostToDevice));

    buildOctaves(ss, 0);
    SS_CHECK(cudaDeviceSynchronize());

    std::vector<int> refCount;
    std::vector<double> refEnergy;
    cpuOctaves(x, ss.octaves, sigma, refCount, refEnergy);

    std::vector<int> count(kMaxOctaves);
    SS_CHECK(cudaMemcpy(count.data(), ss.d_extrema, kMaxOctaves * sizeof(int), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int o = 0; o < ss.octaves; ++o) {
        std::vector<float> dog(ss.oct[o].n);
        SS_CHECK(cudaMemcpy(dog.data(), ss.oct[o].dog, dog.size() * sizeof(float), cudaMemcpyDeviceToHost));
        double e = 0.0;
        for (float d : dog)
            e += (double)d * d;
        bool good = fabs(e - refEnergy[o]) <= 1e-3 * (1.0 + refEnergy[o]) && abs(count[o] - refCount[o]) <= 2;
        ok = ok && good;
        printf("octave %d: n = %4d, DoG energy %.5f (cpu %.5f), responses %d (cpu %d)\n", o, ss.oct[o].n, e,
               refEnergy[o], count[o], refCount[o]);
    }
    printf("%s\n", ok ? "OK" : "MISMATCH");
    freeScaleSpace(ss);
    return ok ? 0 : 1;
}
