"""`simu mine`: many repositories and their fix history analysed into one SQLite database.

Modules: :mod:`~simu.mine.sources` (what to mine: URLs, paths, list files; clones), :mod:`~simu.mine.git` (the
git command line, run safely), :mod:`~simu.mine.analyse` (one tree through `simu scan`'s machinery; the Dask
task), :mod:`~simu.mine.rows` (results as plain rows), :mod:`~simu.mine.schema` and :mod:`~simu.mine.store`
(the database), :mod:`~simu.mine.history` (commit filtering, finding matching), :mod:`~simu.mine.run` (the
orchestration), :mod:`~simu.mine.limits` (per-repository limits), :mod:`~simu.mine.dask_backend`,
:mod:`~simu.mine.queries` (status, export, report), :mod:`~simu.mine.export`, :mod:`~simu.mine.html` and
:mod:`~simu.mine.charts` (the HTML report).

A study in a notebook::

    from simu.mine import MineSettings, mine, parse_sources
    from simu.scan import ScanOverrides
    summary = mine(parse_sources(["@repos.txt"]), MineSettings(Path("gpu.db"), overrides=ScanOverrides(budget=2)))
"""

from simu.mine.run import MineError, MineEvents, MineSettings, MineSummary, mine
from simu.mine.sources import Source, SourceError, parse_list, parse_sources

__all__ = ["MineError", "MineEvents", "MineSettings", "MineSummary", "Source", "SourceError", "mine", "parse_list",
           "parse_sources"]
