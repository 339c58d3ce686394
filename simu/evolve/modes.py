"""The search's modes: what each registers with the loop, nothing else differs.

* ``full`` (simu's search): simu's fitness (conflicts, then code coverage, then Simulee's), the
  kernel's own constants as a dictionary (initial arguments, mutation jumps, a sweep after the
  first generation), then refutation of redundant barriers and shrinking of witnesses (both within the
  time budget), then the severity refutations (:mod:`simu.evolve.refute`, bounded by launches, not time).
* ``simulee``: Simulee's fitness and mutations (normal and Cauchy steps), nothing else.
* ``random``: fresh launches from the same prior until a finding, no fitness (the baseline).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from simu.evolve.fitness import Fitness, no_fitness, simu_fitness, simulee_fitness
from simu.evolve.operators import fresh, mutate
from simu.evolve.phases import dictionary_sweep, refute_redundant, shrink
from simu.evolve.refute import refute_by_arguments, refute_by_contents, refute_by_length
from simu.evolve.refute_counts import refute_by_counts
from simu.evolve.refute_overrun import refute_by_overrun
from simu.evolve.refute_rows import refute_by_rows
from simu.evolve.refute_shape import refute_by_block_shape
from simu.evolve.refute_state import refute_by_state
from simu.evolve.refute_values import refute_by_value


@dataclass(frozen=True)
class Mode:
    name: str
    fitness: Callable[[Any, list], Fitness]  # (trace, findings) -> fitness
    mutators: Callable[[Any], tuple]  # search -> the mutation operators, each parent gets one child from each
    dictionary: bool = False  # read the constants the kernel compares its arguments with
    sweep: Callable | None = None  # (search, population) -> extra individuals after the first generation
    settle: int = 2  # once something is found, stop after this many generations that found nothing new
    population: int | None = None  # None: the budget's
    bounded: bool = True  # at most the budget's generations (else: until the budget or the stop rule)
    phases: tuple[Callable[[Any], None], ...] = ()  # after the loop, in order


def normal_and_cauchy(search) -> tuple:
    """Simulee's operators; a scalar gene may also jump to one of the kernel's constants (the
    layout's dictionary, empty unless the mode reads it)."""
    layout = search.layout
    words = [layout.dictionary.get(p.name, []) for p in layout.scalars]
    # a block read off the kernel's shared tile is its likely contract: leave it more often than other genes
    block_rate = 0.2 if layout.shape.block_prior else None
    return tuple(partial(mutate, rng=search.rng, cauchy=cauchy, at=layout.at, dictionary=words, block_rate=block_rate,
                         fills=len(layout.fill_choices))
                 for cauchy in (False, True))


def fresh_launch(search) -> tuple:
    return (fresh(partial(search.layout.initial, search.rng)),)


MODES: dict[str, Mode] = {m.name: m for m in (
    Mode("full", simu_fitness, normal_and_cauchy, dictionary=True, sweep=dictionary_sweep,
         # a row length's one re-run before the order re-runs of state values: those raise every state value at
         # once and may spend the allowance the row's needs (Paddle-Lite's layer_norm_buffer_batch)
         phases=(refute_redundant, shrink, refute_by_arguments, refute_by_block_shape, refute_by_rows,
                 refute_by_state, refute_by_counts, refute_by_contents, refute_by_length, refute_by_overrun,
                 refute_by_value)),
    Mode("simulee", simulee_fitness, normal_and_cauchy),
    Mode("random", no_fitness, fresh_launch, settle=0, population=1, bounded=False),
)}
