"""`simu scan --format json|sarif`: the documented JSON schema, SARIF 2.1.0 for GitHub code scanning."""

import json
from dataclasses import replace

import jsonschema
import pytest
from typer.testing import CliRunner

from simu.cli import app
from simu.codes import KIND_IDS as KNOWN_KINDS
from simu.detect.finding import Finding
from simu.report.jsonreport import render_json, schema
from simu.report.sarif import fingerprint, render_sarif

runner = CliRunner()


def test_json_matches_its_schema(examples_scan):
    result, root, _ = examples_scan
    doc = json.loads(render_json(result))
    jsonschema.validate(doc, schema("scan.schema.json"))
    assert doc["tool"] == {"name": "simu", "version": __import__("simu").__version__}
    assert doc["root"] == str(root.resolve())
    assert doc["summary"]["kernels"] == 4 and doc["summary"]["files"] == 4
    assert doc["summary"]["findings"]["error"] == len([f for f in result.findings if f.severity == "error"])
    assert doc["exit_code"] == 1
    kernels = {k["name"]: k for f in doc["files"] for k in f["kernels"]}
    assert kernels["histogram16"]["findings"]


def test_json_findings_round_trip(examples_scan):
    result, _, _ = examples_scan
    doc = json.loads(render_json(result))
    found = [Finding.from_dict(d) for f in doc["files"] for k in f["kernels"] for d in k["findings"]]

    def norm(f):
        return json.loads(json.dumps(f.to_dict(), default=str))

    assert found and [norm(f) for f in found] == [norm(f) for f in result.findings]
    # every field of the Finding model is in the document
    fields = set(Finding.__dataclass_fields__)
    for f in doc["files"]:
        for k in f["kernels"]:
            for d in k["findings"]:
                assert set(d) == fields


def test_json_schema_rejects_a_broken_document(examples_scan):
    result, _, _ = examples_scan
    doc = json.loads(render_json(result))
    del doc["files"][0]["kernels"][0]["status"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema("scan.schema.json"))


def test_sarif_is_valid_for_code_scanning(examples_scan):
    result, root, _ = examples_scan
    log = json.loads(render_sarif(result))
    jsonschema.validate(log, schema("sarif-subset.schema.json"))
    assert log["version"] == "2.1.0" and "sarif" in log["$schema"]
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "simu" and driver["version"] and driver["informationUri"].startswith("http")
    rules = {r["id"]: r for r in driver["rules"]}
    for kind in KNOWN_KINDS:  # one rule per finding kind
        assert kind in rules
        r = rules[kind]
        assert r["shortDescription"]["text"] and r["fullDescription"]["text"] and r["help"]["text"]
        assert r["defaultConfiguration"]["level"] in ("error", "warning", "note")
    assert len(rules) == len(driver["rules"])
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == root.resolve().as_uri() + "/"

    results = run["results"]
    assert len(results) == len(result.findings) > 0
    for res, f in zip(results, result.findings, strict=False):
        assert res["ruleId"] == f.kind and driver["rules"][res["ruleIndex"]]["id"] == f.kind
        assert res["level"] == {"error": "error", "warning": "warning"}.get(f.severity, "note")
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert not loc["artifactLocation"]["uri"].startswith("/")
        assert (root / loc["artifactLocation"]["uri"]).is_file()
        assert loc["region"]["startLine"] == f.first.line and loc["region"]["startColumn"] == f.first.column
        assert res["partialFingerprints"]["simuFindingHash/v1"] == fingerprint(f, root)
        props = res["properties"]
        assert set(props["launch"]) >= {"grid", "block", "scalars", "buffers", "seed", "warp_size"}
        assert len(props["threads"]) == len(f.threads)
        assert all(set(t) == {"block", "thread", "action"} for t in props["threads"])
        if f.second is not None:
            rel = res["relatedLocations"][0]
            assert rel["id"] == 1 and rel["message"]["text"].startswith("other access")
            assert rel["physicalLocation"]["region"]["startLine"] == f.second.line
            assert "[other access](1)" in res["message"]["text"]
    hist = [r for r in results if r["properties"]["kernel"] == "histogram16"]
    assert hist and all(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "opencl/histogram.cl"
                        for r in hist)


def test_sarif_fingerprints_survive_line_shifts(examples_scan, tmp_path):
    result, root, _ = examples_scan
    f = result.findings[0]
    moved = replace(f, first=replace(f.first, line=f.first.line + 7),
                    second=replace(f.second, line=f.second.line + 7) if f.second is not None else None)
    assert fingerprint(moved, root) == fingerprint(f, root)
    other = replace(f, kind="warp-race")
    assert fingerprint(other, root) != fingerprint(f, root)


def test_sarif_lists_kernels_that_were_not_analysed(tmp_path):
    (tmp_path / "broken.cu").write_text("__global__ void k(float *a) { a[0] = nope; }\n")
    (tmp_path / "ok.cl").write_text("__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }\n")
    out = tmp_path / "out.sarif"
    r = runner.invoke(app, ["scan", str(tmp_path), "--budget", "0.5", "-j", "1", "--no-cache",
                            "--format", "sarif", "--output", str(out)])
    assert r.exit_code == 0, r.output
    log = json.loads(out.read_text())
    jsonschema.validate(log, schema("sarif-subset.schema.json"))
    notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert any("broken.cu" in n["message"]["text"] and n["level"] == "error" for n in notes)


def test_json_output_file(tmp_path):
    (tmp_path / "ok.cl").write_text("__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }\n")
    (tmp_path / "simu.toml").write_text("[kernels.k]\nblock = 32\n[kernels.nope]\ngrid = 2\n")
    out = tmp_path / "out.json"
    r = runner.invoke(app, ["scan", str(tmp_path), "--budget", "0.5", "-j", "1", "--no-cache",
                            "--format", "json", "-o", str(out)])
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text())
    jsonschema.validate(doc, schema())
    assert doc["files"][0]["path"] == "ok.cl" and doc["files"][0]["kernels"][0]["status"] == "analysed"
    assert doc["warnings"] == ["the configuration constrains kernel 'nope', which was not found (kernels: k)"]
