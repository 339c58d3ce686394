"""Cross-validation on hardware (simu.validate): replay, schedule amplification and verdicts.

Runs on PoCL's CPU device (pip's pocl-binary-distribution); every test that needs an OpenCL
device skips cleanly without one, and the CUDA tests need a GPU (``@pytest.mark.gpu``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simu.bench.corpus import parse
from simu.detect.finding import Finding, SourceLocation
from simu.errors import LaunchError
from simu.interp import run
from simu.launch import Launch, LocalBuffer, Schedule
from simu.launch.buffers import buffer_from_spec, buffer_specs, draw_buffer, make_buffer
from simu.launch.record import LaunchRecord
from simu.launch.spec import build_launch

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
LABELLED = CORPUS / "opencl" / "labelled"

RACY = ["reduce_missing_barrier", "dot_product_nonatomic", "histogram_global_nonatomic", "histogram_local_nonatomic",
        "matmul_tile_missing_barrier", "stencil_tile_missing_barrier", "scan_missing_barrier",
        "reverse_inplace_across_groups", "flag_across_groups", "counter_nonatomic", "chained_scan_across_groups",
        "double_buffer_missing_barrier", "smooth_inplace_global", "first_match_last_writer", "wavefront64_assumption",
        "image_blur_race"]
FIXED = {"reduce_missing_barrier": "reduce_tree_fixed", "dot_product_nonatomic": "dot_product_atomic",
         "histogram_global_nonatomic": "histogram_global_atomic", "histogram_local_nonatomic": "histogram_local_atomic",
         "matmul_tile_missing_barrier": "matmul_tile_fixed", "stencil_tile_missing_barrier": "stencil_tile_fixed",
         "scan_missing_barrier": "scan_fixed", "reverse_inplace_across_groups": "reverse_out_of_place",
         "flag_across_groups": "flag_within_group_fixed", "counter_nonatomic": "counter_atomic",
         "chained_scan_across_groups": "scan_with_block_offsets",
         "double_buffer_missing_barrier": "double_buffer_fixed", "smooth_inplace_global": "smooth_out_of_place",
         "first_match_last_writer": "first_match_atomic_min", "wavefront64_assumption": "warp_reduce_volatile",
         "image_blur_race": "image_blur_pingpong"}
CLEAN_OPENCL = sorted(p for p in CORPUS.rglob("*.cl") if parse(p).clean)


def _pocl():
    from simu.validate.devices import OpenCLDevice
    from simu.validate.opencl_runner import OpenCLUnavailableError

    try:
        return OpenCLDevice(None)
    except OpenCLUnavailableError as exc:
        pytest.skip(f"no OpenCL device: {exc}")


def _corpus_launch(path: Path, module):
    cf = parse(path)
    k = module.kernel(cf.kernel) if cf.kernel else module.kernels[0]
    L = cf.launches[0]
    return k, build_launch(k, L.grid, L.block, L.args, L.buffers, L.seed, L.warp, L.shared)


def _outputs_key(buffers: dict) -> bytes:
    return b"".join(name.encode() + np.ascontiguousarray(buffers[name]).tobytes() for name in sorted(buffers))


# ---------------------------------------------------------------------------------------------
# Buffer specs and exact replay


def test_build_launch_records_specs_that_regenerate_every_buffer():
    from simu.api import load_file

    path = LABELLED / "dot_product_nonatomic.cl"  # result=int32:1:zeros plus two random buffers
    module = load_file(path)
    k, launch = _corpus_launch(path, module)
    specs = json.loads(json.dumps(buffer_specs(launch)))
    assert specs["result"]["fill"] == "zeros"
    assert specs["a"]["fill"] == specs["b"]["fill"] == "random" and specs["a"]["rng"] != specs["b"]["rng"]
    for name, spec in specs.items():
        again = buffer_from_spec(spec)
        assert again.dtype == launch.args[name].dtype
        assert again.tobytes() == launch.args[name].tobytes()


def test_buffer_specs_cover_every_fill():
    rng = np.random.default_rng(5)
    cases = [(np.float32, "random", {}), (np.int32, "random", {"low": 0, "high": 7}), (np.uint8, "ramp", {}),
             (np.int16, "ramp", {"modulo": 10}), (np.float64, "const", {"value": 2.5}), (np.uint32, "zeros", {}),
             (np.int64, "ones", {})]
    for dtype, fill, extra in cases:
        arr, spec = draw_buffer(np.dtype(dtype), 300, fill, rng, **extra)
        assert buffer_from_spec(json.loads(json.dumps(spec))).tobytes() == arr.tobytes(), (dtype, fill)
    # make_buffer still draws exactly what it always did
    a = make_buffer(np.dtype(np.float32), 16, "random", np.random.default_rng(1))
    assert np.array_equal(a, np.random.default_rng(1).uniform(-1.0, 1.0, 16).astype(np.float32))
    # an array nobody described is embedded (small) and still replays exactly
    launch = Launch(1, 4, {"x": np.arange(12, dtype=np.int16).reshape(3, 4), "t": LocalBuffer(64), "n": 3})
    specs = buffer_specs(launch)
    assert specs["t"] == {"local_bytes": 64} and specs["x"]["fill"] == "data" and "n" not in specs
    assert np.array_equal(buffer_from_spec(specs["x"]), launch.args["x"])
    with pytest.raises(LaunchError):
        buffer_from_spec({"dtype": "int32", "length": 4, "fill": "random"})  # no generator state


def test_launch_record_round_trip_and_legacy_records():
    from simu.api import load_file
    from simu.launch.record import record_of
    from simu.validate.replay import launch_from_record

    path = LABELLED / "histogram_local_nonatomic.cl"
    module = load_file(path)
    k, launch = _corpus_launch(path, module)
    record = LaunchRecord(**json.loads(json.dumps(record_of(launch).__dict__)))
    again = launch_from_record(record, k)
    assert again.exact
    assert list(again.launch.args) == [p.name for p in k.params]
    for name, v in launch.args.items():
        w = again.launch.args[name]
        assert (np.array_equal(v, w) and v.dtype == w.dtype) if isinstance(v, np.ndarray) else v == w
    # A record without fill specs (today's Context.launch_record) is rebuilt as build_launch's
    # default fill and flagged inexact; for a launch without --buffer options that is the same data.
    plain = build_launch(k, "4", "128", ["n=2048"], None, 3)
    legacy = LaunchRecord((4, 1, 1), (128, 1, 1), {"n": 2048},
                          {n: {"dtype": str(v.dtype), "length": int(v.size)} for n, v in plain.args.items()
                           if isinstance(v, np.ndarray)}, 3)
    rebuilt = launch_from_record(legacy, k)
    assert not rebuilt.exact and rebuilt.notes
    for name in ("keys", "hist"):
        assert np.array_equal(rebuilt.launch.args[name], plain.args[name])


# ---------------------------------------------------------------------------------------------
# The interpreter's schedule option


def _schedule_outcomes(path: Path, count: int = 5):
    from simu.api import load_file

    module = load_file(path)
    k, launch = _corpus_launch(path, module)
    scheds = [None, Schedule(), Schedule(sequential=False), Schedule.reverse(launch),
              Schedule.reverse(launch, sequential=False)] + [Schedule.random(launch, s) for s in range(count)]
    outs = []
    for s in scheds:
        r = run(module, k, launch, schedule=s)
        assert r.outcome.completed, r.outcome
        outs.append(_outputs_key(r.buffers))
    return outs, module, k, launch


@pytest.mark.parametrize("name", ["reverse_inplace_across_groups", "scan_missing_barrier", "counter_nonatomic"])
def test_schedules_change_the_output_of_a_racy_kernel(name):
    outs, *_ = _schedule_outcomes(LABELLED / f"{name}.cl", count=2)
    assert len(set(outs)) > 1


@pytest.mark.parametrize("name", ["reverse_out_of_place", "scan_fixed", "counter_atomic", "stencil_tile_fixed"])
def test_schedules_do_not_change_a_race_free_kernel(name):
    outs, *_ = _schedule_outcomes(LABELLED / f"{name}.cl", count=2)
    assert len(set(outs)) == 1


def test_schedule_default_is_todays_behaviour_and_checks_permutations():
    from simu.interp import Limits

    outs, module, k, launch = _schedule_outcomes(LABELLED / "reverse_out_of_place.cl", count=1)
    plain = run(module, k, launch)
    with_none = run(module, k, launch, Limits(), schedule=None)
    assert plain.steps == with_none.steps and len(plain.trace) == len(with_none.trace)
    assert _outputs_key(plain.buffers) == _outputs_key(with_none.buffers)
    # a schedule can also come through Limits
    rev = run(module, k, launch, Limits(schedule=Schedule.reverse(launch)))
    assert rev.outcome.completed and rev.steps > plain.steps
    with pytest.raises(LaunchError, match="permutation"):
        run(module, k, launch, schedule=Schedule(block_order=(0, 0, 1, 2)))
    with pytest.raises(LaunchError, match="permutation"):
        run(module, k, launch, schedule=Schedule(warp_order=(0,)))


def test_warp_serialised_schedule_orders_warps_between_barriers(tmp_source):
    """Between barriers, the warps of a block run one after another in the schedule's order."""
    from simu.api import load_file

    path = tmp_source("order.cl", """
__kernel void order(__global int *log, __global int *counter)
{
    const int lid = get_local_id(0);
    if (lid % 32 == 0)
        log[lid / 32] = atomic_add(counter, 1);
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid % 32 == 0)
        log[4 + lid / 32] = atomic_add(counter, 1);
}
""")
    module = load_file(path)
    k = module.kernels[0]
    launch = Launch(1, 128, {"log": np.zeros(8, np.int32), "counter": np.zeros(1, np.int32)})
    r = run(module, k, launch, schedule=Schedule(warp_order=(2, 0, 3, 1)))
    assert r.outcome.completed
    # warp 2 first, then 0, 3, 1 -- in both barrier intervals
    assert r.buffers["log"].tolist() == [1, 3, 0, 2, 5, 7, 4, 6]
    # thread by thread (unit=1): every thread alone, in the given order
    r = run(module, k, launch, schedule=Schedule(warp_order=tuple(range(127, -1, -1)), unit=1))
    assert r.buffers["log"].tolist() == [3, 2, 1, 0, 7, 6, 5, 4]


