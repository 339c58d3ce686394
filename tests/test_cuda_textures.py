"""CUDA texture and surface objects with float coordinates (shim __simu_texture.h, machine side
simu/interp/cuda_textures.py, launch side simu/launch/images.py): fetched values against a numpy
model of CUDA's texture fetching, extents, layered textures, surfaces and their boundary modes,
races through texture reads, and unmodelled forms reported per kernel."""

from __future__ import annotations

import numpy as np
import pytest

from simu import codes
from simu.api import load_source
from simu.interp import run
from simu.interp.trace import READ
from simu.launch import Launch
from simu.launch.spec import build_launch
from simu.pipeline import check_launches

N = 64  # fetches per launch (one thread each)

SRC = r"""
__global__ void t1(cudaTextureObject_t tex, const float *xs, float *out) {
  const int i = threadIdx.x;
  out[i] = tex1D<float>(tex, xs[i]);
}
__global__ void t2(cudaTextureObject_t tex, const float *xs, const float *ys, float *out) {
  const int i = threadIdx.x;
  out[i] = tex2D<float>(tex, xs[i], ys[i]);
}
__global__ void t2v(cudaTextureObject_t tex, const float *xs, const float *ys, float4 *out) {
  const int i = threadIdx.x;
  out[i] = tex2D<float4>(tex, xs[i], ys[i]);
}
__global__ void t3(cudaTextureObject_t tex, const float *xs, const float *ys, const float *zs, float *out) {
  const int i = threadIdx.x;
  out[i] = tex3D<float>(tex, xs[i], ys[i], zs[i]);
}
__global__ void l1(cudaTextureObject_t tex, const float *xs, const int *ls, float *out) {
  const int i = threadIdx.x;
  out[i] = tex1DLayered<float>(tex, xs[i], ls[i]);
}
__global__ void l2(cudaTextureObject_t tex, const float *xs, const float *ys, const int *ls, float *out) {
  const int i = threadIdx.x;
  out[i] = tex2DLayered<float>(tex, xs[i], ys[i], ls[i]);
}
__global__ void lod(cudaTextureObject_t tex, const float *xs, const float *ys, float *out) {
  const int i = threadIdx.x;
  tex2D(&out[i], tex, xs[i], ys[i]);
  out[N + i] = tex2DLod<float>(tex, xs[i], ys[i], 2.5f);
}
__global__ void gather(cudaTextureObject_t tex, const float *xs, const float *ys, float4 *out) {
  const int i = threadIdx.x;
  out[i] = tex2Dgather<float4>(tex, xs[i], ys[i], 1);
}
__global__ void ti(cudaTextureObject_t tex, const float *xs, const float *ys, int *out) {
  const int i = threadIdx.x;
  out[i] = tex2D<int>(tex, xs[i], ys[i]);
}
__global__ void extents(cudaTextureObject_t tex, int *out) {
  if (threadIdx.x == 0) {
    for (int a = -1; a < 3; ++a) out[a + 1] = __simu_tex_extent(tex, 3, a, __SIMU_TEX_ANY_SIZE | 4);
  }
}
"""


def _line(src: str, text: str) -> int:
    """The source line of the first occurrence of ``text``."""
    return src[:src.index(text)].count("\n") + 1


def _kernels(src: str = SRC, name: str = "tex.cu"):
    m = load_source(src.replace("N + i", f"{N} + i"), "cuda", path=name)
    return m, {k.display_name: k for k in m.kernels}


@pytest.fixture(scope="module")
def tex():
    return _kernels()


def _fetch(tex, kernel: str, backing: np.ndarray, modes: str = "", out=None, **coords):
    m, ks = tex
    args = {"tex": backing, "out": out if out is not None else np.zeros(N, np.float32), **coords}
    launch = Launch(grid=(1, 1, 1), block=(N, 1, 1), args={p.name: args[p.name] for p in ks[kernel].params},
                    buffer_specs={"tex": {"texture": modes}} if modes else {})
    r = run(m, ks[kernel], launch)
    assert r.outcome.completed, str(r.outcome)
    assert not r.memory_errors, r.memory_errors[:2]
    return r


# --- a numpy model of CUDA's texture fetch (Programming Guide, "Texture Fetching") -----------------

