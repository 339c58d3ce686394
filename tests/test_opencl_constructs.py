"""OpenCL constructs: target extension types decode (events, images, samplers), one kernel's
unsupported construct never fails its neighbours, and async work-group copies are modelled
(their accesses recorded so that races with them are found, and a correct use is clean)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from simu.api import load_source, run_opencl_source
from simu.cli import app
from simu.ir.types import TargetExtType, TypeParser
from simu.launch.model import Launch, LocalBuffer

runner = CliRunner()


@pytest.mark.parametrize("text, name, params", [
    ('target("spirv.Event")', "spirv.Event", ()),
    ('target("spirv.Sampler")', "spirv.Sampler", ()),
    ('target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0)', "spirv.Image", ("void", "1", "0", "0", "0", "0", "0", "0")),
    ('target("spirv.Image", float, 2, 0, 0, 0, 0, 0, 1)', "spirv.Image", ("float", "2", "0", "0", "0", "0", "0", "1")),
])
def test_target_extension_types_decode(text, name, params):
    t = TypeParser().parse(text)
    assert isinstance(t, TargetExtType)
    assert (t.name, t.params, t.size, t.align) == (name, params, 8, 8)
    assert str(t) == text


def test_target_type_inside_aggregates():
    t = TypeParser().parse('{ target("spirv.Event"), i32 }')
    assert t.size == 16 and isinstance(t.fields[0], TargetExtType)


MIXED = """
__kernel void racy(__global int *a) {
  a[0] = get_global_id(0);
}

__kernel void with_image(read_only image2d_t img, sampler_t smp, __global float4 *out) {
  int i = get_global_id(0);
  out[i] = read_imagef(img, smp, (int2)(i, 0));
}

__kernel void with_event(__global const float *src, __global float *dst, __local float *tmp) {
  event_t e = async_work_group_copy(tmp, src + get_group_id(0) * get_local_size(0), get_local_size(0), 0);
  wait_group_events(1, &e);
  dst[get_global_id(0)] = tmp[get_local_size(0) - 1 - get_local_id(0)];
}
"""


def test_module_with_images_and_events_loads():
    module = load_source(MIXED, "opencl", path="mixed.cl")
    assert {k.display_name for k in module.kernels} == {"racy", "with_image", "with_event"}
    img = module.kernel("with_image")
    assert isinstance(img.params[0].type, TargetExtType) and img.params[0].type.name == "spirv.Image"


def test_check_analyses_neighbours_of_an_unsupported_kernel(tmp_path):
    (tmp_path / ".git").mkdir()
    src = tmp_path / "mixed.cl"
    src.write_text(MIXED)
    res = runner.invoke(app, ["check", str(src), "--format", "json"])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    doc = json.loads(res.stdout)
    kernels = {k["name"]: k for f in doc["files"] for k in f["kernels"]}
    assert kernels["racy"]["status"] == "analysed"
    assert any(f["kind"] == "race" for f in kernels["racy"]["findings"])
    image = kernels["with_image"]
    assert image["status"] in ("analysed", "unsupported")
    if image["status"] == "unsupported":
        assert image["where"]["line"] == 8
    assert kernels["with_event"]["status"] == "analysed"
    assert not [f for f in kernels["with_event"]["findings"] if f["kind"] in ("race", "warp-race")]


def test_undecodable_instruction_is_unsupported_not_a_crash():
    from simu.errors import UnsupportedError
    from simu.interp.compiler import compile_kernel
    from simu.ir import load_module

    ir = """
target triple = "spir64-unknown-unknown"
define spir_kernel void @ok(ptr addrspace(1) %p) {
  store i32 1, ptr addrspace(1) %p
  ret void
}
define spir_kernel void @bad(ptr addrspace(1) %p) {
entry:
  store ptr blockaddress(@bad, %next), ptr addrspace(1) %p
  br label %next
next:
  ret void
}
"""
    module = load_module(ir, "m.ll", "opencl")  # loads: the bad instruction is only marked
    compile_kernel(module, module.kernel("ok"))
    with pytest.raises(UnsupportedError):
        compile_kernel(module, module.kernel("bad"))


def test_undecodable_global_only_fails_its_users():
    from simu.errors import UnsupportedError
    from simu.interp import run
    from simu.ir import load_module

    ir = """
