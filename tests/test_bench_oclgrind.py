"""`simu bench --suite oclgrind`: the launches it times are ones both tools accept (no timing asserted)."""

from __future__ import annotations

import json
import subprocess

from simu.bench.oclgrind import Timing, cases, median_ratios, sim_file, simu_command


def test_cases_cover_the_six_kernels_at_the_work_items_asked():
    for size in (4096, 65536):
        got = cases(size)
        assert [c.kernel for c in got] == ["reduction", "scan", "matmul", "histogram", "stencil", "spmv"]
        assert {c.work_items for c in got} == {size}


def test_sim_file_gives_sizes_in_bytes_fills_and_scalars():
    spmv = cases(4096)[-1]
    text = sim_file(spmv).strip().splitlines()
    assert text[1:4] == ["spmv", "4096 1 1", "256 1 1"]
    assert "<size=16388 int range=0:1:4096>" in text  # rowptr: rows + 1 offsets, a ramp
    assert "<size=16384 float fill=0>" in text  # y
    assert text[-2:] == ["<size=4 int>", "4096"]  # rows
    matmul = sim_file(cases(4096)[2]).splitlines()
    assert matmul[2:4] == ["64 64 1", "16 16 1"]


def test_the_simu_command_of_a_case_is_a_complete_launch():
    """The command runs as given (no search): the launch is analysed and race-free."""
    proc = subprocess.run(simu_command(cases(4096)[0]), capture_output=True, text=True)
    kernel = json.loads(proc.stdout)["files"][0]["kernels"][0]
    assert proc.returncode == 0, proc.stderr
    assert kernel["status"] == "analysed" and kernel["findings"] == []
    assert kernel["launches"] == 1


def test_median_ratio_per_size_and_none_without_the_oracle():
    small, large = cases(4096)[0], cases(65536)[0]
    timings = [Timing(small, 2.0, "analysed", 0, 1.0), Timing(small, 3.0, "analysed", 0, 1.0),
               Timing(large, 1.0, "analysed", 0, None)]
    assert median_ratios(timings) == {4096: 2.5, 65536: None}


def test_both_tools_read_one_copy_of_the_kernels_outside_any_repository(monkeypatch, tmp_path):
    """A launch given whole needs no host code: simu, run on the file inside a checkout, would read the checkout's
    host files first (a cost Oclgrind never pays), so both read a copy in the bench's own folder."""
    import simu.bench.oclgrind as bench

    seen: list[tuple[list[str], object]] = []

    def fake(cmd, cwd=None, env=None):
        seen.append((cmd, cwd))
        return 0.1, subprocess.CompletedProcess(cmd, 0, stdout="{}", stderr="")

    monkeypatch.setattr(bench, "_timed", fake)
    timings = bench.measure(repeat=1, sizes=(4096,), oracle="oclgrind-kernel", resident=False)
    assert len(timings) == 6
    simu_runs = [(cmd, cwd) for cmd, cwd in seen if "simu" in cmd]
    for cmd, cwd in simu_runs:
        kernels = cmd[cmd.index("check") + 1]
        assert kernels != str(bench.KERNELS) and kernels.startswith(str(cwd)), (kernels, cwd)


def test_a_resident_answer_that_differs_from_the_new_process_s_is_shown_in_the_status(monkeypatch, tmp_path):
    """Each launch is timed as a new process and as answered by `simu serve`: both verdicts must agree."""
    import simu.bench.oclgrind as bench

    def report(status: str, findings: int) -> str:
        return json.dumps({"files": [{"kernels": [{"status": status, "findings": [{}] * findings}]}]})

    def fake(cmd, cwd=None, env=None):
        if env and env.get("SIMU_RESIDENT") == "1":
            return 0.2, subprocess.CompletedProcess(cmd, 0, stdout=report("incomplete", 0), stderr="")
        if env:
            return 0.8, subprocess.CompletedProcess(cmd, 0, stdout=report("analysed", 0), stderr="")
        return 0.4, subprocess.CompletedProcess(cmd, 0, stdout="", stderr="")

    monkeypatch.setattr(bench, "_timed", fake)
    kernels = tmp_path / "kernels.cl"
    kernels.write_text("")
    t = bench._measure_case(cases(4096)[0], kernels, tmp_path, 3, "oclgrind-kernel", {"SIMU_RESIDENT": "0"},
                            {"SIMU_RESIDENT": "1"})
    assert (t.simu_seconds, t.resident_seconds, t.oracle_seconds) == (0.8, 0.2, 0.4)
    assert t.ratio == 2.0 and t.resident_ratio == 0.5
    assert t.simu_status == "analysed; resident: incomplete"
