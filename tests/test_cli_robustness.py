"""Every input gets a clear verdict: one error line naming the option and what is allowed, exit 2, never
a traceback; partial launches are completed by the search; non-ASCII file names print as they are."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from simu.cli import app

runner = CliRunner()

KERNEL = """__global__ void scale(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * 2.0f;
}
"""
RACY = """__global__ void racy(int *a, int n) {
    a[0] = threadIdx.x + n;
}
"""
SCALARS = """#include <cuda_fp16.h>
__global__ void mix(float *out, float3 f, int4 q, char c, short s, bool b, __half h) {
    out[threadIdx.x] = f.x + f.z + q.w + c + s + b + (float)h;
}
"""


@pytest.fixture
def project(tmp_path):
    (tmp_path / ".git").mkdir()  # the configuration search stops here
    src = tmp_path / "k.cu"
    src.write_text(KERNEL)
    return tmp_path, src


def _one_error(res, *words: str) -> str:
    """Exit 2, one 'error:' line on stderr naming every word, no traceback."""
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1, res.stderr
    for w in words:
        assert w in errors[0], errors[0]
    return errors[0]


LAUNCH = ["--grid", "1", "--block", "32", "--arg", "n=32"]


@pytest.mark.parametrize("command", ["check", "run"])
@pytest.mark.parametrize(("options", "words"), [
    (["--block", "0"], ["--block", "positive integers"]),
    (["--block", "-4"], ["--block", "positive integers"]),
    (["--block", "abc"], ["--block", "positive integers"]),
    (["--grid", "0"], ["--grid", "positive integers"]),
    (["--grid", "1,0"], ["--grid", "positive integers"]),
    (["--grid", "1", "--block", "32", "--arg", "n=abc"], ["--arg", "n=abc", "integer"]),
    (["--grid", "1", "--block", "32", "--arg", "n"], ["--arg", "NAME=VALUE"]),
    (["--grid", "1", "--block", "32", "--arg", "nosuch=3"], ["nosuch", "a (float", "n (int)"]),
    ([*LAUNCH, "--buffer", "a=float32"], ["--buffer", "dtype:length"]),
    ([*LAUNCH, "--buffer", "a=float32:10:sparkly"], ["--buffer", "sparkly", "random"]),
    ([*LAUNCH, "--buffer", "nosuch=float32:10"], ["--buffer", "nosuch", "n (int)"]),
    ([*LAUNCH, "--buffer", "n=int32:10"], ["--buffer", "not a pointer"]),
    ([*LAUNCH, "--warp-size", "7"], ["--warp-size", "32", "64"]),
    ([*LAUNCH, "--warp-size", "0"], ["--warp-size", "32", "64"]),
    (["--grid", "100000000", "--block", "1024", "--arg", "n=1"], ["--grid", "threads", "limit"]),
    (["--block", "2048", "--arg", "n=1"], ["--block", "1024"]),
    ([*LAUNCH, "--buffer", "a=float32:100000000000"], ["--buffer", "GiB", "limit"]),
    ([*LAUNCH, "--shared", "-1"], ["--shared", "bytes"]),
])
def test_bad_launch_options_are_one_line_errors(project, command, options, words):
    _, src = project
    extra = ["--budget", "4"] if command == "check" else []
    _one_error(runner.invoke(app, [command, str(src), *options, *extra]), *words)


@pytest.mark.parametrize("budget", ["0", "-5", "2x", "0s"])
def test_bad_budget(project, budget):
    _, src = project
    _one_error(runner.invoke(app, ["check", str(src), "--budget", budget]), "--budget", "2s")


def test_check_of_a_folder(project):
    root, _ = project
    _one_error(runner.invoke(app, ["check", str(root)]), "folder", "simu scan")


def test_search_options_are_checked_too(project):
    _, src = project
    _one_error(runner.invoke(app, ["check", str(src), "--arg", "nosuch=3", "--budget", "4"]), "nosuch", "n (int)")
    _one_error(runner.invoke(app, ["check", str(src), "--arg", "n=1:x", "--budget", "4"]), "--arg", "LO:HI")


def test_limits_are_the_machines():
    from simu.interp import Limits
    from simu.interp.machine import MAX_THREADS_PER_BLOCK
    from simu.launch import limits

    assert limits.MAX_THREADS == Limits().max_threads
    assert limits.MAX_MEMORY_BYTES == Limits().max_memory_bytes
    assert limits.MAX_THREADS_PER_BLOCK == MAX_THREADS_PER_BLOCK


def test_pipeline_refuses_a_huge_launch_before_allocating():
    from simu.api import load_source
    from simu.errors import LaunchError
    from simu.launch import Launch
    from simu.pipeline import KernelAnalysis

    module = load_source(KERNEL, "cuda")
    k = module.kernel()
    big = Launch((4, 1, 1), (32, 1, 1), {"a": _Huge(), "n": 1})
    with pytest.raises(LaunchError, match="limit"):
        KernelAnalysis(module, k).run_launch(big)


class _Huge:
    nbytes = 1 << 40


@pytest.mark.parametrize("text", ["", "// only a comment\n", "static int helper(int x) { return x + 1; }\n"])
def test_no_kernels(tmp_path, text):
    src = tmp_path / "empty.cu"
    src.write_text(text)
    _one_error(runner.invoke(app, ["check", str(src)]), "no kernels in", "empty.cu")
    _one_error(runner.invoke(app, ["run", str(src)]), "no kernels in")


def test_a_template_kernel_nothing_instantiates_is_instantiated_and_analysed(tmp_path):
    """Its only kernel an uninstantiated template: once a silent "no findings", now instantiated for a
    common argument and analysed under that name."""
    src = tmp_path / "tmpl.cu"
    src.write_text("template <int N> __global__ void t(float *a) { a[threadIdx.x] = N; }\n")
    res = runner.invoke(app, ["check", str(src), "--format", "json"])
    assert res.exit_code == 0, res.output
    kernels = json.loads(res.stdout)["files"][0]["kernels"]
    assert [k["status"] for k in kernels] == ["analysed"] and kernels[0]["name"].startswith("t<")


def test_binary_file_prints_a_few_diagnostics(tmp_path):
    src = tmp_path / "blob.cu"
    src.write_bytes(bytes(range(256)) * 400)
    res = runner.invoke(app, ["check", str(src)])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert len(res.stderr.splitlines()) <= 8 and len(res.stderr) < 3000, res.stderr[:3000]
    assert "does not compile" in res.stderr
    full = runner.invoke(app, ["check", str(src), "--debug"])
    assert len(full.stderr) >= len(res.stderr)


def test_nothing_analysed_is_exit_2(tmp_path):
    """A check whose every kernel is unsupported or failed exits 2, as a scan does."""
    from simu.check import CheckOptions
    from simu.report.results import FileResult, KernelResult, ScanResult

    kernels = [KernelResult("g", status="unsupported"), KernelResult("h", status="error")]
    files = [FileResult(tmp_path / "k.cu", "k.cu", "cuda", "ok", kernels=kernels)]
    result = ScanResult(tmp_path, CheckOptions(), files)
    assert result.exit_code() == 2


def test_partial_launch_searches_the_rest(tmp_path):
    src = tmp_path / "racy.cu"
    src.write_text(RACY)
    res = runner.invoke(app, ["check", str(src), "--grid", "1", "--block", "64", "--budget", "4", "--format", "json"])
    assert res.exit_code == 1, res.output
    assert "search chose n" in res.stderr
    doc = json.loads(res.stdout)
    findings = [f for fr in doc["files"] for k in fr["kernels"] for f in k["findings"]]
    assert findings
    launch = findings[0]["launch"]
    assert launch["block"] == [64, 1, 1] and launch["grid"] == [1, 1, 1], launch
    # a complete launch still runs as given
    res = runner.invoke(app, ["check", str(src), "--grid", "1", "--block", "64", "--arg", "n=5"])
    assert res.exit_code == 1 and "search chose" not in res.stderr and "n=5" in res.stdout


def test_partial_buffer_and_ranges_constrain_the_search(tmp_path):
    src = tmp_path / "racy.cu"
    src.write_text(RACY)
    res = runner.invoke(app, ["check", str(src), "--block", "64", "--arg", "n=3:9", "--buffer", "a=int32:16:zeros",
                              "--budget", "4", "--format", "json"])
    assert res.exit_code == 1, res.output
    findings = [f for fr in json.loads(res.stdout)["files"] for k in fr["kernels"] for f in k["findings"]]
    assert all(f["launch"]["block"] == [64, 1, 1] for f in findings)
    assert all(3 <= f["launch"]["scalars"]["n"] <= 9 for f in findings)


def test_vector_and_small_scalars_are_settable(tmp_path):
    src = tmp_path / "mix.cu"
    src.write_text(SCALARS)
    res = runner.invoke(app, ["run", str(src), "--grid", "1", "--block", "32", "--arg", "f=1,2,3", "--arg", "q=1,2,3,4",
                              "--arg", "c=1", "--arg", "s=2", "--arg", "b=true", "--arg", "h=0.5"])
    assert res.exit_code == 0, res.output
    assert "[12.5 12.5" in res.stdout  # f.x + f.z + q.w + c + s + b + h = 1 + 3 + 4 + 1 + 2 + 1 + 0.5
    res = runner.invoke(app, ["check", str(src), "--grid", "1", "--block", "32", "--arg", "f=1,2,3", "--arg", "q=4",
                              "--arg", "c=1", "--arg", "s=2", "--arg", "b=0", "--arg", "h=0.5"])
    assert res.exit_code == 0, res.output
    _one_error(runner.invoke(app, ["run", str(src), "--arg", "f=1,2,3,4"]), "f=1,2,3,4", "3 comma-separated")


def _config(root, text):
    (root / "simu.toml").write_text(text)


def test_config_for_an_absent_kernel_warns(project):
    root, src = project
    _config(root, "[kernels.nosuch]\nblock = 64\n")
    res = runner.invoke(app, ["check", str(src), "--grid", "1", "--block", "32", "--arg", "n=32"])
    assert res.exit_code == 0, res.output
    assert "warning:" in res.output and "'nosuch'" in res.output


@pytest.mark.parametrize(("table", "words"), [
    ("args = { nosuch = 3 }", ["args.nosuch", "a (float", "n (int)"]),
    ('args = { n = "abc" }', ["args.n", "number", "lo:hi"]),
    ('args = { a = 3 }', ["args.a", "pointer", "length expression"]),
    ('args = { a = "m * 2" }', ["args.a", "'m'", "scalar parameter"]),
])
def test_config_names_real_parameters(project, table, words):
    root, src = project
    _config(root, f"[kernels.scale]\n{table}\n")
    line = _one_error(runner.invoke(app, ["check", str(src), "--budget", "4"]), *words)
    assert "simu.toml" in line


def test_config_length_expressions_still_work(project):
    root, src = project
    _config(root, '[kernels.scale]\nargs = { n = "1:64", a = "n" }\n')
    assert runner.invoke(app, ["check", str(src), "--budget", "4"]).exit_code == 0


def test_search_reports_bad_constraints_as_the_kernels_error(project):
    from simu.api import load_file
    from simu.check import analyse_kernel
    from simu.launch.constraints import KernelConstraints

    _, src = project
    module = load_file(src)
    report = analyse_kernel(module, module.kernel(), constraints=KernelConstraints(args={"nosuch": 1}), budget=1)
    assert report.status == "error" and "nosuch" in report.reason


def test_simu_toml_wins_over_pyproject(tmp_path):
    from simu.config import find_config

    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text("[tool.simu]\nbudget = 1\n")
    (tmp_path / "simu.toml").write_text("budget = 2\n")
    assert find_config(tmp_path) == tmp_path / "simu.toml"


def test_non_ascii_file_names_print_as_they_are(tmp_path):
    src = tmp_path / "kérnel.cu"
    src.write_text(RACY)
    launch = ["--grid", "1", "--block", "64", "--arg", "n=1"]
    text = runner.invoke(app, ["check", str(src), *launch])
    assert text.exit_code == 1
    assert "\\C3" not in text.stdout and "kérnel.cu:2:" in text.stdout
    assert "a[0] = threadIdx.x + n;" in text.stdout  # the source snippet is found
    for fmt in ("json", "sarif"):
        res = runner.invoke(app, ["check", str(src), *launch, "--format", fmt])
        assert res.exit_code == 1 and "\\C3" not in res.stdout and "\\u00e9" not in res.stdout
        assert "kérnel.cu" in res.stdout
        json.loads(res.stdout)


def test_help_has_real_metavars():
    import re

    for command in (["check"], ["scan"], ["run"], ["kernels"], ["validate"], ["bench"], ["hook", "install"], []):
        res = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
        assert res.exit_code == 0
        assert not re.search(r"<(bool|list\[str\]|str|int|float)>", res.stdout), res.stdout
    scan = runner.invoke(app, ["scan", "--help"], env={"COLUMNS": "200"}).stdout
    assert "[default: lockstep]" in scan and "[default: 5]" in scan
    check = runner.invoke(app, ["check", "--help"], env={"COLUMNS": "200"}).stdout
    assert "NAME=VALUE" in check and "DIR" in check


def test_config_value_that_is_nothing_allowed_fails_at_load(project):
    root, src = project
    _config(root, '[kernels.scale]\nargs = { n = "1:x" }\n')
    res = runner.invoke(app, ["check", str(src), "--budget", "4"])
    _one_error(res, "simu.toml", "'n'", "lo:hi", "length expression")


BIG_TILE = """__global__ void big(float *out) {
    __shared__ float tile[16384];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}