# ---------------------------------------------------------------------------------------------
# The source rewrite (schedule amplification on the device)


def test_kernel_signature_scanner():
    from simu.validate.amplify import kernel_signatures, permuted_source

    src = """/* __kernel void fake(int a) */
#define KERNEL __kernel
__kernel void a(void) { }
kernel __attribute__((reqd_work_group_size(64,1,1))) void b(__global int *x, // not the end )
   int n) { const char *s = ")"; x[0] = get_global_id(0); }
__kernel void __attribute__((vec_type_hint(float4))) c() {}
"""
    sigs = kernel_signatures(src)
    assert [(s.name, s.empty) for s in sigs] == [("a", True), ("b", False), ("c", True)]
    out = permuted_source(src)
    assert "void a(__global const uint *__simu_perm)" in out
    assert "int n, __global const uint *__simu_perm)" in out
    assert "fake(int a)" in out and out.count("__simu_perm)") >= 3
    assert "#line 1\n" in out


def test_permuted_build_matches_the_original_and_falls_back_to_constants(tmp_source):
    from simu.validate.amplify import permutation_buffer, permuted_source
    from simu.validate.devices import KernelInfo

    dev = _pocl()
    helper = """
int my_index(void) { return get_global_id(0); }   /* a helper: __simu_perm is not in scope here */
__kernel void scale(__global const float *in, __global float *out, __local float *tmp)
{
    const int l = get_local_id(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[my_index()] = 2.0f * tmp[get_local_size(0) - 1 - l] + get_group_id(0);
}
"""
    rng = np.random.default_rng(0)
    launch = Launch(4, 64, {"in": rng.random(256, np.float32), "out": np.zeros(256, np.float32),
                            "tmp": LocalBuffer(256)})
    info = KernelInfo("scale")
    plain = dev.run(helper, info, launch)
    s = Schedule.random(launch, 3)
    permuted = dev.run(helper, info, launch, s)
    assert dev.strategy(helper, "") == "constant"
    assert _outputs_key(plain) == _outputs_key(permuted)
    expected = 2.0 * launch.args["in"].reshape(4, 64)[:, ::-1] + np.arange(4, dtype=np.float32)[:, None]
    assert np.allclose(plain["out"], expected.reshape(-1))
    # the argument strategy on a kernel without helpers
    body = helper.replace("my_index()", "get_global_id(0)").split("\n", 2)[2]  # without the helper
    assert _outputs_key(dev.run(body, info, launch, s)) == _outputs_key(plain)
    assert dev.strategy(body, "") == "argument"
    # the permutation really changes which work-group gets which id
    perm = permutation_buffer(launch, s)
    assert perm[0] == 4 and perm[1] == 32 and sorted(perm[2:6].tolist()) == [0, 1, 2, 3]
    assert "__constant uint __simu_perm[" in permuted_source(helper, "constant", perm)


