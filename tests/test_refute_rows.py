"""Errors that need a searched row length shorter than the launch's extent (simu/evolve/refute_rows.py): an
unguarded kernel that linearises a thread index with an argument was written for launches of that many work-items
along the dimension, so rows that overlap at a shorter argument are a warning that says so; a race at any row
length stays an error."""

from __future__ import annotations

import math

from simu import codes
from simu.api import load_source
from simu.evolve import Budget
from simu.evolve.refute_rows import refute_by_rows
from simu.evolve.rows import row_length_arguments, row_lengths
from simu.evolve.search import Search
from simu.pipeline import CheckSettings

KERNELS = """
__kernel void scale_rows(__global float *out, __global const float *in, int width) {
  int c = get_global_id(0), w = get_global_id(1);
  out[mad24(c, width, w)] = in[c * width + w] + w;  // rows overlap when more than width work-items run along 1
}
__kernel void sum_rows(__global float *out, __global const float *in, int width) {
  int c = get_global_id(0), w = get_global_id(1);
  out[c] += in[c * width + w];  // every work-item of a row adds into one element: a race at any width
}
__kernel void copy_image(__read_only image2d_t in, __write_only image2d_t out, int out_width) {
  int c = get_global_id(0), w = get_global_id(1);
  int2 pos = (int2)(c * out_width + w, get_global_id(2));
  write_imagef(out, pos, read_imagef(in, CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST, pos));
}
__kernel void tag_image(__write_only image2d_t out, int out_width) {
  int c = get_global_id(0), w = get_global_id(1);
  write_imagef(out, (int2)(c * out_width + w, get_global_id(2)), (float4)(c));  // a block of columns per c
}
__kernel void copy_by_fields(__write_only image2d_t out, int out_width) {
  int2 pos;
  pos.x = get_global_id(0) * out_width + get_global_id(1);
  pos.y = get_global_id(2);
  write_imagef(out, (int2)(pos.x, pos.y), (float4)(1.0f));  // the coordinate rebuilt from its components
}
__kernel void two_passes(__global float *out, int width) {
  int c = get_global_id(0), w = get_global_id(1);
  out[c * width + w] = (float)c;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[c * width + w] += (float)w;  // a second error on the same witness, at other lines
}
__kernel void tag_shaped(__write_only image2d_t out, int2 out_shape) {
  int c = get_global_id(0), w = get_global_id(1);  // a shape passed as one int2: .x the row length
  write_imagef(out, (int2)(c * out_shape.x + w, get_global_id(2) % out_shape.y), (float4)(c));
}
__kernel void tag_pairs(__write_only image2d_t out, int old_w, int out_width) {
  int c = get_global_id(0), w = get_global_id(1) * 2;  // each work-item writes two columns
  if (w >= out_width) return;
  write_imagef(out, (int2)(mad24(c, old_w, w), get_global_id(2)), (float4)(c));
  if (w + 1 < out_width) write_imagef(out, (int2)(mad24(c, old_w, w + 1), get_global_id(2)), (float4)(c));
}
__kernel void norm_rows(__global float *out, int width) {
  int w = get_global_id(1), h = get_global_id(0) / 2;  // a row the kernel computes from a thread index
  out[h * width + w] = (float)w;  // rows overlap when more than width work-items run along 1
}
__kernel void split_index(__global float *out, int width) {
  int i = get_global_id(0);
  out[(i / width) * width + i % width] = 1.0f;  // row and column computed from one index: no row length
}
__kernel void guarded(__global float *out, int n) {
  int i = get_global_id(0);
  if (i < n) out[i] = 1.0f;
}
"""


def _module():
    return load_source(KERNELS, "opencl")


def _search(name: str, grid: tuple[int, int], block: tuple[int, int], width: int) -> Search:
    m = _module()
    s = Search(m, m.kernel(name), CheckSettings(), None,
               budget=Budget(evaluations=40, seconds=600, probe_seconds=120), seed=0)
    genes = s.layout.initial(s.rng)
    genes[s.layout.at.GRID] = [math.log2(grid[0]), math.log2(grid[1]), 0.0]
    genes[s.layout.at.BLOCK] = [math.log2(block[0]), math.log2(block[1]), 0.0]
    genes[s.layout.at.scalar(0)] = float(width)
    assert s.evaluate(genes).valid
    return s


def _races(s: Search) -> list:
    return [f for f, _ in s.found.values() if f.kind == "race"]


def _refuted_to_warnings(s: Search, said: str) -> None:
    """Every race of ``s`` an error before :func:`refute_by_rows`, a warning whose message says ``said`` after."""
    assert _races(s) and all(f.severity == codes.ERROR for f in _races(s))
    refute_by_rows(s)
    races = _races(s)
    assert races and all(f.severity == codes.WARNING for f in races), races
    assert said in races[0].message, races[0].message


def test_row_lengths_are_read_from_addresses_and_image_coordinates():
    m = _module()
    assert row_length_arguments(m.kernel("scale_rows")) == {"width"}
    assert row_length_arguments(m.kernel("copy_image")) == {"out_width"}
    assert row_length_arguments(m.kernel("copy_by_fields")) == {"out_width"}
    assert row_length_arguments(m.kernel("tag_shaped")) == {"out_shape"}
    assert row_length_arguments(m.kernel("guarded")) == set()
    assert row_length_arguments(m.kernel("norm_rows")) == {"width"}
    assert row_length_arguments(m.kernel("split_index")) == set()
    assert row_lengths(m.kernel("tag_pairs")) == {"old_w": 2}  # a work-item spans two columns of a row


