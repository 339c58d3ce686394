"""Structs and arrays of device pointers (issue 29 item 3): a struct passed by value with pointer members, a pointer
to such structs and an array of pointers get a member buffer behind every pointer slot (simu/launch/members.py), the
machine writes each member's address into its slot (simu/interp/members.py), findings name the member buffer, the
launch record rebuilds the launch, the distinct-contents refutation leaves the slots alone, and the buffer roles
follow a pointer loaded from a slot into its member buffer."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from typer.testing import CliRunner

from simu import codes
from simu.api import load_source
from simu.check import analyse_kernel
from simu.cli import app
from simu.errors import SimuError
from simu.evolve import Budget
from simu.evolve.roles import buffer_roles
from simu.evolve.search import _layout
from simu.interp.machine import run
from simu.interp.memory import OFFSET_BITS, POINTER_BIAS
from simu.launch.members import MAX_MEMBER_BUFFERS, member_at, member_names
from simu.launch.record import record_of
from simu.launch.spec import build_launch
from simu.pipeline import CheckSettings, check_launches
from simu.validate.replay import launch_from_record

KERNELS = """
struct Graph { int nodes, edges; int *nindex, *nlist; };
__global__ void deg(Graph g, int *out) {
  int v = threadIdx.x + blockIdx.x * blockDim.x;
  if (v < g.nodes) out[v] = g.nindex[v + 1] - g.nindex[v];
}
struct Bufs { int n; float *in; int *out; };
__global__ void last(Bufs g) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < g.n) g.out[0] = i;
}
__global__ void each(Bufs g) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < g.n) g.out[i] = i;
}
__global__ void count(Bufs *g) { g->out[0] += 1; }
__global__ void scale(float **rows, int n) {
  int i = blockIdx.x, j = threadIdx.x;
  if (j < n) rows[i][j] *= 2.0f;
}
__global__ void second(float **rows, int n) {
  int j = threadIdx.x;
  if (j < n) rows[1][0] = j;
}
struct Inner { float *p; int k; };
struct Outer { int n; Inner in; float *arr[3]; double *d; };
__global__ void nested(Outer o) {
  int i = threadIdx.x;
  o.in.p[i] = o.arr[1][i] + o.arr[2][i] + (float)o.d[i];
}
struct Csr { int nodes; int *nindex, *nlist; float *w; };
__global__ void spmv(Csr g, float *out) {
  int v = threadIdx.x + blockIdx.x * blockDim.x;
  if (v < g.nodes) {
    float s = 0;
    for (int e = g.nindex[v]; e < g.nindex[v + 1]; e++) s += g.w[g.nlist[e]];
    out[v] = s;
  }
}
struct Item { double scale; int length; int value; char *name; };
__global__ void by_ref(Item &item) {
  if (threadIdx.x == 0) item.name[0] = 'r';
}
struct Pair { int a; int b; int *hits; };
__global__ void tally(Pair p, const int *idx, int n) {
  int i = threadIdx.x;
  if (i < n) atomicAdd(&p.hits[idx[i] % 4], p.a);
}
"""

SOA = """
struct Coefficients_SOA { int *r, *b, *g, *hue, *saturation, *maxVal, *minVal, *finalVal; };

