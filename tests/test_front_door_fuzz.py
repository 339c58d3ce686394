"""Front-door fuzz: random option values and mutated kernel sources given to `simu check`, `simu run` and
`simu scan` always end with exit code 0, 1 or 2 and never with an uncaught exception or a traceback.

Deterministic (derandomized) and small by default; SIMU_FUZZ_EXAMPLES=400 runs many more examples with
random seeds (a local hunt for crashes, not for CI)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from simu.cli import app

runner = CliRunner()

_HUNT = int(os.environ.get("SIMU_FUZZ_EXAMPLES", "0"))


def _settings(examples: int):
    return settings(derandomize=not _HUNT, max_examples=_HUNT or examples, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


OPENCL = """__kernel void racy(__global int *a, __local int *tmp, int n) {
    int i = get_local_id(0);
    tmp[i] = i;
    if (i < n) a[0] = tmp[(i + 1) % 32];
}
"""
OPENCL_BARRIER = """__kernel void reduce(__global float *out, __global const float *in, __local float *s) {
    int t = get_local_id(0);
    s[t] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = get_local_size(0) / 2; k > 0; k /= 2) {
        if (t < k) s[t] += s[t + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (t == 0) out[get_group_id(0)] = s[0];
}
"""
CUDA = """__global__ void block_sum(const float *in, float *out, int n) {
    __shared__ float s[64];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t % 64] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int k = 32; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
    }
    __syncthreads();
    if (t == 0) out[blockIdx.x] = s[0];
}
"""
SOURCES = [("k.cl", OPENCL), ("r.cl", OPENCL_BARRIER), ("b.cu", CUDA)]


def _no_crash(res) -> None:
    """The property: a verdict (0, 1) or a usage error (2), never an uncaught exception or a traceback."""
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert res.exit_code in (0, 1, 2), (res.exit_code, res.output)
    assert "Traceback" not in res.output, res.output


# --- 1. random option values ----------------------------------------------------------------------

_dims = st.one_of(st.text(alphabet="0123456789,-x abe", max_size=8),
                  st.sampled_from(["1", "32", "1,1", "2,2,1", "0", "-1", "1,,1", "4,2,1,1", "1025", "99999999",
                                   "1e3", " 8", "0x10", "1_0", ""]))
_values = st.one_of(st.text(alphabet="0123456789-.:,eEinfa xj", max_size=8),
                    st.sampled_from(["0", "1", "-1", "32", "2147483648", "-2147483649", "1:4", "4:1", "1:",
                                     ":", "1.5", "nan", "inf", "1e400", "99999999999999999999", "1,2,3", ""]),
                    st.text(max_size=6))
_names = st.sampled_from(["a", "tmp", "n", "in", "out", "s", "nosuch", "", " n", "n ", "A", "a=b"])
_args = st.builds(lambda n, v: f"{n}={v}", _names, _values) | st.text(max_size=6)
_dtypes = st.sampled_from(["int32", "float32", "float64", "uint8", "int64", "bool", "float16", "complex64",
                           "object", "local", "", "int", "nosuch"])
_fills = st.sampled_from(["", ":random", ":zeros", ":ones", ":ramp", ":small", ":const=3", ":const=x",
                          ":const=", ":sparkly", ":1:2"])
_buffers = st.builds(lambda n, d, ln, f: f"{n}={d}:{ln}{f}", _names, _dtypes, _values, _fills) | st.text(max_size=8)
_text = st.text(alphabet="0123456789.-sSeinf ", max_size=6)
_warp = st.sampled_from(["1", "2", "4", "8", "16", "32", "64", "0", "-32", "7", "128", "x", ""])
_shared = st.sampled_from(["0", "4", "128", "1024", "49152", "-1", "99999999999", "x", ""])
_formats = st.sampled_from(["text", "json", "sarif", "xml", ""])


def _option(name: str, values):
    return st.lists(values, max_size=2).map(lambda vs: [x for v in vs for x in (name, v)])


_options = st.tuples(_option("--grid", _dims), _option("--block", _dims), _option("--arg", _args),
                     _option("--buffer", _buffers), _option("--warp-size", _warp), _option("--budget", _text),
                     _option("--shared", _shared), _option("--format", _formats)).map(lambda t: sum(t, []))


_paths = st.sampled_from(["{dir}", "{dir}/out.txt", "{dir}/out.npz", "{dir}/nosuch/out.txt", "/proc/out.txt", ""])
_checks = st.lists(st.sampled_from(["races", "barriers", "memory", "perf", ",", " ", "x"]), max_size=4).map("".join)
_seconds = st.sampled_from(["1", "0.5", "0", "-1", "nan", "inf", "1e-9", "x", ""])
_extras = {"check": st.tuples(_option("-o", _paths), _option("--checks", _checks)).map(lambda t: sum(t, [])),
           "run": st.tuples(_option("--save", _paths), _option("--max-seconds", _seconds)).map(lambda t: sum(t, []))}


def _invoke(command: str, src: Path, pre: list[str], options: list[str], extra: list[str]):
    extra = [x.replace("{dir}", str(src.parent)) for x in extra]
    options = _cap_budget(command, options)
    return runner.invoke(app, [command, str(src), *pre, *options, *extra, *_budget_for(command, options)])


def _budget_for(command: str, options: list[str]) -> list[str]:
    """check: a tiny evaluation budget unless the example gives its own (then still tiny: text budgets run
    at most a few seconds of searching, so a random one is capped in `_cap_budget`)."""
    return ["--budget", "3"] if command == "check" and "--budget" not in options else []


def _cap_budget(command: str, options: list[str]) -> list[str]:
    """A random --budget stays (it is parsed and refused or accepted), but an accepted large one would make
    the example slow: replace values above 3 evaluations / 0.5 s with the tiny ones."""
    out = list(options)
    for i, o in enumerate(out[:-1]):
        if o != "--budget":
            continue
        v = out[i + 1]
        if command == "run":  # simu run has no --budget: a usage error either way
            continue
        try:
            if v.endswith("s") and float(v[:-1]) > 0.5:
                out[i + 1] = "0.5s"
            elif int(v) > 3:
                out[i + 1] = "3"
        except ValueError:
            pass
    return out


@_settings(120)
@given(command=st.sampled_from(["check", "run"]), options=_options, data=st.data())
def test_random_options_never_crash(tmp_path_factory, command, options, data):
    src = _source(tmp_path_factory, "k.cl", OPENCL)
    _no_crash(_invoke(command, src, [], options, data.draw(_extras[command])))


@_settings(40)
@given(command=st.sampled_from(["check", "run"]), options=_options, data=st.data())
def test_random_options_with_fixed_launch_never_crash(tmp_path_factory, command, options, data):
    """--grid 1 --block 32 up front (a later random --grid/--block overrides it) so most examples run a launch."""
    src = _source(tmp_path_factory, "k.cl", OPENCL)
    _no_crash(_invoke(command, src, ["--grid", "1", "--block", "32", "--arg", "n=4"], options,
                      data.draw(_extras[command])))


_SOURCE_DIRS: dict[tuple[str, str], Path] = {}


def _source(factory, name: str, text: str) -> Path:
    key = (name, text)
    if key not in _SOURCE_DIRS:
        d = factory.mktemp("fuzz")
        (d / ".git").mkdir()  # the configuration search stops here
        (d / name).write_text(text)
        _SOURCE_DIRS[key] = d / name
    return _SOURCE_DIRS[key]


# --- 2. mutated kernel sources --------------------------------------------------------------------

TOKENS = ["__syncthreads();", "barrier(CLK_LOCAL_MEM_FENCE);", "return;", 'asm("nop");', "while(1);", "}", "{",
          "int x[0];", "a[-1] = 0;", "s[-1] = 0;", "out[1 << 30] = 0;", "*(int *)0 = 1;", "__syncwarp();",
          "#include <nosuch.h>", "#define t 0", "goto L; L:", "for(;;){}", "__shared__ int z[1 << 30];",
          "__local int z[1 << 28];", "atomicAdd(&s[0], 1.0f);", "atomic_add(&a[0], 1);", "t = 1 / 0;",
          "__builtin_trap();", "__kernel", "__global__", "(", ")", ";", "\x00", "\xff", "é", "/*", "*/", "\\"]
# statements that compile in each kernel, so that many examples reach the machine model
STATEMENTS = {
    "b.cu": ["if (threadIdx.x == 0) return;", "if (threadIdx.x & 1) __syncthreads();", "s[t] = s[t ^ 1];",
             "if (t > 7) return;", "while (t < 100000) {}", "out[t * 1000000] = 1.0f;", "s[t + 64] = 0.0f;",
             "int *p = 0; p[t] = 1;", "t = t / (t - t);", "__syncwarp(0x1);", "__threadfence();",
             "atomicAdd(&out[0], 1.0f);", "s[t * 1024] = 0;", "__syncthreads();", "return;"],
    "k.cl": ["if (i == 0) return;", "tmp[i + 1000] = 1;", "a[i * 100000] = 1;", "atomic_inc(&a[0]);",
             "i = i % 0;", "while (i >= 0) {}", "mem_fence(CLK_GLOBAL_MEM_FENCE);", "barrier(CLK_LOCAL_MEM_FENCE);",
             "if (i & 1) barrier(CLK_LOCAL_MEM_FENCE);", "tmp[n] = a[n];", "return;"],
    "r.cl": ["if (t & 1) barrier(CLK_LOCAL_MEM_FENCE);", "barrier(CLK_GLOBAL_MEM_FENCE);", "s[t + 1] = 0;",
             "work_group_barrier(CLK_LOCAL_MEM_FENCE);", "if (t == 3) return;", "out[t - 1] = in[t * 4096];",
             "s[t] = s[t - 1];", "return;"],
}
NUMBERS = ["0", "-1", "1", "31", "32", "33", "64", "1048576", "2147483647", "0x80000000"]


@st.composite
def mutated(draw):
    name, text = draw(st.sampled_from(SOURCES))
    for _ in range(draw(st.integers(1, 2))):
        lines = text.split("\n")
        body = st.integers(min(1, len(lines) - 1), max(0, len(lines) - 2))  # inside the kernel when possible
        kind = draw(st.sampled_from(["delete", "delete-line", "duplicate", "swap", "insert", "statement",
                                     "statement", "statement", "number"]))
        if kind == "delete" and text:
            i = draw(st.integers(0, len(text) - 1))
            text = text[:i] + text[i + draw(st.integers(1, 12)):]
        elif kind == "delete-line":
            del lines[draw(body)]
        elif kind == "duplicate":
            i = draw(body)
            lines.insert(i, lines[i])
        elif kind == "swap":
            i, j = draw(body), draw(body)
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "number":
            spots = [m.span() for m in re.finditer(r"\b\d+\b", text)]
            if spots:
                a, b = draw(st.sampled_from(spots))
                text = text[:a] + draw(st.sampled_from(NUMBERS)) + text[b:]
        else:
            lines.insert(draw(body), draw(st.sampled_from(TOKENS if kind == "insert" else STATEMENTS[name])))
        if kind not in ("delete", "number"):
            text = "\n".join(lines)
    return name, text


def _write(tmp_path_factory, name: str, text: str) -> Path:
    d = tmp_path_factory.mktemp("mut")
    (d / ".git").mkdir()
    p = d / name
    p.write_text(text, encoding="utf-8", errors="surrogateescape")
    return p


@_settings(30)
@given(source=mutated(), fixed=st.booleans())
def test_mutated_sources_check_never_crash(tmp_path_factory, source, fixed):
    src = _write(tmp_path_factory, *source)
    launch = ["--grid", "1", "--block", "32"] if fixed else []
    res = runner.invoke(app, ["check", str(src), "--budget", "3", *launch])
    _no_crash(res)


@_settings(8)
@given(source=mutated())
def test_mutated_sources_scan_never_crash(tmp_path_factory, source):
    src = _write(tmp_path_factory, *source)
    res = runner.invoke(app, ["scan", str(src.parent), "--budget", "0.5", "-j", "1", "--no-cache"])
    _no_crash(res)


# --- crashes the fuzzing found, kept as plain examples ---------------------------------------------

@pytest.mark.parametrize(("command", "options", "words"), [
    ("check", ["-o", "{dir}", "--budget", "3"], ["-o", "folder"]),
    ("check", ["-o", "/proc/out.txt", "--budget", "3"], ["cannot write", "/proc/out.txt"]),
    ("check", ["--checks", " , ", "--budget", "3"], ["--checks", "races"]),
    ("run", ["--arg", "n=4", "--save", "{dir}/nosuch/run.npz"], ["--save", "no such folder"]),
    ("run", ["--arg", "n=4", "--save", "/proc/run.npz"], ["--save", "/proc/run.npz"]),
    ("run", ["--arg", "n=4", "--max-seconds", "nan"], ["--max-seconds", "positive"]),
])
def test_found_crashes_are_one_line_errors(tmp_path_factory, command, options, words):
    src = _source(tmp_path_factory, "k.cl", OPENCL)
    res = runner.invoke(app, [command, str(src), *[o.replace("{dir}", str(src.parent)) for o in options]])
    _no_crash(res)
    assert res.exit_code == 2, res.output
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and all(w in errors[0] for w in words), res.stderr


def test_empty_checks_in_configuration_is_an_error(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "simu.toml").write_text("checks = []\n")
    (tmp_path / "k.cl").write_text(OPENCL)
    for args in (["check", str(tmp_path / "k.cl"), "--budget", "3"], ["scan", str(tmp_path), "--no-cache"]):
        res = runner.invoke(app, args)
        _no_crash(res)
        assert res.exit_code == 2 and "'checks': give one or more" in res.stderr, res.output