target triple = "spir64-unknown-unknown"
@weird = addrspace(1) global i32 ptrtoint (ptr blockaddress(@bad, %next) to i32)
define spir_kernel void @ok(ptr addrspace(1) %p) {
  store i32 1, ptr addrspace(1) %p
  ret void
}
define spir_kernel void @bad(ptr addrspace(1) %p) {
entry:
  %v = load i32, ptr addrspace(1) @weird
  store i32 %v, ptr addrspace(1) %p
  br label %next
next:
  ret void
}
"""
    module = load_module(ir, "g.ll", "opencl")
    launch = Launch(grid=(1,), block=(2,), args={"arg0": np.zeros(2, np.int32)})
    assert run(module, module.kernel("ok"), launch).outcome.status == "completed"
    with pytest.raises(UnsupportedError):
        run(module, module.kernel("bad"), launch)


# --------------------------------------------------------------------------------------
# async_work_group_copy and friends

ASYNC = """
#define WG 64
__kernel void missing_wait(__global const float *in, __global float *out) {
  __local float tile[WG];
  int lid = get_local_id(0);
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * WG, WG, 0);
  out[get_global_id(0)] = tile[(lid + 1) % WG];
}

__kernel void correct(__global const float *in, __global float *out) {
  __local float tile[WG];
  int lid = get_local_id(0);
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * WG, WG, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[(lid + 1) % WG];
}

__kernel void correct_with_barrier(__global const float *in, __global float *out) {
  __local float tile[WG];
  int lid = get_local_id(0);
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * WG, WG, 0);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[WG - 1 - lid];
}

__kernel void overwrites_source(__global float *out) {
  __local float tile[WG];
  int lid = get_local_id(0);
  tile[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out + get_group_id(0) * WG, tile, WG, 0);
  tile[lid] = 0.0f;
  wait_group_events(1, &e);
}

__kernel void copy_out_after_barrier(__global float *out) {
  __local float tile[WG];
  int lid = get_local_id(0);
  tile[lid] = 2.0f * lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out + get_group_id(0) * WG, tile, WG, 0);
  wait_group_events(1, &e);
}

__kernel void copy_out_without_barrier(__global float *out) {
  __local float tile[WG];
  int lid = get_local_id(0);
  tile[lid] = 2.0f * lid;
  event_t e = async_work_group_copy(out + get_group_id(0) * WG, tile, WG, 0);
  wait_group_events(1, &e);
}

