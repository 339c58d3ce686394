"""A search's budget: evaluations, seconds of CPU time, and what the severity refutations may spend.

Its own module, free of the search's imports, so that a command that runs one complete launch (``simu check`` with
``--grid``, ``--block`` and every argument given) names a budget without importing DEAP and the search.
"""

from __future__ import annotations

from dataclasses import dataclass

CHECK_GUARD_SECONDS = 10.0  # `simu check`'s evaluation budget also stops the search after this long
MAX_PROBE_SECONDS = 2.0  # per searched launch (an explicit --grid/--block run keeps the full limit)
# what the severity refutations may spend per second of the budget, in steps: a launch costs its interpreter
# steps (one instruction of a group of threads) plus a step per ACCESSES_PER_STEP accesses it recorded (recording
# and judging them); a step was 12 to 70 us on the development machine when this was 8,000 (a few lanes, or hundreds
# of lanes loading through checked pointers) and is about a quarter cheaper since (a few lanes' step: 9.5 -> 6.8 us),
# so 10,000 keeps the allowance at about a third of the budget on heavy kernels -- work the budget the user gave
# fixes, whatever the machine's speed (a faster search finds more witnesses, which the allowance must still judge).
# The loop ends at the budget, the timed phases at
# phases.SHRINK_GUARD budgets: together under `simu scan`'s CPU limit of twice the budget
REFUTE_STEPS_PER_SECOND = 10_000


@dataclass
class Budget:
    evaluations: int = 40
    seconds: float = 1.5
    population: int = 6
    generations: int = 8
    min_evaluations: int = 10
    probe_seconds: float = MAX_PROBE_SECONDS  # wall-clock limit of one searched launch
    # launches the severity refutations (simu.evolve.refute) may run after the loop, whatever the clock says:
    # a finding's severity must not depend on the machine's speed
    refutations: int = 24
    # when contracts split a kernel's budget (simu.evolve.alternatives.share): the clock reading at which the
    # kernel's whole budget ends.  A search's first launch, which may run past its own share so that a heavy
    # kernel is judged at all, stops there, or at the end of its own share where the contracts before it ran past
    # the deadline: a contract's first launch may use what the others leave and never less than its share.
    kernel_deadline: float | None = None

    def refutation_steps(self) -> int:
        """Steps of cost the severity refutations may spend in all (:data:`REFUTE_STEPS_PER_SECOND`,
        :func:`launch_cost`)."""
        return int(REFUTE_STEPS_PER_SECOND * self.seconds)
