"""Grouping (simu/report/grouping.py): the findings of one kernel that are one problem -- same kind,
space, variable, severity and assumption -- are one finding listing its other sites, in text, JSON and
SARIF; errors only where one launch overflows one buffer at several lines or races on it between blocks;
never an error into a warning."""

import json
from dataclasses import replace
from pathlib import Path

import jsonschema
from rich.console import Console
from typer.testing import CliRunner

from simu.check import CheckOptions
from simu.cli import app
from simu.config import Config
from simu.detect.finding import Finding, SourceLocation, ThreadRef
from simu.launch.record import LaunchRecord
from simu.report.grouping import group_findings, line_ranges, site_count
from simu.report.jsonreport import render_json, schema
from simu.report.policy import apply_policy
from simu.report.results import FileResult, KernelResult, ScanResult
from simu.report.sarif import render_sarif
from simu.report.scanterm import closing_line, render_scan

runner = CliRunner()

LENGTH = ("'x' holds {n} elements, a length the search chose (no host allocation, constraint or launch comment "
          "gives it); with 1984 elements, a length the kernel's own sizes allow, the same launch stays in bounds")


def _source(tmp_path: Path, n: int = 30) -> Path:
    p = tmp_path / "chem.cu"
    p.write_text("".join(f"    s += x[i * 8 + {k}];\n" for k in range(n)))
    return p


def _oob(path: Path, line: int, variable: str = "x", severity: str = "warning", launch: LaunchRecord | None = None,
         assumption: str | None = None, kernel: str = "chem", kind: str = "out-of-bounds",
         offset: int = 32) -> Finding:
    detail: dict = {"offset": offset, "size": 4}
    if assumption is not None:
        detail |= {"assumption": assumption.format(n=line), "assumption_key": f"length of '{variable}'"}
    loc = SourceLocation(str(path), line, 10, f"s += {variable}[i * 8 + {line}];", kernel)
    return Finding(kind, severity, kernel, f"out-of-bounds read of global '{variable}' at line {line}", loc,
                   None, "global", variable, line, (ThreadRef((0, 0, 0), (1, 0, 0), "read"),), detail,
                   launch or LaunchRecord((1, 1, 1), (32, 1, 1), {"n": line}), count=line)


def _race(path: Path, a: int, b: int, severity: str = "error", assumption: str | None = None,
          scope: str = "inter-warp", access: str = "write-write") -> Finding:
    detail: dict = {"access": access, "scope": scope}
    if assumption:
        detail |= {"assumption": assumption, "assumption_key": assumption}
    return Finding("race", severity, "chem", f"race {a}/{b}", SourceLocation(str(path), a, 5, "", "chem"),
                   SourceLocation(str(path), b, 5, "", "chem"), "shared", "tile", 0,
                   (ThreadRef((0, 0, 0), (0, 0, 0), "write"), ThreadRef((0, 0, 0), (1, 0, 0), "write")), detail,
                   LaunchRecord((1, 1, 1), (32, 1, 1)))


def _result(path: Path, findings: list[Finding]) -> ScanResult:
    kept, suppressed = apply_policy(findings, Config(), path.parent)
    k = KernelResult("chem", "chem", 1, "analysed", findings=kept, suppressed=suppressed, launches=1)
    fr = FileResult(path, path.name, "cuda", "ok", kernels=[k])
    return ScanResult(path.parent, CheckOptions([path], budget=1.0), [fr])


def test_twenty_lines_of_one_invented_length_are_one_warning(tmp_path):
    path = _source(tmp_path)
    findings = [_oob(path, line, assumption=LENGTH) for line in range(24, 4, -1)]  # witnesses differ per line
    (g,) = group_findings(findings)
    assert g.first.line == 5 and g.count == 5  # the earliest site, in full
    assert [s.first.line for s in g.also] == list(range(6, 25)) and [s.count for s in g.also] == list(range(6, 25))
    assert site_count([g]) == 20 and {loc.line for loc in g.all_locations} == set(range(5, 25))


def test_two_buffers_two_findings_and_an_error_stays_apart(tmp_path):
    path = _source(tmp_path)
    findings = [_oob(path, line, assumption=LENGTH) for line in range(1, 11)]
    findings += [_oob(path, line, variable="z", assumption=LENGTH) for line in range(11, 14)]
    findings.append(_oob(path, 20, offset=-4, severity="error"))  # before x's start on an in-contract witness
    out = group_findings(findings)
    assert [(f.severity, f.variable, 1 + len(f.also)) for f in out] == \
        [("error", "x", 1), ("warning", "x", 10), ("warning", "z", 3)]


