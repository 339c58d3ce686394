"""A command on part of a project reads only the host files that can reach its kernels (simu.host.reach), and host
files are parsed once per content across runs (simu.host.filecache): the work is counted, never timed."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from simu.frontend.discover import IgnoreRules, walk
from simu.host.contracts import contracts_for
from simu.host.filecache import NAME as CACHE_FILE
from simu.host.index import build_host_index, host_files
from simu.host.reach import kernel_names, reaching_index

PARAMS = [("out", 4), ("n", None)]

OWN = """#include <cuda_runtime.h>
__global__ void own_{i}(float *out, int n) {{ int t = blockIdx.x * blockDim.x + threadIdx.x; if (t < n) out[t] = t; }}
int main() {{ float *d; cudaMalloc(&d, {n} * sizeof(float)); own_{i}<<<{n} / 128, 128>>>(d, {n}); return 0; }}
"""
# a wrapper whose name every program shares: each main.cpp calls the namesake of its own folder
WRAPPER = """#include "kernel.h"
__global__ void wrapped_{i}(float *out, int n) {{
    int t = blockIdx.x * blockDim.x + threadIdx.x; if (t < n) out[t] = 1; }}
extern "C" void run_kernel(float *out, int n) {{ wrapped_{i}<<<(n + 63) / 64, 64>>>(out, n); }}
"""
WRAPPER_MAIN = """#include "kernel.h"
int main() {{ float *d; cudaMalloc(&d, {n} * sizeof(float)); run_kernel(d, {n}); return 0; }}
"""
# a wrapper of a unique name called from another folder
FAR = """__global__ void far_{i}(float *out, int n) {{
    int t = blockIdx.x * blockDim.x + threadIdx.x; if (t < n) out[t] = 2; }}
