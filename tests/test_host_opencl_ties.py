"""OpenCL arguments that pass one host value (simu.host.ast.clrelations): ``lda = ldc = n`` with ``n`` from a method
simu cannot evaluate is one drawn value, the global size ``{n, n}`` over a ``{16, 16}`` local size makes the
work-groups follow it, and the buffers ``clCreateBuffer`` sized ``n * n`` floats hold that many; drawing each alone
made ``ldc`` smaller than the rows the launch writes, a race no launch of the program shows."""

from __future__ import annotations

import shutil
from pathlib import Path

from simu.host.ast.expr import Unknown, names_variable, read_at
from simu.host.contracts import contracts_for
from simu.host.index import build_host_index
from simu.scan import ScanOverrides, resolve_options, scan

PROGRAM = Path(__file__).resolve().parent / "programs" / "opencl_ties" / "fixed"
PARAMS = [("a", 4), ("lda", None), ("c", 4), ("ldc", None), ("alpha", None)]


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(PROGRAM, tmp_path / "p")
    return tmp_path / "p"


def _scan(root: Path, host: bool):
    options, config = resolve_options([root], ScanOverrides(budget=1.0, jobs=1, no_cache=True))
    options.host_code = host
    return scan(options, config)


def test_one_value_passed_twice_and_as_the_global_size_is_drawn_once(tmp_path: Path):
    root = _copy(tmp_path)
    index = build_host_index(root, [root / "main.cpp"])
    (c,) = contracts_for(index, "scale", PARAMS, None, cl_file=str(root / "scale.cl")).contracts
    assert c.args == {"alpha": 2}
    assert c.derived == {"ldc": "lda"}, c.derived
    assert c.block == (16, 16, 1) and c.grid is None
    assert c.dims["grid.x"] == c.dims["grid.y"] == "(lda)/16", c.dims
    assert set(c.requires) == {"(lda)%16 == 0", "lda >= 16"}, c.requires  # whole work-groups, at least one
    # clCreateBuffer(ctx, flags, n * n * sizeof(float), …) over the same drawn value
    assert c.buffer_lengths == {"a": "(lda*lda*4)//4", "c": "(lda*lda*4)//4"}, c.buffer_lengths


def test_the_tied_launch_shows_no_race_and_a_free_one_does(tmp_path: Path):
    root = _copy(tmp_path)
    (k,) = [k for _, k in _scan(root, host=True).kernels()]
    assert k.status == "analysed" and not [f for f in k.findings if f.severity == "error"], \
        [f.message for f in k.findings]
    (free,) = [k for _, k in _scan(root, host=False).kernels()]
    assert any(f.kind == "race" for f in free.findings), [f.message for f in free.findings]


def test_a_call_result_is_one_value_where_copied_and_another_elsewhere():
    what = "the result of .value()"
    here, there = read_at(what, "main.cpp", "120"), read_at(what, "main.cpp", "180")
    assert names_variable(here) and here == read_at(what, "main.cpp", "120") and here != there
    assert not names_variable(Unknown(what))


def test_a_profiling_wrapper_renaming_the_api_is_read_as_the_api(tmp_path: Path):
    """``#define clEnqueueNDRangeKernel pb_clEnqueueNDRangeKernel`` (a benchmark suite's timing layer): clang sees
    the wrapper, which passes what the program gives the API."""
    root = _copy(tmp_path)
    text = (root / "main.cpp").read_text()
    (root / "main.cpp").write_text(text.replace("#include <cstdlib>\n", """#include <cstdlib>
cl_int pb_clEnqueueNDRangeKernel(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                                 const size_t *, cl_uint, const cl_event *, cl_event *);
#define clEnqueueNDRangeKernel pb_clEnqueueNDRangeKernel
""", 1))
    index = build_host_index(root, [root / "main.cpp"])
    (c,) = contracts_for(index, "scale", PARAMS, None, cl_file=str(root / "scale.cl")).contracts
    assert c.derived == {"ldc": "lda"} and c.dims["grid.x"] == "(lda)/16", (c.derived, c.dims)


def test_a_failure_applying_clangs_values_is_said_not_swallowed(tmp_path: Path, monkeypatch):
    """The lexical reader's sites stand when applying clang's OpenCL values fails inside simu, and the index says
    so (a scan note), where it used to drop them silently."""
    import simu.host.index as host_index

    def broken(*_args, **_kwargs):
        raise IndexError("tuple index out of range")

    monkeypatch.setattr(host_index, "refine_sites", broken)
    root = _copy(tmp_path)
    index = build_host_index(root, [root / "main.cpp"])
    assert index.clang_unapplied == "its OpenCL values (IndexError: tuple index out of range)"
    (c,) = contracts_for(index, "scale", PARAMS, None, cl_file=str(root / "scale.cl")).contracts
    assert c.block == (16, 16, 1)  # the lexical reader's launch


def test_a_host_relation_onto_an_image_is_no_relation_of_the_launch():
    """A registry launch read for a kernel that takes an image where the host passes an integer computed from
    others (``bias = (w+1)/2``: another kernel's arguments at that position) drops the relation; the kernel is
    searched, never ``unsupported`` for want of a backing array (Paddle-Lite's convolutions, 10 kernels)."""
    from simu.api import load_source
    from simu.evolve import Budget
    from simu.evolve.search import Search
    from simu.launch.constraints import KernelConstraints
    from simu.pipeline import CheckSettings

    m = load_source("""
__kernel void tag(__read_only image2d_t bias, __write_only image2d_t out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < w && y < h) write_imagef(out, (int2)(x, y), read_imagef(bias, CLK_NORMALIZED_COORDS_FALSE, (int2)(x, 0)));
}""", "opencl")
    c = KernelConstraints(origin="host launch at conv.cc:9")
    c.derived = {"bias": "((w+2-1)/2)", "h": "(out*w)"}
    s = Search(m, m.kernel("tag"), CheckSettings(), c,
               budget=Budget(evaluations=8, seconds=600, probe_seconds=120), seed=0)
    assert s.layout.derived == {}
    assert {p.name for p in s.layout.scalars} == {"w", "h"}
    assert s.evaluate(s.layout.initial(s.rng)).valid
