"""Win-rate statistics over ranges of Golf solitaire deals.

:mod:`golfsolve.stats.census` solves ranges of deals, or every k-th deal, in resumable
chunks (locally or on Dask) and loads them back; :mod:`golfsolve.stats.report` turns a run
into Markdown and HTML reports with plots; :mod:`golfsolve.stats.fairstats` and
:mod:`golfsolve.stats.gridruns` are the fair-stats and grid simulate runs, and
:mod:`golfsolve.stats.gridreport` a grid run's report. The report modules import pandas (and matplotlib to draw), so they are not imported here;
nor is the census itself until one of its names is used (PEP 562): a command checks its
arguments with the light modules (:mod:`.outdirs`, :mod:`.pool`, :mod:`.runfolder`,
:mod:`.runkind`) before pandas loads.
"""

from typing import Any

#: the census's names, importable from the package as before
_CENSUS = ("COLUMNS", "DEFAULT_RULES", "CensusSpec", "RunResult", "default_chunk_size", "load_results",
           "parse_rules_list", "read_manifest", "run_census", "run_status", "solve_chunk", "solve_deals",
           "spread_stride")


def __getattr__(name: str) -> Any:
    if name in _CENSUS:
        from . import census

        return getattr(census, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = list(_CENSUS)
