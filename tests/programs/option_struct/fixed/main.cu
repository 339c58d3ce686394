// Fixed: a page has at least 256 slots (4 KiB pages), more than the 128 threads: each thread writes its own.
// The page size is a field of the options struct parse_arguments returns, set in its loop over argv.
#include <cstring>
#include <cuda_runtime.h>

#define TWO_MB (2 * 1024 * 1024)
#define SIXTY_FOUR_KB (64 * 1024)
#define FOUR_KB (4 * 1024)

typedef struct {
    size_t page_size;
    int verbose;
} options;

options parse_arguments(int argc, char *argv[]) {
    size_t page_size = TWO_MB;
    int verbose = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0) {
            verbose = 1;
        } else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
            i++;
            if (strcmp(argv[i], "64K") == 0)
                page_size = SIXTY_FOUR_KB;
            else if (strcmp(argv[i], "4K") == 0)
                page_size = FOUR_KB;
        }
    }
    options o;
    o.page_size = page_size;
    o.verbose = verbose;
    return o;
}

__global__ void stage_pages(float *out, size_t page_size) {
    __shared__ float slot[128];
    unsigned per_page = (unsigned)(page_size / 16);
    slot[threadIdx.x % per_page % 128] = (float)threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = slot[0] + slot[127];
}

int main(int argc, char **argv) {
    options args = parse_arguments(argc, argv);
    float *out;
    cudaMalloc(&out, 4 * sizeof(float));
    stage_pages<<<4, 128>>>(out, args.page_size);
    cudaDeviceSynchronize();
    return 0;
}
