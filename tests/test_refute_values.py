"""Errors that need one value of an argument the host computes from program state are ``only when`` warnings
(simu/evolve/refute_values.py); the same errors at a wrapper's parameters, which any caller may pass, stay errors,
and so does a race every value shows (tests/test_refute_state.py)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from typer.testing import CliRunner

from simu.cli import app
from simu.evolve.refute_values import probes, schedule

runner = CliRunner()

PLANAR = """
__global__ void to_planar(const float *in, float *out, int channels, int pixels) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pixels * channels) {
    int c = i % channels;
    int p = i / channels;
    out[(2 - c) * pixels + p] = in[i];  // BGR to planar RGB: written for three channels
  }
}
"""

GATHER = """
__global__ void gather(const float *in, float *out, int n, int classes, bool boxes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int stride = -1;  // only the box layout is supported
  if (boxes) stride = 4 + classes;
  out[i] = in[i * stride + 1];
}
"""


def _memory_findings(root: Path) -> list[dict]:
    result = runner.invoke(app, ["scan", str(root), "--budget", "2", "--no-cache", "-j", "1", "--format", "json"])
    data = json.loads(result.stdout)
    return [f for fe in data["files"] for k in fe["kernels"] for f in k["findings"] if f["kind"] == "out-of-bounds"]


def _race_warnings(root: Path) -> list[str]:
    """The assumptions of the races ``simu scan`` reports in ``root``, each asserted to be a warning."""
    result = runner.invoke(app, ["scan", str(root), "--budget", "2", "--no-cache", "-j", "1", "--format", "json"])
    data = json.loads(result.stdout)
    races = [f for fe in data["files"] for k in fe["kernels"] for f in k["findings"] if f["kind"] == "race"]
    assert races and all(f["severity"] == "warning" for f in races), [f["message"] for f in races]
    return [f["detail"]["assumption"] for f in races]


def _before_start(findings: list[dict]) -> list[dict]:
    return [f for f in findings if "byte offset -" in f["message"]]


def test_an_index_written_for_three_channels_is_a_warning_only_when_there_are_more(tmp_path: Path):
    (tmp_path / "planar.cu").write_text(PLANAR + """
struct Image { int channels, pixels; float *in, *out; };
void convert(struct Image *img) {
  int n = img->pixels * img->channels;
  to_planar<<<(n + 255) / 256, 256>>>(img->in, img->out, img->channels, img->pixels);
}
""")
    found = _memory_findings(tmp_path)
    early = _before_start(found)
    assert early, [f["message"] for f in found]
    assert all(f["severity"] == "warning" for f in found), [f["message"] for f in found]
    assumption = early[0]["detail"]["assumption"]
    assert assumption.startswith("only at some values of channels: the host launch shows it at channels = 4 but "
                                 "not at channels = 3"), assumption
    assert "img->channels" in assumption and "program state" in assumption


def test_the_same_index_through_a_wrapper_nobody_calls_stays_an_error(tmp_path: Path):
    """A wrapper's parameters are its callers' to choose: four channels is a launch some caller can make."""
    (tmp_path / "planar.cu").write_text(PLANAR + """
void convert(const float *in, float *out, int channels, int pixels) {
  int n = pixels * channels;
  to_planar<<<(n + 255) / 256, 256>>>(in, out, channels, pixels);
}
""")
    early = _before_start(_memory_findings(tmp_path))
    assert early and any(f["severity"] == "error" for f in early), [f["message"] for f in early]


def test_a_layout_flag_the_kernel_does_not_support_is_a_warning_naming_the_flag(tmp_path: Path):
    (tmp_path / "gather.cu").write_text(GATHER + """
