"""OpenCL images beyond integer coordinates: float coordinates through samplers (normalised, every
addressing mode, linear filtering), image arrays, image buffers, depth images, per-image default
element types, validation's fallback launch, and what stays unsupported.  The values are checked
bit-exact against PoCL in tests/test_differential_opencl.py (images.cl); these tests check the
launch side and the machine on their own."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from simu.api import load_source
from simu.cli import app
from simu.interp import run
from simu.launch.model import Launch

runner = CliRunner()

KERNELS = """
__constant sampler_t wrap = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;

__kernel void centre(read_only image2d_t img, __global float4 *out) {
  out[get_global_id(0)] = read_imagef(img, wrap, (float2)(0.5f, 0.5f) + (float2)(get_global_id(0), 0));
}

__kernel void depth(read_only image2d_depth_t d, write_only image2d_depth_t o, sampler_t s,
                    __global float *out, __global int *order) {
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  out[y * w + x] = read_imagef(d, s, (float2)(x + 1.0f, y + 0.5f)) + read_imagef(d, (int2)(x, y));
  write_imagef(o, (int2)(x, y), 2.0f * read_imagef(d, (int2)(x, y)));
  if (x == 0 && y == 0)
    order[0] = get_image_channel_order(d);
}

__kernel void typed(read_only image2d_t i, read_only image1d_t u, read_only image2d_array_t f,
                    write_only image1d_buffer_t b, __global int4 *out) {
  int x = get_global_id(0);
  out[x] = read_imagei(i, (int2)(x, 0)) + as_int4(read_imageui(u, x)) + get_image_width(f);
  write_imagef(b, x, (float4)(1.0f));
}
"""


@pytest.fixture(scope="module")
def module():
    return load_source(KERNELS, "opencl", path="imgs.cl")


def test_normalised_repeat_linear_at_the_centre_averages_the_four_texels(module):
    img = np.arange(2 * 2 * 4, dtype=np.float32).reshape(2, 2, 4)
    res = run(module, module.kernel("centre"), Launch(grid=(1,), block=(3,), args={
        "img": img, "out": np.zeros((3, 4), np.float32)}))
    want = img.reshape(4, 4).mean(axis=0)  # (0.5, 0.5) + whole numbers: the same point under REPEAT
    np.testing.assert_array_equal(res.buffers["out"].reshape(3, 4), np.tile(want, (3, 1)))


def test_depth_images_read_and_write_one_float(module):
    h, w = 3, 4
    d = np.arange(h * w, dtype=np.float32).reshape(h, w, 1)
    args = {"d": d, "o": np.zeros((h, w, 1), np.float32), "s": 0x22,  # unnormalised, CLAMP_TO_EDGE, LINEAR
            "out": np.zeros(h * w, np.float32), "order": np.zeros(1, np.int32)}
    res = run(module, module.kernel("depth"), Launch(grid=(1, 1), block=(w, h), args=args))
    plane = d[..., 0]
    # (x + 1, y + 0.5): halfway between columns x and x + 1 (clamped), exactly on row y
    left, right = plane, plane[:, np.minimum(np.arange(w) + 1, w - 1)]
    want = (np.float32(0.5) * left + np.float32(0.5) * right) + plane
    np.testing.assert_array_equal(res.buffers["out"].reshape(h, w), want)
    np.testing.assert_array_equal(res.buffers["o"].reshape(h, w), 2 * plane)
    assert res.buffers["order"][0] == 0x10BD  # CL_DEPTH


def test_default_images_take_their_dtype_from_the_calls_on_each_parameter(module):
    from simu.launch.spec import build_launch

    launch = build_launch(module.kernel("typed"), "1", "8", [])
    a = launch.args
    assert (a["i"].dtype, a["u"].dtype, a["f"].dtype, a["b"].dtype) == (np.int32, np.uint32, np.float32, np.float32)
    # arrays have a leading layer axis; an image buffer is 1-D
    assert a["f"].ndim == 4 and a["b"].shape == (8, 4)
    d = build_launch(module.kernel("depth"), "1,1", "4,2", []).args
    assert d["d"].shape == (3, 4, 1) and d["d"].dtype == np.float32  # a depth image has one channel
    res = run(module, module.kernel("typed"), launch)
    assert res.outcome.completed and (res.buffers["b"] == 1).all()


def test_array_specs_are_checked(module):
    from simu.errors import LaunchError
    from simu.launch.spec import build_launch

    k = module.kernel("typed")
    launch = build_launch(k, "1", "4", [], ["f=float32:3x2x4x4"])
    assert launch.args["f"].shape == (3, 2, 4, 4)
    with pytest.raises(LaunchError, match="LxHxWxC"):
        build_launch(k, "1", "4", [], ["f=float32:2x4x4"])
    with pytest.raises(LaunchError, match="C = 1"):
        build_launch(module.kernel("depth"), "1", "4", [], ["d=float32:4x4x4"])


def test_validation_fallback_launch_backs_images_and_samplers(module):
    from simu.check import default_launches
    from simu.launch.images import DEFAULT_SAMPLER

    for name in ("centre", "depth", "typed"):
        (launch,) = default_launches(module.kernel(name))
        assert all(isinstance(launch.args[p.name], np.ndarray) for p in module.kernel(name).params
                   if p.c_type and "image" in p.c_type)
        assert run(module, module.kernel(name), launch).outcome.completed
    assert default_launches(module.kernel("depth"))[0].args["s"] == DEFAULT_SAMPLER


MIXED = """
__kernel void undefined_read(read_only image2d_t img, __global float4 *out) {
  const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
  out[get_global_id(0)] = read_imagef(img, s, (int2)(get_global_id(0), 0));
}

