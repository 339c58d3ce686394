"""Host values around loops (simu.host.loops): a launch inside a loop is analysed at the loop's first pass, and a
loop entered only while a device call fails leaves the value it started with."""

from __future__ import annotations

from simu.host.contracts import launch_constraints
from simu.host.cscan import CSource
from simu.host.cuda import extract_cuda
from simu.host.cvalues import Evaluator
from simu.host.loops import enclosing, loops, runs_only_on_failure

SWEEP = r"""
__global__ void k(float *x, int n) {}
int main() {
    const unsigned int sizes[] = { 16, 64, 256 };
    size_t total = 32768;
    float *x;
    for (int j = 0; j < 3; j++) {
        const unsigned int n = 1024 * sizes[j];
        cudaMalloc(&x, n * sizeof(float));
        for (int threads = 32; threads <= 512; threads *= 2) {
            const unsigned int blocks = total / threads;
            k<<<blocks, threads>>>(x, n);
        }
        const dim3 block(16, 8);
        const dim3 grid(n / 1024 / block.x, 2 / block.y + 1);
        k<<<grid, block>>>(x, n);
    }
}
"""


def test_a_launch_in_a_loop_is_the_loops_first_pass():
    sweep, tiled = extract_cuda(CSource(SWEEP), "main.cu")
    assert sweep.grid == (1024, 1, 1) and sweep.block == (32, 1, 1)
    assert sweep.args == (None, 16384) and sweep.buffer_lengths[0] == 16384
    assert set(sweep.defaults) == {"@loop 7 j", "@loop 10 threads"}
    assert tiled.grid == (1, 1, 1) and tiled.block == (16, 8, 1)  # dim3 members: block.x, block.y
    origin = launch_constraints(sweep, [("x", 4), ("n", None)])
    assert origin.grid == (1024, 1, 1) and origin.buffer_lengths == {"x": "16384"}


def test_the_provenance_names_the_loops_first_pass():
    from simu.host.contracts import _defaults

    text = _defaults(("@loop 10 threads", "@loop 7 j", "size", "@ok 3 memSize"))
    assert text == (" (with the command line's defaults: size)"
                    " (when the device call retried in the loop at line 3 succeeds: memSize)"
                    " (on the first pass of the loop at line 7: j) (on the first pass of the loop at line 10: threads)")


LATER = r"""
__global__ void k(float *x, int n) {}
int main() {
    int n = 1024;
    k<<<n / 256, 256>>>(x, n);
    n *= 2;
    k<<<n / 256, 256>>>(x, n);
    int m = 64;
    for (int i = 0; i < 4; i++) {
        k<<<m, 32>>>(x, m);
        m += 32;
    }
    int s = 0;
    for (int i = 0; i < 4; i++) {
        s += 8;
        k<<<s, 32>>>(x, s);
    }
    for (int t = 8; t < 4; t++)
        k<<<t, 32>>>(x, t);
}
"""


def test_updates_after_the_use_change_nothing_before_it():
    first, second, looped, accumulated, never = extract_cuda(CSource(LATER), "main.cu")
    assert first.grid == (4, 1, 1) and first.defaults == ()  # n *= 2 comes after it
    assert second.grid is None  # an update before the use, outside any loop: not the definition's value
    assert looped.grid == (64, 1, 1) and looped.defaults == ("@loop 9 m",)  # m += 32: later passes only
    assert accumulated.grid is None  # s += 8 runs before the use on every pass
    assert never.grid is None  # t = 8 fails t < 4: the loop makes no launch


FALLBACK = r"""
__global__ void k(float *x, int n) {}
int main() {
    unsigned int memSize = 64 * 1024 * 1024;
    void *probe;
    cudaMalloc(&probe, memSize * 2);
    while (cudaGetLastError() != cudaSuccess && memSize != 0) {
        memSize >>= 1;
        cudaMalloc(&probe, memSize * 2);
    }
    int chunk = 4096;
    while (chunk > 100) chunk /= 2;
    float *x;
    cudaMalloc(&x, memSize);
    k<<<memSize / 4 / 256, 256>>>(x, memSize / 4);
    k<<<chunk, 32>>>(x, chunk);
}
"""


def test_a_loop_entered_only_on_a_device_failure_leaves_the_start_value():
    src = CSource(FALLBACK)
    fallback, other = loops(src)
    assert runs_only_on_failure(src, fallback) and not runs_only_on_failure(src, other)
    first, second = extract_cuda(src, "main.cu")
    assert first.grid == (65536, 1, 1) and first.args == (None, 1 << 24) and first.defaults == ("@ok 7 memSize",)
    assert second.grid is None  # chunk /= 2 in a loop that runs on every run: not the start value


def test_loops_are_found_with_their_parts():
    code = "void f() { do { a++; } while (a < 4); for (i = 0; i < n; i++) g(i); while (x) { y(); } }"
    src = CSource(code)
    found = loops(src)
    assert [lp.kind for lp in found] == ["do", "for", "while"]
    assert found[0].parts(src) == ("", "a < 4", "")
    assert found[1].parts(src) == ("i = 0", " i < n", " i++")
    assert [lp.kind for lp in enclosing(src, code.index("g(i)"))] == ["for"]
    ev = Evaluator(src)
    assert ev.int_value("lround(log2(double(1024))) >> 1", 0) == 5


def test_a_reassignment_after_the_launch_in_its_loop_is_a_later_pass():
    code = r"""
__global__ void k(float *x, int n) {}
int main() {
    int n = 1 << 20;
    while (n > 1) {
        k<<<(n + 255) / 256, 256>>>(x, n);
        n = (n + 255) / 256;
    }
}
"""
    (x,) = extract_cuda(CSource(code), "main.cu")
    assert x.grid == (4096, 1, 1) and x.args == (None, 1 << 20) and x.defaults == ("@loop 5 n",)


def test_a_while_loop_whose_condition_fails_at_the_start_makes_no_launch():
    code = r"""
__global__ void k(float *x, int n) {}
int main() {
    int n = 1;
    while (n > 1) {
        k<<<n, 256>>>(x, n);
        n = n / 2;
    }
}
"""
    (x,) = extract_cuda(CSource(code), "main.cu")
    assert x.grid is None and x.args == (None, None)


def test_dim3_members_follow_their_assignments():
    code = r"""
__global__ void k(float *x, int n) {}
int main(int argc, char **argv) {
    int block_size = 16;
    dim3 dimsA(10 * block_size, 4 * block_size, 1);
    if (checkCmdLineFlag(argc, (const char **)argv, "wA"))
        dimsA.x = getCmdLineArgumentInt(argc, (const char **)argv, "wA");
    dim3 dimsB(8, 8, 1);
    dimsB.y = 2;
    dim3 threads(block_size, block_size);
    k<<<dimsA.x / threads.x, threads>>>(x, dimsA.x);
    k<<<dimsB.y, threads>>>(x, dimsB.y);
    k<<<dimsB, threads>>>(x, 0);
}
"""
    a, b, c = extract_cuda(CSource(code), "main.cu")
    assert a.grid == (10, 1, 1) and a.args == (None, 160) and "dimsA.x" in a.defaults
    assert b.grid == (2, 1, 1) and b.args == (None, 2)  # dimsB.y = 2 after the declaration
    assert c.grid == (8, 2, 1)
