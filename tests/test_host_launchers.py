"""OpenCL launches made through a project's own helpers: a function that creates a kernel by the name its caller
passes (one level of forwarding, qualified calls, member variables), and a launcher class whose setters call
``clSetKernelArg(member, idx++, ...)`` and whose launch method enqueues an NDRange computed from its parameters."""

from __future__ import annotations

from pathlib import Path

from simu.host.contracts import host_constraints
from simu.host.cscan import CSource
from simu.host.index import build_host_index
from simu.host.launchers import kernel_helpers, launcher_classes, merge_classes

KERNEL = """__kernel void sum64(__global float *out, __global const float *in, int n) {
    __local float s[64];
    int t = get_local_id(0);
    s[t % 64] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = s[(t + 1) % 64];
}
"""

LAUNCHER_H = """#include <CL/cl.h>
struct BufferRef {
    cl_mem mem;
    BufferRef(cl_mem m) : mem(m) {}
};
class Launcher {
    cl_command_queue queue_;
    cl_kernel kernel_;
    int next_;
public:
    Launcher(cl_command_queue q, cl_kernel k) : queue_(q), kernel_(k), next_(0) {}
    void buffers(const BufferRef *refs, int count) {
        for (int i = 0; i < count; i++) {
            clSetKernelArg(kernel_, next_++, sizeof(cl_mem), &refs[i].mem);
        }
    }
    template <class T> void value(const T &v) { clSetKernelArg(kernel_, next_++, sizeof(T), &v); }
    void run(int n, int group = 64) { run2(n, 1, group, 1); }
    void run2(int nx, int ny, int gx, int gy) {
        size_t global[2], local[2];
        local[0] = gx;
        local[1] = gy;
        global[0] = ((nx + gx - 1) / gx) * gx;
        global[1] = gy > ny ? gy : ((ny + gy - 1) / gy) * gy;
        cl_int status = clEnqueueNDRangeKernel(queue_, kernel_, 2, NULL, global, local, 0, NULL, NULL);
    }
};
"""

UTIL_H = """#include <CL/cl.h>
cl_kernel util_make_kernel(cl_context ctx, cl_device_id dev, const char *source, const char *name, cl_program prog);
struct Util {
    static cl_kernel makeKernel(cl_context ctx, cl_device_id dev, const char *source, const char *name,
                                cl_program prog = 0) {
        return util_make_kernel(ctx, dev, source, name, prog);
    }
};
"""

UTIL_C = """#include "util.h"
cl_kernel util_make_kernel(cl_context ctx, cl_device_id dev, const char *source, const char *name, cl_program prog) {
    cl_int err;
    cl_program p = prog;
    if (!p)
        p = util_build(ctx, dev, source);
    cl_kernel k = clCreateKernel(p, name, &err);
    return k;
}
"""

HOST = """#include "launcher.h"
#include "util.h"
#define SCAN_PATH "kernels/scan.cl"
#define BLOCK 128
cl_program buildProgram(cl_context ctx, cl_device_id dev, const char *src, const char *path);
class Summer {
    cl_kernel m_sum;
    cl_command_queue m_queue;
public:
    Summer(cl_context ctx, cl_device_id dev, cl_command_queue q, const char *src) : m_queue(q) {
        cl_program prog = buildProgram(ctx, dev, src, SCAN_PATH);
        m_sum = Util::makeKernel(ctx, dev, src, "sum64", prog);
    }
    void run(cl_mem out, cl_mem in, int n) {
        BufferRef refs[] = {BufferRef(out), BufferRef(in)};
        Launcher launcher(m_queue, m_sum);
        launcher.buffers(refs, sizeof(refs) / sizeof(BufferRef));
        launcher.value(n);
        launcher.run(n, BLOCK);
    }
    void fixed(cl_mem out, cl_mem in) {
        const int count = 1024;
        Launcher launcher(m_queue, m_sum);
        BufferRef refs[] = {BufferRef(out), BufferRef(in)};
        launcher.buffers(refs, 2);
        launcher.value(count);
        launcher.run(count);
    }
};
"""

PARAMS = [("out", 4), ("in", 4), ("n", None)]


def _project(root: Path, host: str = HOST) -> list[Path]:
    (root / "kernels").mkdir(parents=True)
    (root / "kernels" / "scan.cl").write_text(KERNEL)
    files = {"launcher.h": LAUNCHER_H, "util.h": UTIL_H, "util.cpp": UTIL_C, "host.cpp": host}
    for name, text in files.items():
        (root / name).write_text(text)
    return [root / name for name in files]


