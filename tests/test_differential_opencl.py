"""Differential fidelity tests, OpenCL side: simu's interpreter against PoCL.

* ``test_pocl_matches_reference`` runs every case's launches on PoCL (through
  :func:`simu.validate.opencl_runner.run_on_opencl`) and checks them against the numpy
  reference of the case: this validates the kernels and launches themselves.
* ``test_simu_matches_pocl`` runs the same launches through ``simu.api.run_opencl_source``
  and requires the same final buffers as PoCL (bit-exact, or within 2 ulp for kernels with
  transcendental functions).  It is skipped while ``simu.api`` does not exist.

Both sides see the kernel file behind ``#pragma OPENCL FP_CONTRACT OFF`` (so no
multiply-add is fused and source line numbers agree); PoCL builds with
``-cl-fp32-correctly-rounded-divide-sqrt``.  Each kernel file is built once per session and
each PoCL result is computed once and shared by both tests.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from simu.validate.opencl_runner import OpenCLUnavailableError, run_on_opencl


def _load_cases():
    name = "simu_differential_cases"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parent / "differential" / "cases.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


cases = _load_cases()

PARAMS = [
    pytest.param(case, index, id=f"{case.id}[{index}]")
    for case in cases.CASES
    for index in range(len(case.launches))
]

_pocl_results: dict[tuple[str, int], dict[str, np.ndarray]] = {}
_pocl_error: list[str] = []


def pocl_result(case, index: int) -> dict[str, np.ndarray]:
    """PoCL's final buffers for one launch (computed once per session)."""
    if _pocl_error:
        pytest.skip(_pocl_error[0])
    key = (case.id, index)
    if key not in _pocl_results:
        try:
            _pocl_results[key] = run_on_opencl(case.source, case.kernel, cases.copy_launch(case.launches[index]),
                                               build_options=cases.BUILD_OPTIONS)
        except OpenCLUnavailableError as exc:
            _pocl_error.append(f"no OpenCL device: {exc}")
            pytest.skip(_pocl_error[0])
    return _pocl_results[key]


def _simu_api():
    if importlib.util.find_spec("simu.api") is None:
        pytest.skip("simu.api is not written yet")
    api = importlib.import_module("simu.api")
    if not hasattr(api, "run_opencl_source"):
        pytest.skip("simu.api.run_opencl_source is not written yet")
    return api


# --------------------------------------------------------------------------------------
# The case list itself


def test_case_inventory():
    assert len(cases.CASES) >= 44
    assert len(cases.FAMILIES) >= 11
    ids = [c.id for c in cases.CASES]
    assert len(ids) == len(set(ids)), "duplicate case"
    defined = set()
    for path in sorted(cases.KERNEL_DIR.glob("*.cl")):
        text = path.read_text()
        assert "printf" not in text, f"{path.name} uses printf"
        for name in re.findall(r"__kernel\s+void\s+(\w+)", text):
            defined.add(f"{path.stem}:{name}")
    assert defined == set(ids), f"kernels without a case: {sorted(defined - set(ids))}; " \
                                f"cases without a kernel: {sorted(set(ids) - defined)}"
    double_kernels = [c.id for c in cases.CASES if re.search(r"\bdouble\b", _kernel_text(c))]
    assert len(double_kernels) <= 2, double_kernels


def _kernel_text(case) -> str:
    """The text of one kernel function (up to the next kernel) in its file."""
    text = case.path.read_text()
    start = re.search(r"__kernel\s+void\s+" + case.kernel + r"\b", text).start()
    nxt = re.search(r"__kernel\s+void\s+", text[start + 8:])
    return text[start:start + 8 + nxt.start()] if nxt else text[start:]


@pytest.mark.parametrize("case, index", PARAMS)
def test_launch_shape(case, index):
    launch = case.launches[index]
    assert launch.total_threads <= cases.MAX_WORK_ITEMS
    assert launch.threads_per_block <= 1024
    assert len(case.launches) >= 2
    assert case.compare in ("exact", "ulp")


# --------------------------------------------------------------------------------------
# PoCL against the numpy references


@pytest.mark.parametrize("case, index", PARAMS)
def test_pocl_matches_reference(case, index):
    launch = case.launches[index]
    got = pocl_result(case, index)
    buffers = {k for k, v in launch.args.items() if isinstance(v, np.ndarray)}
    assert set(got) == buffers
    for name, arr in got.items():
        assert arr.dtype == launch.args[name].dtype and arr.shape == launch.args[name].shape
    expected = case.reference(cases.copy_launch(launch).args, launch)
    assert expected, "reference checks nothing"
    for name, want in expected.items():
        cases.assert_same(want, got[name], case.reference_mode, maxulp=case.ref_maxulp, rtol=case.ref_rtol,
                          atol=case.ref_atol, name=f"{case.id}[{index}].{name}")
    # Buffers the reference does not mention are read-only inputs: they must be intact.
    for name in buffers - set(expected):
        cases.assert_same(launch.args[name], got[name], "exact", name=f"{case.id}[{index}].{name} (input)")


# --------------------------------------------------------------------------------------
# simu against PoCL


