#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                             \
    do {                                                                        \
        cudaError_t e = (call);                                                 \
        if (e != cudaSuccess) {                                                 \
            fprintf(stderr, "error %s at line %d\n", cudaGetErrorString(e),     \
                    __LINE__);                                                  \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

constexpr int kBlock = 256;

struct Config {
    int n;
    int seed;
    bool verbose;
};

struct ScanArgs {
    int n;
    const int *in;
    int *out;
    int *blockSums;
};

static void parse(int argc, char **argv, Config &cfg)
{
    cfg.n = 1000;
    cfg.seed = 7;
    cfg.verbose = false;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc)
            cfg.n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            cfg.seed = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-v"))
            cfg.verbose = true;
    }
}

__global__ void scanBlocks(ScanArgs a)
{
    __shared__ int s[kBlock];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;

    s[tid] = gid < a.n ? a.in[gid] : 0;
    __syncthreads();
    for (int off = 1; off < blockDim.x; off <<= 1) {
        int t = tid >= off ? s[tid - off] : 0;
        __syncthreads();
        s[tid] += t;
        __syncthreads();
    }
    if (gid < a.n)
        a.out[gid] = s[tid];
    if (tid == blockDim.x - 1)
        a.blockSums[blockIdx.x] = s[tid];
}

__global__ void scanSums(int *sums, int count)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        int run = 0;
        for (int b = 0; b < count; ++b) {
            int v = sums[b];
            sums[b] = run;
            run += v;
        }
    }
}

__global__ void addOffsets(ScanArgs a)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid < a.n)
        a.out[gid] += a.blockSums[blockIdx.x];
}

int main(int argc, char **argv)
{
    Config cfg;
    parse(argc, argv, cfg);

    std::vector<int> h_in(cfg.n);
    unsigned st = (unsigned)cfg.seed;
    for (int i = 0; i < cfg.n; ++i) {
        st = st * 1103515245u + 12345u;
        h_in[i] = (st >> 16) % 10;
    }

    int numBlocks = (cfg.n + kBlock - 1) / kBlock;
    ScanArgs args;
    args.n = cfg.n;
    int *d_in, *d_out, *d_sums;
    CHECK(cudaMalloc(&d_in, cfg.n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, cfg.n * sizeof(int)));
    CHECK(cudaMalloc(&d_sums, numBlocks * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h_in.data(), cfg.n * sizeof(int), cudaMemcpyHostToDevice));
    args.in = d_in;
    args.out = d_out;
    args.blockSums = d_sums;

    scanBlocks<<<numBlocks, kBlock>>>(args);
    CHECK(cudaGetLastError());
    scanSums<<<1, 1>>>(d_sums, numBlocks);
    CHECK(cudaGetLastError());
    addOffsets<<<numBlocks, kBlock>>>(args);
    CHECK(cudaGetLastError());

    std::vector<int> h_out(cfg.n);
    CHECK(cudaMemcpy(h_out.data(), d_out, cfg.n * sizeof(int), cudaMemcpyDeviceToHost));

    int bad = 0, run = 0;
    for (int i = 0; i < cfg.n; ++i) {
        run += h_in[i];
        if (h_out[i] != run) {
            if (cfg.verbose && bad < 10)
                printf("  mismatch at %d: %d vs %d\n", i, h_out[i], run);
            ++bad;
        }
    }
    printf("inclusive scan of %d ints in %d blocks: total %d, %d mismatches -> %s\n", cfg.n,
           numBlocks, h_out[cfg.n - 1], bad, bad ? "MISMATCH" : "OK");

    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_sums);
    return bad ? 1 : 0;
}