def test_a_kernel_helper_binds_its_callers_variable_to_the_kernel_it_names(tmp_path: Path):
    """util_make_kernel passes its parameter to clCreateKernel; Util::makeKernel forwards to it (one level);
    ``m_sum = Util::makeKernel(..., "sum64", prog)`` binds the member, with the .cl file its program is built from."""
    assert kernel_helpers(CSource(UTIL_C)) == [{"function": "util_make_kernel", "name": 3, "program": 4, "out": None}]
    index = build_host_index(tmp_path, _project(tmp_path))
    (site,) = [k for h in index.files for k in h.kernels if k.file == "host.cpp"]
    assert (site.line, site.var, site.name, site.sources) == (12, "m_sum", "sum64", ("scan.cl",))


BASIC_CL = """
#include <CL/cl.h>
class BasicCL {
 public:
  int getProgramFromFile(cl_program *prog, cl_context ctx, const char *path);
  int getKernel(cl_kernel *kernel, cl_program program, const char *kernelName) {
    cl_int err;
    kernel[0] = clCreateKernel(program, kernelName, &err);
    return err;
  }
};
"""

SPARSE_CL = """
#include "basiccl.h"
#define GROUP 256
class Sparse {
  BasicCL cl_;
  cl_program p_;
  cl_kernel ksum_;
  cl_command_queue q_;
  cl_context ctx_;
 public:
  int prepare() {
    int err = cl_.getProgramFromFile(&p_, ctx_, "scan.cl");
    err = cl_.getKernel(&ksum_, p_, "sum64");
    return err;
  }
  int run(cl_mem out, cl_mem in) {
    size_t local[1];
    size_t global[1];
    int threads = GROUP;
    local[0] = threads;
    global[0] = 64 * local[0];
    clSetKernelArg(ksum_, 0, sizeof(cl_mem), &out);
    return clEnqueueNDRangeKernel(q_, ksum_, 1, NULL, global, local, 0, NULL, NULL);
  }
};
"""


def test_a_helper_storing_the_kernel_through_a_parameter_binds_a_member_another_method_launches(tmp_path: Path):
    """``getKernel(&ksum_, p_, "sum64")`` on a helper object whose body is ``kernel[0] = clCreateKernel(…)``, the
    program made by ``getProgramFromFile(&p_, …, "scan.cl")``; ``run`` enqueues ``ksum_`` with ``local[0] =
    threads`` (not ``64 * local[0]``, a product, mistaken for a declaration)."""
    assert kernel_helpers(CSource(BASIC_CL)) == [{"function": "getKernel", "name": 2, "program": 1, "out": 0}]
    (tmp_path / "kernels").mkdir()
    (tmp_path / "kernels" / "scan.cl").write_text(KERNEL)
    (tmp_path / "basiccl.h").write_text(BASIC_CL)
    (tmp_path / "sparse.cpp").write_text(SPARSE_CL)
    index = build_host_index(tmp_path, [tmp_path / "basiccl.h", tmp_path / "sparse.cpp"])
    (site,) = [k for h in index.files for k in h.kernels if k.file == "sparse.cpp"]
    assert (site.var, site.name, site.sources) == ("ksum_", "sum64", ("scan.cl",))
    (launch,) = index.launches_of("sum64")
    assert launch.local_size == (256,)


def test_a_launcher_class_is_read_from_what_its_methods_do():
    (part,) = launcher_classes(CSource(LAUNCHER_H))
    assert part["class"] == "Launcher" and part["members"] == ["kernel_"]
    (cls,) = merge_classes([part]).values()
    assert cls.kernel_param() == 1
    assert cls.methods["buffers"]["sets"][0]["loop"] == 1 and cls.methods["run"]["defaults"] == [None, "64"]
    assert cls.launches("run") and cls.launches("run2") and not cls.launches("value")