def _address(i, n, address, norm):
    if address == "border":
        return np.where((i < 0) | (i >= n), -1, i)
    if norm and address == "wrap":
        return np.mod(i, n)
    if norm and address == "mirror":
        t = np.mod(i, 2 * n)
        return np.where(t >= n, 2 * n - 1 - t, t)
    return np.clip(i, 0, n - 1)


def _taps(c, n, address="clamp", norm=False, linear=False):
    u = np.asarray(c, np.float32) * np.float32(n) if norm else np.asarray(c, np.float32)
    u = np.clip(u, np.float32(-1e9), np.float32(1e9))
    if not linear:
        i = _address(np.floor(u).astype(np.int64), n, address, norm)
        return i, i, np.zeros_like(u)
    u = u - np.float32(0.5)
    f = np.floor(u)
    a = np.rint((u - f) * np.float32(256)) / np.float32(256)
    return _address(f.astype(np.int64), n, address, norm), _address(f.astype(np.int64) + 1, n, address, norm), a


def _texel(arr, idx):
    """arr[idx] with index -1 on any axis (border) reading zero."""
    out = np.zeros((len(idx[0]),) + arr.shape[len(idx):], arr.dtype)
    ok = np.all([i >= 0 for i in idx], axis=0)
    out[ok] = arr[tuple(i[ok] for i in idx)]
    return out


def _lerp(a, b, w):
    w = w.reshape(w.shape + (1,) * (a.ndim - 1)).astype(np.float32)
    return (np.float32(1) - w) * a + w * b


def reference(arr, coords, address="clamp", norm=False, linear=False):
    """tex1D/2D/3D of ``arr`` (outermost axis first) at coordinates (x, y, z) in that order."""
    dims = len(coords)
    taps = [_taps(c, arr.shape[dims - 1 - k], address, norm, linear) for k, c in enumerate(coords)]
    if not linear:
        return _texel(arr, [taps[k][0] for k in range(dims)][::-1])

    def at(*sel):  # sel[k]: 0 or 1, which tap of axis k
        return _texel(arr, [taps[k][sel[k]] for k in range(dims)][::-1])
    if dims == 1:
        return _lerp(at(0), at(1), taps[0][2])
    row = lambda j, k=(): _lerp(at(0, j, *k), at(1, j, *k), taps[0][2])  # noqa: E731
    if dims == 2:
        return _lerp(row(0), row(1), taps[1][2])
    plane = lambda k: _lerp(row(0, (k,)), row(1, (k,)), taps[1][2])  # noqa: E731
    return _lerp(plane(0), plane(1), taps[2][2])


def _coords(rng, n, lo, hi):
    return rng.uniform(lo, hi, N).astype(np.float32)


# --- fetched values ---------------------------------------------------------------------------------

@pytest.mark.parametrize("modes", ["", "border", "linear", "linear,border", "norm,wrap", "norm,mirror",
                                   "norm,wrap,linear", "norm,mirror,linear", "norm,linear", "wrap"])
def test_tex2D_matches_cuda_fetching(tex, modes):
    rng = np.random.default_rng(len(modes))
    h, w = 5, 7
    backing = rng.uniform(-1, 1, (h, w)).astype(np.float32)
    norm = "norm" in modes
    span = (-1.5, 2.5) if norm else (-3.0, 10.0)
    xs, ys = _coords(rng, N, *span), _coords(rng, N, *span)
    xs[:4] = [0.0, 0.5, 6.999, 7.0] if not norm else [0.0, 0.5, 1.0, -0.25]  # edges and texel centres
    r = _fetch(tex, "t2", backing, modes, xs=xs, ys=ys)
    address = next((a for a in ("wrap", "mirror", "border") if a in modes), "clamp")
    want = reference(backing, [xs, ys], address, norm, "linear" in modes)
    np.testing.assert_allclose(r.buffers["out"], want, rtol=1e-6, atol=1e-6)


def test_nearest_clamp_is_floor_of_the_coordinate(tex):
    backing = np.arange(12, dtype=np.float32).reshape(3, 4)
    xs = np.tile(np.array([-5, -0.1, 0, 0.99, 1, 3.5, 3.999, 4, 100], np.float32), 8)[:N]
    ys = np.full(N, 1.5, np.float32)
    r = _fetch(tex, "t2", backing, xs=xs, ys=ys)
    assert r.buffers["out"][:9].tolist() == [4, 4, 4, 4, 5, 7, 7, 7, 7]


