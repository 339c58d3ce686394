"""Findings whose address an integer member of a struct passed by value picks (a matrix view's strides) are at most
warnings that say so: the search chose those members, the program's host sets them from a matrix simu does not
read.  A race the members only bound, not address, stays an error."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from simu.api import load_source
from simu.cli import app
from simu.evolve.member_strides import member_addressed

runner = CliRunner()

VIEW = r"""
struct View { float *data; unsigned si, sj; };
__global__ void pad(const float *in, View out, int n_out, int n_in, int n_pad) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t >= n_out) return;
  int fan = n_in + n_pad;
  int i = t / fan;
  int j = t - i * fan;
  if (j >= n_in) out.data[i * out.si + j * out.sj] = 1.0f;
  else out.data[i * out.si + j * out.sj] = in[i * n_in + j];
}
"""

# every thread of a quarter writes one of four slots: a race whatever the count that bounds the threads
BOUNDED = r"""
struct Span { float *data; int n; };
__global__ void quarter(Span s) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t >= s.n) return;
  s.data[t % 4] = (float)t;
}
"""


def _findings(tmp_path: Path, src: str) -> list[dict]:
    (tmp_path / "k.cu").write_text(src)
    res = runner.invoke(app, ["check", str(tmp_path / "k.cu"), "--format", "json", "--budget", "40"])
    assert res.exit_code in (0, 1), res.output
    return [f for file in json.loads(res.stdout)["files"] for k in file["kernels"] for f in k["findings"]]


def test_the_accesses_a_view_s_integer_members_address_are_found():
    module = load_source(VIEW, "cuda")
    assert set(member_addressed(module.kernels[0]).values()) == {"out"}
    assert not member_addressed(load_source(BOUNDED, "cuda").kernels[0])  # `n` bounds, it addresses nothing


def test_a_race_of_strides_the_search_chose_is_a_warning_that_names_the_struct(tmp_path):
    races = [f for f in _findings(tmp_path, VIEW) if f["kind"] == "race"]
    assert races and all(f["severity"] == "warning" for f in races)
    assert all("integer members of 'out'" in f["message"] for f in races)


def test_a_race_the_struct_s_count_only_bounds_stays_an_error(tmp_path):
    races = [f for f in _findings(tmp_path, BOUNDED) if f["kind"] == "race"]
    assert races and all(f["severity"] == "error" for f in races)
