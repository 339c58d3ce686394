"""`simu scan`: the sample project, failures that do not stop the scan, the cache, discovery, exit codes."""

import shutil
import threading

import pytest
from conftest import EXAMPLES, copy_examples
from rich.console import Console
from typer.testing import CliRunner

from simu.cli import app
from simu.frontend import CompileOptions
from simu.frontend.discover import IgnoreRules, find_kernel_sources, find_sources
from simu.frontend.includes import HeaderIndex, resolve_includes
from simu.report.scanterm import render_scan
from simu.scan import ScanOverrides, resolve_options, scan

runner = CliRunner()
FAST = ["--budget", "0.5", "-j", "2"]


def by_kernel(result):
    return {k.name: (f, k) for f, k in result.kernels()}


# ---------------------------------------------------------------------------------------------------------
# the sample project: the planted bugs and nothing else


def test_examples_every_kernel_analysed(examples_scan):
    result, _, _ = examples_scan
    kernels = by_kernel(result)
    assert set(kernels) == {"block_sum", "saxpy", "blur", "histogram16"}
    assert {f.rel for f in result.files} == {"cuda/block_sum.cu", "cuda/saxpy.cu", "opencl/blur.cl",
                                            "opencl/histogram.cl"}
    for name, (f, k) in kernels.items():
        assert f.status == "ok"
        assert k.status in ("analysed", "incomplete"), (name, k.status, k.reason)


def test_examples_histogram_race_on_bins(examples_scan):
    result, _, _ = examples_scan
    _, k = by_kernel(result)["histogram16"]
    races = [f for f in k.findings if f.kind == "race"]
    assert races and all(f.variable == "bins" and f.space == "shared" and f.severity == "error" for f in races)
    assert all(f.first.line == 10 for f in races)


def test_examples_block_sum_race_on_partial(examples_scan):
    result, _, _ = examples_scan
    _, k = by_kernel(result)["block_sum"]
    races = [f for f in k.findings if f.kind == "race"]
    assert races and all(f.variable == "partial" and f.first.line == 17 for f in races)


def test_examples_nothing_else(examples_scan):
    result, _, _ = examples_scan
    kernels = by_kernel(result)
    assert kernels["saxpy"][1].findings == []
    assert kernels["blur"][1].findings == []
    for f in result.findings:
        assert (f.kernel, f.kind, f.variable) in {("histogram16", "race", "bins"), ("block_sum", "race", "partial")}, \
            f.message
    assert result.exit_code() == 1  # error findings, default --fail-on error


def test_rescan_uses_the_cache(examples_scan):
    first, root, cache = examples_scan
    options, config = resolve_options([root], ScanOverrides(budget=0.5, jobs=2, cache_dir=str(cache)))
    again = scan(options, config)
    assert again.stats.kernels == 4
    assert again.stats.cache_hits == 4
    assert again.stats.analysed == 0
    assert all(k.cached for _, k in again.kernels())
    # findings come back from the cache exactly
    assert [f.to_dict() for f in again.findings] == [f.to_dict() for f in first.findings]
    # --no-cache analyses again
    options.cache_dir = None
    fresh = scan(options, config)
    assert fresh.stats.cache_hits == 0 and fresh.stats.analysed == 4


def test_edit_invalidates_only_that_kernel(tmp_path):
    root = copy_examples(tmp_path / "ex")
    cache = tmp_path / "cache"
    over = ScanOverrides(budget=0.5, jobs=2, cache_dir=str(cache), exclude=["opencl/"])
    scan(*resolve_options([root], over))
    saxpy = root / "cuda" / "saxpy.cu"
    saxpy.write_text(saxpy.read_text().replace("a * x[i]", "a * x[i] + 1.0f"))
    again = scan(*resolve_options([root], over))
    assert again.stats.cache_hits == 1 and again.stats.analysed == 1
    assert by_kernel(again)["block_sum"][1].cached and not by_kernel(again)["saxpy"][1].cached


# ---------------------------------------------------------------------------------------------------------
# one bad kernel never stops the scan

GOOD = """#include "mylib/util.cuh"
__global__ void scale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = twice(a[i]);
}
__global__ void lane_asm(int *a) {
  int x;
  asm volatile("vabsdiff4.u32.u32.u32.add %0, %1, %1, %1;" : "=r"(x) : "r"(threadIdx.x));
  a[threadIdx.x] = x;
}
"""
BROKEN = """__global__ void broken(float *a) {
  a[threadIdx.x] = undefined_thing;
}
"""
UTIL = """#pragma once
__device__ inline float twice(float x) { return 2.0f * x; }
"""