def test_linear_weights_have_eight_fraction_bits(tex):
    backing = np.array([0, 256], np.float32)
    xs = np.float32(0.5) + np.linspace(0, 1, N, dtype=np.float32)
    r = _fetch(tex, "t1", backing, "linear", xs=xs)
    frac = xs - np.float32(0.5)
    assert np.array_equal(r.buffers["out"], np.rint(frac * 256))  # 256 * alpha: whole numbers only


def test_tex1D_tex3D_and_vector_texels(tex):
    rng = np.random.default_rng(3)
    line = rng.uniform(0, 1, 9).astype(np.float32)
    xs = _coords(rng, N, -2, 11)
    r = _fetch(tex, "t1", line, "linear", xs=xs)
    np.testing.assert_allclose(r.buffers["out"], reference(line, [xs], linear=True), rtol=1e-6, atol=1e-6)

    vol = rng.uniform(0, 1, (3, 4, 5)).astype(np.float32)
    xs, ys, zs = _coords(rng, N, -1, 6), _coords(rng, N, -1, 5), _coords(rng, N, -1, 4)
    for modes in ("", "linear"):
        r = _fetch(tex, "t3", vol, modes, xs=xs, ys=ys, zs=zs)
        np.testing.assert_allclose(r.buffers["out"], reference(vol, [xs, ys, zs], linear=bool(modes)),
                                   rtol=1e-6, atol=1e-6)

    rgba = rng.uniform(0, 1, (4, 6, 4)).astype(np.float32)  # HxWx4 backs a float4 texture
    xs, ys = _coords(rng, N, -1, 7), _coords(rng, N, -1, 5)
    r = _fetch(tex, "t2v", rgba, "linear", out=np.zeros((N, 4), np.float32), xs=xs, ys=ys)
    np.testing.assert_allclose(r.buffers["out"], reference(rgba, [xs, ys], linear=True), rtol=1e-6, atol=1e-6)


def test_layered_textures_clamp_the_layer_and_never_filter_across_layers(tex):
    rng = np.random.default_rng(4)
    layers = rng.uniform(0, 1, (3, 8)).astype(np.float32)  # L x W
    xs, ls = _coords(rng, N, -1, 9), rng.integers(-2, 5, N).astype(np.int32)
    r = _fetch(tex, "l1", layers, "linear", xs=xs, ls=ls)
    want = np.array([reference(layers[min(max(li, 0), 2)], [xs[i:i + 1]], linear=True)[0] for i, li in enumerate(ls)])
    np.testing.assert_allclose(r.buffers["out"], want, rtol=1e-6, atol=1e-6)

    stack = rng.uniform(0, 1, (2, 3, 4)).astype(np.float32)  # L x H x W
    xs, ys, ls = _coords(rng, N, -1, 5), _coords(rng, N, -1, 4), rng.integers(-1, 3, N).astype(np.int32)
    r = _fetch(tex, "l2", stack, "", xs=xs, ys=ys, ls=ls)
    want = [reference(stack[min(max(li, 0), 1)], [xs[i:i + 1], ys[i:i + 1]])[0] for i, li in enumerate(ls)]
    assert r.buffers["out"].tolist() == [float(v) for v in want]


def test_lod_and_pointer_forms_read_level_zero(tex):
    rng = np.random.default_rng(5)
    img = rng.uniform(0, 1, (4, 4)).astype(np.float32)
    xs, ys = _coords(rng, N, 0, 4), _coords(rng, N, 0, 4)
    r = _fetch(tex, "lod", img, out=np.zeros(2 * N, np.float32), xs=xs, ys=ys)
    want = reference(img, [xs, ys])
    assert r.buffers["out"][:N].tolist() == want.tolist() and r.buffers["out"][N:].tolist() == want.tolist()