void launch_far_{i}(float *out, int n) {{ far_{i}<<<n / 32, 32>>>(out, n); }}
"""
FAR_MAIN = """void launch_far_{i}(float *out, int n);
int main() {{ float *d; cudaMalloc(&d, {n} * sizeof(float)); launch_far_{i}(d, {n}); return 0; }}
"""
# a kernel nothing beside it launches: its launch is in another folder
IDLE = """__global__ void idle_{i}(float *out, int n) {{ out[threadIdx.x] = n; }}
"""
IDLE_RUN = """__global__ void idle_{i}(float *out, int n);
int main() {{ float *d; cudaMalloc(&d, 256 * sizeof(float)); idle_{i}<<<1, 256>>>(d, {n}); return 0; }}
"""
# wrappers two levels deep, each in a folder of its own
DEEP = """__global__ void deep_{i}(float *out, int n) {{ out[blockIdx.x * blockDim.x + threadIdx.x] = n; }}
void level1_{i}(float *out, int n) {{ deep_{i}<<<n / 64, 64>>>(out, n); }}
"""
DEEP_MID = """void level1_{i}(float *out, int n);
void level2_{i}(float *out, int n) {{ level1_{i}(out, 2 * n); }}
"""
DEEP_MAIN = """void level2_{i}(float *out, int n);
int main() {{ float *d; cudaMalloc(&d, 4096 * sizeof(float)); level2_{i}(d, 512); return 0; }}
"""
CL_HOST = """#include <CL/cl.h>
int main(void) {{
    cl_program prog = load("{cl}");
    clBuildProgram(prog, 0, NULL, "-DTILE={tile}", NULL, NULL);
    cl_kernel k = clCreateKernel(prog, "{k}", NULL);
    int n = {n};
    clSetKernelArg(k, 1, sizeof(int), &n);
    size_t global = {n}, local = {tile};
    clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    return 0;
}}
"""
# a library of operators over one runtime class every operator's file uses: a file reaches an operator's .cl file
# only by naming it, not by using the runtime
RUNTIME_H = """#include <CL/cl.h>
class Runtime {
 public:
  cl_program Build(const char *file) {
    cl_program p = load(file); clBuildProgram(p, 0, NULL, "", NULL, NULL); return p; }
  cl_command_queue q;
};
"""
OP_HOST = """#include "../runtime.h"
void run_{op}(Runtime &rt, cl_mem out) {{
    cl_program prog = rt.Build("{op}.cl");
    cl_kernel k = clCreateKernel(prog, "{op}_{i}", NULL);
    int n = {n};
    clSetKernelArg(k, 0, sizeof(cl_mem), &out);
    clSetKernelArg(k, 1, sizeof(int), &n);
    size_t global = {n}, local = 64;
    clEnqueueNDRangeKernel(rt.q, k, 1, NULL, &global, &local, 0, NULL, NULL);
}}
"""
OP_KERNEL = """__kernel void {op}_{i}(__global float *out, int n) {{ out[get_global_id(0)] = n; }}
"""
CL_KERNEL = """__kernel void {k}(__global float *out, int n) {{ out[get_global_id(0)] = TILE; }}
"""


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def make_project(root: Path, programs: int) -> None:
    """``programs`` programs of each kind; kernel and wrapper names of kind ``wrapped`` and the ``.cl`` file names
    are shared by every program, the others are each program's own."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    for i in range(programs):
        n = 1024 + 128 * i
        _write(root / f"own/p{i}/main.cu", OWN.format(i=i, n=n))
        _write(root / f"wrapped/p{i}/kernel.cu", WRAPPER.format(i=i))
        _write(root / f"wrapped/p{i}/kernel.h", 'extern "C" void run_kernel(float *out, int n);\n')
        _write(root / f"wrapped/p{i}/main.cpp", WRAPPER_MAIN.format(n=n))
        _write(root / f"lib/p{i}/far.cu", FAR.format(i=i))
        _write(root / f"app/p{i}/main.cpp", FAR_MAIN.format(i=i, n=n))
        _write(root / f"kern/p{i}/idle.cu", IDLE.format(i=i))
        _write(root / f"host/p{i}/run.cu", IDLE_RUN.format(i=i, n=i + 3))
        # every program builds a kernel.cl of its own folder (one file name for all: the nearest is each one's)
        _write(root / f"ocl/p{i}/host.c", CL_HOST.format(cl="kernel.cl", tile=16 << (i % 3), k=f"tile_{i}", n=n))
        _write(root / f"ocl/p{i}/kernel.cl", CL_KERNEL.format(k=f"tile_{i}"))
        # a .cl in a subfolder, built by a host file one folder up
        _write(root / f"oclfar/p{i}/host.c", CL_HOST.format(cl=f"scan_{i}.cl", tile=32, k=f"scan_{i}", n=n))
        _write(root / f"oclfar/p{i}/cl/scan_{i}.cl", CL_KERNEL.format(k=f"scan_{i}"))
        _write(root / f"deep/p{i}/lib/k.cu", DEEP.format(i=i))
        _write(root / f"deep/p{i}/mid/mid.cpp", DEEP_MID.format(i=i))
        _write(root / f"deep/p{i}/app/main.cpp", DEEP_MAIN.format(i=i))
        # a .cl alone in its folder whose program's source no host file names: its kernel's name is all there is
        _write(root / f"clkern/p{i}/lonely.cl", CL_KERNEL.format(k=f"lonely_{i}"))
        _write(root / f"clhost/p{i}/host.c", CL_HOST.format(cl="", tile=64, k=f"lonely_{i}", n=n))
        _write(root / f"rtlib/p{i}/runtime.h", RUNTIME_H)
        for op in ("scale", "shift"):
            _write(root / f"rtlib/p{i}/ops/{op}.cc", OP_HOST.format(op=op, i=i, n=n))
            _write(root / f"rtlib/p{i}/cl/{op}.cl", OP_KERNEL.format(op=op, i=i))


def kernel_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix in (".cu", ".cl") and "/host/" not in p.as_posix())


def contracts(index, root: Path, f: Path) -> dict[str, list]:
    """Each kernel's contracts as scan resolves them from ``index``."""
    rel = f.relative_to(root).as_posix()
    out = {}
    for k in kernel_names(f.read_text()):
        cl = f.suffix == ".cl"
        found = contracts_for(index, k, PARAMS, None, {rel}, rel if cl else None, "opencl" if cl else "cuda")
        out[k] = [c.key() for c in found.contracts]
    return out


def walked(root: Path) -> list[Path]:
    return walk(root, IgnoreRules(root))