@pytest.fixture
def messy_project(tmp_path):
    root = tmp_path / "proj"
    (root / "src" / "kern").mkdir(parents=True)
    (root / "include" / "mylib").mkdir(parents=True)
    (root / "include" / "mylib" / "util.cuh").write_text(UTIL)
    (root / "src" / "kern" / "good.cu").write_text(GOOD)
    (root / "src" / "broken.cu").write_text(BROKEN)
    shutil.copy(EXAMPLES / "opencl" / "histogram.cl", root / "src" / "histogram.cl")
    return root


def test_failures_are_recorded_and_the_scan_goes_on(messy_project):
    result = scan(*resolve_options([messy_project], ScanOverrides(budget=0.5, jobs=2, no_cache=True)))
    files = {f.rel: f for f in result.files}
    broken = files["src/broken.cu"]
    assert broken.status == "compile-error"
    assert "undeclared identifier 'undefined_thing'" in broken.first
    assert broken.first.startswith("src/broken.cu:2:")  # the first clang diagnostic, relative
    kernels = by_kernel(result)
    assert kernels["scale"][1].status == "analysed"  # found mylib/util.cuh by itself
    # the compile options of each file (for --validate) hold the discovered include folder, after the system's
    assert str((messy_project / "include").resolve()) in files["src/kern/good.cu"].compile_options.after_dirs
    asm = kernels["lane_asm"][1]
    assert asm.status == "unsupported" and "inline assembly" in asm.reason and ":8:" in asm.reason
    assert kernels["histogram16"][1].findings  # the other kernels still get their findings
    assert result.exit_code() == 1

    console = Console(record=True, width=200)
    render_scan(console, result)
    text = console.export_text()
    assert "src/broken.cu:2:20: error: use of undeclared identifier" in text
    assert "src/kern/good.cu:8:3: unsupported: kernel lane_asm" in text
    assert "1 file failed to compile" in text and "1 unsupported" in text


def test_nothing_analysable_exits_2(tmp_path):
    (tmp_path / "broken.cu").write_text(BROKEN)
    result = scan(*resolve_options([tmp_path], ScanOverrides(budget=0.5, jobs=1, no_cache=True)))
    assert result.exit_code() == 2


def _module_src(path):
    from simu.frontend import compile_file
    from simu.scan.payloads import ModuleIR

    c = compile_file(path)
    return ModuleIR(c.digest, c.ir, c.language, c.param_names)


def test_worker_records_a_crash_as_data():
    from simu.scan.payloads import ModuleIR
    from simu.scan.worker import analyse

    class Broken:  # settings whose every attribute access fails: a crash inside the analysis
        def __getattr__(self, name):
            raise RuntimeError("boom")

    path = EXAMPLES / "cuda" / "saxpy.cu"
    out = analyse(0, str(path), _module_src(path), "saxpy", Broken(), None, 1.0, 10.0)
    assert out.status == "error"
    assert out.reason == "RuntimeError: boom"
    assert "Traceback" in out.traceback
    # a module that does not load is an error too, never an exception
    out = analyse(1, "x.cu", ModuleIR("bogus", "not IR", "cuda", {}), "k", None, None, 1.0, 10.0)
    assert out.status == "error" and out.reason


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="alarm needs the main thread")
def test_worker_stops_a_kernel_at_its_hard_limit():
    from simu.check import CheckSettings
    from simu.scan.worker import _module_from_ir, analyse

    path = EXAMPLES / "opencl" / "blur.cl"
    src = _module_src(path)
    _module_from_ir(src, str(path))  # decoded untimed
    out = analyse(0, str(path), src, "blur", CheckSettings(), None, 30.0, 0.05)
    assert out.status == "timeout" and "of CPU (the limit per kernel" in out.reason


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="alarm needs the main thread")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_timeout_swallowed_inside_a_finaliser_still_stops_the_kernel(monkeypatch):
    """Python swallows an exception raised inside ``__del__`` (or a gc/weakref callback) and goes on: the alarm
    fires again every 0.1 s of CPU until one lands outside, so the kernel is still reported as a timeout.  The
    fake analysis spends CPU, not wall time: its first 0.3 s go inside a finaliser (every alarm there is
    swallowed), then it would run for 20 s more and return a report."""
    import time as _time

    import simu.check
    from simu.check import CheckSettings
    from simu.pipeline import KernelReport
    from simu.scan.worker import _module_from_ir, analyse

    def burn(cpu_seconds: float) -> None:
        end = _time.process_time() + cpu_seconds
        while _time.process_time() < end:
            pass

    swallowed = []

    class Finalised:
        def __del__(self):
            try:
                burn(0.3)
            except BaseException as exc:  # noqa: BLE001 - record it, then let Python swallow it as it would
                swallowed.append(type(exc).__name__)
                raise

    def slow_analysis(module, kernel, *args, **kwargs):
        obj = Finalised()
        del obj  # the first alarm (0.05 s of CPU) lands in __del__ and is swallowed
        burn(20.0)
        return KernelReport(kernel.display_name, "analysed", "")

    monkeypatch.setattr(simu.check, "analyse_kernel", slow_analysis)
    path = EXAMPLES / "opencl" / "blur.cl"
    src = _module_src(path)
    _module_from_ir(src, str(path))  # decoded untimed
    t0 = _time.process_time()
    out = analyse(0, str(path), src, "blur", CheckSettings(), None, 30.0, 0.05)
    assert swallowed == ["KernelTimeout"]
    assert out.status == "timeout" and "of CPU (the limit per kernel" in out.reason
    assert _time.process_time() - t0 < 10.0  # stopped by a later alarm, not by the fake analysis ending


