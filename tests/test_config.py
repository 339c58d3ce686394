"""Configuration: [tool.simu] / simu.toml, validation naming the bad key, CLI overrides, suppressions."""

import re
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from simu.cli import app
from simu.config import ConfigError, find_config, load_config, parse_config
from simu.detect.finding import Finding, SourceLocation
from simu.launch.constraints import KernelConstraints
from simu.scan import ScanOverrides, apply_policy, resolve_options

runner = CliRunner()


def readme_config() -> str:
    """The full configuration example of README.md (the ```toml block under 'Configuration')."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Configuration"):]
    return re.search(r"```toml\n(.*?)```", section, re.S).group(1)


def test_readme_example_is_valid_and_complete(tmp_path):
    (tmp_path / "pyproject.toml").write_text(readme_config())
    cfg = load_config(tmp_path / "pyproject.toml")
    assert cfg.root == tmp_path.resolve()
    assert cfg.include and cfg.define and cfg.exclude and cfg.checks
    assert cfg.budget and cfg.jobs and cfg.fail_on and cfg.warp_model and cfg.opt_level is not None
    assert cfg.severity.get("redundant-barrier") == "info"
    assert cfg.suppress and cfg.suppress[0].kind == "race"
    assert cfg.kernels


def test_constraints_parse():
    cfg = parse_config({"kernels": {"block_sum": {
        "grid": "4,2", "block": [128], "warp-size": 32, "dynamic-shared": 512,
        "args": {"n": 64, "scale": 0.5, "m": "1:4096", "k": [2, 8], "a": "n*m", "b": "(n + 1) * 4"}}}})
    c = cfg.kernels["block_sum"]
    assert c == KernelConstraints(grid=(4, 2, 1), block=(128, 1, 1), args={"n": 64, "scale": 0.5},
                                  arg_ranges={"m": (1, 4096), "k": (2, 8)},
                                  buffer_lengths={"a": "n*m", "b": "(n + 1) * 4"}, warp_size=32, dynamic_shared=512)
    # the global warp size reaches every kernel; a kernel's own wins
    cfg = parse_config({"warp-size": 64, "kernels": {"k": {"warp-size": 32}}})
    assert cfg.constraints_for("k").warp_size == 32
    assert cfg.constraints_for("other").warp_size == 64
    assert parse_config({}).constraints_for("k") is None


def test_constraint_fills_parse_and_are_checked():
    cfg = parse_config({"kernels": {"spmv": {"fills": {"row_ptr": "ramp", "col": "small"}}}})
    assert cfg.kernels["spmv"].fills == {"row_ptr": "ramp", "col": "small"}
    with pytest.raises(ConfigError, match="row_ptr"):
        parse_config({"kernels": {"spmv": {"fills": {"row_ptr": "sorted"}}}})


@pytest.mark.parametrize("table, key", [
    ({"bugdet": 3}, "bugdet"),
    ({"severity": {"data-race": "info"}}, "data-race"),
    ({"kernels": {"k": {"grid": 4, "blocks": 64}}}, "blocks"),
    ({"suppress": [{"kind": "race", "lines": 3}]}, "lines"),
    ({"suppress": [{"kind": "racing"}]}, "kind"),
    ({"budget": "fast"}, "budget"),
    ({"fail-on": "sometimes"}, "fail-on"),
    ({"warp-model": "simt"}, "warp-model"),
    ({"checks": ["races", "typos"]}, "checks"),
    ({"kernels": {"k": {"block": [0, 4]}}}, "block"),
    ({"kernels": {"k": {"args": {"n": "8:2"}}}}, "n"),
    ({"kernels": {"k": {"args": {"a": "__import__('os')"}}}}, "a"),
    ({"kernels": {"k": {"warp-size": 48}}}, "warp-size"),
])
def test_errors_name_the_key(table, key):
    with pytest.raises(ConfigError) as exc:
        parse_config(table, "pyproject.toml", "tool.simu")
    message = str(exc.value)
    assert f"'{key}'" in message and "\n" not in message
    assert message.startswith("pyproject.toml: [tool.simu")


def test_snake_case_keys_are_accepted():
    assert parse_config({"opt_level": 2, "fail_on": "warning"}).opt_level == 2


def test_find_config_walks_upward_and_stops_at_the_repository(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")  # no [tool.simu]: not a config
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    assert find_config(sub) is None
    (tmp_path / "pyproject.toml").write_text("[tool.simu]\nbudget = 2\n")
    assert find_config(sub) == tmp_path / "pyproject.toml"
    (tmp_path / "a" / "simu.toml").write_text("budget = 3\n")
    assert find_config(sub) == tmp_path / "a" / "simu.toml"
    assert load_config(find_config(sub)).budget == 3
    # above the repository is never searched
    inner = tmp_path / "a" / "repo"
    (inner / ".git").mkdir(parents=True)
    assert find_config(inner) is None


def test_cli_overrides_config(tmp_path):
    (tmp_path / "k.cl").write_text("__kernel void k(__global int *a) { a[0] = 1; }\n")
    (tmp_path / "inc").mkdir()
    (tmp_path / "simu.toml").write_text('budget = 3\njobs = 3\ninclude = ["inc"]\ndefine = ["A=1"]\n'
                                        'fail-on = "warning"\nexclude = ["gen/"]\nwarp-model = "independent"\n'
                                        'opt-level = 2\ncache-dir = "c"\n')
    opts, cfg = resolve_options([tmp_path], ScanOverrides(budget=1, include=["other"], define=["B"], fail_on="info",
                                                          exclude=["x/"]))
    assert opts.root == tmp_path.resolve()
    assert opts.budget == 1 and opts.jobs == 3 and opts.fail_on == "info"
    assert opts.include == [(tmp_path / "inc").resolve(), Path("other").resolve()]
    assert opts.define == ["A=1", "B"] and opts.exclude == ["x/"] and opts.config_exclude == ["gen/"]
    assert opts.config_base == tmp_path.resolve()
    assert opts.warp_model == "independent" and opts.opt_level == 2
    assert opts.cache_dir == (tmp_path / "c").resolve()
    opts, _ = resolve_options([tmp_path], ScanOverrides(opt_level=0, warp_model="lockstep", no_cache=True))
    assert opts.opt_level == 0 and opts.warp_model == "lockstep" and opts.cache_dir is None


def test_cli_config_error_exits_2_with_one_line(tmp_path):
    (tmp_path / "k.cl").write_text("__kernel void k(__global int *a) { a[0] = 1; }\n")
    (tmp_path / "pyproject.toml").write_text("[tool.simu]\nbudget = 1\n\n[tool.simu.kernels.k]\ngird = 4\n")
    r = runner.invoke(app, ["scan", str(tmp_path)])
    assert r.exit_code == 2
    lines = [l for l in r.output.splitlines() if l.strip()]
    assert len(lines) == 1 and "'gird'" in lines[0] and "[tool.simu.kernels.k]" in lines[0], r.output
    (tmp_path / "pyproject.toml").write_text("[tool.simu\n")
    r = runner.invoke(app, ["scan", str(tmp_path)])
    assert r.exit_code == 2 and "invalid TOML" in r.output


# ---------------------------------------------------------------------------------------------------------
# severity overrides and suppressions (applied after analysis and cache)


def _finding(tmp_path, kind="race", severity="error", line1=3, line2=4):
    src = tmp_path / "src" / "x.cu"
    return Finding(kind, severity, "k", "msg", SourceLocation(str(src), line1, 5, "a"),
                   SourceLocation(str(src), line2, 5, "b"))


def test_severity_overrides(tmp_path):
    cfg = parse_config({"severity": {"race": "warning", "redundant-barrier": "off"}})
    kept, sup = apply_policy([_finding(tmp_path), _finding(tmp_path, "redundant-barrier", "warning")], cfg, tmp_path)
    assert [(f.kind, f.severity) for f in kept] == [("race", "warning")] and not sup


def test_configured_suppressions(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "x.cu").write_text("\n" * 10)
    cases = [({"kind": "race", "file": "src/x.cu", "line": 4}, True),
             ({"kind": "race", "file": "src/*.cu"}, True),
             ({"kind": "race", "line": 9}, False),
             ({"kind": "warp-race"}, False),
             ({"file": "other.cu"}, False),
             ({"kernel": "k", "reason": "known"}, True)]
    for entry, hidden in cases:
        cfg = parse_config({"suppress": [entry]})
        kept, sup = apply_policy([_finding(tmp_path)], cfg, tmp_path)
        assert (len(sup) == 1) == hidden and (len(kept) == 0) == hidden, entry


def test_inline_suppressions(tmp_path):
    (tmp_path / "src").mkdir()
    src = tmp_path / "src" / "x.cu"
    for comment, hidden in [("// simu: ignore", True), ("// simu: ignore[race]", True),
                            ("/* simu: ignore[warp-race, race] */", True), ("// simu: ignore[out-of-bounds]", False),
                            ("// nothing", False)]:
        lines = ["int a;"] * 10
        lines[3] = "x[i] = y;  " + comment  # line 4: the *second* access of the finding
        src.write_text("\n".join(lines) + "\n")
        kept, sup = apply_policy([_finding(tmp_path)], parse_config({}), tmp_path)
        assert (len(sup) == 1) == hidden, comment
        if hidden:
            assert "inline" in sup[0][1]


def test_pyproject_without_tool_simu_is_the_empty_config(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname='x'\n")
    cfg = load_config(tmp_path / "pyproject.toml")
    assert cfg.budget is None and not cfg.kernels
    assert tomllib.loads((tmp_path / "pyproject.toml").read_text())
