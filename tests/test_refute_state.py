"""Arguments the host computes from program state (simu/host/state.py) and the refutation of errors that hinge
on their order (simu/evolve/refute_state.py): a race that needs a bottom wider than its top is a warning naming
the host's texts; a race in either order, a wrapper's parameters and a single state value stay errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from simu.cli import app
from simu.evolve.refute_state import orderings
from simu.host.cscan import CSource
from simu.host.cuda import extract_cuda

runner = CliRunner()

CONCAT = """
__global__ void concat(int n, const float *in, int top_axis, int bottom_axis, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int row = i / bottom_axis;
    int col = i % bottom_axis;
    out[row * top_axis + col] = in[i];
  }
}
"""

SUM = """
__global__ void total(int rows, int cols, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * cols) out[0] += in[i];
}
"""


def _findings(root: Path, kind: str) -> list[dict]:
    result = runner.invoke(app, ["scan", str(root), "--budget", "2", "--no-cache", "-j", "1", "--format", "json"])
    data = json.loads(result.stdout)
    return [f for fe in data["files"] for k in fe["kernels"] for f in k["findings"] if f["kind"] == kind]


def test_state_arguments_are_members_elements_calls_and_globals():
    src = CSource("""
struct Layer { int top, bottom; };
int g_rows;
template <typename Dtype>
void ConcatLayer<Dtype>::Forward_gpu(const Blob *bottom, int given) {
  const int top_axis = bottom->shape(1);
  int local = 7;
  concat<<<4, 64>>>(n_, top_axis, sizes[2], g_rows, given, local, argc_value);
}
void run(Layer l, int argc, char **argv) {
  int from_line = atoi(argv[1]);
  concat<<<4, 64>>>(l.top, from_line, l.bottom);
}
""")
    first, second = extract_cuda(src, "layer.cu")
    assert first.arg_state[:5] == ("n_", "top_axis = bottom->shape(1)", "sizes[2]", "g_rows", "")
    assert first.arg_state[5] == ""  # a constant local
    assert second.arg_state == ("l.top", "", "l.bottom")  # the command line is input, not state
    assert [f.name for f in src.functions()] == ["ConcatLayer::Forward_gpu", "run"]


def test_orderings_never_shrink_and_order_every_pair_both_ways():
    up, down = orderings([16, 2, 3])
    assert up == [17, 18, 19] and down == [19, 18, 17]
    assert orderings([0, 0]) == [[1, 2], [2, 1]]


def test_a_race_needing_a_bottom_wider_than_its_top_is_a_warning(tmp_path: Path):
    (tmp_path / "concat.cu").write_text(CONCAT + """
struct Layer { int rows, top, bottom; float *out; };
void forward(struct Layer *l, const float *in) {
  int n = l->rows * l->bottom;
  concat<<<(n + 255) / 256, 256>>>(n, in, l->top, l->bottom, l->out);
}
""")
    races = _findings(tmp_path, "race")
    assert races and all(f["severity"] == "warning" for f in races), [f["message"] for f in races]
    assumption = races[0]["detail"]["assumption"]
    assert "l->top" in assumption and "l->bottom" in assumption and "program state" in assumption
    assert races[0]["launch"]["origin"].startswith("host launch at concat.cu:14")


def test_the_same_race_through_a_wrapper_nobody_calls_stays_an_error(tmp_path: Path):
    """A wrapper's parameters are its callers' to choose: any order is a launch some caller can make."""
    (tmp_path / "concat.cu").write_text(CONCAT + """
void concat_gpu(int rows, const float *in, int top, int bottom, float *out) {
  int n = rows * bottom;
  concat<<<(n + 255) / 256, 256>>>(n, in, top, bottom, out);
}
""")
    races = _findings(tmp_path, "race")
    assert races and any(f["severity"] == "error" for f in races), [f["message"] for f in races]


def test_a_race_in_either_order_stays_an_error(tmp_path: Path):
    (tmp_path / "total.cu").write_text(SUM + """
struct Grid { int rows, cols; float *out; };
void reduce(struct Grid *g, const float *in) {
  total<<<(g->rows * g->cols + 127) / 128, 128>>>(g->rows, g->cols, in, g->out);
}
""")
    races = _findings(tmp_path, "race")
    assert races and any(f["severity"] == "error" for f in races), [f["message"] for f in races]
    assert all("program state" not in f["detail"].get("assumption", "") for f in races)


def test_the_reruns_are_probes_whose_own_findings_are_not_kept(monkeypatch):
    """The order re-runs come after every other refutation: run as the search's own evaluations, an access they show
    past a length the search chose (at sizes no earlier phase judged) became a new error nothing refuted (caffe's
    LRN kernels).  They are probes: only the witness's findings are judged, nothing is added."""
    from types import SimpleNamespace

    from simu import codes
    from simu.evolve import refute_state
    from simu.ir.types import IntType

    scalars = [SimpleNamespace(name=n, type=IntType(32)) for n in ("a", "b")]
    layout = SimpleNamespace(scalars=scalars, state={"a": "l->a", "b": "l->b"}, ranges={}, derived={},
                             at=SimpleNamespace(scalar=lambda j: j), decode=lambda genes: (None, None, {}),
                             launch=lambda genes: ("launch", tuple(genes)))
    finding = SimpleNamespace(severity=codes.ERROR, kind="out-of-bounds", first=None, second=None, detail={})
    witness = SimpleNamespace(genes=[1.0, 2.0], launch=SimpleNamespace(args={"a": 1, "b": 2}), cost=50)
    calls = []

    def refute(genes=None, launch=None, like=None, most=None):
        calls.append((genes, launch))
        assert most == refute_state.COST_FACTOR * 50  # an order far above the witness's sizes stops early
        return SimpleNamespace(findings=[])

    search = SimpleNamespace(layout=layout, found={"k": (finding, [1.0, 2.0])}, refute=refute,
                             may_refute=lambda like=None, extra=0: True)
    monkeypatch.setattr(refute_state, "witnesses", lambda s, key: [(witness, finding)])
    monkeypatch.setattr(refute_state, "most_shared", lambda s, pending: witness)
    monkeypatch.setattr(refute_state, "lines_of", lambda f: ())
    demoted = []
    monkeypatch.setattr(refute_state, "_demote", lambda s, key, *rest: demoted.append(key))
    refute_state.refute_by_state(search)
    assert calls and all(genes is None and launch[0] == "launch" for genes, launch in calls)
    assert list(search.found) == ["k"] and demoted == ["k"]  # lost in the re-run: judged, nothing added