@pytest.mark.parametrize("case, index", PARAMS)
def test_simu_matches_pocl(case, index):
    api = _simu_api()
    want = pocl_result(case, index)
    result = api.run_opencl_source(case.source, case.kernel, cases.copy_launch(case.launches[index]))
    assert result.outcome.completed, f"{case.id}[{index}]: simu did not complete the launch: {result.outcome}"
    missing = set(want) - set(result.buffers)
    assert not missing, f"simu returned no buffer for {sorted(missing)}"
    for name, expected in want.items():
        cases.assert_same(expected, result.buffers[name], case.compare, maxulp=case.maxulp,
                          name=f"{case.id}[{index}].{name}")


# --------------------------------------------------------------------------------------
# The runner itself

RUNNER_SOURCE = """
typedef uint my_uint;
__kernel void scalars(__global long* out, char c, uchar uc, short s, ushort us, int i, uint u,
                      long l, ulong ul, float f, my_uint t, float4 v, int3 w)
{
    if (get_global_id(0) != 0 || get_global_id(1) != 0)
        return;
    out[0] = c; out[1] = uc; out[2] = s; out[3] = us; out[4] = i; out[5] = u; out[6] = l;
    out[7] = (long)ul; out[8] = as_int(f); out[9] = t; out[10] = (long)(v.x + 10.0f * v.w);
    out[11] = w.z; out[12] = get_work_dim(); out[13] = get_global_size(0); out[14] = get_local_size(1);
}
__kernel void reverse_local(__global const int* in, __global int* out, __local int* tmp)
{
    const int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0) * n;
    tmp[l] = in[g + l];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g + l] = tmp[n - 1 - l];
}
"""


def _runner_available():
    try:
        from simu.validate.opencl_runner import kernel_params

        return kernel_params(RUNNER_SOURCE, "scalars")
    except OpenCLUnavailableError as exc:
        pytest.skip(f"no OpenCL device: {exc}")


def test_runner_scalar_types_and_geometry():
    from simu.launch.model import Launch

    params = _runner_available()
    assert [p.name for p in params][:3] == ["out", "c", "uc"]
    args = dict(out=np.zeros(15, np.int64), c=-5, uc=200, s=-300, us=60000, i=-7, u=4_000_000_000, l=-(2**40),
                ul=np.uint64(2**63 + 5), f=1.5, t=77, v=(1.0, 2.0, 3.0, 4.0), w=(0, 0, 9))
    got = run_on_opencl(RUNNER_SOURCE, "scalars", Launch(grid=(2, 3), block=(1, 2), args=args))
    expected = [-5, 200, -300, 60000, -7, 4_000_000_000, -(2**40), np.int64(np.uint64(2**63 + 5).view(np.int64)),
                int(np.float32(1.5).view(np.int32)), 77, 41, 9, 2, 2, 2]
    assert got["out"].tolist() == [int(e) for e in expected]
    assert args["out"].sum() == 0, "the caller's array must not be modified"


def test_runner_local_buffers_and_shapes():
    from simu.launch.model import Launch, LocalBuffer

    _runner_available()
    data = np.arange(24, dtype=np.int32).reshape(4, 6)
    got = run_on_opencl(RUNNER_SOURCE, "reverse_local",
                        Launch(grid=4, block=6, args={"in": data, "out": np.zeros((4, 6), np.int32),
                                                      "tmp": LocalBuffer(24)}))
    assert got["out"].shape == (4, 6) and got["out"].dtype == np.int32
    np.testing.assert_array_equal(got["out"], data[:, ::-1])
    np.testing.assert_array_equal(got["in"], data)


def test_runner_errors():
    from simu.errors import CompileError, LaunchError, SimuError
    from simu.launch.model import Launch, LocalBuffer
    from simu.validate.opencl_runner import OpenCLBuildError

    _runner_available()
    with pytest.raises(OpenCLBuildError) as info:
        run_on_opencl("__kernel void broken(__global int* p) { p[0] = undeclared_name; }", "broken",
                      Launch(1, 1, {"p": np.zeros(1, np.int32)}))
    assert isinstance(info.value, CompileError) and isinstance(info.value, SimuError)
    assert "undeclared_name" in info.value.log and "undeclared_name" in str(info.value)
    ok = {"in": np.zeros(4, np.int32), "out": np.zeros(4, np.int32), "tmp": LocalBuffer(16)}
    with pytest.raises(LaunchError, match="no kernel named"):
        run_on_opencl(RUNNER_SOURCE, "nope", Launch(1, 4, ok))
    with pytest.raises(LaunchError, match="missing tmp"):
        run_on_opencl(RUNNER_SOURCE, "reverse_local", Launch(1, 4, {"in": ok["in"], "out": ok["out"]}))
    with pytest.raises(LaunchError, match="LocalBuffer"):
        run_on_opencl(RUNNER_SOURCE, "reverse_local", Launch(1, 4, {**ok, "tmp": np.zeros(4, np.int32)}))
    bad = dict(out=np.zeros(15, np.int64), c=300, uc=0, s=0, us=0, i=0, u=0, l=0, ul=0, f=0.0, t=0, v=0.0, w=0)
    with pytest.raises(LaunchError, match="does not fit"):
        run_on_opencl(RUNNER_SOURCE, "scalars", Launch(1, 1, bad))