def test_tex2Dgather_returns_the_bilinear_footprint(tex):
    rng = np.random.default_rng(6)
    rgba = rng.uniform(0, 1, (5, 6, 4)).astype(np.float32)
    xs, ys = _coords(rng, N, -1, 7), _coords(rng, N, -1, 6)
    r = _fetch(tex, "gather", rgba, out=np.zeros((N, 4), np.float32), xs=xs, ys=ys)
    i0, i1, _ = _taps(xs, 6, linear=True)
    j0, j1, _ = _taps(ys, 5, linear=True)
    want = np.stack([rgba[j1, i0, 1], rgba[j1, i1, 1], rgba[j0, i1, 1], rgba[j0, i0, 1]], axis=1)
    assert np.array_equal(r.buffers["out"], want)


def test_integer_texels_are_fetched_and_linear_filtering_them_is_unsupported(tex):
    m, ks = tex
    img = np.arange(20, dtype=np.int32).reshape(4, 5)
    xs, ys = np.full(N, 2.7, np.float32), np.full(N, 1.2, np.float32)
    r = _fetch(tex, "ti", img, out=np.zeros(N, np.int32), xs=xs, ys=ys)
    assert (r.buffers["out"] == 7).all()
    launch = Launch((1, 1, 1), (N, 1, 1), {"tex": img, "xs": xs, "ys": ys, "out": np.zeros(N, np.int32)},
                    buffer_specs={"tex": {"texture": "linear"}})
    report = check_launches(m, ks["ti"], [launch])
    assert report.status == codes.UNSUPPORTED and "linear filtering" in report.reason
    assert report.where.line == _line(SRC, "tex2D<int>")


def test_extent_queries_read_the_backing_array(tex):
    m, ks = tex
    for shape, texel in (((5, 6, 7), 4), ((5, 6, 7, 4), 16)):
        launch = Launch((1, 1, 1), (32, 1, 1), {"tex": np.zeros(shape, np.float32), "out": np.zeros(4, np.int32)})
        r = run(m, ks["extents"], launch)
        assert r.outcome.completed and r.buffers["out"].tolist() == [texel, 7, 6, 5]


def test_backing_arrays_that_do_not_fit_the_fetch_are_unsupported_with_the_line(tex):
    m, ks = tex
    xs = np.zeros(N, np.float32)
    cases = [("t2v", np.zeros((4, 6), np.float32), "16-byte texels"),  # float4 fetch, float texels
             ("t2", np.zeros(24, np.float32), "read with 2 axes")]  # a 1-D array for tex2D
    for kernel, backing, what in cases:
        args = {"tex": backing, "xs": xs, "ys": xs, "out": np.zeros((N, 4), np.float32)}
        launch = Launch((1, 1, 1), (N, 1, 1), {p.name: args[p.name] for p in ks[kernel].params})
        report = check_launches(m, ks[kernel], [launch])
        assert report.status == codes.UNSUPPORTED and what in report.reason, report.reason
        assert report.where.line == _line(SRC, {"t2": "tex2D<float>(", "t2v": "tex2D<float4>"}[kernel])


# --- the launch side --------------------------------------------------------------------------------

def test_default_and_given_backing_arrays_follow_the_fetches(tex):
    m, ks = tex
    d = build_launch(ks["t2v"], "1", str(N), [])
    assert d.args["tex"].shape == (8, N, 4) and d.args["tex"].dtype == np.float32  # H covers sqrt(threads)
    assert build_launch(ks["t3"], "2", "8", []).args["tex"].ndim == 3
    assert build_launch(ks["l2"], "1", "8", []).args["tex"].shape[-1] >= 8
    assert build_launch(ks["ti"], "1", "8", []).args["tex"].dtype == np.int32
    given = build_launch(ks["t2"], "1", str(N), [], ["tex=float32:5x7:ramp:linear,norm,wrap",
                                                     "xs=float32:64:small", "ys=float32:64:small"])
    assert given.args["tex"].shape == (5, 7) and given.buffer_specs["tex"]["texture"] == "linear,norm,wrap"
    r = run(m, ks["t2"], given)
    want = reference(given.args["tex"], [given.args["xs"], given.args["ys"]], "wrap", True, True)
    np.testing.assert_allclose(r.buffers["out"], want, rtol=1e-6, atol=1e-6)
    from simu.launch.buffers import buffer_specs
    assert buffer_specs(given)["tex"]["texture"] == "linear,norm,wrap"  # the record keeps the modes


# --- surfaces ---------------------------------------------------------------------------------------