# ---------------------------------------------------------------------------------------------
# Verdict logic on a tiny synthetic case (fake devices)


class _FakeDevice:
    """A device whose outputs are simu's, changed by ``tweak(outputs, schedule, run)``."""

    language = "opencl"
    supports_schedules = True

    def __init__(self, name, target, tweak):
        from simu.validate.core import simulate

        self.name = name
        self.target = target
        self.tweak = tweak
        self.simulate = simulate
        self.calls = 0

    def run(self, source, kernel, launch, schedule=None, build_options=""):
        out, _, _ = self.simulate(self.target, launch)
        self.calls += 1
        return self.tweak({n: v.copy() for n, v in out.items()}, schedule, self.calls)


SYNTHETIC = """
__kernel void bump(__global int *data, __global int *total)
{
    const int i = get_global_id(0);
    data[i] = data[i] + 1;
    if (get_local_id(0) == 0)
        *total += 1;            /* racy across work-groups */
}
"""


def _synthetic(tmp_source):
    from simu.validate.targets import load_target

    path = tmp_source("bump.cl", SYNTHETIC)
    target = load_target(path, "bump")
    launch = Launch(4, 32, {"data": np.arange(128, dtype=np.int32), "total": np.zeros(1, np.int32)})
    race = Finding("race", "error", "bump", "read-write race on total",
                   SourceLocation(str(path), 7, 9), SourceLocation(str(path), 7, 16), "global", "total", 0)
    return target, launch, race


