"""The (mu + lambda) loop, after DEAP's ``eaMuPlusLambda``: parents and their children compete, the best survive.

The loop knows nothing of launches: a :class:`Toolbox` says how to make, evaluate, vary and select
genomes, and a :class:`StopRule` when to stop.  The search's modes differ only in what they
register (see :mod:`simu.evolve.modes`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from deap import base, creator

if not hasattr(creator, "SimuFitness"):
    # conflicts (max), coverage reached (max), collision ratio (min), address range (min)
    creator.create("SimuFitness", base.Fitness, weights=(1.0, 1.0, -1.0, -1.0))
    creator.create("SimuGenome", list, fitness=creator.SimuFitness)

Genome = list[float]


@dataclass
class Toolbox:
    individual: Callable[[], Genome]  # a genome from the prior
    evaluate: Callable[[Genome], tuple[float, ...]]  # its fitness
    mutators: tuple[Callable[[Genome], Genome], ...]  # each parent yields one child per operator
    select: Callable[[list, int], list]  # the survivors
    sweep: Callable[[list], list] | None = None  # extra evaluated individuals after the first generation


@dataclass
class StopRule:
    exhausted: Callable[[], bool]  # the budget is spent: stop at once (asked after every evaluation)
    progress: Callable[[], int]  # grows when something new is found
    enough: Callable[[int], bool]  # given how many generations in a row found nothing new


def individual(genes: Genome):
    """A DEAP individual (a genome with a fitness) holding ``genes``."""
    return creator.SimuGenome(genes)


def evaluated(ind, toolbox: Toolbox):
    ind.fitness.values = toolbox.evaluate(ind)
    return ind


def mu_plus_lambda(toolbox: Toolbox, mu: int, generations: int | None, stop: StopRule) -> list:
    """Evolve ``mu`` genomes for ``generations`` generations (None: until the stop rule says so);
    the last population."""
    pop = [individual(toolbox.individual()) for _ in range(mu)]
    for ind in pop:
        evaluated(ind, toolbox)
        if stop.exhausted():
            return pop
    if stop.enough(0):
        return pop
    if toolbox.sweep is not None:
        pop = toolbox.select(pop + toolbox.sweep(pop), mu)
        if stop.exhausted():
            return pop
    stale = 0  # generations in a row that found nothing new
    for _ in range(generations) if generations is not None else itertools.count():
        before = stop.progress()
        children = []
        for parent in pop:
            for mutate in toolbox.mutators:
                children.append(evaluated(individual(mutate(list(parent))), toolbox))
                if stop.exhausted():
                    return pop
        pop = toolbox.select(pop + children, mu)
        stale = stale + 1 if stop.progress() == before else 0
        if stop.enough(stale):
            return pop
    return pop