def test_different_assumptions_and_no_variable_stay_apart(tmp_path):
    path = _source(tmp_path)
    contents = "the buffer contents are the search's"
    a = [_oob(path, line, assumption=LENGTH) for line in (1, 2)]
    b = [replace(f, detail={**f.detail, "assumption": contents, "assumption_key": "buffer contents"})
         for f in (_oob(path, 3, assumption=LENGTH), _oob(path, 4, assumption=LENGTH))]
    barriers = [Finding("redundant-barrier", "warning", "chem", "redundant", SourceLocation(str(path), n, 1))
                for n in (7, 8)]
    out = group_findings(a + b + barriers)
    assert sorted(1 + len(f.also) for f in out) == [1, 1, 2, 2]


def test_without_a_key_the_witness_numbers_do_not_split_a_group(tmp_path):
    """A finding read back from an older report has the clause only: its numbers are not the problem."""
    path = _source(tmp_path)
    findings = [_oob(path, line, assumption=LENGTH) for line in (1, 2, 3)]
    findings = [replace(f, detail={k: v for k, v in f.detail.items() if k != "assumption_key"}) for f in findings]
    assert len(group_findings(findings)) == 1


def test_errors_group_only_as_one_overflow_of_one_launch(tmp_path):
    path = _source(tmp_path)
    launch = LaunchRecord((3, 1, 1), (128, 1, 1))
    same = [_oob(path, line, severity="error", launch=launch) for line in (3, 4, 5)]
    assert [1 + len(f.also) for f in group_findings(same)] == [3]
    other = _oob(path, 6, severity="error", launch=LaunchRecord((2, 1, 1), (128, 1, 1)))
    before = _oob(path, 7, severity="error", launch=launch, offset=-4)
    assert sorted(1 + len(f.also) for f in group_findings([*same, other, before])) == [1, 1, 3]
    races = [_race(path, 1, 2), _race(path, 3, 4)]
    assert len(group_findings(races)) == 2  # within a block each pair may be its own missing barrier
    between = [_race(path, a, b, scope="inter-block") for a, b in ((1, 1), (1, 2), (2, 2), (1, 3))]
    reads = [_race(path, 5, 6, scope="inter-block", access="read-write")]
    assert sorted(1 + len(f.also) for f in group_findings(between + reads + races)) == [1, 1, 1, 4]
    demoted = [_race(path, 1, 2, "warning", "the block is the search's"), _race(path, 3, 4, "warning",
                                                                               "the block is the search's")]
    (g,) = group_findings(demoted)
    assert {loc.line for loc in g.all_locations} == {1, 2, 3, 4}


def test_suppression_judges_each_site_before_grouping(tmp_path):
    path = _source(tmp_path)
    lines = path.read_text().splitlines()
    lines[5] += "  // simu: ignore[out-of-bounds]"
    path.write_text("\n".join(lines) + "\n")
    kept, suppressed = apply_policy([_oob(path, line, assumption=LENGTH) for line in range(1, 11)], Config(),
                                    tmp_path)
    assert len(suppressed) == 1 and suppressed[0][0].first.line == 6
    assert len(kept) == 1 and 6 not in {loc.line for loc in kept[0].all_locations} and len(kept[0].also) == 8


def test_text_json_and_sarif_show_the_group(tmp_path):
    path = _source(tmp_path, 80)
    findings = [_oob(path, line, assumption=LENGTH) for line in range(1, 21)]
    findings += [_oob(path, line, variable="z", assumption=LENGTH) for line in range(30, 70, 2)]  # 20 runs
    findings.append(_oob(path, 25, offset=-4, severity="error"))
    result = _result(path, findings)

    console = Console(record=True, width=200, no_color=True)
    render_scan(console, result)
    text = console.export_text()
    assert "and 19 more sites of 'x' with the same problem, lines 2-20" in text
    assert "and 19 more sites of 'z' with the same problem, lines 32, 34," in text
    assert "60, 62, ... (3 more runs; --format json or sarif lists every site)" in text  # capped at 16 runs
    assert "out-of-bounds ×3 (41 sites)" in text
    assert "2 warnings[/] (for 41 sites: 2 findings group the 40 sites" in closing_line(result)

    doc = json.loads(render_json(result))
    jsonschema.validate(doc, schema("scan.schema.json"))
    assert doc["schema_version"] == 2
    assert doc["summary"]["findings"] == {"error": 1, "warning": 2, "performance": 0, "info": 0}
    assert doc["summary"]["sites"] == {"error": 1, "warning": 40, "performance": 0, "info": 0}
    listed = doc["files"][0]["kernels"][0]["findings"]
    x = next(f for f in listed if f["variable"] == "x" and f["severity"] == "warning")
    assert [s["first"]["line"] for s in x["also"]] == list(range(2, 21))
    back = [Finding.from_dict(f) for f in listed]
    assert [json.loads(json.dumps(f.to_dict(), default=str)) for f in back] == listed

    log = json.loads(render_sarif(result))
    jsonschema.validate(log, schema("sarif-subset.schema.json"))
    results = log["runs"][0]["results"]
    assert len(results) == 3
    rx = next(r for r in results if r["properties"]["variable"] == "x" and r["level"] == "warning")
    assert len(rx["relatedLocations"]) == 19 and rx["properties"]["sites"] == 20
    assert [r["physicalLocation"]["region"]["startLine"] for r in rx["relatedLocations"]] == list(range(2, 21))
    assert "at 19 more sites (20 in all): [line 2](1), [line 3](2)" in rx["message"]["text"]
    assert all(r["id"] == i for i, r in enumerate(rx["relatedLocations"], 1))