__kernel void strided(__global const int *in, __global int *out, __local int *col, int rows, int cols) {
  int g = get_group_id(0);
  event_t e = async_work_group_strided_copy(col, in + g, rows, cols, 0);
  wait_group_events(1, &e);
  for (int r = get_local_id(0); r < rows; r += get_local_size(0))
    col[r] = col[r] * 10 + g;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(out + g, col, rows, cols, 0);
  prefetch(in, 4);
  wait_group_events(1, &e);
}
"""


@pytest.fixture(scope="module")
def async_module():
    return load_source(ASYNC, "opencl", path="async.cl")


def _run(module, name, launch):
    from simu.interp import run

    return run(module, module.kernel(name), launch)


@pytest.fixture(scope="module")
def check():
    from simu.pipeline import CheckSettings, check_launches

    def go(module, name, block=64, grid=2, **args):
        launch = Launch(grid=(grid,), block=(block,), args=args)
        return check_launches(module, module.kernel(name), [launch], CheckSettings())
    return go


def _races(report):
    return [f for f in report.findings if f.kind in ("race", "warp-race")]


def test_async_copy_read_before_wait_races(async_module, check):
    report = check(async_module, "missing_wait", **{"in": np.arange(128, dtype=np.float32),
                                                    "out": np.zeros(128, np.float32)})
    races = _races(report)
    assert races and {(f.first.line, f.second.line) for f in races} == {(6, 7)}


@pytest.mark.parametrize("name", ["correct", "correct_with_barrier", "copy_out_after_barrier"])
def test_async_copy_correct_use_is_clean(async_module, check, name):
    args = {"out": np.zeros(128, np.float32)}
    if name.startswith("correct"):
        args["in"] = np.arange(128, dtype=np.float32)
    report = check(async_module, name, **args)
    assert not _races(report)
    assert not [f for f in report.findings if f.kind == "uninitialized"]


def test_async_copy_overwriting_source_races(async_module, check):
    races = _races(check(async_module, "overwrites_source", out=np.zeros(128, np.float32)))
    assert races and {(f.first.line, f.second.line) for f in races} == {(32, 33)}


def test_async_copy_out_needs_the_barrier_before_it(async_module, check):
    races = _races(check(async_module, "copy_out_without_barrier", out=np.zeros(128, np.float32)))
    assert races
    report = check(async_module, "copy_out_after_barrier", out=np.zeros(128, np.float32))
    assert not [f for f in report.findings if f.kind == "redundant-barrier"]


def test_async_copy_values(async_module):
    x = np.arange(128, dtype=np.float32) * 3
    res = _run(async_module, "correct", Launch(grid=(2,), block=(64,), args={"in": x, "out": np.zeros(128,
                                                                                                    np.float32)}))
    out = res.buffers["out"]
    expect = np.concatenate([np.roll(x[:64], -1), np.roll(x[64:], -1)])
    np.testing.assert_array_equal(out, expect)


def test_async_strided_copy_values(async_module, check):
    rows, cols = 10, 3
    x = np.arange(rows * cols, dtype=np.int32)
    args = {"in": x, "out": np.zeros(rows * cols, np.int32), "col": LocalBuffer(4 * rows), "rows": np.int32(rows),
            "cols": np.int32(cols)}
    res = _run(async_module, "strided", Launch(grid=(cols,), block=(4,), args=dict(args)))
    expect = (x.reshape(rows, cols) * 10 + np.arange(cols)[None, :]).reshape(-1)
    np.testing.assert_array_equal(res.buffers["out"], expect)
    report = check(async_module, "strided", block=4, grid=cols, **{**args, "out": np.zeros(rows * cols, np.int32)})
    assert not report.findings


def test_async_copy_through_the_api():
    res = run_opencl_source(ASYNC, "correct", Launch(grid=(1,), block=(64,), args={
        "in": np.arange(64, dtype=np.float32), "out": np.zeros(64, np.float32)}))
    assert res.buffers["out"][0] == 1.0


def test_fma32_on_vectors_of_many_lanes():
    """float4 fma at 64 work-items: lanes that need the round-to-odd fix-up are 2-D (lanes x 4)."""
    from fractions import Fraction

    from simu.interp.mathlib import fma32

    rng = np.random.default_rng(1)
    a = np.full((64, 4), 1 + 2.0 ** -12, np.float32)  # a*a lands on a float32 midpoint
    c = (rng.integers(-3, 3, (64, 4)) * 2.0 ** -30).astype(np.float32)
    r = fma32(a, a, c)
    exact = [np.float32(float(Fraction(float(x)) * Fraction(float(x)) + Fraction(float(z))))
             for x, z in zip(a.ravel(), c.ravel(), strict=True)]
    assert r.shape == (64, 4)
    np.testing.assert_array_equal(r.ravel(), np.array(exact, np.float32))


def test_float4_mad_and_fma_kernel_at_64_items():
    src = """