def test_each_kernel_takes_the_contracts_the_whole_projects_index_gives_it(tmp_path):
    make_project(tmp_path, 4)
    files = walked(tmp_path)
    cache = tmp_path / ".simu-cache"  # shared: each host file is read once (and through clang once)
    whole = build_host_index(tmp_path, host_files(files), cache)
    for f in kernel_files(tmp_path):
        scoped = reaching_index(tmp_path, [f], files, cache)
        got, want = contracts(scoped, tmp_path, f), contracts(whole, tmp_path, f)
        assert got == want and all(want.values()), (f, got, want)
        # and what it read is the program's own files
        program = f.relative_to(tmp_path).parts[1]
        assert {p.relative_to(tmp_path).parts[1] for p in scoped.reach.files} == {program}, (f, scoped.reach.files)


@pytest.mark.parametrize("kind, seed, read", [
    ("own", "own/p1/main.cu", {"own/p1/main.cu"}),
    ("wrapper", "wrapped/p1/kernel.cu", {"wrapped/p1/kernel.cu", "wrapped/p1/kernel.h", "wrapped/p1/main.cpp"}),
    ("far caller", "lib/p1/far.cu", {"lib/p1/far.cu", "app/p1/main.cpp"}),
    ("idle kernel", "kern/p1/idle.cu", {"kern/p1/idle.cu", "host/p1/run.cu"}),
    ("cl", "ocl/p1/kernel.cl", {"ocl/p1/host.c"}),
    ("cl built from a folder up", "oclfar/p1/cl/scan_1.cl", {"oclfar/p1/host.c"}),
    ("cl named by its kernel only", "clkern/p1/lonely.cl", {"clhost/p1/host.c"}),
    ("cl of a library over one runtime class", "rtlib/p1/cl/scale.cl", {"rtlib/p1/ops/scale.cc", "rtlib/p1/runtime.h"}),
    ("two levels of wrappers", "deep/p1/lib/k.cu", {"deep/p1/lib/k.cu", "deep/p1/mid/mid.cpp", "deep/p1/app/main.cpp"}),
])
def test_what_a_command_reads_does_not_grow_with_the_project(tmp_path, kind, seed, read):
    """The same program inside a project of 3 and of 30 programs of each kind: the same host files are read and
    parsed (a wrapper every program defines under one name, a .cl file name every program uses)."""
    for n in (3, 30):
        root = tmp_path / str(n)
        make_project(root, n)
        index = reaching_index(root, [root / seed], walked(root))
        assert {p.relative_to(root).as_posix() for p in index.reach.files} == read, kind
        assert index.parsed == len(read), kind


def test_an_unchanged_host_file_is_parsed_once_across_builds_and_scopes(tmp_path, monkeypatch):
    from simu.host import index as index_module

    make_project(tmp_path, 3)
    files = walked(tmp_path)
    cache = tmp_path / ".simu-cache"
    whole = build_host_index(tmp_path, host_files(files), cache)
    assert whole.parsed == len(whole.files) and whole.reused == 0
    assert (cache / CACHE_FILE).is_file() and (cache / ".gitignore").is_file()

    def no_parsing(*a, **k):
        raise AssertionError("an unchanged host file was parsed again")

    with monkeypatch.context() as m:
        m.setattr(index_module, "index_host_file", no_parsing)
        m.setattr("simu.host.ast.scope.read_host_file", no_parsing)  # clang's facts are in the entries too
        again = build_host_index(tmp_path, host_files(files), cache)
        scoped = reaching_index(tmp_path, [tmp_path / "wrapped/p1/kernel.cu"], files, cache)  # another scope
    assert _json(again.files) == _json(whole.files) and again.reused == len(whole.files)
    assert scoped.parsed == 0 and scoped.reused == 3
    (tmp_path / "wrapped/p1/main.cpp").write_text(WRAPPER_MAIN.format(n=512))
    edited = reaching_index(tmp_path, [tmp_path / "wrapped/p1/kernel.cu"], files, cache)
    assert (edited.parsed, edited.reused) == (1, 2)
    (grid,) = {c["grid"] for c in contracts(edited, tmp_path, tmp_path / "wrapped/p1/kernel.cu")["wrapped_1"]}
    assert grid == (8, 1, 1)


def _json(files) -> str:
    from simu.host.model import host_file_to_dict

    return json.dumps([host_file_to_dict(h) for h in files], default=list)


