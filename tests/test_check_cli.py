"""`simu check` reports like a scan of one file: formats, -o, configuration, severities, suppressions."""

from __future__ import annotations

import json

import jsonschema
import pytest
from typer.testing import CliRunner

from simu.cli import app
from simu.report.jsonreport import schema

runner = CliRunner()

RACY = """__kernel void last_writer(__global int *out, __global const int *in)
{
    out[0] = in[get_local_id(0)];
}
"""
LAUNCH = ["--grid", "1", "--block", "64"]


@pytest.fixture
def project(tmp_path):
    (tmp_path / ".git").mkdir()  # the configuration search stops at the repository root
    src = tmp_path / "k.cl"
    src.write_text(RACY)
    return tmp_path, src


def _json(res) -> dict:
    return json.loads(res.stdout)


def _findings(doc: dict, key: str = "findings") -> list[dict]:
    out = []
    for f in doc["files"]:
        for k in f["kernels"]:
            out += [x if key == "findings" else x["finding"] for x in k[key]]
    return out


def test_check_writes_valid_sarif_to_a_file(project):
    root, src = project
    out = root / "out.sarif"
    res = runner.invoke(app, ["check", str(src), *LAUNCH, "--format", "sarif", "-o", str(out)])
    assert res.exit_code == 1, res.output
    log = json.loads(out.read_text())
    jsonschema.validate(log, schema("sarif-subset.schema.json"))
    assert log["version"] == "2.1.0"
    results = log["runs"][0]["results"]
    assert results and all(r["ruleId"] == "race" for r in results)
    assert results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 3


def test_check_json_follows_the_scan_schema(project):
    _, src = project
    res = runner.invoke(app, ["check", str(src), *LAUNCH, "--format", "json"])
    assert res.exit_code == 1, res.output
    doc = _json(res)
    jsonschema.validate(doc, schema())
    assert doc["exit_code"] == 1
    assert [f["kind"] for f in _findings(doc)] == ["race"]


def test_check_honours_severity_overrides(project):
    root, src = project
    (root / "simu.toml").write_text('[severity]\nrace = "warning"\n')
    res = runner.invoke(app, ["check", str(src), *LAUNCH, "--format", "json"])
    assert res.exit_code == 0, res.output  # fail-on error: a warning does not fail
    assert [(f["kind"], f["severity"]) for f in _findings(_json(res))] == [("race", "warning")]
    res = runner.invoke(app, ["check", str(src), *LAUNCH, "--fail-on", "warning"])
    assert res.exit_code == 1, res.output


def test_check_honours_configured_and_inline_suppressions(project):
    root, src = project
    (root / "simu.toml").write_text('[[suppress]]\nkind = "race"\nfile = "k.cl"\nreason = "known"\n')
    res = runner.invoke(app, ["check", str(src), *LAUNCH, "--format", "json"])
    assert res.exit_code == 0, res.output
    doc = _json(res)
    assert _findings(doc) == [] and [f["kind"] for f in _findings(doc, "suppressed")] == ["race"]
    (root / "simu.toml").unlink()
    src.write_text(RACY.replace("in[get_local_id(0)];", "in[get_local_id(0)];  // simu: ignore[race]"))
    res = runner.invoke(app, ["check", str(src), *LAUNCH, "--format", "json"])
    assert res.exit_code == 0, res.output
    assert _findings(_json(res)) == []


def test_check_and_scan_apply_the_same_policy(project):
    root, src = project
    (root / "simu.toml").write_text('[severity]\nrace = "info"\n\n[kernels.last_writer]\ngrid = 1\nblock = 64\n')
    checked = runner.invoke(app, ["check", str(src), "--format", "json", "--budget", "6"])
    scanned = runner.invoke(app, ["scan", str(root), "--format", "json", "--no-cache", "-j", "1", "--budget", "1"])
    assert checked.exit_code == scanned.exit_code == 0, (checked.output, scanned.output)

    def summary(doc):
        return sorted((f["kind"], f["severity"], f["first"]["line"]) for f in _findings(doc))

    assert summary(_json(checked)) == summary(_json(scanned)) == [("race", "info", 3)]


def test_check_refuses_an_output_folder_that_does_not_exist(project):
    root, src = project
    res = runner.invoke(app, ["check", str(src), *LAUNCH, "-o", str(root / "missing" / "x.json")])
    assert res.exit_code == 2
    assert "no such folder" in res.output and "Traceback" not in res.output


def test_check_text_names_both_lines_and_the_launch(project):
    _, src = project
    res = runner.invoke(app, ["check", str(src), *LAUNCH])
    assert res.exit_code == 1
    assert "k.cl:3:" in res.output and "race" in res.output and "launch: grid=1,1,1 block=64,1,1" in res.output


BIG_TILE = """__global__ void big_tile(float *out) {
  __shared__ float tile[16384];  // 64 KiB: over the 48 KiB a block may have
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}
"""


@pytest.mark.parametrize("launch", [LAUNCH, []], ids=["given", "searched"])
def test_a_kernel_no_gpu_could_launch_is_not_launchable(tmp_path, launch):
    src = tmp_path / "big.cu"
    src.write_text(BIG_TILE)
    res = runner.invoke(app, ["check", str(src), *launch, "--format", "json", "--budget", "4"])
    assert res.exit_code == 2, res.output
    (kernel,) = _json(res)["files"][0]["kernels"]
    assert kernel["status"] == "not-launchable" and "65536 bytes of static shared memory" in kernel["reason"]