def test_overlapping_rows_at_a_searched_width_are_a_warning_that_names_it():
    s = _search("scale_rows", (2, 2), (1, 8), 4)  # 16 work-items along dimension 1, rows of 4
    assert _races(s) and all(f.severity == codes.ERROR for f in _races(s))
    refute_by_rows(s)
    races = _races(s)
    assert races and all(f.severity == codes.WARNING for f in races), races
    assert "only when width = 4 is shorter than the 16 work-items the launch runs along one dimension" in \
        races[0].message


def test_a_race_at_every_width_stays_an_error():
    s = _search("sum_rows", (2, 2), (1, 8), 4)
    assert _races(s)
    refute_by_rows(s)
    assert any(f.severity == codes.ERROR for f in _races(s))


def test_overlapping_image_rows_are_judged_on_an_image_as_wide_as_the_raised_rows():
    """Rows raised to the launch's extent write past the image the search drew for the short ones: the re-run
    widens the image as the rows grew, so the accesses still run and the race is seen to go (Paddle-Lite's
    SplitChannel)."""
    s = _search("tag_image", (4, 1), (1, 8), 2)  # a block per c, 8 work-items along dimension 1, rows of 2
    _refuted_to_warnings(s, "only when out_width = 2 is shorter than the 8 work-items")


def test_errors_sharing_a_witness_are_each_judged_on_its_rerun():
    """The re-run at a raised row length is made once per witness and judges every error that witness shows: it
    reads the source positions of all of them, not only of the first judged (Paddle-Lite's instance_norm kept its
    later statements' races as errors)."""
    s = _search("two_passes", (2, 2), (1, 8), 4)
    lines = {f.first.line for f in _races(s)}
    assert len(lines) >= 2 and all(f.severity == codes.ERROR for f in _races(s))
    refute_by_rows(s)
    assert all(f.severity == codes.WARNING for f in _races(s)), [(f.first.line, f.severity) for f in _races(s)]


def test_a_row_length_the_host_computes_from_its_state_is_judged_too():
    """A host launch whose row length the host reads off its own data (``out_w = dims[3]``) launches as many
    work-items as that length says: rows that overlap at a shorter drawn value are not the program's."""
    s = _search("scale_rows", (2, 2), (1, 8), 4)
    s.layout.state["width"] = "out_w = out_dims[3]"
    assert _races(s) and all(f.severity == codes.ERROR for f in _races(s))
    refute_by_rows(s)
    assert _races(s) and all(f.severity == codes.WARNING for f in _races(s))


def test_overlapping_rows_at_a_searched_shape_component_are_a_warning_too():
    """``int2 output_shape`` with ``.x`` the row length (Paddle-Lite's conv2d_depthwise_transpose): the shape is a
    row length as an ``int`` would be, judged by its shortest component."""
    s = _search("tag_shaped", (4, 1), (1, 8), 2)
    _refuted_to_warnings(s, "only when out_shape = 2 is shorter than the 8 work-items")


def test_rows_of_work_items_spanning_several_columns_are_raised_past_every_column():
    """``out_w = get_global_id(1) * 2`` with the row length another argument than the bound (Paddle-Lite's
    conv2d_1x1_h2w2c1, ``mad24(out_c, old_w, out_w)``): the re-run raises the row to the columns the work-items
    span, twice their number, or the rows would still overlap."""
    s = _search("tag_pairs", (4, 1), (1, 8), 4)
    s.layout.ranges["out_width"] = (16, 16)  # the bound: every column the 8 work-items write
    genes = s.layout.initial(s.rng)
    genes[s.layout.at.GRID] = [2.0, 0.0, 0.0]
    genes[s.layout.at.BLOCK] = [0.0, 3.0, 0.0]
    genes[s.layout.at.scalar(0)] = 4.0
    genes[s.layout.at.scalar(1)] = 16.0
    assert s.evaluate(genes).valid
    _refuted_to_warnings(s, "only when old_w = 4 is shorter than the 16 columns the launch's work-items span (2 each)")


def test_rows_the_kernel_computes_from_a_thread_index_are_judged_like_thread_index_rows():
    """``out_h * width + out_w`` with ``out_h = out_nh % height`` a row the kernel computes and ``out_w =
    get_global_id(1)`` its column (Paddle-Lite's layer_norm_buffer_batch, whose host launches ``min(256, w)``
    work-items along 1): a column never compared with ``width`` runs into the next row only at a shorter width."""
    s = _search("norm_rows", (2, 1), (2, 8), 4)
    _refuted_to_warnings(s, "only when width = 4 is shorter than the 8 work-items")


def test_the_row_is_raised_to_the_shortest_extent_that_loses_the_error_first():
    """Rows along dimension 1 (8 work-items) of a launch 32 work-items long along 0: a re-run at width 8 loses the
    race, and costs a loop over the row a quarter of one at 32 (Paddle-Lite's layer_norm_buffer_batch reads the
    whole row per work-item: at the longest extent its re-run ran past the refutations' allowance)."""
    s = _search("norm_rows", (8, 1), (4, 8), 4)
    _refuted_to_warnings(s, "only when width = 4 is shorter than the 8 work-items the launch runs along one dimension")