def test_launcher_calls_give_the_argument_order_local_size_and_grid(tmp_path: Path):
    """setBuffers-like (an array of two) then a constant: arguments 0, 1, 2; ``run(n, BLOCK)`` -> groups of 128
    with the grid searched (n is not constant); ``run(count)`` takes the default group of 64 and count = 1024
    gives the grid; the scalar's constant value is the argument's."""
    index = build_host_index(tmp_path, _project(tmp_path))
    launches = sorted(index.launches_of("sum64"), key=lambda x: x.line)
    assert [(x.file, x.line, x.local_size, x.global_size) for x in launches] == [
        ("host.cpp", 19, (128, 1), (None, 1)), ("host.cpp", 27, (64, 1), (1024, 1))]
    args = [a for h in index.files for a in h.args if a.file == "host.cpp"]
    assert [(a.line, a.index, a.value_text, a.value) for a in args] == [
        (17, 0, "BufferRef(out)", None), (17, 1, "BufferRef(in)", None), (18, 2, "&n", None),
        (25, 0, "BufferRef(out)", None), (25, 1, "BufferRef(in)", None), (26, 2, "&count", 1024)]
    (first, _), (second, _) = host_constraints(index, "sum64", PARAMS, cl_file="kernels/scan.cl", api="opencl")
    assert first.block == (128, 1, 1) and first.grid is None and first.args == {}
    assert first.dims == {"grid.x": "(n+127)/128", "grid.y": "1", "grid.z": "1"}  # n is passed as argument 2
    assert first.origin == "host launch at host.cpp:19 (grid.x = (n+127)/128 from the host code)"
    assert (second.block, second.grid, second.args) == ((64, 1, 1), (16, 1, 1), {"n": 1024})
    assert second.origin == "host launch at host.cpp:27"


def test_a_launch_of_another_cl_files_kernel_is_not_taken(tmp_path: Path):
    index = build_host_index(tmp_path, _project(tmp_path))
    assert not host_constraints(index, "sum64", PARAMS, cl_file="other/scan2.cl", api="opencl")


def _scanned(root: Path):
    from simu.scan import ScanOverrides, resolve_options, scan

    result = scan(*resolve_options([root], ScanOverrides(budget=2.0, jobs=1, no_cache=True)))
    return next(k for _, k in result.kernels() if k.name == "sum64")


def test_scan_names_the_launcher_call_a_finding_comes_from(tmp_path: Path):
    """Groups of 128 over a 64-slot local array race; the finding's launch is the host's, named by the launcher
    call; at groups of 64 (the only launch) the kernel is clean."""
    _project(tmp_path / "racy", HOST.replace("void fixed", "void unused").replace("launcher.run(count)", ""))
    k = _scanned(tmp_path / "racy")
    races = [f for f in k.findings if f.kind == "race"]
    assert races and all(f.launch.block == (128, 1, 1) for f in races)
    assert all(f.launch.origin.startswith("host launch at host.cpp:19") for f in races)
    _project(tmp_path / "clean", HOST.replace("launcher.run(n, BLOCK)", ""))
    k = _scanned(tmp_path / "clean")
    assert k.status == "analysed" and not [f for f in k.findings if f.severity == "error"]


ROUNDING_H = """#include <CL/cl.h>
template <class T> T utilMax(T a, T b) { return a > b ? a : b; }
class Runner {
public:
    Runner(cl_command_queue queue, cl_kernel kernel, const char *label) : m_q(queue), m_k(kernel), m_i(0) {}
    void arg(cl_mem m) { clSetKernelArg(m_k, m_i++, sizeof(cl_mem), &m); }
    template <class T> void scalar(const T &v) { clSetKernelArg(m_k, m_i++, sizeof(T), &v); }
    void go(int items, int group = 32) {
        size_t g[3] = {1, 1, 1};
        size_t l[3] = {1, 1, 1};
        l[0] = group;
        g[0] = utilMax((size_t)1, (items / l[0]) + (!(items % l[0]) ? 0 : 1));
        g[0] *= l[0];
        clEnqueueNDRangeKernel(m_q, m_k, 1, 0, g, l, 0, 0, 0);
    }
private:
    cl_command_queue m_q;
    cl_kernel m_k;
    int m_i;
};
"""

ROUNDING_HOST = """#include "runner.h"
void step(cl_program prog, cl_command_queue q, cl_mem a, cl_mem b, int total) {
    cl_kernel k = clCreateKernel(prog, "sum64", 0);
    Runner r(q, k, "sum");
    r.arg(a);
    r.arg(b);
    r.scalar(total);
    r.go(total * 2);
}
"""


