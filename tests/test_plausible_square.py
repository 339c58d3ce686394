"""A buffer the search sizes, indexed as rows of a stride argument (``X[i * n + (n - 1)]``): a square matrix of
``n * n`` is a length the kernel's own sizes allow (simu/evolve/genome.py ``_per_threads``), so an access past a
short drawn length is a warning, not an error."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from simu.cli import app

KERNEL = """__kernel void last_column(__global float *B, __global float *X, int n) {
  int i = get_global_id(0);
  if (i < n) X[i * n + (n - 1)] = X[i * n + (n - 1)] / B[i * n + (n - 1)];
}
"""


def test_rows_of_a_stride_argument_fit_a_square_matrix(tmp_path: Path):
    (tmp_path / "k.cl").write_text(KERNEL)
    result = CliRunner().invoke(app, ["check", str(tmp_path / "k.cl"), "--kernel", "last_column", "--arg", "n=1024",
                                      "--budget", "1", "--format", "json"])
    data = json.loads(result.stdout)
    found = [f for fe in data["files"] for k in fe["kernels"] for f in k["findings"] if f["kind"] == "out-of-bounds"]
    assert all(f["severity"] != "error" for f in found), [f["message"] for f in found]