def test_verdicts_on_a_synthetic_case(tmp_source):
    from simu.validate.core import validate_launch

    target, launch, race = _synthetic(tmp_source)

    def vary(out, schedule, call):  # a device whose result changes from run to run
        out["total"][0] = call
        return out

    v = validate_launch(target, launch, [race], [_FakeDevice("fake-a", target, vary)], runs=2, schedules=1)
    assert v.verdict == "confirmed-on-hardware"
    assert "validation" not in race.detail  # the given finding is unchanged; v holds it judged
    (judged,) = v.findings
    assert judged.detail["validation"]["verdict"] == "confirmed-on-hardware"
    assert judged.detail["validation"]["device"] == "fake-a" and judged.detail["validation"]["runs"] == 2
    assert judged == race.with_detail(validation=judged.detail["validation"])
    dev = v.details["devices"]["fake-a"]
    assert dev["outcomes"] == 4 and dev["first_difference"]["buffer"] == "total"

    def sequential_total(out, schedule, call):  # the device adds every group's 1: total = 4
        out["total"][0] = 4
        return out

    v = validate_launch(target, launch, [race], [_FakeDevice("fake-b", target, sequential_total)], runs=2, schedules=2)
    assert v.details["model"]["outcomes"] > 1
    assert v.verdict == "confirmed-in-model", v.details
    assert v.details["devices"]["fake-b"]["matches_model"]

    def impossible(out, schedule, call):
        out["total"][0] = 99
        return out

    v = validate_launch(target, launch, [race], [_FakeDevice("fake-c", target, impossible)], runs=1, schedules=1)
    assert v.verdict == "not-observed" and any("no device output" in n for n in v.details["notes"])

    # without findings: the device must equal simu's default output
    same = _FakeDevice("fake-d", target, lambda out, s, c: out)
    assert validate_launch(target, launch, [], [same], runs=1, schedules=1).verdict == "match"

    def wrong_element(out, schedule, call):
        out["data"][37] = -5
        return out

    v = validate_launch(target, launch, [], [_FakeDevice("fake-e", target, wrong_element), same], runs=1,
                        schedules=0)
    assert v.verdict == "model-mismatch"
    m = v.mismatches[0]
    assert (m.buffer, m.index, m.device_value, m.simu_value, m.device) == ("data", 37, -5, 38, "fake-e")
    assert v.details["vote"]["wrong"] == ["fake-e"]  # simu and fake-d outvote it
    # a finding kind that outputs cannot confirm
    perf = Finding("bank-conflict", "performance", "bump", "bank conflicts")
    v = validate_launch(target, launch, [perf], [same], runs=1, schedules=0)
    assert v.verdict == "match" and v.findings[0].detail["validation"]["verdict"] == "not-applicable"
    assert v.findings[0].detail["validation"]["launch_verdict"] == "match" and not perf.detail
    # no device at all
    v = validate_launch(target, launch, [race], [], runs=1, schedules=1)
    assert v.verdict == "skipped"