def test_a_rounding_launch_method_with_a_max_helper_gives_the_grid_relation(tmp_path: Path):
    """``g = max(1, n/l + (n % l ? 1 : 0)) * l`` through a project ``utilMax`` (a function named *max is max) and
    ``?:``: groups of 32 (the default), work-groups = ceil(2*total/32), with total the kernel's ``n``."""
    (tmp_path / "runner.h").write_text(ROUNDING_H)
    (tmp_path / "main.cpp").write_text(ROUNDING_HOST)
    index = build_host_index(tmp_path, [tmp_path / "runner.h", tmp_path / "main.cpp"])
    ((c, origin),) = host_constraints(index, "sum64", PARAMS, api="opencl")
    assert c.block == (32, 1, 1) and c.dims["grid.x"] == "(n*2+31)/32"
    assert origin == "host launch at main.cpp:8 (grid.x = (n*2+31)/32 from the host code)"


CHOOSING_HOST = """#include "runner.h"
class Pairs {
    cl_kernel m_pairs, m_fast, m_slow;
    cl_command_queue m_q;
public:
    Pairs(cl_program prog, cl_command_queue q, int kind) : m_q(q) {
        switch (kind) {
        case 0: m_pairs = clCreateKernel(prog, "pairsA", 0); break;
        default: m_pairs = clCreateKernel(prog, "pairsB", 0); break;
        }
        m_fast = clCreateKernel(prog, "fast", 0);
        m_slow = clCreateKernel(prog, "slow", 0);
    }
    void run(cl_mem a, int n, bool quick) {
        Runner r(m_q, m_pairs, "pairs");
        r.arg(a);
        r.go(n, 16);
        cl_kernel k = quick ? m_fast : m_slow;
        Runner s(m_q, k, "k");
        s.arg(a);
        s.go(n, 8);
    }
};
"""


def test_a_kernel_chosen_elsewhere_or_by_a_conditional_launches_as_each_choice(tmp_path: Path):
    """A member the constructor sets to one of two kernels: the launch in another function is of either; a local
    ``cl_kernel k = quick ? m_fast : m_slow`` handed to the launcher: either too."""
    (tmp_path / "runner.h").write_text(ROUNDING_H)
    (tmp_path / "pairs.cpp").write_text(CHOOSING_HOST)
    index = build_host_index(tmp_path, [tmp_path / "runner.h", tmp_path / "pairs.cpp"])
    found = sorted((x.kernel_name, x.line, x.local_size) for h in index.files for x in h.launches
                   if x.file == "pairs.cpp")
    assert found == [("fast", 21, (8,)), ("pairsA", 17, (16,)), ("pairsB", 17, (16,)), ("slow", 21, (8,))]


def test_each_axis_of_a_2d_launch_follows_its_own_argument(tmp_path: Path):
    (tmp_path / "launcher.h").write_text(LAUNCHER_H)
    (tmp_path / "img.cpp").write_text(
        '#include "launcher.h"\nvoid blur(cl_command_queue q, cl_kernel k, cl_mem img, int w, int h) {\n'
        '    Launcher l(q, k);\n    l.value(img);\n    l.value(w);\n    l.value(h);\n    l.run2(w, h, 16, 4);\n}\n'
        'void make(cl_program p) { cl_kernel k = clCreateKernel(p, "blur", 0); }\n')
    index = build_host_index(tmp_path, [tmp_path / "launcher.h", tmp_path / "img.cpp"])
    ((c, origin),) = host_constraints(index, "blur", [("img", 4), ("w", None), ("h", None)], api="opencl")
    assert c.block == (16, 4, 1) and c.dims == {"grid.x": "(w+15)/16", "grid.y": "(h+3)/4", "grid.z": "1"}
    assert origin == "host launch at img.cpp:7 (grid.x = (w+15)/16, grid.y = (h+3)/4 from the host code)"


SPLIT_H = """#include <CL/cl.h>
class Job {
public:
    Job(cl_command_queue q, cl_kernel k);
    void add(cl_mem m);
    void start(int n, int group = 128);
private:
    cl_command_queue q_;
    cl_kernel k_;
    int at_;
};
"""

SPLIT_CPP = """#include "job.h"
Job::Job(cl_command_queue q, cl_kernel k) : q_(q), k_(k), at_(0) {}
void Job::add(cl_mem m) { clSetKernelArg(k_, at_++, sizeof(cl_mem), &m); }
void Job::start(int n, int group) {
    size_t g = ((n + group - 1) / group) * group, l = group;
    clEnqueueNDRangeKernel(q_, k_, 1, NULL, &g, &l, 0, NULL, NULL);
}
"""