# ---------------------------------------------------------------------------------------------------------
# discovery


def test_sources_honour_gitignore_and_excludes(tmp_path):
    for rel in ("a.cu", "b.cl", "h.cuh", "inc/x.h", "build/gen.cu", "vendor/v.cu", "sub/keep.cu", "sub/skip.cu",
                "sub/deep/t_test.cu", ".simu-cache/c.cu", "k.ll"):
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("")
    (tmp_path / ".gitignore").write_text("build/\n")
    (tmp_path / "sub" / ".gitignore").write_text("skip.cu\n")
    rules = IgnoreRules(tmp_path, ["vendor/", "*_test.cu"])
    found = {p.relative_to(tmp_path).as_posix() for p in find_kernel_sources([tmp_path], rules)}
    assert found == {"a.cu", "b.cl", "sub/keep.cu"}
    # a file named on the command line is taken even if .gitignore'd, but not if --exclude'd
    assert find_kernel_sources([tmp_path / "build" / "gen.cu"], rules)
    assert not find_kernel_sources([tmp_path / "vendor" / "v.cu"], rules)
    # `simu kernels DIR` walks the same way (it lists .ll files too), keeping the paths as given
    listed = {p.relative_to(tmp_path).as_posix() for p in find_sources([tmp_path])}
    assert listed == {"a.cu", "b.cl", "k.ll", "sub/keep.cu", "sub/deep/t_test.cu", "vendor/v.cu"}