SURF = r"""
__global__ void sw(cudaSurfaceObject_t s, int mode) {
  const int x = (int)threadIdx.x - 2, y = (int)blockIdx.x - 1;
  const float v = x * 100.0f + y;
  if (mode == 0) surf2Dwrite(v, s, x * 4, y);
  else if (mode == 1) surf2Dwrite(v, s, x * 4, y, cudaBoundaryModeClamp);
  else surf2Dwrite(v, s, x * 4, y, cudaBoundaryModeZero);
}
__global__ void sr(cudaSurfaceObject_t s, const int *xs, const int *ys, float *out, int mode) {
  const int i = threadIdx.x;
  if (mode == 0) out[i] = surf2Dread<float>(s, xs[i] * 4, ys[i]);
  else if (mode == 1) out[i] = surf2Dread<float>(s, xs[i] * 4, ys[i], cudaBoundaryModeClamp);
  else surf2Dread(&out[i], s, xs[i] * 4, ys[i], cudaBoundaryModeZero);
}
__global__ void s1(cudaSurfaceObject_t s, uchar4 *out) {
  const int x = threadIdx.x;
  const uchar4 v = surf1Dread<uchar4>(s, x * 4);
  surf1Dwrite(make_uchar4(v.w, v.z, v.y, v.x), s, x * 4);
  out[x] = v;
}
__global__ void blur(cudaTextureObject_t in, cudaSurfaceObject_t out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  const float v = 0.5f * (tex2D<float>(in, x + 0.5f, y + 0.5f) + tex2D<float>(in, x + 1.5f, y + 0.5f));
  surf2Dwrite(v, out, x * 4, y);
}
"""


@pytest.fixture(scope="module")
def surf():
    return _kernels(SURF, "surf.cu")


def test_surface_writes_and_boundary_modes(surf):
    m, ks = surf
    h, w = 3, 5  # threads cover x in -2..5, y in -1..3
    for mode in (0, 1, 2):
        launch = Launch((h + 2, 1, 1), (w + 3, 1, 1), {"s": np.full((h, w), -7, np.float32), "mode": mode})
        r = run(m, ks["sw"], launch)
        assert r.outcome.completed
        got = r.buffers["s"]
        ys, xs = np.mgrid[0:h, 0:w]
        if mode == 1:  # clamp: the edge pixels were written by several threads, the inside by its own
            assert (got[1:-1, 1:-1] == (xs * 100 + ys)[1:-1, 1:-1]).all()
            report = check_launches(m, ks["sw"], [launch])
            assert {f.kind for f in report.findings} >= {"race"}  # clamped writers collide at the edges
        else:
            assert (got == xs * 100 + ys).all()
        oob = [e for e in r.memory_errors if e.kind == "out-of-bounds"]
        if mode == 0:  # trap: one out-of-bounds error per thread outside, the access dropped
            outside = {b * (w + 3) + t for b in range(h + 2) for t in range(w + 3)
                       if not (0 <= t - 2 < w and 0 <= b - 1 < h)}
            assert oob and {e.lane for e in oob} <= outside  # up to 4 per group of threads, as other faults
            assert "cudaBoundaryModeTrap" in oob[0].detail and oob[0].alloc == "s" and oob[0].action == "write"
        else:
            assert not oob


def test_surface_reads_and_boundary_modes(surf):
    m, ks = surf
    img = np.arange(12, dtype=np.float32).reshape(3, 4)
    xs = np.tile(np.arange(-1, 5, dtype=np.int32), 6)[:32]
    ys = np.repeat(np.arange(-1, 4, dtype=np.int32), 7)[:32]
    inside = (xs >= 0) & (xs < 4) & (ys >= 0) & (ys < 3)
    for mode in (0, 1, 2):
        launch = Launch((1, 1, 1), (32, 1, 1), {"s": img, "xs": xs, "ys": ys, "out": np.full(32, -1, np.float32),
                                                "mode": mode})
        r = run(m, ks["sr"], launch)
        out = r.buffers["out"]
        assert (out[inside] == img[ys[inside], xs[inside]]).all()
        if mode == 1:
            assert (out == img[np.clip(ys, 0, 2), np.clip(xs, 0, 3)]).all()
        else:
            assert (out[~inside] == 0).all()
        assert {e.lane for e in r.memory_errors} == (set(np.flatnonzero(~inside)[:4]) if mode == 0 else set())
    report = check_launches(m, ks["sr"], [Launch((1, 1, 1), (32, 1, 1), {"s": img, "xs": xs, "ys": ys,
                                                                         "out": np.zeros(32, np.float32), "mode": 0})])
    oob = [f for f in report.findings if f.kind == "out-of-bounds"]
    assert oob and oob[0].first.line == _line(SURF, "surf2Dread<float>(s, xs[i] * 4, ys[i]);")
    assert "outside the surface of 16 bytes x 3 rows" in oob[0].message


