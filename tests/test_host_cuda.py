"""CUDA launch sites read from host code (simu.host.cuda) and kept by the host index."""

from __future__ import annotations

from pathlib import Path

from simu.host.cscan import CSource
from simu.host.cuda import extract_cuda
from simu.host.index import build_host_index

PROGRAM = r"""
#define W 64
#define H 32
#define N 1000
const int BLOCK = 256;
__global__ void shift(char *a, const int *b) { a[threadIdx.x] += b[threadIdx.x]; }
template <typename T, int B> __global__ void tiled(T *x, int n) {}
__global__ void img(unsigned char *p, int w) {}
__global__ void coop(float *p, int n) {}

void run_racy(float *d, int n, int threads) {
    tiled<float, 256><<<(n + threads - 1) / threads, threads>>>(d, n);
}

int main() {
    char *a; int *b; float *d; unsigned char *p;
    cudaMalloc(&a, 16 * sizeof(char));
    cudaMalloc((void **)&b, sizeof(int) * 16);
    shift<<<1, 16>>>(a, b);
    cudaMalloc(&p, W * H * 4);
    dim3 g(W, H);
    img<<<g, 1>>>(p, W);
    dim3 blocks = dim3(N / 4, 2);
    float *m = new float[N];
    img<<<blocks, dim3(BLOCK), 128>>>(p, 7);
    cudaMallocManaged(&d, N * sizeof(float));
    run_racy(d, N, 96);
    int n = N;
    void *args[] = {&d, &n};
    cudaLaunchCooperativeKernel((void *)coop, dim3(4), dim3(BLOCK), args, 0, 0);
    return 0;
}
"""


def _by_kernel(launches):
    out: dict[str, list] = {}
    for x in launches:
        out.setdefault(x.kernel, []).append(x)
    return out


def test_chevron_launches_constants_dim3_and_buffers():
    got = _by_kernel(extract_cuda(CSource(PROGRAM), "main.cu"))
    (s,) = got["shift"]
    assert (s.grid, s.block, s.shmem, s.line) == ((1, 1, 1), (16, 1, 1), 0, 19)
    assert s.buffer_lengths == (16, 16) and s.buffer_elem_bytes == (1, 4)
    first, second = got["img"]
    assert first.grid == (64, 32, 1) and first.block == (1, 1, 1)
    assert first.buffer_lengths[0] == 64 * 32 * 4 and first.buffer_elem_bytes[0] is None  # bytes
    assert first.args[1] == 64
    assert second.grid == (250, 2, 1) and second.block == (256, 1, 1) and second.shmem == 128
    assert second.args == (None, 7)


def test_wrapper_launch_resolved_at_its_call_site():
    (t,) = _by_kernel(extract_cuda(CSource(PROGRAM), "main.cu"))["tiled"]
    assert t.via == "run_racy" and t.line == 27
    assert t.grid == (11, 1, 1) and t.block == (96, 1, 1)
    assert t.args[1] == 1000 and t.buffer_lengths[0] == 1000 and t.buffer_elem_bytes[0] == 4


def test_cooperative_api_launch_with_argument_array():
    (c,) = _by_kernel(extract_cuda(CSource(PROGRAM), "main.cu"))["coop"]
    assert c.grid == (4, 1, 1) and c.block == (256, 1, 1)
    assert c.args_text == ("d", "n") and c.args[1] == 1000 and c.buffer_lengths[0] == 1000


def test_a_launch_written_in_a_message_string_is_no_launch():
    src = CSource("__global__ void k(float *x, int n) {}\n"
                  "void f(float *x) {\n"
                  "  k<<<4, 128>>>(x, 512);\n"
                  '  check(cudaGetLastError(), "k<<<,>>>(...)", __LINE__);\n'
                  "}\n")
    (k,) = extract_cuda(src, "a.cu")
    assert (k.line, k.grid, k.block) == (3, (4, 1, 1), (128, 1, 1))


def test_unknown_sizes_keep_their_expression():
    src = CSource("__global__ void k(float *x, int n) {}\n"
                  "void f(int n) { float *x; cudaMalloc(&x, n * sizeof(float));\n"
                  "  k<<<(n + 127) / 128, 128>>>(x, n); }\n")
    (k,) = extract_cuda(src, "a.cu")
    assert k.grid is None and k.grid_text == "(n + 127) / 128" and k.block == (128, 1, 1)
    assert k.buffer_lengths == ("n", None) and k.args == (None, None)


