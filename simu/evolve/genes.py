"""Named positions in a launch's genome (:class:`Genes`): the dimensions, the scalar arguments, the fill and the
seed, one float each."""

from __future__ import annotations


class Genes:
    """Named positions in a genome with ``scalars`` scalar-argument genes.

    ``GRID`` and ``BLOCK`` hold the dimensions (log2, x y z), ``SCALARS`` one gene per searched
    scalar argument (``scalar(j)``), then ``FILL`` (an index into
    :data:`~simu.launch.buffers.PLAIN_FILLS`) and ``SEED`` (the buffers' generator seed).
    """

    GRID = slice(0, 3)
    BLOCK = slice(3, 6)
    DIMS = slice(GRID.start, BLOCK.stop)  # grid then block

    def __init__(self, scalars: int):
        self.scalars = scalars
        self.SCALARS = slice(self.DIMS.stop, self.DIMS.stop + scalars)
        self.FILL = self.SCALARS.stop
        self.SEED = self.FILL + 1
        self.size = self.SEED + 1

    @classmethod
    def grid(cls, axis: int) -> int:
        return cls.GRID.start + axis

    @classmethod
    def block(cls, axis: int) -> int:
        return cls.BLOCK.start + axis

    def scalar(self, j: int) -> int:
        return self.SCALARS.start + j

    def scalar_index(self, i: int) -> int | None:
        """``j`` when position ``i`` is ``scalar(j)``, else None."""
        return i - self.SCALARS.start if self.SCALARS.start <= i < self.SCALARS.stop else None

    def launch_part(self, genes: list[float]) -> tuple[float, ...]:
        """Every gene but the seed (the seed alone does not make a different launch)."""
        return tuple(genes[:self.SEED])