def test_an_option_registered_elsewhere_reparses_only_the_files_that_name_it(tmp_path):
    make_project(tmp_path, 2)
    cache = tmp_path / ".simu-cache"
    build_host_index(tmp_path, host_files(walked(tmp_path)), cache)
    _write(tmp_path / "tools/opts.cpp", 'void opts(OptionParser &op) { op.addOption("blocks", OPT_INT, "8", "n"); }\n')
    _write(tmp_path / "tools/use.cpp", 'int use(OptionParser &op) { return op.getOptionInt("blocks"); }\n')
    index = build_host_index(tmp_path, host_files(walked(tmp_path)), cache)
    assert index.options == {"blocks": "8"} and index.parsed == 2  # the two new files, not every file


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=simu", "-c", "user.email=simu@example.invalid", *args], cwd=cwd,
                   check=True, capture_output=True)


def _cached_paths(root: Path) -> set[str]:
    """The host files parsed into the project's host cache (each row names its file)."""
    conn = sqlite3.connect(str(root / ".simu-cache" / CACHE_FILE))
    try:
        return {json.loads(d)["data"]["path"] for (d,) in conn.execute("SELECT data FROM files")}
    finally:
        conn.close()


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_scan_changed_reads_the_host_files_of_the_changed_kernel_only(tmp_path):
    from simu.scan import ScanOverrides, resolve_options, scan

    make_project(tmp_path, 6)
    shutil.rmtree(tmp_path / ".git")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "programs")
    kernel = tmp_path / "wrapped/p2/kernel.cu"
    kernel.write_text(kernel.read_text() + "// edited\n")
    _git(tmp_path, "add", str(kernel))
    options, config = resolve_options([tmp_path], ScanOverrides(changed=True, budget=0.3, jobs=1))
    result = scan(options, config)
    assert [f.rel for f in result.files] == ["wrapped/p2/kernel.cu"]
    (k,) = result.files[0].kernels
    assert k.name == "wrapped_2" and k.status in ("analysed", "incomplete"), k
    assert _cached_paths(tmp_path) == {"wrapped/p2/kernel.cu", "wrapped/p2/kernel.h", "wrapped/p2/main.cpp"}


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_scan_changed_takes_the_kernels_including_a_changed_header_through_others(tmp_path):
    """A staged header reached through another header is found; a file including a namesake header of another
    folder is not (the lexical search is confirmed by include resolution)."""
    from simu.scan import ScanOverrides, resolve_options
    from simu.scan.sources import select_sources

    _write(tmp_path / "a/main.cu", '#include "outer.h"\n__global__ void a(int *p) { p[0] = INNER; }\n')
    _write(tmp_path / "a/outer.h", '#include "inner.h"\n')
    _write(tmp_path / "a/inner.h", "#define INNER 1\n")
    _write(tmp_path / "b/main.cu", '#include "inner.h"\n__global__ void b(int *p) { p[0] = INNER; }\n')
    _write(tmp_path / "b/inner.h", "#define INNER 2\n")
    _write(tmp_path / "c/main.cu", "__global__ void c(int *p) { p[0] = 3; }\n")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "three")
    (tmp_path / "a/inner.h").write_text("#define INNER 4\n")
    _git(tmp_path, "add", "a/inner.h")
    options, _ = resolve_options([tmp_path], ScanOverrides(changed=True))
    assert select_sources(options).sources == [(tmp_path / "a/main.cu").resolve()]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_simu_check_caches_the_host_files_it_reads_in_the_repository(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from simu.cli import app
    from simu.host import index as index_module

    make_project(tmp_path, 6)
    runner = CliRunner()
    cl = tmp_path / "ocl/p4/kernel.cl"
    res = runner.invoke(app, ["check", str(cl), "--budget", "1", "--format", "json"])
    assert res.exit_code in (0, 1), res.output
    # one index for the build options and the launches: the host files `simu scan` of the file reads
    assert _cached_paths(tmp_path) == {"ocl/p4/host.c"}
    assert (tmp_path / ".simu-cache" / ".gitignore").is_file()

    def no_parsing(*a, **k):
        raise AssertionError("an unchanged host file was parsed again")

    monkeypatch.setattr(index_module, "index_host_file", no_parsing)
    from simu.host import contracts as contracts_module

    contracts_module._folder_index.cache_clear()  # a new process would not remember it
    again = runner.invoke(app, ["check", str(cl), "--budget", "1", "--format", "json"])
    assert again.exit_code == res.exit_code, again.output
    assert [k["name"] for k in json.loads(again.stdout)["files"][0]["kernels"]] == ["tile_4"]


def test_a_cuda_check_builds_no_project_index(tmp_path):
    """`simu kernels` needs the host code only for a .cl file's build options."""
    from simu.config import Config
    from simu.scan import ScanOverrides, resolve_options
    from simu.scan.flags import build_file_flags

    make_project(tmp_path, 2)
    f = (tmp_path / "own/p1/main.cu").resolve()
    options, _ = resolve_options([f], ScanOverrides(no_cache=True))
    assert build_file_flags(options, Config(), [f], contracts=False).host is None
    cl = (tmp_path / "ocl/p1/kernel.cl").resolve()
    flags = build_file_flags(options, Config(), [cl], contracts=False)
    assert flags.host.reach.files == [(tmp_path / "ocl/p1/host.c").resolve()]
    assert flags.compile_options(cl).defines[-1] == "TILE=32"


RACY_IDLE = """__global__ void idle(float *out, int n) {
    __shared__ float tile[64];
    tile[threadIdx.x % 64] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x % 64] + n;
}
"""


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_simu_check_takes_the_launch_a_host_file_in_another_folder_makes(tmp_path):
    """The kernel races at blocks past 64 threads; the program launches it with 64 from a host file in another
    folder: `simu check` of the kernel's file reads that launch as `simu scan` does (simu.host.reach)."""
    from typer.testing import CliRunner

    from simu.cli import app

    _write(tmp_path / "kern/idle.cu", RACY_IDLE)
    _write(tmp_path / "host/run.cu", IDLE_RUN.replace("idle_{i}", "idle").replace("256>>>", "64>>>").format(n=3))
    _git(tmp_path, "init", "-q")
    res = CliRunner().invoke(app, ["check", str(tmp_path / "kern/idle.cu"), "--budget", "40", "--format", "json"])
    assert res.exit_code == 0, res.output
    (kernel,) = json.loads(res.stdout)["files"][0]["kernels"]
    assert kernel["status"] == "analysed"
    assert not [f for f in kernel["findings"] if f["severity"] in ("error", "warning") and "race" in f["kind"]]
    racy = CliRunner().invoke(app, ["check", str(tmp_path / "kern/idle.cu"), "--block", "128", "--grid", "1",
                               "--arg", "n=3", "--format", "json"])
    assert racy.exit_code == 1, racy.output  # the race the program's launch does not make


def test_walk_honours_ignore_rules_links_and_skipped_folders(tmp_path):
    _write(tmp_path / ".gitignore", "build/\n*.o\n!keep.o\n")
    _write(tmp_path / "a/.gitignore", "x.cu\n")
    for name in ("a/x.cu", "a/y.cu", "a/b/x.cu", "a/b/c/z.o", "a/b/c/keep.o", "build/q.cu", "node_modules/r.cu",
                 "top.cu"):
        _write(tmp_path / name, "")
    (tmp_path / "a/link.cu").symlink_to(tmp_path / "a/y.cu")
    (tmp_path / "a/blink").symlink_to(tmp_path / "a/b", target_is_directory=True)
    found = {p.relative_to(tmp_path.resolve()).as_posix() for p in walked(tmp_path)}
    assert found == {".gitignore", "a/.gitignore", "a/y.cu", "a/link.cu", "a/b/c/keep.o", "top.cu"}
    rules = IgnoreRules(tmp_path, ["*.o"])
    assert {p.name for p in walk(tmp_path / "a", rules)} == {".gitignore", "y.cu", "link.cu"}
    # a walk from above its rules' root: the .gitignore files above the root do not count, those below do
    above = {p.relative_to(tmp_path.resolve()).as_posix() for p in walk(tmp_path, IgnoreRules(tmp_path / "a"))}
    assert above == {".gitignore", "a/.gitignore", "a/y.cu", "a/link.cu", "a/b/c/z.o", "a/b/c/keep.o", "build/q.cu",
                     "top.cu"}
