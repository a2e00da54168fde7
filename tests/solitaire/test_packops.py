"""The packed dominance row against the entry-by-entry rule it stands for."""

from __future__ import annotations

import random

import numpy as np

from golfsolve.solitaire.huntsteps import dominates
from golfsolve.solitaire.packing import EMPTY_ROW, EMPTY_SLOT, SLOTS
from golfsolve.solitaire.packops import row_dominated, row_dominates, row_drop, row_insert, row_insert_above, slot


def _one_by_one(entries, freed, s, above=False):
    """What the searches did before rows were integers: None when the state is covered by an
    entry, else the entries it covers dropped and its own in the first free slot. An entry
    covers the state when it dominates it (the hunt's lost entries) or, with ``above``, when
    the state dominates it (the order search's win entries)."""
    def covers(a, b):
        a, b = ((b, a) if above else (a, b))
        return dominates(a[0], a[1], b[0], b[1])

    entries = list(entries)
    free = -1
    for j, e in enumerate(entries):
        if e == EMPTY_SLOT:
            free = j if free < 0 else free
            continue
        if covers((e >> 5, e & 31), (freed, s)):
            return None
        if covers((freed, s), (e >> 5, e & 31)):
            entries[j] = EMPTY_SLOT
            free = j if free < 0 else free
    entries[free if free >= 0 else SLOTS - 1] = int(slot(freed, s))
    return entries


def _random_case(rng):
    """Random entries (empty 40% of the time) as a list and as a row, and a random state.
    The entries of a real row never dominate one another; random ones may, and the row
    operations must still agree with the one-by-one rules on them."""
    entries = [EMPTY_SLOT if rng.random() < 0.4 else int(slot(rng.randrange(128), rng.randrange(19)))
               for _ in range(SLOTS)]
    row = np.uint64(sum(e << (16 * j) for j, e in enumerate(entries)))
    return entries, row, rng.randrange(128), rng.randrange(19)


def _entries(row):
    return [(int(row) >> (16 * j)) & 0xFFFF for j in range(SLOTS)]


def test_row_operations_agree_with_the_entries_one_by_one():
    rng = random.Random("dominance rows")
    dominated = inserted = dropped = 0
    for _ in range(20000):
        entries, row, freed, s = _random_case(rng)
        want = _one_by_one(entries, freed, s)
        assert row_dominates(row, freed, s) == (want is None), (entries, freed, s)
        if want is None:
            dominated += 1
            continue
        got = int(row_insert(row, freed, s))
        assert _entries(got) == want, (entries, freed, s)
        inserted += 1
        dropped += any(e != EMPTY_SLOT and w == EMPTY_SLOT for e, w in zip(entries, want))
    assert dominated > 1000 and inserted > 1000 and dropped > 100
    assert not row_dominates(np.uint64(EMPTY_ROW), 0, 18)
    assert int(row_insert(np.uint64(EMPTY_ROW), 5, 3)) == (EMPTY_ROW & ~0xFFFF) | int(slot(5, 3))


def test_win_row_operations_agree_with_the_entries_one_by_one():
    rng = random.Random("win rows")
    covered = inserted = dropped = 0
    for _ in range(20000):
        entries, row, freed, s = _random_case(rng)
        want = _one_by_one(entries, freed, s, above=True)
        assert row_dominated(row, freed, s) == (want is None), (entries, freed, s)
        if want is None:
            covered += 1
            continue
        assert _entries(row_insert_above(row, freed, s)) == want, (entries, freed, s)
        inserted += 1
        dropped += any(e != EMPTY_SLOT and w == EMPTY_SLOT for e, w in zip(entries, want))
        # row_drop empties every slot holding the entry, and only those
        e = entries[rng.randrange(SLOTS)] if rng.random() < 0.7 else int(slot(freed, s))
        assert _entries(row_drop(row, e)) == [EMPTY_SLOT if x == e else x for x in entries], (entries, e)
    assert covered > 1000 and inserted > 1000 and dropped > 100
    assert not row_dominated(np.uint64(EMPTY_ROW), 127, 0)