__kernel void neighbour(read_only image2d_t img, __global float4 *out) {
  const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;
  out[0] = read_imagef(img, s, (float2)(get_global_id(0), 0.25f));
}
"""


def test_unmodelled_sampler_use_is_unsupported_and_the_neighbour_analysed(tmp_path):
    """Integer coordinates with a normalised, repeating sampler are undefined in OpenCL: that kernel is
    unsupported with its line, the next one (float coordinates, mirrored repeat, linear) is analysed."""
    (tmp_path / ".git").mkdir()
    src = tmp_path / "mixed.cl"
    src.write_text(MIXED)
    res = runner.invoke(app, ["check", str(src), "--format", "json"])
    doc = json.loads(res.stdout)
    kernels = {k["name"]: k for f in doc["files"] for k in f["kernels"]}
    bad = kernels["undefined_read"]
    assert bad["status"] == "unsupported"
    assert "integer coordinates" in bad["reason"] and bad["where"]["line"] == 4
    assert bad["launches"] <= 2  # the search stops once the kernel is known to be unsupported
    good = kernels["neighbour"]
    assert good["status"] == "analysed"
    assert [f["kind"] for f in good["findings"]] == ["race"]  # every work-item writes out[0]


FALLBACK = """
__constant sampler_t bilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
__kernel void rows(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {
  const int x = get_global_id(0), y = get_global_id(1);
  const float2 texel = (float2)(1.0f / get_image_width(src), 1.0f / get_image_height(src));
  if (x < get_image_width(dst) && y < get_image_height(dst))
    write_imagef(dst, (int2)(x, y), read_imagef(src, bilinear, (float2)(x + 1.0f, y + 0.5f) * texel)
                                    + read_imagef(src, s, (float2)(x, y)));
}
"""


def test_validate_without_launch_lines_replays_an_image_kernel_on_pocl(tmp_path):
    """`simu validate` on a file with no `// launch:` line falls back to simu's default launch, whose
    images and sampler get backing data: the kernel is replayed and matches PoCL (not unsupported)."""
    from simu.validate import validate_kernel
    from simu.validate.devices import OpenCLDevice
    from simu.validate.opencl_runner import OpenCLUnavailableError

    try:
        OpenCLDevice(None)
    except OpenCLUnavailableError as exc:
        pytest.skip(f"no OpenCL device: {exc}")
    path = tmp_path / "rows.cl"
    path.write_text(FALLBACK)
    report = validate_kernel(path, "rows", None, None, runs=1, schedules=0)
    assert [r.verdict for r in report.results] == ["match"], [str(m) for r in report.results for m in r.mismatches]


def test_run_counts_changed_elements_not_bytes(tmp_path):
    """`simu run` reports how many elements of each buffer the launch changed (an RGBA float image
    written in full: every element, not four bytes per element)."""
    path = tmp_path / "fill.cl"
    path.write_text("__kernel void fill(write_only image2d_t img) {\n"
                    "  write_imagef(img, (int2)(get_global_id(0), get_global_id(1)), (float4)(-7.5f));\n}\n")
    res = runner.invoke(app, ["run", str(path), "--grid", "1,1", "--block", "4,2",
                              "--buffer", "img=float32:2x4x4:zeros"], terminal_width=200)
    assert res.exit_code == 0, res.output
    row = next(line for line in res.output.splitlines() if "img" in line and "float32" in line)
    assert [c.strip() for c in row.split("│")[1:5]] == ["img", "float32", "32", "32"]