__kernel void k(__global float4 *o, float s) {
  int i = get_global_id(0);
  float4 x = (float4)(1.0f + 1.0f / 4096.0f);
  float4 c = (float4)(i * 0x1p-30f);
  o[i] = fma(x, x, c) + mad(x, x, (float4)(s));
}
"""
    res = run_opencl_source(src, "k", Launch(grid=(1,), block=(64,), args={"o": np.zeros(256, np.float32),
                                                                        "s": np.float32(1.5)}))
    assert res.outcome.status == "completed"


# --------------------------------------------------------------------------------------
# images and samplers

IMAGES = """
__constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__kernel void blur(read_only image2d_t img, write_only image2d_t out, sampler_t s, __global int *wh) {
  const sampler_t border = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
  int x = get_global_id(0), y = get_global_id(1);
  float4 a = read_imagef(img, s, (int2)(x - 1, y)) + read_imagef(img, edge, (int2)(x + 1, y))
           + read_imagef(img, border, (int2)(x, y + 1)) + read_imagef(img, (int2)(x, y));
  write_imagef(out, (int2)(x, y), a);
  if (x == 0 && y == 0)
    wh[0] = get_image_width(img) * 100 + get_image_height(out);
}

__kernel void ints(read_only image3d_t vol, read_only image2d_t plane, write_only image1d_t o) {
  int x = get_global_id(0);
  uint4 u = read_imageui(vol, (int4)(x, 1, 1, 0));
  int4 v = read_imagei(plane, (int2)(x, 0));
  write_imageui(o, x, u + as_uint4(v));
}

__kernel void normalised(read_only image2d_t img, __global float4 *out) {
  const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
  out[get_global_id(0)] = read_imagef(img, s, (float2)(0.5f, 0.5f));
}
"""

RW_IMAGE = """
__kernel void shift(read_write image1d_t img) {
  int x = get_global_id(0);
  uint4 v = read_imageui(img, x + 1);
  write_imageui(img, x, v);
}
"""


@pytest.fixture(scope="module")
def image_module():
    return load_source(IMAGES, "opencl", path="images.cl")


def test_read_and_write_images_with_samplers(image_module):
    from simu.interp import run

    h, w = 3, 5
    img = np.arange(h * w * 4, dtype=np.float32).reshape(h, w, 4)
    args = {"img": img, "out": np.zeros((h, w, 4), np.float32), "s": 0x12, "wh": np.zeros(1, np.int32)}
    res = run(image_module, image_module.kernel("blur"), Launch(grid=(1, 1), block=(w, h), args=args))
    zero = np.zeros(4, np.float32)
    ref = np.array([[img[y, max(x - 1, 0)] + img[y, min(x + 1, w - 1)] + (img[y + 1, x] if y + 1 < h else zero)
                     + img[y, x] for x in range(w)] for y in range(h)])
    np.testing.assert_array_equal(res.buffers["out"].reshape(h, w, 4), ref)
    assert res.buffers["wh"][0] == w * 100 + h


def test_integer_images_1d_2d_3d(image_module):
    from simu.interp import run

    vol = np.arange(2 * 2 * 4 * 4, dtype=np.uint32).reshape(2, 2, 4, 4)
    plane = np.arange(16, dtype=np.int32).reshape(1, 4, 4) - 3
    args = {"vol": vol, "plane": plane, "o": np.zeros((4, 4), np.uint32)}
    res = run(image_module, image_module.kernel("ints"), Launch(grid=(1,), block=(4,), args=args))
    np.testing.assert_array_equal(res.buffers["o"].reshape(4, 4), vol[1, 1] + plane[0].view(np.uint32))


def test_normalised_linear_sampler_is_modelled(image_module):
    from simu.interp import run

    img = np.arange(16, dtype=np.float32).reshape(2, 2, 4)
    args = {"img": img, "out": np.zeros(8, np.float32)}
    res = run(image_module, image_module.kernel("normalised"), Launch(grid=(1,), block=(2,), args=args))
    # (0.5, 0.5) normalised on a 2x2 image: the point where the four texels meet, each weighted 1/4
    np.testing.assert_array_equal(res.buffers["out"].reshape(2, 4), np.tile(img.reshape(4, 4).mean(axis=0), (2, 1)))


def test_image_without_backing_array_is_unsupported(image_module, check):
    report = check(image_module, "ints", block=2, grid=1, vol=0, plane=0, o=0)
    assert report.status == "unsupported" and report.where is not None and report.where.line == 16


def test_race_on_a_read_write_image(check):
    from simu.frontend import CompileOptions

    module = load_source(RW_IMAGE, "opencl", CompileOptions(clang_args=("-cl-std=CL2.0",)), path="rw.cl")
    report = check(module, "shift", block=64, grid=1, img=np.arange(65 * 4, dtype=np.uint32).reshape(65, 4))
    races = _races(report)
    assert races and {(f.first.line, f.second.line) for f in races} == {(4, 5)}


# --------------------------------------------------------------------------------------
# images and samplers from the launch side (simu/launch/images.py): defaults, --buffer specs,
# `// launch:` comments and the search

def test_build_launch_gives_images_and_samplers_default_arrays(image_module):
    from simu.interp import run
    from simu.launch.buffers import buffer_from_spec, buffer_specs
    from simu.launch.images import DEFAULT_SAMPLER
    from simu.launch.spec import build_launch, is_complete

    k = image_module.kernel("blur")
    assert is_complete(k, "1,1", "8,4", [])  # images and the sampler have defaults
    launch = build_launch(k, "1,1", "8,4", [])
    img, out = launch.args["img"], launch.args["out"]
    # every axis covers the launch's global size and the square root of its thread count (ceil(sqrt 32) = 6)
    assert img.shape == (6, 8, 4) and img.dtype == np.float32 and out.shape == (6, 8, 4)
    assert launch.args["s"] == DEFAULT_SAMPLER
    specs = buffer_specs(launch)
    assert specs["img"]["shape"] == [6, 8, 4] and specs["img"]["fill"] == "random"
    np.testing.assert_array_equal(buffer_from_spec(specs["img"]), img)  # replays exactly
    res = run(image_module, k, launch)
    assert res.outcome.completed and res.buffers["wh"][0] == 8 * 100 + 6
    # a 1-D launch: a 2-D image is as wide as the launch and square-ish in threads
    assert build_launch(k, "2", "64", []).args["img"].shape == (12, 128, 4)
    ints = build_launch(image_module.kernel("ints"), "1", "16", [])
    assert ints.args["vol"].shape == (3, 3, 16, 4) and ints.args["o"].shape == (16, 4)
    assert run(image_module, image_module.kernel("ints"), ints).outcome.completed


def test_image_dtype_follows_the_builtins_the_kernel_calls():
    from simu.launch.spec import build_launch

    src = """