__global__ void complicatedCalculation(Coefficients_SOA data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int grayscale = (data.r[i] + data.g[i] + data.b[i]) / (data.maxVal[i] | 1);
  int hue_sat = data.hue[i] * data.saturation[i] / (data.minVal[i] | 1);
  data.finalVal[i] = grayscale * hue_sat;
}
"""

_MODULE: list = []


def _kernel(name: str):
    if not _MODULE:
        _MODULE.append(load_source(KERNELS, "cuda"))
    return _MODULE[0], _MODULE[0].kernel(name)


def _search(name: str):
    module, kernel = _kernel(name)
    return analyse_kernel(module, kernel, CheckSettings(),
                          budget=Budget(evaluations=30, seconds=600, probe_seconds=120), seed=0)


def _given(name: str, grid, block, args=()):
    module, kernel = _kernel(name)
    return check_launches(module, kernel, [build_launch(kernel, grid, block, list(args))])


POINTERS = ("null", "invalid-pointer")


def test_the_layout_of_pointer_slots_comes_from_the_debug_information():
    _, deg = _kernel("deg")
    g = deg.param("g")
    assert g.pointers.by_value and g.pointers.stride == 24 and g.pointee_size == 24
    assert [(f.offset, f.path, f.pointee) for f in g.pointers.fields] == [(8, ".nindex", "int"), (16, ".nlist", "int")]
    assert member_names(g) == ["g.nindex", "g.nlist"] and member_at(g, 16) == "g.nlist" and member_at(g, 0) is None
    assert deg.param("out").pointers is None
    _, nested = _kernel("nested")
    o = nested.param("o").pointers
    assert [(f.offset, f.path) for f in o.fields] == [(8, ".in.p"), (24, ".arr[0]"), (32, ".arr[1]"), (40, ".arr[2]"),
                                                      (48, ".d")]
    _, count = _kernel("count")
    held = count.param("g")
    assert not held.pointers.by_value and member_at(held, 24 + 16) == "g[1].out"
    assert member_at(held, 24 * 7 + 8) == "g[4:].in"  # two pointers an element: 4 elements of their own, then a tail
    _, scale = _kernel("scale")
    rows = scale.param("rows")
    assert rows.pointee_size == 8
    assert [(f.offset, f.path, f.pointee) for f in rows.pointers.fields] == [(0, "", "float")]
    assert member_names(rows) == [f"rows[{k}]" for k in range(MAX_MEMBER_BUFFERS)] + [f"rows[{MAX_MEMBER_BUFFERS}:]"]


def test_the_machine_writes_each_member_buffer_address_into_its_slot():
    """The slot holds the member's address in the machine's own encoding ((id << 40) + 2**39 + offset): the kernel
    reads the pointer from the struct's bytes and reaches the member buffer."""
    module, kernel = _kernel("deg")
    launch = build_launch(kernel, 1, 8, seed=3)
    assert [n for n in launch.args] == ["g", "out", "g.nindex", "g.nlist"]
    assert launch.pointers == {"g": [[8, 1, 24, "g.nindex", 0, 0], [16, 1, 24, "g.nlist", 0, 0]]}
    holder = launch.args["g"].copy()
    assert holder.dtype == np.int32 and holder.size == 6 * 8  # a struct by value: drawn as int words, g.nodes the first
    holder[0] = 7  # g.nodes = 7 (nindex[v + 1] of 8 elements)
    launch.args["g"] = holder
    r = run(module, kernel, launch)
    assert r.outcome.completed and not r.memory_errors
    nindex = launch.args["g.nindex"]
    assert list(r.buffers["out"][:7]) == list(nindex[1:8] - nindex[:7])
    slot = int(r.buffers["g"].view(np.uint8)[8:16].view(np.int64)[0])
    alloc = r.allocations[slot >> OFFSET_BITS]
    assert alloc.name == "g.nindex" and slot == (alloc.id << OFFSET_BITS) + POINTER_BIAS
    assert np.array_equal(r.buffers["g.nindex"], nindex)


def test_a_struct_of_device_pointers_by_value_has_no_pointer_finding():
    report = _search("deg")
    assert report.status == codes.ANALYSED
    assert not [f for f in report.findings if f.kind in POINTERS], report.findings


def test_a_race_behind_a_member_pointer_names_the_member_buffer():
    report = _search("last")
    races = [f for f in report.findings if f.kind == "race"]
    assert races and all(f.severity == codes.ERROR and f.variable == "g.out" for f in races), report.findings
    assert "g.out[0]" in races[0].message
    assert not [f for f in report.findings if f.kind in POINTERS]
    fixed = _search("each")
    assert not [f for f in fixed.findings if f.kind == "race" or f.kind in POINTERS], fixed.findings


def test_a_reference_parameter_is_a_pointer_to_one_struct_with_its_pointer_members():
    """``Item &item`` (a C++ reference: a pointer in the IR, a reference type in the debug information) points to a
    whole ``Item``, whose ``name`` member gets a buffer of its own: no null or invalid pointer read past a short
    buffer of bytes."""
    _, kernel = _kernel("by_ref")
    (p,) = kernel.params
    assert p.pointee == "Item" and p.pointee_size == 24 and [f.path for f in p.pointers.fields] == [".name"]
    report = _search("by_ref")
    assert report.status == codes.ANALYSED
    assert not [f for f in report.findings if f.kind in POINTERS or f.kind == "out-of-bounds"], report.findings