"""


def test_shared_memory_limits_are_configurable(tmp_path):
    """64 KiB of static shared memory is over the default 48 KiB (not-launchable, naming the key) and fine once
    the limit is raised on the command line or in the configuration."""
    (tmp_path / ".git").mkdir()
    src = tmp_path / "big.cu"
    src.write_text(BIG_TILE)
    res = runner.invoke(app, ["check", str(src), "--budget", "4", "--format", "json"])
    assert res.exit_code == 2, res.output
    kernel = json.loads(res.stdout)["files"][0]["kernels"][0]
    assert kernel["status"] == "not-launchable" and "max-static-shared" in kernel["reason"]
    res = runner.invoke(app, ["check", str(src), "--budget", "4", "--max-static-shared", "64KiB", "--format", "json"])
    assert json.loads(res.stdout)["files"][0]["kernels"][0]["status"] == "analysed", res.output
    _config(tmp_path, 'max-static-shared = "96 KiB"\n')
    res = runner.invoke(app, ["scan", str(tmp_path), "--no-cache", "--budget", "1", "-j", "1", "--format", "json"])
    assert json.loads(res.stdout)["files"][0]["kernels"][0]["status"] == "analysed", res.output


@pytest.mark.parametrize("value", ["12x", "-3", "0"])
def test_bad_shared_memory_limit_is_one_line(project, value):
    _, src = project
    _one_error(runner.invoke(app, ["check", str(src), "--max-dynamic-shared", value]), "--max-dynamic-shared")


@pytest.mark.parametrize(("value", "words"), [("-3", ["max-static-shared", "positive"]),
                                              ('"lots"', ["max-static-shared", "48KiB"])])
def test_bad_shared_memory_limit_in_the_configuration(project, value, words):
    root, src = project
    _config(root, f"max-static-shared = {value}\n")
    _one_error(runner.invoke(app, ["scan", str(root), "--no-cache"]), "simu.toml", *words)


def test_parse_size():
    from simu.config import parse_size

    assert parse_size(49152) == parse_size("48KiB") == parse_size("48 KB") == parse_size("48k") == 48 * 1024
    assert parse_size("1 MiB") == 1 << 20
    with pytest.raises(ValueError):
        parse_size(True)


def test_scan_warns_of_a_misspelt_kernel_with_the_closest_names(project):
    root, _ = project
    _config(root, "[kernels.scal]\nblock = 64\n")
    res = runner.invoke(app, ["scan", str(root), "--no-cache", "--budget", "1", "-j", "1"])
    assert res.exit_code == 0, res.output
    assert "'scal'" in res.output and "did you mean 'scale'" in res.output