def test_a_default_value_written_only_in_the_class_declaration_is_the_launch_methods(tmp_path: Path):
    """Methods defined out of line (``Job::start``) take the default values of the class body's declaration."""
    (tmp_path / "job.h").write_text(SPLIT_H)
    (tmp_path / "job.cpp").write_text(SPLIT_CPP)
    (tmp_path / "use.cpp").write_text(
        '#include "job.h"\nvoid go(cl_program p, cl_command_queue q, cl_mem a) {\n'
        '    cl_kernel k = clCreateKernel(p, "sum64", 0);\n    Job j(q, k);\n    j.add(a);\n    j.start(4096);\n}\n')
    index = build_host_index(tmp_path, [tmp_path / n for n in ("job.h", "job.cpp", "use.cpp")])
    ((c, origin),) = host_constraints(index, "sum64", PARAMS, api="opencl")
    assert (c.block, c.grid, origin) == ((128, 1, 1), (32, 1, 1), "host launch at use.cpp:6")


def test_arguments_after_a_conditional_setter_are_not_placed(tmp_path: Path):
    """``if (extra) r.arg(b);`` may or may not take an index: the arguments after it are left to the search."""
    (tmp_path / "runner.h").write_text(ROUNDING_H)
    (tmp_path / "main.cpp").write_text(
        '#include "runner.h"\nvoid step(cl_program p, cl_command_queue q, cl_mem a, cl_mem b, bool extra) {\n'
        '    cl_kernel k = clCreateKernel(p, "sum64", 0);\n    Runner r(q, k, "sum");\n    r.arg(a);\n'
        '    if (extra)\n        r.arg(b);\n    r.scalar(4);\n    r.go(64);\n}\n')
    index = build_host_index(tmp_path, [tmp_path / "runner.h", tmp_path / "main.cpp"])
    args = [(a.line, a.index, a.value) for h in index.files for a in h.args if a.file == "main.cpp"]
    assert args == [(5, 0, None), (7, None, None), (8, None, 4)]


def test_a_raw_ndrange_over_a_passed_value_gives_the_grid_relation(tmp_path: Path):
    """The raw API too: ``size_t global = count;`` with ``count`` passed as argument 2 and groups of 128 gives
    work-groups = n/128 (OpenCL 1.x: the global size is a multiple of the local one), and ``n`` is drawn from
    [128, the search's thread budget]: smaller values make no group, no launch of the program."""
    (tmp_path / "host.c").write_text(
        "#include <CL/cl.h>\nvoid run(cl_program p, cl_command_queue q, cl_mem o, cl_mem i, int count) {\n"
        "    cl_kernel k = clCreateKernel(p, \"sum64\", 0);\n    size_t global = count, local = 128;\n"
        "    clSetKernelArg(k, 0, sizeof(cl_mem), &o);\n    clSetKernelArg(k, 1, sizeof(cl_mem), &i);\n"
        "    clSetKernelArg(k, 2, sizeof(int), (void *) &count);\n"
        "    clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);\n}\n")
    index = build_host_index(tmp_path, [tmp_path / "host.c"])
    ((c, origin),) = host_constraints(index, "sum64", PARAMS, api="opencl")
    assert c.block == (128, 1, 1) and c.dims == {"grid.x": "(n)/128", "grid.y": "1", "grid.z": "1"}
    assert origin == "host launch at host.c:8 (grid.x = (n)/128 from the host code; requires (n)%128 == 0, n >= 128)"
    assert c.arg_ranges == {"n": (128, 4096)}  # the program launches at least one group: n >= 128


def test_a_function_whose_signature_is_followed_by_long_comments_still_holds_its_launches():
    """``void S::solve(…)`` then three comment lines (one a commented-out signature of 180 characters) before its
    ``{``: the body is still the function's, so the launcher objects it makes are read."""
    long_comment = "//void S::solveGroup(" + ", ".join(f"Array<Data>* argument{i}" for i in range(8)) + ")"
    text = f"void S::solve(int n, const struct Config& config)\n//\n//\n{long_comment}\n{{\n  int x = n;\n}}\n"
    assert len(long_comment) > 180
    (f,) = CSource(text).functions()
    assert f.name == "S::solve" and f.params == ("n", "config")

