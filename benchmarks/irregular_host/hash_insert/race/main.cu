// hash_insert: the racy twin of corpus/cuda/irregular/hash_insert_race.cu as a whole program.
// The kernel code below is the corpus file's, unchanged; main() reads its input from the file named
// on the command line, so the contents (and the sizes) are known only at run time.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define EMPTY (-1)

__global__ void hash_insert(const int *keys, int nkeys, int *table, int *vals, int cap) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nkeys) return;
  const int k = keys[i];
  unsigned int slot = ((unsigned int)k * 2654435761u) & (unsigned int)(cap - 1);
  for (int probe = 0; probe < cap; ++probe) {
    const int prev = atomicCAS(&table[slot], EMPTY, k);
    if (prev == EMPTY || prev == k) {
      vals[slot] = i;
      return;
    }
    slot = (slot + 1) & (unsigned int)(cap - 1);
  }
}

#define CHECK(call)                                                               \
  do {                                                                            \
    cudaError_t err_ = (call);                                                    \
    if (err_ != cudaSuccess) {                                                    \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s keys.bin\n", argv[0]);
    return 1;
  }
  // binary file: an int32 count, then the keys (int32, >= 0)
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  int nkeys;
  if (fread(&nkeys, sizeof(int), 1, f) != 1) {
    fprintf(stderr, "bad header\n");
    return 1;
  }
  int *keys = (int *)malloc(nkeys * sizeof(int));
  if (fread(keys, sizeof(int), nkeys, f) != (size_t)nkeys) {
    fprintf(stderr, "short file\n");
    return 1;
  }
  fclose(f);

  // open addressing: a power of two at least twice the number of keys
  int cap = 1;
  while (cap < 2 * nkeys)
    cap *= 2;

  int *d_keys, *d_table, *d_vals;
  CHECK(cudaMalloc(&d_keys, nkeys * sizeof(int)));
  CHECK(cudaMalloc(&d_table, cap * sizeof(int)));
  CHECK(cudaMalloc(&d_vals, cap * sizeof(int)));
  CHECK(cudaMemcpy(d_keys, keys, nkeys * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_table, 0xff, cap * sizeof(int)));  // every slot EMPTY (-1)
  CHECK(cudaMemset(d_vals, 0, cap * sizeof(int)));

  const int threads = 256;
  hash_insert<<<(nkeys + threads - 1) / threads, threads>>>(d_keys, nkeys, d_table, d_vals, cap);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  int *table = (int *)malloc(cap * sizeof(int));
  CHECK(cudaMemcpy(table, d_table, cap * sizeof(int), cudaMemcpyDeviceToHost));
  int used = 0;
  for (int s = 0; s < cap; ++s)
    used += table[s] != EMPTY;
  printf("%d distinct keys in %d slots\n", used, cap);

  cudaFree(d_keys);
  cudaFree(d_table);
  cudaFree(d_vals);
  free(keys);
  free(table);
  return 0;
}