def test_sarif_grouped_race_keeps_its_other_access_first(tmp_path):
    path = _source(tmp_path)
    demoted = [_race(path, 1, 2, "warning", "the block is the search's"),
               _race(path, 3, 4, "warning", "the block is the search's")]
    log = json.loads(render_sarif(_result(path, demoted)))
    (r,) = log["runs"][0]["results"]
    lines = [x["physicalLocation"]["region"]["startLine"] for x in r["relatedLocations"]]
    assert lines == [2, 3, 4] and r["relatedLocations"][0]["message"]["text"].startswith("other access")


def test_sarif_lists_each_location_once_and_at_most_its_limit(tmp_path, monkeypatch):
    import simu.report.sarif as sarif

    path = _source(tmp_path)
    pairs = [(a, b) for a in range(1, 7) for b in range(a, 7)]  # 21 pairs of 6 lines
    found = [_race(path, a, b, "warning", "the block is the search's") for a, b in pairs]
    (r,) = json.loads(render_sarif(_result(path, found)))["runs"][0]["results"]
    assert [x["physicalLocation"]["region"]["startLine"] for x in r["relatedLocations"]] == [1, 2, 3, 4, 5, 6]
    assert r["properties"]["sites"] == 21 and "at 20 more sites (21 in all)" in r["message"]["text"]
    monkeypatch.setattr(sarif, "MAX_RELATED", 3)
    (r,) = json.loads(render_sarif(_result(path, found)))["runs"][0]["results"]
    assert len(r["relatedLocations"]) == 3 and "; 3 more locations only in --format json." in r["message"]["text"]


def test_line_ranges():
    assert line_ranges([9, 3, 4, 5, 5, 11, 12]) == ["3-5", "9", "11-12"]
    assert line_ranges([]) == []


KERNEL = "\n".join(["__global__ void chem(const float *x, const float *z, float *y) {",
                    "    int i = blockIdx.x * blockDim.x + threadIdx.x;",
                    "    float s = 0.0f;",
                    *[f"    s += x[i * 8 + {k}];" for k in range(20)],
                    "    s += x[i - 1];",
                    *[f"    s += z[i * 4 + {k}];" for k in range(3)],
                    "    y[i] = s;", "}", ""])


def test_check_groups_a_searched_kernel_end_to_end(tmp_path):
    """20 reads past a length the search chose are one warning; the read before x's start stays an error."""
    (tmp_path / "chem.cu").write_text(KERNEL)
    r = runner.invoke(app, ["check", str(tmp_path / "chem.cu"), "--budget", "1", "--format", "json"])
    doc = json.loads(r.output)
    jsonschema.validate(doc, schema("scan.schema.json"))
    found = doc["files"][0]["kernels"][0]["findings"]
    by = {(f["severity"], f["variable"]): f for f in found}
    assert len(by) == len(found)  # one finding per severity and buffer
    lines = {("warning", "x"): set(range(4, 24)), ("warning", "z"): {25, 26, 27}}
    for key, want in lines.items():
        f = by[key]
        assert {f["first"]["line"]} | {s["first"]["line"] for s in f["also"]} == want
    assert by[("error", "x")]["first"]["line"] == 24 and by[("error", "x")]["also"] == []


RACES = "\n".join(["__global__ void w(float *out) {",
                   "    out[threadIdx.x] = 1.0f;",
                   "    out[(threadIdx.x + 7) % blockDim.x] = 2.0f;",
                   "    out[(threadIdx.x + 9) % blockDim.x] = 3.0f;",
                   "}", ""])


def test_races_between_blocks_are_one_error_on_a_given_launch(tmp_path):
    """Two blocks write the same elements of 'out' at three lines: nothing orders blocks, one defect."""
    (tmp_path / "w.cu").write_text(RACES)
    args = ["check", str(tmp_path / "w.cu"), "--grid", "2", "--block", "32"]
    doc = json.loads(runner.invoke(app, [*args, "--format", "json"]).output)
    (race,) = [f for f in doc["files"][0]["kernels"][0]["findings"] if f["kind"] == "race"]
    assert race["severity"] == "error" and race["detail"]["scope"] == "inter-block"
    pairs = {(race["first"]["line"], race["second"]["line"])} | {(s["first"]["line"], s["second"]["line"])
                                                                 for s in race["also"]}
    assert pairs == {(2, 3), (2, 4), (3, 4)}
    text = runner.invoke(app, args).output
    assert "and 2 more sites of 'out' with the same problem, line pairs 2/4, 3/4" in text