def test_surface_of_vector_texels_reads_and_writes_in_place(surf):
    m, ks = surf
    px = np.arange(32, dtype=np.uint8).reshape(8, 4)  # 8 uchar4 texels
    r = run(m, ks["s1"], Launch((1, 1, 1), (8, 1, 1), {"s": px, "out": np.zeros((8, 4), np.uint8)}))
    assert (r.buffers["out"] == px).all() and (r.buffers["s"] == px[:, ::-1]).all()
    report = check_launches(m, ks["s1"], [Launch((1, 1, 1), (8, 1, 1), {"s": px, "out": np.zeros((8, 4), np.uint8)})])
    assert report.status == codes.ANALYSED and report.findings == ()


def test_race_between_a_texture_read_and_a_surface_write_of_one_array(surf):
    """A texture and a surface object made over one array (the same array given to both): thread x
    reads pixel x + 1 through the texture while thread x + 1 writes it through the surface."""
    m, ks = surf
    img = np.arange(4 * 64, dtype=np.float32).reshape(4, 64)
    shared = check_launches(m, ks["blur"], [Launch((1, 4, 1), (64, 1, 1), {"in": img, "out": img})])
    races = [f for f in shared.findings if f.kind == "race"]
    assert races and races[0].space == "global"
    lines = {_line(SURF, "0.5f * (tex2D"), _line(SURF, "surf2Dwrite(v, out")}
    assert {races[0].first.line, races[0].second.line} == lines
    apart = check_launches(m, ks["blur"], [Launch((1, 4, 1), (64, 1, 1), {"in": img, "out": img.copy()})])
    assert apart.status == codes.ANALYSED and not [f for f in apart.findings if f.kind == "race"]


# --- unmodelled forms -------------------------------------------------------------------------------

MIXED = r"""
__global__ void cube(cudaTextureObject_t t, float *out) {
  out[threadIdx.x] = texCubemap<float>(t, 1.0f, 0.0f, 0.0f);
}
__global__ void flat(cudaTextureObject_t t, float *out) {
  __shared__ float tile[64];
  tile[threadIdx.x] = tex2D<float>(t, threadIdx.x + 0.5f, 0.5f);
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 64];
}
"""


def test_a_handle_the_launch_does_not_back_is_unsupported_with_its_line():
    src = ("struct P { cudaTextureObject_t tex; float *out; };\n"
           "__global__ void viastruct(P p) { p.out[threadIdx.x] = tex2D<float>(p.tex, threadIdx.x, 0.5f); }\n"
           "__global__ void viaarray(const cudaTextureObject_t *texs, float *out) {\n"
           "  out[threadIdx.x] = tex1D<float>(texs[0], threadIdx.x + 0.5f);\n}\n")
    m, ks = _kernels(src, "handles.cu")
    for name, line in (("viastruct", 2), ("viaarray", 4)):
        report = check_launches(m, ks[name], [build_launch(ks[name], "1", "32", [])])
        assert report.status == codes.UNSUPPORTED and "handle" in report.reason and report.where.line == line


def test_an_unmodelled_form_is_unsupported_while_its_neighbour_is_analysed():
    m, ks = _kernels(MIXED, "mixed.cu")
    cube = check_launches(m, ks["cube"], [build_launch(ks["cube"], "1", "64", [])])
    assert cube.status == codes.UNSUPPORTED and "texCubemap" in cube.reason
    assert cube.where.line == _line(MIXED, "texCubemap<")
    flat = check_launches(m, ks["flat"], [build_launch(ks["flat"], "1", "64", [])])
    assert flat.status == codes.ANALYSED
    assert [f.kind for f in flat.findings if f.kind == "race"] == ["race"]  # the missing barrier after the fetch