ATOMIC_SLOTS = """
__kernel void take_slots(__global int *next, __global int *slot)
{
    slot[get_global_id(0)] = atomic_add(next, 1);   /* race-free, but the order is the schedule's */
}
"""


def test_atomic_order_is_not_a_model_mismatch(tmp_source):
    from simu.validate.core import simulate, validate_launch
    from simu.validate.targets import load_target

    target = load_target(tmp_source("slots.cl", ATOMIC_SLOTS), "take_slots")
    launch = Launch(4, 32, {"next": np.zeros(1, np.int32), "slot": np.zeros(128, np.int32)})
    reverse, _, _ = simulate(target, launch, Schedule.reverse(launch))

    def like_reverse(out, schedule, call):  # deterministic, but blocks ran in reverse order
        return {n: v.copy() for n, v in reverse.items()}

    v = validate_launch(target, launch, [], [_FakeDevice("fake-r", target, like_reverse)], runs=1, schedules=1)
    assert v.verdict == "match" and any("atomic" in n for n in v.details["notes"])

    def shuffled(out, schedule, call):  # a GPU: a different slot order on every run
        out["slot"] = np.random.default_rng(call).permutation(out["slot"])
        return out

    v = validate_launch(target, launch, [], [_FakeDevice("fake-s", target, shuffled)], runs=2, schedules=1)
    assert v.verdict == "nondeterministic", v.details


def test_majority_and_first_difference():
    from simu.validate.compare import Tolerance, first_difference, group_outcomes, majority

    a = {"x": np.array([1.0, 2.0, 3.0], np.float32)}
    b = {"x": np.array([1.0, 2.0000002, 3.0], np.float32)}
    c = {"x": np.array([1.0, 2.5, 3.0], np.float32)}
    assert first_difference(a, b) is None
    assert first_difference(a, b, Tolerance.exact()).index == 1
    d = first_difference(c, a)
    assert (d.buffer, d.index, d.device_value, d.simu_value, d.count) == ("x", 1, 2.5, 2.0, 1)
    assert group_outcomes([a, b, c, a]) == [0, 0, 1, 0]
    assert majority({"simu": a, "dev1": a, "dev2": c})["wrong"] == ["dev2"]
    assert majority({"simu": a, "dev1": c})["wrong"] == []  # two cannot outvote each other
    grid = {"m": np.arange(12, dtype=np.int32).reshape(3, 4)}
    other = {"m": grid["m"].copy()}
    other["m"][2, 1] = 0
    assert first_difference(other, grid).index == (2, 1)


# ---------------------------------------------------------------------------------------------
# The corpus on PoCL


