"""Kernel sequences (issue 29): the host launches one kernel and then another on the same buffer; the second
kernel's contract names the first (simu/host/ast/sequence.py) and the search runs it first, at its own host launch,
so the second reads what the first leaves (simu/evolve/sequence.py).  The whole-program pair is
tests/programs/kernel_sequence."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simu.api import load_source
from simu.evolve.sequence import run_priors
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
    them); a zero-filled probe runs it on zeros, and a variant of a sequenced launch is not run through it again."""
    module = load_source(SLOTS, "cuda")
    prior = Prior("edge_slots", "main.cu:40", (1, 1, 1), (64, 1, 1), ((4, 64),), ((3, "slot"),))

    def later(fill: str) -> Launch:
        return Launch((1, 1, 1), (64, 1, 1), {"slot": np.full(64, 9, np.int32), "dst": np.zeros(64, np.int32),
                                              "adj": np.zeros(64, np.int32), "m": 64}, seed=3, fill=fill)

    drawn = later("random")
    said = run_priors(module, drawn, (prior,), Limits())
    assert said.endswith("from src, row the search drew") and drawn.sequenced
    assert drawn.buffer_specs["slot"]["drawn_inputs"] == "src, row"
    zeros = later("zeros")
    run_priors(module, zeros, (prior,), Limits())
    assert sorted(zeros.args["slot"].tolist()) == list(range(64))  # row 0, one cursor: slots 0..63