def test_folders_are_judged_by_the_last_pattern_as_git_does(tmp_path):
    """``*`` then ``!*.*`` and ``!*/`` (ignore files without an extension) keeps every folder: the walk found no
    kernel in such a repository.  What git lists is what the walk finds."""
    for rel in ("ch1/a.cu", "ch1/sub/b.cu", "ch1/binary", "build/x.cu", "top/a.cu", "top/keep.cu", "x/out/y.cu"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    (tmp_path / ".gitignore").write_text("*\n!*.*\n!*/\nbuild/\nout\n/top/*\n!/top/keep.cu\n")
    found = {p.relative_to(tmp_path).as_posix() for p in find_kernel_sources([tmp_path], IgnoreRules(tmp_path))}
    assert found == {"ch1/a.cu", "ch1/sub/b.cu", "top/keep.cu"}


def test_include_folders_are_discovered(messy_project):
    rules = IgnoreRules(messy_project)
    info = resolve_includes(messy_project / "src" / "kern" / "good.cu", [], HeaderIndex(messy_project, rules))
    assert info.folders == [(messy_project / "include").resolve()]
    assert info.headers == {(messy_project / "include" / "mylib" / "util.cuh").resolve()}


def test_cache_drops_rows_of_other_simu_code(tmp_path):
    from simu.scan.cache import ResultCache
    from simu.scan.payloads import KernelVerdict

    old = ResultCache(tmp_path / "c", fingerprint="0.0.1+oldcode")
    old.put("k1", "a.cu", "k", KernelVerdict("analysed", launches=3))
    assert old.get("k1") == KernelVerdict("analysed", launches=3)
    old.close()
    current = ResultCache(tmp_path / "c")
    current.put("k2", "a.cu", "k", KernelVerdict("analysed"))
    assert current.get("k1") is None and len(current) == 1
    current.close()
    again = ResultCache(tmp_path / "c")  # this code's rows survive a reopening
    assert again.get("k2") is not None and len(again) == 1
    again.close()


def test_cache_key_changes_with_options(messy_project, tmp_path):
    from simu.scan import scan as run

    cache = tmp_path / "c"
    base = ScanOverrides(budget=0.5, jobs=2, cache_dir=str(cache), exclude=["src/kern/", "src/broken.cu"])
    assert run(*resolve_options([messy_project], base)).stats.analysed == 1
    assert run(*resolve_options([messy_project], base)).stats.cache_hits == 1
    other = ScanOverrides(**{**base.__dict__, "warp_model": "independent"})
    assert run(*resolve_options([messy_project], other)).stats.analysed == 1
    assert CompileOptions(("a",)).key() != CompileOptions(("b",)).key()


# ---------------------------------------------------------------------------------------------------------
# the command


def test_cli_scan_text_and_fail_on(tmp_path, monkeypatch):
    root = tmp_path / "p"
    root.mkdir()
    shutil.copy(EXAMPLES / "opencl" / "histogram.cl", root / "histogram.cl")
    monkeypatch.chdir(root)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    r = runner.invoke(app, ["scan", ".", *FAST, *cache])
    assert r.exit_code == 1, r.output
    assert "histogram.cl:10:33: error:" in r.output and "[race]" in r.output
    assert runner.invoke(app, ["scan", ".", *FAST, *cache, "--fail-on", "never"]).exit_code == 0
    # only the race checks; the race made a warning by configuration: below the default threshold
    (root / "simu.toml").write_text('checks = ["races"]\n[severity]\nrace = "warning"\n')
    over = ScanOverrides(budget=0.5, jobs=1, cache_dir=str(tmp_path / "cache"))
    result = scan(*resolve_options([root], over))
    assert {f.kind for f in result.findings} <= {"race", "warp-race", "benign-race"}
    assert {f.severity for f in result.findings if f.kind == "race"} == {"warning"}
    assert [result.exit_code(level) for level in ("error", "warning", "performance", "info", "never")] == \
        [0, 1, 1, 1, 0]
    assert result.exit_code() == 0  # the default: error
    again = scan(*resolve_options([root], over))
    assert again.stats.cache_hits == 1  # a severity change never re-analyses
    (root / "simu.toml").write_text('checks = ["races"]\nfail-on = "warning"\n[severity]\nrace = "info"\n'
                                    'warp-race = "info"\n')
    result = scan(*resolve_options([root], over))
    assert result.stats.cache_hits == 1
    assert result.exit_code() == 0 and result.exit_code("info") == 1
    # an inline suppression on the racy line
    (root / "simu.toml").write_text('checks = ["races"]\n')
    src = (root / "histogram.cl").read_text().replace("+= 1;", "+= 1;  // simu: ignore[race, warp-race]")
    (root / "histogram.cl").write_text(src)
    r = runner.invoke(app, ["scan", ".", *FAST, *cache])
    assert r.exit_code == 0, r.output
    assert "suppressed" in r.output


def test_cli_usage_errors(tmp_path):
    r = runner.invoke(app, ["scan", str(tmp_path / "missing")])
    assert r.exit_code == 2 and "no such file or directory" in r.output
    r = runner.invoke(app, ["scan", str(tmp_path)])
    assert r.exit_code == 2 and "no kernel sources" in r.output
    (tmp_path / "k.cl").write_text("__kernel void k(__global int *a) { a[0] = 1; }\n")
    r = runner.invoke(app, ["scan", str(tmp_path), "--fail-on", "sometimes"])
    assert r.exit_code == 2 and "--fail-on" in r.output
    r = runner.invoke(app, ["scan", str(tmp_path), "--format", "xml"])
    assert r.exit_code == 2
    r = runner.invoke(app, ["scan", str(tmp_path), "--checks", "races,typos"])
    assert r.exit_code == 2 and "typos" in r.output


def test_ctrl_c_reports_what_finished_and_the_cache_keeps_it(tmp_path):
    import signal
    import sqlite3
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = copy_examples(tmp_path / "ex")
    cache = tmp_path / "cache"
    simu = str(Path(sys.executable).parent / "simu")
    proc = subprocess.Popen([simu, "scan", str(root), "--budget", "1", "-j", "1", "--cache-dir", str(cache)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    db = cache / "results.sqlite3"
    deadline = time.time() + 60
    rows = 0
    while time.time() < deadline and proc.poll() is None:
        if db.exists():
            try:
                rows = sqlite3.connect(str(db)).execute("SELECT COUNT(*) FROM results").fetchone()[0]
            except sqlite3.Error:
                rows = 0
            if rows:
                break
        time.sleep(0.1)
    assert rows >= 1
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    if proc.returncode != 130:  # the scan may have finished just before the signal
        assert proc.returncode == 1, out
        return
    assert "interrupted" in out and "analysed" in out  # the summary of what finished
    kept = sqlite3.connect(str(db)).execute("SELECT COUNT(*) FROM results").fetchone()[0]
    assert kept >= rows  # finished kernels stay cached (a re-scan reuses them: test_rescan_uses_the_cache)