def test_index_keeps_cuda_launches_through_its_cache(tmp_path: Path):
    (tmp_path / "main.cu").write_text(PROGRAM)
    cache = tmp_path / "cache"
    for _ in range(2):  # fresh, then from the cache
        index = build_host_index(tmp_path, [tmp_path / "main.cu"], cache)
        (s,) = index.cuda_launches_of("shift")
        assert s.where == "main.cu:19" and s.block == (16, 1, 1)
    assert len(index.cuda_launches_of("img")) == 2


def test_reassignment_reads_the_value_before_it():
    src = CSource("__global__ void k(float *x, int n) {}\n"
                  "void f() { int n = 1024; n = n * 4; int m = n; n = 7;\n"
                  "  float *x; cudaMalloc(&x, m * sizeof(float));\n"
                  "  k<<<m / 128, 128>>>(x, m); }\n")
    (k,) = extract_cuda(src, "a.cu")
    assert k.args == (None, 4096) and k.grid == (32, 1, 1) and k.buffer_lengths[0] == 4096


def test_header_constants_and_one_return_functions_give_block_and_grid(tmp_path: Path):
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "device.hpp").write_text(
        "const int NUM_THREADS = 512;\n"
        "inline int GET_BLOCKS(const int N) {\n  return (N + NUM_THREADS - 1) / NUM_THREADS;\n}\n")
    (tmp_path / "layer.cu").write_text(
        '#include "include/device.hpp"\n'
        "template <typename T> __global__ void fwd(const int n, const T *in, T *out) {}\n"
        "template <typename T> void forward(const T *in, T *out, int count) {\n"
        "  const int nthreads = count;\n"
        "  fwd<T><<<GET_BLOCKS(nthreads), NUM_THREADS>>>(nthreads, in, out);\n}\n")
    index = build_host_index(tmp_path, [tmp_path / "layer.cu", tmp_path / "include" / "device.hpp"])
    (x,) = index.cuda_launches_of("fwd")
    assert x.block == (512, 1, 1) and x.grid_sym == ("(_a0_+512-1)/512", "1", "1")


def test_a_wrapper_launch_keeps_what_its_caller_requires():
    src = CSource("__global__ void k(float *x, int n, int m) {}\n"
                  "void wrap(float *x, int n, int m) { k<<<(n + 255) / 256, 256>>>(x, n, m); }\n"
                  "void caller(float *x, int n, int m) {\n  if (n < 2) return;\n  if (m > 4) wrap(x, n, m);\n"
                  "  else wrap(x, n, 1);\n}\n")
    first, second = extract_cuda(src, "a.cu")
    assert first.via == "wrap" and first.requires == ("_a1_ >= 2", "_a2_ > 4")
    assert second.requires == ("_a1_ >= 2",)  # m <= 4 names no argument of that launch (m is 1 there)


def test_container_sizes_and_struct_fields_are_read():
    code = r"""
__global__ void k(float *x, int n) {}
struct Params { int n; int block; };
int main() {
  const int N = 1 << 16;
  std::vector<float> h(N);
  std::vector<float> grown(16);
  grown.push_back(1.0f);
  std::array<int, 8> a;
  Params p; p.n = 4096; p.block = 128;
  float *d; cudaMalloc(&d, h.size() * sizeof(float));
  k<<<(h.size() + 255) / 256, 256>>>(d, h.size());
  k<<<p.n / p.block, p.block>>>(d, p.n);
  k<<<1, grown.size()>>>(d, a.size());
}"""
    vec, field, changed = extract_cuda(CSource(code), "m.cu")
    assert vec.grid == (256, 1, 1) and vec.args == (None, 1 << 16) and vec.buffer_lengths[0] == 1 << 16
    assert field.grid == (32, 1, 1) and field.block == (128, 1, 1) and field.args == (None, 4096)
    assert changed.block is None and changed.args == (None, 8)  # push_back changes the size: not known


def test_container_buffers_take_the_containers_size():
    code = r"""
__global__ void k(float *x, const int *idx, int n) {}
int main() {
  const int n = 1000;
  thrust::device_vector<float> d(n);
  std::vector<int> h(2 * n, 0);
  k<<<(n + 127) / 128, 128>>>(thrust::raw_pointer_cast(d.data()), &h[0], n);
  k<<<1, 32>>>(d.data().get(), h.data(), n);
}"""
    raw, other = extract_cuda(CSource(code), "m.cu")
    assert raw.buffer_lengths[:2] == (1000, 2000) and raw.buffer_elem_bytes[:2] == (4, 4)
    assert other.buffer_lengths[1] == 2000
