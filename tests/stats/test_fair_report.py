"""The fair-stats report (_fair.md, and the fair-play section of a joined report): its table, its
summary and the settings and command it names."""

from __future__ import annotations

import math

from golfsolve.fair.settings import PRESETS


def test_the_fair_report_describes_every_setting_that_shapes_the_preset():
    """A fair-stats report's paragraph (``_fair.md``) described the fast preset without its
    carried orders or its cards named by rank, and the strong preset without its more orders
    where none is won: a reader could not tell the two presets' methods apart from it. Now
    each of those settings is said in words."""
    from golfsolve.fair import PRESETS
    from golfsolve.stats.fairstats import describe_player

    fast, strong = describe_player(PRESETS["fast"]), describe_player(PRESETS["strong"])
    assert "last decision's with the cards drawn since taken out" in fast and "named by rank" in fast
    assert "up to 64" in strong and "named by rank" not in strong and "drawn since" not in strong
    assert "more orders until one does" in strong and "more orders until one does" not in fast


Z = 1.959963984540054


def test_the_fair_table_names_the_deals_an_unfinished_run_played():
    """Was: the fair-play table of a run missing deals 2 and 3 said "4 (deals 0–5)", as if every
    deal of the span had been played. It names the stretches; its rates are recomputed here."""
    from golfsolve.stats.fairstats import fair_table

    rows = [{"rules": "classic", "deal": d, "clairvoyant_won": d % 2 == 0, "fair_won": d == 0,
             "lost_on_draw": d == 4, "solves": 10 * d} for d in (0, 1, 4, 5)]
    head, table = fair_table(rows)
    (row,) = table
    assert row[1] == "4 (deals 0–1, 4–5)"

    def wilson(k, n):
        centre = (k + Z * Z / 2) / (n + Z * Z)
        half = Z / (n + Z * Z) * math.sqrt(k * (n - k) / n + Z * Z / 4)
        return f"{100 * k / n:.1f}% [{100 * max(0, centre - half):.1f}, {100 * min(1, centre + half):.1f}]"

    assert row[2:6] == [wilson(2, 4), wilson(1, 4), wilson(1, 4), wilson(1, 2)]
    assert row[6:] == ["1 of 1", "25"]
    assert fair_table([{**r, "deal": r["deal"] + 100} for r in rows if r["deal"] < 2])[1][0][1] == "2 (deals 100–101)"


def test_a_runs_latest_command_is_never_a_resume():
    """was: after ``fair-stats ... --resume`` the fair table's "Command:" (and the difficulty
    table's) named the --resume, which on a new folder only says there is no run to resume"""
    from golfsolve.stats.runfolder import latest_command

    first = "golfsolve fair-stats --count 6 --out f --quiet"
    grown = "golfsolve fair-stats --count 9 --out f --extend --quiet"
    m = {"command": first, "invocations": [{"command": first}, {"command": first + " --resume --json"}]}
    assert latest_command(m) == first
    m["invocations"] += [{"command": grown}, {"command": "golfsolve fair-stats --out f --resume"}]
    assert latest_command(m) == grown


def test_fair_report_says_what_lost_on_a_draw_counts():
    """was: the fair-stats table had a column "lost on a draw" with cells "1 of 1" and "0 of 0",
    and nothing said of what: the gap's deals (winnable, lost by the fair player)."""
    from golfsolve.stats.fairstats import FairSpec, fair_intro, fair_table

    rows = [{"rules": "classic", "deal": d, "clairvoyant_won": c, "fair_won": f, "lost_on_draw": o, "solves": 10}
            for d, c, f, o in ((0, True, True, False), (1, True, False, True), (2, False, False, False))]
    head, table = fair_table(rows)
    col = head.index("gap deals lost on a draw")
    assert table[0][col] == "1 of 1"
    spec = FairSpec(0, 3, ("classic",), 0, 1, PRESETS["fast"])
    assert "Gap deals lost on a draw: of the gap's deals" in fair_intro("golfsolve fair-stats", spec)
