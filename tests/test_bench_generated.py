"""The generated-kernel benches (simu/bench/generated.py, fidelity.py, robustness.py) on hand-written files
in the generator's format (tests/bench_generated_kernels.py): exact scores, the vote, the scan's counts
and the CLI suites."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from simu.bench import fidelity, generated, robustness
from simu.cli import app

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_generated_kernels import write_kernels  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("generated")
    write_kernels(d)
    (d / "notes.txt").write_text("not a kernel")
    return d


@pytest.fixture(scope="module")
def given(folder) -> list[generated.FileScore]:
    return generated.run_accuracy(generated.kernel_files([folder]))


def _by_name(scores):
    return {Path(s.path).name: s for s in scores}


def test_header_and_grouping(folder, tmp_path):
    assert generated.generated_header(folder / "oob.cl") == {"seed": "4", "mode": "basic", "lang": "opencl",
                                                             "plant": "out-of-bounds", "emi": "0"}
    plain = tmp_path / "plain.cl"
    plain.write_text("//\n" + (folder / "oob.cl").read_text().split("\n", 1)[1])  # no `// generated:` line
    s = generated.score_file(plain)
    assert (s.mode, s.plant, s.lang) == ("corpus", "labelled", "opencl")
    assert len(s.tp) == 1


def test_scores_per_file(given):
    s = _by_name(given)
    assert set(s) == {"clean.cl", "clean_local.cl", "divergent.cl", "drop_barrier.cl", "drop_barrier.cu",
                      "mislabelled.cl", "oob.cl", "warp.cl"}
    counts = {n: (len(x.tp), len(x.fn), len(x.fp), len(x.warnings), x.status) for n, x in s.items()}
    assert counts == {
        "clean.cl": (0, 0, 0, 0, "analysed"), "clean_local.cl": (0, 0, 0, 0, "analysed"),
        "divergent.cl": (1, 0, 0, 0, "analysed"), "drop_barrier.cl": (1, 0, 0, 0, "analysed"),
        "drop_barrier.cu": (1, 0, 0, 0, "analysed"), "oob.cl": (1, 0, 0, 0, "analysed"),
        "warp.cl": (1, 0, 0, 0, "analysed"),
        "mislabelled.cl": (0, 1, 1, 0, "analysed"),  # the wrong label: its miss and the race it did not expect
    }
    assert s["drop_barrier.cu"].lang == "cuda"
    assert s["warp.cl"].tp == [("warp-race", "(independent) warp-race shared read-write lines 8,9")]


def test_summary_per_mode_plant_and_kind(given):
    summary = generated.summarise(given)["given"]
    total = summary["total"]
    assert (total["files"], total["exact"], total["tp"], total["fn"], total["fp"]) == (8, 7, 5, 1, 1)
    assert total["precision"] == pytest.approx(5 / 6) and total["recall"] == pytest.approx(5 / 6)
    kinds = {k: (v["tp"], v["fn"], v["fp"]) for k, v in summary["by_kind"].items()}
    assert kinds == {"barrier-divergence": (1, 0, 0), "out-of-bounds": (1, 1, 0), "race": (2, 0, 1),
                     "warp-race": (1, 0, 0)}
    assert {k: v["files"] for k, v in summary["by_mode"].items()} == {"barrier": 5, "basic": 2, "warp": 1}
    plants = summary["by_plant"]
    assert (plants["out-of-bounds"]["tp"], plants["out-of-bounds"]["fn"], plants["out-of-bounds"]["fp"]) == (1, 1, 1)
    assert plants["none"]["precision"] is None and plants["none"]["exact"] == 2


def test_triage_lists_the_wrong_file(given):
    t = generated.triage(given)
    assert [Path(r["path"]).name for r in t["false_positives"]] == ["mislabelled.cl"]
    assert [Path(r["path"]).name for r in t["false_negatives"]] == ["mislabelled.cl"]
    fn = t["false_negatives"][0]
    assert fn["missed"] == ["out-of-bounds global line 9"]
    assert fn["reported"] == ["race shared read-write lines 8,9 (error)"]
    assert t["incomplete"] == [] and t["failed"] == []


def test_search_setting_is_deterministic(folder):
    files = [folder / "drop_barrier.cl", folder / "mislabelled.cl", folder / "warp.cl"]
    one = generated.run_accuracy(files, search=True, jobs=1, evaluations=8)
    two = generated.run_accuracy(files, search=True, jobs=2, evaluations=8)
    assert [asdict(s) for s in one] == [asdict(s) for s in two]
    searched = _by_name([s for s in one if s.setting == "search"])
    assert (len(searched["drop_barrier.cl"].tp), len(searched["mislabelled.cl"].fp)) == (1, 1)


def test_unjudgeable_file_is_failed_not_scored(tmp_path):
    bad = tmp_path / "bad.cl"
    bad.write_text("// generated: seed=9 mode=basic lang=opencl plant=none emi=0\n// expect: clean\n"
                   "// launch: grid=1 block=32 out=float32:32\n__kernel void k(__global float *out) { out[0] = x; }\n")
    nolaunch = tmp_path / "nolaunch.cl"
    nolaunch.write_text("// expect: clean\n__kernel void k(__global float *out) { out[0] = 1.0f; }\n")
    scores = _by_name(generated.run_accuracy([bad, nolaunch]))
    assert scores["bad.cl"].status == "failed" and "internal" not in scores["bad.cl"].reason
    assert "no `// launch:` line" in scores["nolaunch.cl"].reason
    assert generated.summarise(list(scores.values()))["given"]["total"]["failed"] == 2


# -- fidelity ---------------------------------------------------------------------------------------------------

def _pocl_or_skip() -> None:
    from simu.validate.opencl_runner import OpenCLUnavailableError, kernel_params

    try:
        kernel_params("__kernel void k(__global int *p) { p[0] = 1; }", "k")
    except OpenCLUnavailableError as exc:
        pytest.skip(f"no OpenCL device (PoCL): {exc}")
    except ImportError as exc:
        pytest.skip(f"pyopencl is not installed: {exc}")


def test_fidelity_on_clean_files(folder):
    _pocl_or_skip()
    chosen = fidelity.clean_opencl_files(generated.kernel_files([folder]))
    assert [p.name for p in chosen] == ["clean.cl", "clean_local.cl"]  # clean OpenCL only: no .cu, no bug
    results = fidelity.run_fidelity([folder / "clean.cl", folder / "clean_local.cl", folder / "oob.cl"])
    assert [(Path(r.path).name, r.status, r.launches) for r in results] == [("clean.cl", "agree", 1),
                                                                             ("clean_local.cl", "agree", 1)]
    assert fidelity.summarise(results)["agree"] == 2


def test_fidelity_vote_names_the_wrong_implementation():
    a = {"out": np.arange(4, dtype=np.float32)}
    b = {"out": np.array([0, 1, 2.5, 3], np.float32)}
    v = fidelity._judge_launch(0, {"pocl": a, "simu-O0": a, "simu-O1": b}, 0)
    assert v["wrong"] == ["simu-O1"]
    assert v["differences"] == [{"implementation": "simu-O1", "buffer": "out", "index": 2, "expected": 2.0,
                                 "got": 2.5, "elements": 1, "against": "pocl"}]
    c = {"out": np.array([0, 1, 2, 7], np.float32)}
    assert fidelity._judge_launch(1, {"pocl": a, "simu-O0": b, "simu-O1": c}, 0)["wrong"] == ["undecided"]
    nan = {"out": np.array([np.nan, 1, 2, 3], np.float32)}
    other_nan = {"out": np.array([-np.nan, 1, 2, 3], np.float32)}
    assert fidelity._judge_launch(2, {"pocl": nan, "simu-O0": other_nan, "simu-O1": nan}, 0) is None
    near = {"out": np.nextafter(a["out"], np.float32(9))}
    assert fidelity._judge_launch(3, {"pocl": a, "simu-O0": near, "simu-O1": a}, 0)["wrong"] == ["simu-O0"]
    assert fidelity._judge_launch(3, {"pocl": a, "simu-O0": near, "simu-O1": a}, 2) is None


def test_fidelity_tells_a_schedule_dependent_file(tmp_path):
    _pocl_or_skip()
    from bench_generated_kernels import MIXED_ATOMICS_CL

    f = tmp_path / "mixed.cl"
    f.write_text("// expect: clean\n// launch: grid=1 block=64 acc=uint32:1:zeros\n" + MIXED_ATOMICS_CL)
    r = fidelity.check_file(f)
    assert (r.status, r.mismatches) == ("nondeterministic", [])
    assert r.nondeterministic[0]["buffer"] == "acc" and "by the schedule" in r.reason


def test_fidelity_skips_what_pocl_cannot_build(tmp_path):
    _pocl_or_skip()
    f = tmp_path / "subgroup.cl"
    f.write_text("// expect: clean\n// launch: grid=1 block=32 out=int32:32\n"
                 "__kernel void k(__global int *out) { out[get_local_id(0)] = no_such_builtin(1); }\n")
    r = fidelity.check_file(f)
    assert r.status in ("skipped", "error") and r.reason


# -- robustness -------------------------------------------------------------------------------------------------

def test_robustness_counts_kernels_and_tracebacks(tmp_path, folder):
    small = tmp_path / "small"
    write_kernels(small, ["clean.cl", "divergent.cl"])
    r = robustness.run_robustness([small], budget=0.5, jobs=1)
    assert (r.kernels, r.files, r.tracebacks, r.error) == (2, 2, 0, "")
    assert r.by_status == {"analysed": 2}
    assert r.figure.startswith("2 kernels, 0 tracebacks, ")


def test_robustness_counts_crashes_from_the_report():
    r = robustness.Robustness("x", stderr_tracebacks=1)
    robustness._count(r, {"files": [
        {"path": "a.cl", "status": "ok", "kernels": [
            {"name": "k", "status": "error", "reason": "KeyError: 3", "traceback": "Traceback ...\nKeyError: 3\n"},
            {"name": "j", "status": "error", "reason": "launch refused"}]},
        {"path": "b.cl", "status": "compile-error", "kernels": []}]})
    assert (r.kernels, r.tracebacks, r.by_status, r.file_status) == (2, 2, {"error": 2}, {"compile-error": 1, "ok": 1})
    assert r.crashes == [{"path": "a.cl", "kernel": "k", "reason": "KeyError: 3", "where": "KeyError: 3"}]


# -- the CLI ----------------------------------------------------------------------------------------------------

def test_cli_generated_table_and_json(folder):
    res = runner.invoke(app, ["bench", "--suite", "generated", "--corpus", str(folder), "-j", "1"])
    assert res.exit_code == 0, res.output
    assert "detector accuracy over 8 files" in res.output and "mislabelled.cl" in res.output
    res = runner.invoke(app, ["bench", "--suite", "generated", "--corpus", str(folder / "oob.cl"), "--format",
                              "json", "-j", "1", "--search", "--evaluations", "6"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["settings"] == ["given", "search"] and doc["files"] == 1
    assert doc["summary"]["given"]["total"]["tp"] == 1


def test_cli_fidelity_and_robustness(folder, tmp_path):
    _pocl_or_skip()
    small = tmp_path / "one"
    write_kernels(small, ["clean.cl"])
    res = runner.invoke(app, ["bench", "--suite", "fidelity", "--corpus", str(small)])
    assert res.exit_code == 0, res.output
    assert "1 agree, 0 mismatch" in res.output
    res = runner.invoke(app, ["bench", "--suite", "robustness", "--corpus", str(small), "--format", "json",
                              "--budget", "0.5", "-j", "1"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert (doc["kernels"], doc["tracebacks"]) == (1, 0)


@pytest.mark.parametrize("suite", ["generated", "fidelity", "robustness"])
def test_cli_bad_input_is_one_line(suite, tmp_path):
    res = runner.invoke(app, ["bench", "--suite", suite, "--corpus", str(tmp_path / "missing")])
    assert res.exit_code == 2
    assert "Traceback" not in res.output and "no such file or folder" in res.output
    res = runner.invoke(app, ["bench", "--suite", suite])
    assert res.exit_code == 2 and "--corpus" in res.output