@pytest.mark.parametrize("path", CLEAN_OPENCL, ids=lambda p: str(p.relative_to(CORPUS)))
def test_race_free_corpus_kernel_matches_pocl(path):
    """Every `expect: clean` OpenCL kernel: PoCL's output equals simu's (the fixed versions of the
    racy kernels also under work-group/warp permutations); never confirmed (no finding)."""
    from simu.bench.corpus import host_compile_options
    from simu.frontend import CompileOptions
    from simu.validate import validate_kernel

    _pocl()
    schedules = 2 if path.stem in FIXED.values() else 0  # each permuted build costs a PoCL compile
    options = host_compile_options(path, CompileOptions())  # a host + .cl pair builds with the host's options
    report = validate_kernel(path, parse(path).kernel, None, None, runs=1, schedules=schedules, options=options)
    assert report.results
    for r in report.results:
        assert not r.findings
        if r.verdict == "skipped":  # PoCL's CPU device has no sub-groups
            assert "sub-group" in " ".join(r.details["notes"]), r.details
            continue
        assert r.verdict == "match", [str(m) for m in r.mismatches]
        assert not r.mismatches
        if schedules:
            dev = next(iter(r.details["devices"].values()))
            assert dev["schedules_run"] == 2 and dev["outcomes"] == 1


# Confirmed on PoCL by the work-group/warp permutations themselves (deterministic); for the others
# only the model's verdict is deterministic.  counter_nonatomic is one of those: its lost updates
# across work-groups depend on how the OS schedules PoCL's worker threads (one outcome in six runs
# on a loaded 2-core machine), which no permutation of simu's controls.
ON_HARDWARE = {"reduce_missing_barrier", "stencil_tile_missing_barrier", "scan_missing_barrier",
               "reverse_inplace_across_groups", "flag_across_groups", "chained_scan_across_groups",
               "smooth_inplace_global", "first_match_last_writer", "wavefront64_assumption",
               "image_blur_race"}


@pytest.mark.parametrize("name", RACY)
def test_racy_corpus_kernel_is_confirmed(name):
    """With amplification on PoCL, the racy corpus kernels' races change their outputs (ten on the
    device itself, deterministically; the model shows several outcomes for every one)."""
    from simu.validate import validate_kernel

    _pocl()
    report = validate_kernel(LABELLED / f"{name}.cl", None, None, None, runs=2, schedules=2)
    (r,) = report.results
    assert any(f.kind in ("race", "warp-race") for f in r.findings), name
    for f in r.findings:
        assert f.detail["validation"]["verdict"] in (r.verdict, "not-applicable")
    if name in ON_HARDWARE:
        assert r.verdict == "confirmed-on-hardware", r.details
        dev = next(iter(r.details["devices"].values()))
        assert dev["outcomes"] > 1
    else:
        assert r.verdict in ("confirmed-on-hardware", "confirmed-in-model", "not-observed"), r.details
        assert r.details["model"]["outcomes"] > 1


def test_fixed_versions_are_never_confirmed():
    from simu.validate import validate_kernel

    _pocl()
    for name in sorted(set(FIXED.values()) - {p.stem for p in CLEAN_OPENCL}):
        report = validate_kernel(LABELLED / f"{name}.cl", None, None, None, runs=1, schedules=1)
        for r in report.results:
            assert r.verdict not in ("confirmed-on-hardware", "confirmed-in-model"), (name, r.verdict)


# ---------------------------------------------------------------------------------------------
# Replay scripts and commands


def _finding_for(path: Path):
    """A finding-shaped record of the corpus launch of ``path`` (the kernel need not be racy)."""
    from simu.api import load_file
    from simu.launch.record import record_of

    module = load_file(path)
    k, launch = _corpus_launch(path, module)
    f = Finding("race", "error", k.display_name, "replay test", SourceLocation(str(path), 1, 1), None,
                launch=record_of(launch))
    return f, module, k, launch


