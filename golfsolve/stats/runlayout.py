"""What a run folder is made of, as plain names: its files, the kinds of run that make
one, and its limits.

The one home of these constants, below both :mod:`.runfolder` (which reads and writes run
folders) and :mod:`.manifestmodel` (the manifest's pydantic model, which checks them), so
neither imports the other's module for a constant. It imports nothing: a command checks
whether a folder holds a run without loading pandas or pydantic.
"""

from __future__ import annotations

MANIFEST = "_manifest.json"
#: The manifest's name in runs made before it was renamed (pandas could not read those folders).
OLD_MANIFEST = "manifest.json"
CHUNK_PREFIX = "chunk-"
#: The advisory lock of a run folder: held by the one command writing it (hidden, so
#: pandas never reads it and an empty folder with only this file still counts as empty).
LOCK = ".golfsolve.lock"

#: The most chunk files a run may have: beyond this, listing and checking them costs more
#: than the chunking saves.
MAX_CHUNKS = 1_000_000
#: The most groups (rule sets) and blocks a run may have.
MAX_GROUPS = 64
MAX_BLOCKS = 1000
#: A manifest larger than this is not one golfsolve wrote (one line per invocation).
MAX_MANIFEST_BYTES = 64 * 2**20

#: The manifest's ``format`` of each kind of run (fair-stats' here too, so that a command can
#: check a folder holds one before it loads the fair player's modules). A grid run's items
#: are matches, the others' deals.
STATS = "golfsolve-stats/1"
FAIR_STATS = "golfsolve-fair-stats/1"
GRID_SIMULATE = "golfsolve-grid-simulate/1"
GRID_STUDY = "golfsolve-grid-study/1"
#: Kinds of run: the manifest's ``format`` and the command that makes it.
COMMANDS = {STATS: "golfsolve stats", FAIR_STATS: "golfsolve fair-stats",
            GRID_SIMULATE: "golfsolve grid simulate", GRID_STUDY: "golfsolve grid study"}

__all__ = ["CHUNK_PREFIX", "COMMANDS", "FAIR_STATS", "GRID_SIMULATE", "GRID_STUDY", "LOCK", "MANIFEST", "MAX_BLOCKS",
           "MAX_CHUNKS", "MAX_GROUPS", "MAX_MANIFEST_BYTES", "OLD_MANIFEST", "STATS"]