__kernel void gi(read_only image2d_t a, __global int4 *o) { o[get_global_id(0)] = read_imagei(a, (int2)(0, 0)); }
__kernel void gu(read_only image1d_t a, write_only image1d_t b) {
  write_imageui(b, get_global_id(0), read_imageui(a, get_global_id(0)));
}
"""
    m = load_source(src, "opencl", path="d.cl")
    assert build_launch(m.kernel("gi"), "1", "4", []).args["a"].dtype == np.int32
    launch = build_launch(m.kernel("gu"), "1", "4", [])
    assert launch.args["a"].dtype == np.uint32 and launch.args["a"].shape == (4, 4)


@pytest.mark.parametrize("text, why", [
    ("img=float32:4x4x3", "C = 1 or 4"), ("img=float32:64", "HxWxC"), ("img=float64:4x4x4", "dtype"),
    ("img=float32:4xx4", "expected"), ("s=float32:4", "not a pointer"),
])
def test_bad_image_specs_are_launch_errors(image_module, text, why):
    from simu.errors import LaunchError
    from simu.launch.spec import build_launch

    with pytest.raises(LaunchError, match=why):
        build_launch(image_module.kernel("blur"), "1", "4", [], [text])


def test_image_buffer_specs_and_launch_comments(image_module):
    from simu.launch.buffers import buffer_from_spec, buffer_specs
    from simu.launch.comments import parse_lines
    from simu.launch.spec import build_launch

    line = parse_lines(["// launch: grid=1,1 block=4,2 img=uint8:2x4x1:ramp out=float32:2x4x4:zeros s=20"]).launches[0]
    assert line.buffers == ["img=uint8:2x4x1:ramp", "out=float32:2x4x4:zeros"] and line.args == ["s=20"]
    launch = build_launch(image_module.kernel("blur"), line.grid, line.block, line.args, line.buffers)
    img = launch.args["img"]
    assert img.shape == (2, 4, 1) and img.dtype == np.uint8 and img.ravel().tolist() == list(range(8))
    assert launch.args["s"] == 20 and not launch.args["out"].any()
    specs = buffer_specs(launch)
    assert specs["out"]["shape"] == [2, 4, 4]
    np.testing.assert_array_equal(buffer_from_spec(specs["img"]), img)


def test_search_backs_images_and_finds_the_read_write_race():
    from simu.check import CheckSettings
    from simu.evolve import Budget, run_search
    from simu.frontend import CompileOptions

    module = load_source(RW_IMAGE, "opencl", CompileOptions(clang_args=("-cl-std=CL2.0",)), path="rw.cl")
    res = run_search(module, module.kernel("shift"), CheckSettings(), None, Budget(evaluations=12, seconds=120),
                     "full", seed=0)
    races = [f for f in res.findings if f.kind in ("race", "warp-race")]
    assert res.status == "analysed", res.reason
    assert races and {(f.first.line, f.second.line) for f in races} == {(4, 5)}
    assert races[0].launch is not None


def test_check_analyses_an_image_kernel_without_a_launch(tmp_path):
    (tmp_path / ".git").mkdir()
    src = tmp_path / "mixed.cl"
    src.write_text(MIXED)
    res = runner.invoke(app, ["check", str(src), "--format", "json"])
    doc = json.loads(res.stdout)
    kernels = {k["name"]: k for f in doc["files"] for k in f["kernels"]}
    assert kernels["with_image"]["status"] == "analysed"
    assert not kernels["with_image"]["findings"]


def test_out_of_place_image_downsample_is_clean_given_and_searched():
    """corpus/opencl/labelled/image_out_of_place.cl: clean with its `// launch:` line and searched."""
    from pathlib import Path

    from simu.check import CheckSettings
    from simu.evolve import Budget, run_search
    from simu.launch.comments import parse_lines
    from simu.launch.spec import build_launch
    from simu.pipeline import check_launches

    path = Path(__file__).resolve().parent.parent / "corpus/opencl/labelled/image_out_of_place.cl"
    text = path.read_text()
    module = load_source(text, "opencl", path="image_out_of_place.cl")
    k = module.kernel("downsample")
    L = parse_lines(text.splitlines()).launches[0]
    launch = build_launch(k, L.grid, L.block, L.args, L.buffers)
    src = launch.args["src"]
    report = check_launches(module, k, [launch], CheckSettings())
    assert report.status == "analysed" and not report.findings
    from simu.interp import run

    out = run(module, k, launch).buffers["dst"].reshape(16, 16, 4)
    np.testing.assert_allclose(out, src.reshape(16, 2, 16, 2, 4).mean(axis=(1, 3)), rtol=1e-5)
    res = run_search(module, k, CheckSettings(), None, Budget(evaluations=12, seconds=120), "full", seed=0)
    assert res.status == "analysed" and not res.findings


def test_fast_geometric_functions():
    """fast_normalize / fast_distance / fast_length (bullet3 normalises its contact normals with them)."""
    src = """
__kernel void k(__global float4 *v, __global float *d) {
  int i = get_global_id(0);
  float4 p = v[i];
  v[i] = fast_normalize(p);
  d[i] = fast_distance(p, (float4)(0.0f)) - fast_length(p);
}
"""
    v = np.tile(np.array([3, 4, 0, 0], np.float32), 32)
    res = run_opencl_source(src, "k", Launch(grid=(1,), block=(32,), args={"v": v, "d": np.ones(32, np.float32)}))
    assert res.outcome.status == "completed"
    np.testing.assert_allclose(res.buffers["v"].reshape(32, 4)[:, :2], np.tile([0.6, 0.8], (32, 1)), rtol=1e-6)
    np.testing.assert_allclose(res.buffers["d"], 0.0, atol=1e-6)