def test_a_pointer_to_structs_and_an_array_of_pointers():
    counted = _given("count", 1, 64)
    races = [f for f in counted.findings if f.kind == "race"]
    assert races and all(f.variable == "g[0].out" for f in races), counted.findings
    second = _given("second", 1, 32, ["n=32"])
    assert [f.variable for f in second.findings if f.kind == "race"] == ["rows[1]"], second.findings
    # rows past the eighth are regions of one tail buffer, never another row's buffer again: no race between blocks
    scaled = _given("scale", 20, 32, ["n=32"])
    assert not scaled.findings, scaled.findings
    launch = build_launch(_kernel("scale")[1], 20, 32, ["n=32"])
    tail = next(run for run in launch.pointers["rows"] if run[3] == "rows[8:]")
    assert tail[:3] == [64, launch.args["rows"].nbytes // 8 - 8, 8] and tail[5] == launch.args["rows[0]"].nbytes
    report = _search("nested")
    assert not [f for f in report.findings if f.kind in POINTERS], report.findings


def test_the_launch_record_rebuilds_the_member_buffers_and_the_slots():
    module, kernel = _kernel("last")
    launch = build_launch(kernel, 1, 16, seed=5)
    record = record_of(launch)
    assert record.buffers["g"]["pointers"] == [[8, 1, 24, "g.in", 0, 0], [16, 1, 24, "g.out", 0, 0]]
    assert {"g.in", "g.out"} <= set(record.buffers)
    again = launch_from_record(json.loads(json.dumps(record.__dict__, default=list)), kernel)
    assert again.exact and again.launch.pointers == launch.pointers
    assert all(np.array_equal(again.launch.args[n], launch.args[n]) for n in launch.args)
    assert "pointers" not in again.launch.buffer_specs["g"]
    first, second = run(module, kernel, launch), run(module, kernel, again.launch)
    assert all(np.array_equal(first.buffers[n], second.buffers[n]) for n in ("g.in", "g.out"))


def test_a_replay_script_says_it_cannot_rebuild_device_pointers(tmp_path):
    src = tmp_path / "last.cu"
    src.write_text(KERNELS)
    report = _search("last")
    race = next(f for f in report.findings if f.kind == "race")
    from simu.validate.script import emit_replay_script

    with pytest.raises(SimuError, match="device pointers"):
        emit_replay_script(race, src)
    findings = tmp_path / "f.json"
    doc = race.to_dict()
    doc["first"]["file"] = str(src)
    findings.write_text(json.dumps([doc]))
    res = CliRunner().invoke(app, ["replay", str(findings), "--emit", "pyopencl"])
    assert res.exit_code == 2 and "device pointers" in res.output and "Traceback" not in res.output, res.output
    res = CliRunner().invoke(app, ["replay", str(findings), "--emit", "launch"])
    assert res.exit_code == 0 and '"pointers"' in res.output, res.output


def test_distinct_contents_leave_the_pointer_slots_and_vary_the_members():
    module, kernel = _kernel("tally")
    layout = _layout(module, kernel, None)
    launch = layout.launch(layout.initial(random.Random(4)))
    assert "p.hits" in launch.args and "p.hits" in layout.chosen_contents()
    out = layout.distinct(launch)
    assert out is not None
    varied, names = out
    assert {"p", "p.hits", "idx"} <= set(names)
    before, after = launch.args["p"], varied.args["p"]
    assert np.array_equal(after[2:4], before[2:4])  # the slot: as it was (the machine writes the address there)
    assert after[:2].tolist() == [0, 0] and after[6:8].tolist() == [1, 1]  # element k's integers: k
    assert list(varied.args["p.hits"][:5]) == [0, 1, 2, 3, 4] and varied.pointers == launch.pointers
    r = run(module, kernel, varied)
    assert r.outcome.completed and not r.memory_errors


def test_member_buffers_get_roles_and_are_drawn_as_the_kernel_uses_them():
    module, kernel = _kernel("spmv")
    roles = buffer_roles(kernel)
    assert roles["g.nindex"].kind == "offsets" and [t.name for t in roles["g.nindex"].targets] == ["g.nlist"]
    assert roles["g.nlist"].kind == "index" and roles["g.nlist"].rows == "g.nindex"
    assert [t.name for t in roles["g.nlist"].targets] == ["g.w"]
    layout = _layout(module, kernel, None)
    genes = layout.initial(random.Random(1))
    genes[layout.at.FILL] = float(layout.fill_choices.index("inferred+random"))
    launch = layout.launch(genes)
    assert launch.buffer_specs["g.nindex"]["fill"] == "offsets"
    assert launch.buffer_specs["g.nlist"]["fill"] == "segments"
    assert "g.nindex as CSR offsets into g.nlist" in launch.origin


def test_simu_check_of_a_struct_of_eight_device_pointers_has_no_null_finding(tmp_path):
    (tmp_path / ".git").mkdir()
    src = tmp_path / "soa.cu"
    src.write_text(SOA)
    res = CliRunner().invoke(app, ["check", str(src), "--format", "json"])
    doc = json.loads(res.stdout)
    kernels = [k for f in doc["files"] for k in f["kernels"]]
    assert [k["status"] for k in kernels] == ["analysed"], res.stdout
    assert not [x for k in kernels for x in k["findings"] if x["kind"] in POINTERS], res.stdout


def test_a_struct_whose_constructor_is_emitted_elsewhere_still_has_its_pointer_members(tmp_path):
    """A class with a user-written constructor that this file never emits: clang's default debug information keeps
    only a member-less forward declaration of it (pytorch3d's by-value ``Renderer``); simu compiles with
    ``-fstandalone-debug``, so its pointer members still get buffers and read no null."""
    from simu.api import load_file

    src = tmp_path / "ctor.cu"
    src.write_text("""
struct Renderer {
  Renderer();
  int n;
  float *grad;
  int *count;
};
__global__ void norm(Renderer r) {
  if (threadIdx.x == 0 && blockIdx.x == 0) { r.grad[0] = 1.0f; r.count[0] = 1; }
}
""")
    module = load_file(src)
    (p,) = [q for q in module.kernel().params if q.name == "r"]
    assert p.pointers, "no pointer slots read from the debug information"