struct Model { int anchors, classes; bool boxes; float *in, *out; };
void decode(struct Model *m) {
  gather<<<(m->anchors + 127) / 128, 128>>>(m->in, m->out, m->anchors, m->classes, m->boxes);
}
""")
    found = _memory_findings(tmp_path)
    early = _before_start(found)
    assert early and all(f["severity"] == "warning" for f in early), [f["message"] for f in found]
    assert any(f["detail"]["assumption"].startswith("only when boxes = 0") for f in early), \
        [f["detail"]["assumption"] for f in early]


def test_probes_flip_a_flag_and_halve_then_double_an_integer():
    assert probes(1, True) == [0] and probes(0, True) == [1]
    assert probes(12, False) == [6, 24] and probes(1, False) == [2] and probes(0, False) == [1]


def test_the_schedule_tries_flags_then_products_then_multiples_then_every_half_then_every_double():
    runs = SimpleNamespace(flags={"boxes"}, value={"n": 8, "k": 3, "boxes": 1}.get)
    assert [tuple(r[:3]) for r in schedule(runs, ["n", "boxes", "k"])] == [
        ("boxes", 0, ""), ("n", 9, "a multiple of k = 3"), ("n", 4, ""), ("k", 1, ""), ("n", 16, ""), ("k", 6, "")]
    runs = SimpleNamespace(flags=set(), value={"c": 11, "stride": 2, "w": 8}.get)
    assert [(n, v, what) for n, v, what, _ in schedule(runs, ["c"], ["w", "c", "stride"]) if what] == [
        ("c", 12, "a multiple of stride = 2 and of stride*stride = 4"), ("c", 16, "a multiple of w = 8")]
    # a thread-index multiplier is raised to the largest product of two others first, after the flags
    assert [tuple(r) for r in schedule(runs, ["c"], ["w", "c", "stride"], {"c"})][:2] == [
        ("c", 16, "w*stride = 16", ()), ("c", 12, "a multiple of stride = 2 and of stride*stride = 4", ())]


REORG = """
__global__ void reorg(const float *x, int w, int h, int c, int stride, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= w * h * c) return;
  int in_w = i % w, in_h = (i / w) % h, in_c = i / (w * h);
  int out_c = c / (stride * stride);
  if (out_c < 1) return;
  int c2 = in_c % out_c, offset = in_c / out_c;
  int w2 = in_w * stride + offset % stride, h2 = in_h * stride + offset / stride;
  out[(c2 * h * stride + h2) * w * stride + w2] = x[i];  // a permutation when stride*stride divides c
}
struct Layer { int c; float *x, *out; };
void forward(struct Layer *l) {
  int n = 8 * 8 * l->c;
  reorg<<<(n + 255) / 256, 256>>>(l->x, 8, 8, l->c, 2, l->out);
}
"""


def test_a_race_that_needs_a_size_no_multiple_of_a_stride_squared_is_a_warning_naming_the_multiple(tmp_path: Path):
    (tmp_path / "reorg.cu").write_text(REORG)
    assumptions = _race_warnings(tmp_path)
    assert any(a.startswith("only at some values of c") and "of stride*stride = 4)" in a for a in assumptions), \
        assumptions


SOFTMAX = """
__device__ void softmax_row(const float *in, int n, int stride, float *out) {
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) { float e = expf(in[i * stride]); sum += e; out[i * stride] = e; }
  for (int i = 0; i < n; ++i) out[i * stride] /= sum;
}
__global__ void softmax(const float *in, int n, int batch, int batch_offset, int groups, int group_offset,
                        int stride, float *out) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= batch * groups) return;
  int b = id / groups, g = id % groups;
  softmax_row(in + b * batch_offset + g * group_offset, n, stride, out + b * batch_offset + g * group_offset);
}
struct Layer { int batch, inputs, w, h; };  // four classes a pixel
void forward(struct Layer *l) {
  int spatial = l->w * l->h;
  float *in, *out;
  cudaMalloc(&in, l->batch * l->inputs * sizeof(float));
  cudaMalloc(&out, l->batch * l->inputs * sizeof(float));
  softmax<<<(l->batch * spatial + 255) / 256, 256>>>(in, 4, l->batch, l->inputs, spatial, 1, spatial, out);
}
"""


def test_a_race_that_needs_an_offset_below_what_a_thread_spans_is_a_warning_naming_the_product(tmp_path: Path):
    """Each thread covers ``n`` values ``stride`` apart: the program's batch offset is at least ``n*stride`` (the
    layer's inputs: four classes a pixel), and the threads of two batches overlap only below it."""
    (tmp_path / "softmax.cu").write_text(SOFTMAX)
    assumptions = _race_warnings(tmp_path)
    assert any(a.startswith("only at some values of batch_offset") and "l->inputs" in a for a in assumptions), \
        assumptions


def test_extents_raise_a_thread_index_multiplier_to_products_of_two_other_arguments():
    from simu.evolve.refute_values import extents

    runs = SimpleNamespace(flags=set(), value={"n": 15, "off": 1, "groups": 3, "stride": 3, "one": 1}.get)
    # the largest product first, the smaller ones to narrow a loss over
    assert extents(runs, ["off"], [], ["n", "off", "groups", "stride", "one"]) == [
        ("off", 45, "n*groups = 45 and n*stride = 45", ((9, "groups*stride = 9"),))]
    assert extents(runs, ["n"], [], ["n", "off", "groups", "stride"]) == []  # 9 is no larger than 15
    # a count a thread index is compared with: lowered to the smallest product below it first, the nearer ones after
    assert extents(runs, [], ["n"], ["n", "groups", "stride"]) == [("n", 9, "groups*stride = 9", ())]
    runs = SimpleNamespace(flags=set(), value={"n": 77, "h": 4, "w": 3, "c": 8}.get)
    assert extents(runs, [], ["n"], ["n", "h", "w", "c"]) == [
        ("n", 12, "h*w = 12", ((32, "h*c = 32"), (24, "w*c = 24")))]