def test_emitted_replay_script_reproduces_the_outputs(tmp_path):
    from simu.validate import emit_replay_script
    from simu.validate.opencl_runner import run_on_opencl

    _pocl()
    path = LABELLED / "scan_fixed.cl"
    f, module, k, launch = _finding_for(path)
    script = tmp_path / "replay.py"
    script.write_text(emit_replay_script(f.to_dict()))
    saved = tmp_path / "out.npz"
    proc = subprocess.run([sys.executable, str(script), "--runs", "2", "--save", str(saved)], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "matches simu: yes" in proc.stdout and "runs differing from the first: 0" in proc.stdout
    simu_out = run(module, k, launch).buffers
    pocl_out = run_on_opencl(path.read_text(), k.display_name, launch)
    with np.load(saved) as got:
        assert set(got.files) == set(simu_out)
        for name in got.files:
            assert got[name].tobytes() == simu_out[name].tobytes() == pocl_out[name].tobytes()


def test_replay_script_of_a_racy_finding_runs_stand_alone(tmp_path):
    from simu.validate import emit_replay_script, validate_kernel

    _pocl()
    report = validate_kernel(LABELLED / "histogram_global_nonatomic.cl", runs=1, schedules=0)
    finding = report.results[0].findings[0]
    text = emit_replay_script(finding)
    assert "import pyopencl" in text and "simu" not in text.split("SOURCE =")[0].split("Usage")[1]
    script = tmp_path / "r.py"
    script.write_text(text)
    proc = subprocess.run([sys.executable, str(script), "--quiet"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "runs: 1" in proc.stdout


def _check_json(tmp_path, path: Path, findings: list[Finding]) -> Path:
    """A ``simu check/scan --format json`` report (scan.schema.json, the fields load_findings reads)."""
    doc = {"schema_version": 1, "root": str(path.parent),
           "files": [{"path": path.name, "language": "opencl", "status": "ok",
                      "kernels": [{"name": findings[0].kernel, "status": "analysed", "reason": "", "launches": 1,
                                   "findings": [f.to_dict() for f in findings], "suppressed": []}]}]}
    out = tmp_path / "findings.json"
    out.write_text(json.dumps(doc, default=str))
    return out


def test_validate_and_replay_commands(tmp_path, capsys):
    from dataclasses import replace

    from simu.validate import VERDICTS, validate_kernel, validated_finding
    from simu.validate.commands import replay_command, validate_command
    from simu.validate.findings_file import load_findings

    _pocl()
    path = LABELLED / "reverse_inplace_across_groups.cl"
    report = validate_kernel(path, runs=1, schedules=1)
    findings = [replace(f, detail={k: v for k, v in f.detail.items() if k != "validation"})
                for f in report.results[0].findings]
    doc = _check_json(tmp_path, path, findings)
    items = load_findings(doc)
    assert [(f.kind, f.first, src) for f, src in items] == [(f.kind, f.first, str(path)) for f in findings]
    # one finding validated: a new finding with the verdict, the given one unchanged
    judged = validated_finding(items[0][0], path, runs=1, schedules=0)
    assert "validation" not in items[0][0].detail and judged.detail["validation"]["verdict"] in VERDICTS
    assert replace(judged, detail=items[0][0].detail) == items[0][0]
    assert validate_command(doc, None, 1, 2, "json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["results"][0]["verdict"] in ("confirmed-on-hardware", "confirmed-in-model")
    assert validate_command(doc, None, 1, 1, "text") == 0
    assert "confirmed" in capsys.readouterr().out
    assert validate_command(tmp_path / "missing.cl", None, 1, 1, "text") == 2
    assert validate_command(doc, None, 1, 1, "xml") == 2
    script = tmp_path / "replay.py"
    assert replay_command(doc, "script", script) == 0
    assert "SOURCE = " in script.read_text()
    assert replay_command(doc, "launch", None) == 0
    launch = json.loads(capsys.readouterr().out)
    assert launch["launch"]["grid"] == [4, 1, 1] and launch["exact"]
    assert replay_command(doc, "run", tmp_path / "o.npz") == 0
    assert (tmp_path / "o.npz").exists()
    assert replay_command(doc, "pdf", None) == 2


def test_validate_command_on_a_source_file(capsys):
    from simu.validate.commands import validate_command

    _pocl()
    assert validate_command(LABELLED / "reverse_out_of_place.cl", None, 1, 1, "text") == 0
    text = capsys.readouterr().out
    assert "match" in text and "reverse" in text


def test_scan_json_findings_are_found(tmp_path):
    """A scan/check report's findings, with their file under root; suppressed findings are left out;
    a list of findings and one finding are read too, anything else is refused."""
    from simu.validate.findings_file import load_findings

    f = Finding("race", "error", "k", "m", SourceLocation("a.cl", 3, 1), None,
                launch=LaunchRecord((1, 1, 1), (32, 1, 1)))
    hidden = Finding("race", "error", "k", "hidden", SourceLocation("a.cl", 4, 1))
    doc = {"schema_version": 1, "root": str(tmp_path),
           "files": [{"path": "a.cl", "kernels": [{"name": "k", "findings": [f.to_dict()],
                                                    "suppressed": [{"finding": hidden.to_dict(), "reason": "x"}]}]},
                     {"path": "sub/b.cl", "kernels": []}]}
    p = tmp_path / "scan.json"
    p.write_text(json.dumps(doc))
    assert load_findings(p) == [(f, str(tmp_path / "a.cl"))]
    p.write_text(json.dumps([f.to_dict(), hidden.to_dict()]))
    assert load_findings(p) == [(f, None), (hidden, None)]
    p.write_text(json.dumps(f.to_dict()))
    assert load_findings(p) == [(f, None)]
    for bad in ({"results": [{"findings": [f.to_dict()]}]}, [f.to_dict(), {"kind": "race"}], {"files": [{"path": 1}]}):
        p.write_text(json.dumps(bad))
        with pytest.raises(ValueError):
            load_findings(p)


# ---------------------------------------------------------------------------------------------
# CUDA


def test_cuda_replay_skips_cleanly_without_a_gpu():
    from simu.validate import validate_kernel
    from simu.validate.cuda_runner import NO_CUDA, cuda_available

    if cuda_available():
        pytest.skip("a CUDA device is present")
    report = validate_kernel(CORPUS / "cuda" / "labelled" / "tree_reduce_missing_barrier.cu", runs=1, schedules=1)
    assert NO_CUDA in report.notes
    (r,) = report.results
    assert r.verdict == "skipped"
    assert r.details["model"]["outcomes"] >= 1  # simu's side still ran its schedules


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["vector_add.cu", "template_block_sum.cu", "labelled/tree_reduce_fixed.cu"])
def test_cuda_replay_matches_simu(name):
    from simu.validate import validate_kernel
    from simu.validate.cuda_runner import cuda_available

    if not cuda_available():
        pytest.skip("no CUDA device: skipping CUDA replay")
    report = validate_kernel(CORPUS / "cuda" / name, runs=2, schedules=0)
    for r in report.results:
        assert r.verdict == "match", (r.details, [str(m) for m in r.mismatches])


def test_check_validate_flag_adds_verdicts_to_json(tmp_path):
    """`simu check --validate --format json` carries each finding's device verdict."""
    import json

    from typer.testing import CliRunner

    from simu.cli import app

    _pocl()
    src = Path(__file__).resolve().parent.parent / "corpus" / "opencl" / "labelled" / "counter_nonatomic.cl"
    res = CliRunner().invoke(app, ["check", str(src), "--validate", "--format", "json", "--budget", "12"])
    assert res.exit_code == 1, res.output
    data = json.loads(res.stdout)
    verdicts = [f["detail"]["validation"]["verdict"] for fr in data["files"] for k in fr["kernels"]
                for f in k["findings"] if "validation" in f["detail"]]
    assert verdicts and all(v in ("confirmed-on-hardware", "confirmed-in-model", "not-observed") for v in verdicts)


def test_a_device_whose_compiler_cannot_target_the_host_cpu_is_unavailable_not_a_build_failure():
    """The pip PoCL on a CPU its LLVM does not name builds nothing (``unknown target CPU 'generic'``): every kernel
    would read as a build failure of its own, so the device is reported unusable once, and device tests skip."""
    from types import SimpleNamespace

    from simu.validate.opencl_runner import _cannot_compile

    class Error(Exception):
        pass

    class Broken:
        def __init__(self, context, source):
            pass

        def build(self, devices=None):
            raise Error("clBuildProgram failed: BUILD_PROGRAM_FAILURE\n\nBuild on <pocl>:\n"
                        "error: unknown target CPU 'generic'\n")

    class Works(Broken):
        def build(self, devices=None):
            return self

    assert _cannot_compile(SimpleNamespace(Program=Broken, Error=Error), None, None) == \
        "error: unknown target CPU 'generic'"
    assert _cannot_compile(SimpleNamespace(Program=Works, Error=Error), None, None) == ""
