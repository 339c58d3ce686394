"""Kernel sequences (issue 29): the host launches one kernel and then another on the same buffer; the second
kernel's contract names the first (simu/host/ast/sequence.py) and the search runs it first, at its own host launch,
so the second reads what the first leaves (simu/evolve/sequence.py).  The whole-program pair is
tests/programs/kernel_sequence."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simu.api import load_source
from simu.evolve.sequence import PriorCut, run_priors
from simu.host.contracts import kernel_contracts
from simu.interp import Limits
from simu.launch import Launch
from simu.launch.constraints import Prior

PROGRAM = Path(__file__).resolve().parent / "programs" / "kernel_sequence" / "bug" / "pack.cu"


def test_the_later_kernels_contract_names_the_earlier_launch_through_a_wrapper():
    module = load_source(PROGRAM.read_text(), "cuda", path=str(PROGRAM))
    pack = next(k for k in module.kernels if k.display_name.startswith("pack"))
    contracts = kernel_contracts(PROGRAM, pack, None).contracts
    assert contracts and contracts[0].before == (
        Prior("slots", "pack.cu:17", (4, 1, 1), (128, 1, 1), ((1, 512),), ((0, "pos"),)),)
    slots = next(k for k in module.kernels if k.display_name.startswith("slots"))
    assert all(not c.before for c in kernel_contracts(PROGRAM, slots, None).contracts)


def test_the_earlier_kernel_runs_first_and_leaves_the_buffer_as_program_data():
    module = load_source(PROGRAM.read_text(), "cuda")
    prior = Prior("slots", "pack.cu:17", (4, 1, 1), (128, 1, 1), ((1, 512),), ((0, "pos"),))
    launch = Launch((4, 1, 1), (128, 1, 1), {"in": np.zeros(512, np.float32), "pos": np.full(512, 7, np.int32),
                                             "out": np.zeros(512, np.float32), "n": 512})
    said = run_priors(module, launch, (prior,), Limits())
    assert said == "pos as slots leaves it at its host launch pack.cu:17"
    assert list(launch.args["pos"][:6]) == [0, 0, 1, 1, 2, 2]
    assert launch.buffer_specs["pos"]["produced"] == "slots at pack.cu:17"
    assert "in" not in launch.buffer_specs  # read, not written: the search's


def test_a_prior_that_cannot_run_as_the_program_runs_it_is_left_out():
    module = load_source(PROGRAM.read_text(), "cuda")
    launch = Launch((1, 1, 1), (32, 1, 1), {"in": np.zeros(32, np.float32), "pos": np.full(32, 7, np.int32),
                                            "out": np.zeros(32, np.float32), "n": 32})
    unknown_n = Prior("slots", "pack.cu:17", (1, 1, 1), (32, 1, 1), (), ((0, "pos"),))  # n not known
    missing = Prior("nowhere", "pack.cu:1", (1, 1, 1), (32, 1, 1), (), ((0, "pos"),))
    assert run_priors(module, launch, (unknown_n, missing), Limits()) == ""
    assert list(launch.args["pos"][:2]) == [7, 7]


def test_a_prior_a_lowered_bound_stops_cuts_the_launch_instead_of_leaving_it_the_searchs_contents():
    """A timed phase's or a refutation's bound, lower than the search's own, stops the earlier kernel: the later
    launch is not run on drawn contents (on a slower machine that made a launch the program never makes)."""
    module = load_source(PROGRAM.read_text(), "cuda")
    prior = Prior("slots", "pack.cu:17", (4, 1, 1), (128, 1, 1), ((1, 512),), ((0, "pos"),))

    def launch():
        return Launch((4, 1, 1), (128, 1, 1), {"in": np.zeros(512, np.float32), "pos": np.full(512, 7, np.int32),
                                               "out": np.zeros(512, np.float32), "n": 512})

    lowered = Limits(max_steps=3)
    with pytest.raises(PriorCut, match="slots at pack.cu:17, run first, step limit"):
        run_priors(module, launch(), (prior,), lowered, full=Limits())
    own = launch()  # the search's own bound stopped it: left out, the buffers stay the search's
    assert run_priors(module, own, (prior,), lowered, full=lowered) == ""
    assert list(own.args["pos"][:2]) == [7, 7]


SLOTS = """
__global__ void edge_slots(const int *src, const int *row, int *cursor, int *slot, int m) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < m) slot[e] = row[src[e]] + atomicAdd(&cursor[src[e]], 1);
}
__global__ void scatter(const int *slot, const int *dst, int *adj, int m) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < m) adj[slot[e]] = dst[e];
}
"""


def test_outputs_made_from_buffers_the_search_drew_say_so_and_follow_the_launchs_fill():
    """``edge_slots`` reads ``src`` and ``row``, which the later launch does not share: the search drew them, so the
    slots it hands out are no data the program is known to make (``drawn_inputs``: the contents refutation varies
    them), drawn as ``edge_slots`` uses them (a bucket scatter: :mod:`simu.ir.buckets`); a zero-filled probe runs it on
    zeros, and a variant of a sequenced launch is not run through it again."""
    module = load_source(SLOTS, "cuda")
    prior = Prior("edge_slots", "main.cu:40", (1, 1, 1), (64, 1, 1), ((4, 64),), ((3, "slot"),))

    def later(fill: str) -> Launch:
        return Launch((1, 1, 1), (64, 1, 1), {"slot": np.full(64, 9, np.int32), "dst": np.zeros(64, np.int32),
                                              "adj": np.zeros(64, np.int32), "m": 64}, seed=3, fill=fill)

    drawn = later("random")
    said = run_priors(module, drawn, (prior,), Limits())
    assert said.endswith("from src, row the search drew as edge_slots uses them") and drawn.sequenced
    assert drawn.buffer_specs["slot"]["drawn_inputs"] == "src, row"
    # drawn as edge_slots uses them: src ids below 32 (half the edges), row where each id's slots start, cursor
    # cleared: the slots are a permutation, as the program's are
    assert sorted(drawn.args["slot"].tolist()) == list(range(64))
    zeros = later("zeros")
    run_priors(module, zeros, (prior,), Limits())
    assert sorted(zeros.args["slot"].tolist()) == list(range(64))  # row 0, one cursor: slots 0..63


PLACE = """
#include <cstdio>
__global__ void block_offsets(const int *count, int *off, int nb) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int s = 0;
    for (int b = 0; b < nb; b++) { off[b] = s; s += count[b]; }
  }
}
__global__ void place(const int *off, const float *val, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[off[blockIdx.x] + threadIdx.x] = val[i];
}
int main() {
  int n, g;
  if (scanf("%d %d", &n, &g) != 2 || n < 1 || g < 1) return 1;
  int nb = (n + 127) / 128;
  int *d_count, *d_off;
  float *d_val, *d_out;
  cudaMalloc(&d_count, nb * sizeof(int));
  cudaMalloc(&d_off, nb * sizeof(int));
  cudaMalloc(&d_val, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  OFFSETS
  place<<<nb, 128>>>(d_off, d_val, d_out, n);
  cudaDeviceSynchronize();
  return 0;
}
"""
SCANNED = "block_offsets<<<g, 32>>>(d_count, d_off, nb);"  # a grid read at run time `place` is not given
FROM_FILE = """int *h_off = new int[nb];
  for (int b = 0; b < nb; b++) if (scanf("%d", &h_off[b]) != 1) return 1;
  cudaMemcpy(d_off, h_off, nb * sizeof(int), cudaMemcpyHostToDevice);"""


def _place_findings(tmp_path: Path, offsets: str) -> list:
    from simu.scan import ScanOverrides, resolve_options, scan

    root = tmp_path / "place"
    root.mkdir()
    (root / "main.cu").write_text(PLACE.replace("OFFSETS", offsets))
    result = scan(*resolve_options([root], ScanOverrides(budget=1.0, jobs=1, no_cache=True)))
    return [f for name, k in ((k.name, k) for _, k in result.kernels()) if name == "place" for f in k.findings]


def test_an_earlier_kernel_simu_cannot_run_is_kept_as_one_not_run(tmp_path: Path):
    module = load_source(PLACE.replace("OFFSETS", SCANNED), "cuda")
    place = next(k for k in module.kernels if k.display_name.startswith("place"))
    path = tmp_path / "main.cu"
    path.write_text(PLACE.replace("OFFSETS", SCANNED))
    (c,) = kernel_contracts(path, place, None).contracts
    (prior,) = c.before
    assert prior.kernel == "block_offsets" and not prior.runs and prior.shared == ((1, "off"),)


def test_addresses_an_earlier_kernels_data_picks_are_warnings_that_name_it(tmp_path: Path):
    """``place`` stores at ``off[blockIdx.x] + threadIdx.x``: distinct offsets still collide (0, 1, … with 128
    threads a block), so without the host's word the race stays an error; with ``block_offsets`` computing them
    before the launch (a launch simu cannot run as the program does) the race is that kernel's data to decide."""
    (tmp_path / "unrun").mkdir()
    (tmp_path / "file").mkdir()
    found = _place_findings(tmp_path / "unrun", SCANNED)
    races = [f for f in found if f.kind == "race"]
    assert races and all(f.severity == "warning" for f in found), [(f.kind, f.severity) for f in found]
    assert "block_offsets at main.cu" in races[0].message and "'off'" in races[0].message
    control = _place_findings(tmp_path / "file", FROM_FILE)  # offsets read from a file: no kernel makes them
    assert any(f.kind == "race" and f.severity == "error" for f in control)