# --- legacy texture references ----------------------------------------------------------------------

LEGACY = r"""
texture<float, 1, cudaReadModeElementType> ramp;
texture<float4, cudaTextureType2D> image;
texture<unsigned char, 2, cudaReadModeNormalizedFloat> bytes;

__global__ void fetch(float *out, float4 *out4) {
  const int i = threadIdx.x;
  out[i] = tex1Dfetch(ramp, i) + tex1D(ramp, i + 0.5f);
  out4[i] = tex2D(image, i + 0.5f, 0.5f);
}
__global__ void normalized(float *out) { out[threadIdx.x] = tex2D(bytes, 0.5f, 0.5f); }
__global__ void shifted(float *out) {
  __shared__ float tile[64];
  tile[threadIdx.x] = tex1Dfetch(ramp, threadIdx.x);
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 64];
}
int main() {
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  ramp.normalized = 0;
  ramp.filterMode = cudaFilterModePoint;
  ramp.addressMode[0] = cudaAddressModeClamp;
  cudaBindTexture(0, ramp, d, 64 * sizeof(float));
  fetch<<<1, 32>>>(d, 0);
  cudaUnbindTexture(ramp);
  return 0;
}
"""


@pytest.fixture(scope="module")
def legacy():
    return _kernels(LEGACY, "legacy.cu")


def test_legacy_texture_references_are_backed_like_texture_objects(legacy):
    m, ks = legacy
    launch = build_launch(ks["fetch"], "1", "32", [], ["ramp=float32:64:ramp", "image=float32:2x40x4:ramp"])
    assert set(launch.args) == {"out", "out4", "ramp", "image"}  # the references are named like parameters
    r = run(m, ks["fetch"], launch)
    assert r.outcome.completed and not r.memory_errors
    assert r.buffers["out"].tolist() == [2.0 * i for i in range(32)]
    assert np.array_equal(r.buffers["out4"].reshape(32, 4), launch.args["image"][0, :32])
    backing = {a.id for a in r.allocations if a is not None and a.param in ("ramp", "image")}
    assert len(backing) == 2 and backing <= set((r.trace.addr[r.trace.action == READ] >> 40).tolist())  # recorded
    default = build_launch(ks["fetch"], "1", "32", [])
    assert default.args["ramp"].ndim == 1 and default.args["image"].shape[-1] == 4  # float4 texels: HxWx4
    assert check_launches(m, ks["fetch"], [default]).status == codes.ANALYSED


def test_texture_references_are_named_by_their_cpp_names():
    from simu.launch.images import texref_name

    assert [texref_name(s) for s in ("_ZN3img1tE", "_ZL6counts", "plain", "_Z3fooi", "_ZN3img1t")] == \
        ["img::t", "counts", "plain", "_Z3fooi", "_ZN3img1t"]
    m, ks = _kernels("namespace img { texture<float, 1> t; }\nstatic texture<int, 1> counts;\n"
                     "__global__ void k(float *o) { o[threadIdx.x] = tex1Dfetch(img::t, threadIdx.x)"
                     " + tex1Dfetch(counts, 0); }\n", "ns.cu")
    launch = build_launch(ks["k"], "1", "4", [], ["img::t=float32:4:ramp", "counts=int32:1:ones"])
    assert run(m, ks["k"], launch).buffers["o"].tolist() == [1, 2, 3, 4]


def test_a_race_on_data_fetched_through_a_texture_reference_is_found(legacy):
    m, ks = legacy
    report = check_launches(m, ks["shifted"], [build_launch(ks["shifted"], "1", "64", [])])
    races = [f for f in report.findings if f.kind == "race"]
    assert report.status == codes.ANALYSED and races and races[0].space == "shared"


def test_unmodelled_texture_references_are_unsupported_with_their_line(legacy):
    m, ks = legacy
    report = check_launches(m, ks["normalized"], [build_launch(ks["normalized"], "1", "32", [])])
    assert report.status == codes.UNSUPPORTED and "cudaReadModeNormalizedFloat" in report.reason
    assert report.where.line == _line(LEGACY, "tex2D(bytes")
    unbacked = Launch((1, 1, 1), (32, 1, 1), {"out": np.zeros(32, np.float32)})  # no array for `ramp`
    report = check_launches(m, ks["shifted"], [unbacked])
    assert report.status == codes.UNSUPPORTED and "texture reference 'ramp'" in report.reason


def test_the_search_backs_texture_references(legacy):
    from simu.check import CheckSettings
    from simu.evolve import Budget, run_search

    m, ks = legacy
    res = run_search(m, ks["shifted"], CheckSettings(), None, Budget(evaluations=6, seconds=120), "full", seed=0)
    assert res.status == codes.ANALYSED and [f for f in res.findings if f.kind == "race"]


# --- one buffer behind two parameters (same:) -------------------------------------------------------

ALIAS = r"""
__global__ void shift(cudaTextureObject_t t, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) out[i + 1] = tex1Dfetch<float>(t, i) * 0.5f;
}
__global__ void copy(const float *a, float *b) { b[threadIdx.x] = a[threadIdx.x]; }
__global__ void widen(const int *a, float *b) { b[threadIdx.x] = a[threadIdx.x]; }
__global__ void smooth(const float *a, float *b) { b[threadIdx.x + 1] = a[threadIdx.x] + a[threadIdx.x + 2]; }
"""


def test_a_texture_over_a_pointers_memory_races_with_its_writes():
    from simu.launch.record import record_of
    from simu.validate.replay import launch_from_record

    m, ks = _kernels(ALIAS, "alias.cu")
    k = ks["shift"]
    launch = build_launch(k, "2", "64", ["n=128"], ["t=float32:128:ramp", "out=same:t"])
    assert launch.args["out"] is launch.args["t"] and launch.buffer_specs["out"] == {"same": "t"}
    report = check_launches(m, k, [launch])
    races = [f for f in report.findings if f.kind == "race"]
    assert races and races[0].space == "global" and races[0].detail["access"] == "read-write"
    replayed = launch_from_record(record_of(launch), k).launch  # the record keeps the sharing
    assert replayed.args["out"] is replayed.args["t"]
    apart = build_launch(k, "2", "64", ["n=128"], ["t=float32:128:ramp"])
    assert check_launches(m, k, [apart]).findings == ()


def test_same_is_checked_and_honoured_by_the_search_and_the_configuration():
    from simu.check import CheckSettings
    from simu.config import parse_constraints as config_constraints
    from simu.errors import LaunchError
    from simu.evolve import Budget, run_search
    from simu.launch.comments import parse_constraints
    from simu.launch.spec import check_constraints, launch_constraints

    m, ks = _kernels(ALIAS, "alias.cu")
    for bad in ("out=same:n", "out=same:nosuch", "out=same:out", "out=same:"):
        with pytest.raises(LaunchError):
            build_launch(ks["shift"], "1", "32", ["n=32"], [bad])
    with pytest.raises(LaunchError):  # pointers to other element types: not one buffer a launch can pass
        build_launch(ks["widen"], "1", "32", [], ["b=same:a"])
    in_place = build_launch(ks["smooth"], "1", "64", [], ["a=float32:66", "b=same:a"])  # `smooth(d, d)`: 2 warps
    assert in_place.args["b"] is in_place.args["a"]
    assert [f for f in check_launches(m, ks["smooth"], [in_place]).findings if f.kind == "race"]
    assert check_launches(m, ks["copy"], [build_launch(ks["copy"], "1", "32", [], ["a=float32:32", "b=same:a"])
                                          ]).findings == ()  # each thread reads then writes its own element
    c = parse_constraints("same:out=t")
    assert c.same == {"out": "t"} and config_constraints({"same": {"out": "t"}}).same == {"out": "t"}
    check_constraints(ks["shift"], c)
    assert launch_constraints(ks["shift"], buffers=["out=same:t"]).same == {"out": "t"}
    res = run_search(m, ks["shift"], CheckSettings(), c, Budget(evaluations=6, seconds=120), "full", seed=0)
    assert res.status == codes.ANALYSED and [f for f in res.findings if f.kind == "race"]
    free = run_search(m, ks["shift"], CheckSettings(), None, Budget(evaluations=6, seconds=120), "full", seed=0)
    assert not [f for f in free.findings if f.kind == "race"]
