"""Hostile-user sweep, round 13: each test is a flaw a user met from outside, on the Golf
solitaire side (the solver's library, deal streams, the fair answers, stats runs and their
reports), each fixed with a test that fails without its fix. Fast: the deals solved here are
a handful, the fair answers few samples and games."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from golfsolve.errors import InputError

#: GO1-C-AAAAAAZ is lost under Classic whatever is played (its fewest cards left is 5)
LOST = "GO1-C-AAAAAAZ"


# ---------------------------------------------------------------------------
# the fair answers
# ---------------------------------------------------------------------------
def test_the_fair_answers_keep_a_whole_stock_the_player_turned_and_put_back():
    """odds GO1-C-AAAAAAZ --moves "d (16 times) u (16 times)" (every stock card turned and put
    back by undo) said "fair chance 6% [1, 19] ... unknown stock cards: 16", and hint --fair
    valued its moves over 64 sampled orders: the player has seen the whole stock (with one draw
    fewer it answered an exact 0%), and the deal is lost whatever is played"""
    from golfsolve.fair import fair_hint_for_player, odds_for_player
    from golfsolve.solitaire.hint import position_after
    from golfsolve.solitaire.layout import layout_from_code

    lay = layout_from_code(LOST)
    moves = " ".join(["d"] * 16 + ["u"] * 16)
    res = odds_for_player(lay, samples=20, games=3, moves=moves)
    assert (res.unknown, res.fair_chance, res.fair_exact, res.chance) == (0, 0.0, True, 0.0), res
    hint = fair_hint_for_player(lay, position_after(lay, moves.split()), player="fast")
    assert hint.all_orders and all(m.chance == 0.0 for m in hint.ranked), hint


def test_a_fair_answer_names_seen_stock_cards_its_layout_does_not_hold():
    from golfsolve.fair import fair_hint, odds
    from golfsolve.solitaire.layout import layout_from_code

    lay = layout_from_code(LOST)
    for call in (lambda: odds(lay, samples=5, games=1, seen=17), lambda: fair_hint(lay, seen=-1),
                 lambda: odds(lay, samples=5, games=1, seen=2.5)):
        with pytest.raises(InputError, match="^seen must be"):
            call()


# ---------------------------------------------------------------------------
# the solver's library
# ---------------------------------------------------------------------------
def _packed():
    from golfsolve.solitaire.rules import get_rules
    from golfsolve.solitaire.solver import pack_number

    return pack_number(25, get_rules("classic")), get_rules("classic")


@pytest.mark.parametrize("kw, error, words", [
    ({"rules": "classic"}, TypeError, "rules must be a Rules"),
    ({"rules": None}, TypeError, "rules must be a Rules"),
    ({"p": "layout"}, TypeError, "p must be a PackedPosition"),
    ({"node_limit": -1}, InputError, "node_limit must be from 0"),
    ({"node_limit": 2.5}, InputError, "node_limit must be a whole number"),
    ({"node_limit": float("nan")}, InputError, "node_limit must be a whole number"),
    ({"verdict_only": "no"}, TypeError, "verdict_only must be True or False"),
    ({"at_least": 99}, InputError, "at_least must be from 0 to 35"),
    ({"at_least": -3}, InputError, "at_least must be from 0 to 35"),
    ({"lost": "x"}, TypeError, "lost must be a LostStates or None"),
])
def test_solve_packed_checks_its_arguments_as_solve_does(kw, error, words):
    """Solver().solve_packed(p, "classic") failed as "'str' object has no attribute
    'draw_any_time'" (None the same), a Layout for p as "'Layout' object has no attribute 'cols'",
    node_limit=NaN as "cannot convert float NaN to integer"; node_limit=-1 searched without a
    limit and 2.5 stopped at 2 states, verdict_only="no" answered a verdict only (lost, cards
    left None), and at_least=99 answered "lost, best 35 cards left" for a deal whose best is 5"""
    from golfsolve.solitaire.layout import layout_from_code
    from golfsolve.solitaire.solver import Solver

    p, rules = _packed()
    args = {"p": p, "rules": rules, **kw}
    if args["p"] == "layout":
        args["p"] = layout_from_code(LOST)
    with pytest.raises(error, match="^" + re.escape(words)):
        Solver().solve_packed(**args)


@pytest.mark.parametrize("call, words", [
    (lambda s, p, r: s.solve_given(p, r, [None]), "each known answer must be a Solution"),
    (lambda s, p, r: s.solve_given(p, r, None), "known must be a list of Solutions"),
    (lambda s, p, r: __import__("golfsolve.solitaire.solver", fromlist=["x"]).pack_number(3, "easy"),
     "rules must be a Rules"),
    (lambda s, p, r: __import__("golfsolve.solitaire.solver", fromlist=["x"]).pack(None), "layout must be a Layout"),
])
def test_the_packed_solves_name_what_is_no_answer_rules_or_layout(call, words):
    """solve_given(p, rules, [None]) failed as "'NoneType' object has no attribute 'outcome'",
    pack_number(3, "easy") as "'str' object has no attribute 'jokers'", pack(None) as
    "'NoneType' object has no attribute 'stock_known'" """
    from golfsolve.solitaire.solver import Solver

    p, rules = _packed()
    with pytest.raises(TypeError, match="^" + re.escape(words)):
        call(Solver(), p, rules)


def test_solve_packed_still_takes_numpy_counts_and_answers_as_before():
    from golfsolve.solitaire.solver import Solver

    p, rules = _packed()
    s = Solver()
    plain = s.solve_packed(p, rules)
    again = s.solve_packed(p, rules, node_limit=np.int64(0), verdict_only=np.bool_(False), at_least=np.int64(0))
    assert (plain.outcome, plain.best_left, plain.moves) == (again.outcome, again.best_left, again.moves) == \
        ("lost", 5, plain.moves)
    known = s.solve_given(p, rules, (plain,))
    assert (known.outcome, known.best_left) == ("lost", 5)


# ---------------------------------------------------------------------------
# many deals: the deal streams of solve --codes-from, in the library
# ---------------------------------------------------------------------------
def _deals():
    from golfsolve.solitaire import deals

    return deals


@pytest.mark.parametrize("call, words", [
    (lambda d: list(d.code_lines("GO1-E-AAAAAAB")), "stream must be a text stream of deal codes"),
    (lambda d: list(d.code_lines(io.BytesIO(b"GO1-E-AAAAAAB\n"))), "stream must be opened as text"),
    (lambda d: list(d.solve_many("GO1-E-AAAAAAB")), "deals must be a list of Layouts"),
    (lambda d: list(d.solve_many(None)), "deals must be a list of Layouts"),
    (lambda d: d.record(None), "item must be one answer of solve_many"),
    (lambda d: d.DealBatch.build(None), "codes must be a list"),
    (lambda d: d.DealBatch.build(pysol=None), "pysol must be a list"),
])
def test_the_deal_streams_name_what_is_no_stream_or_no_deals(call, words):
    """code_lines("GO1-E-AAAAAAB") failed as "'str' object has no attribute 'readline'", a file
    opened "rb" as "'<=' not supported between instances of 'str' and 'int'"; solve_many of a
    code as text said "each deal must be a Layout ..., not str 'G'" (a deal a character),
    solve_many(None) and DealBatch.build(None) "'NoneType' object is not iterable", record(None)
    "cannot unpack non-iterable NoneType object" """
    with pytest.raises(TypeError, match="^" + re.escape(words)):
        call(_deals())


def test_the_deal_streams_still_take_text_streams_and_iterators():
    d = _deals()
    got = [d.record(x) for x in d.solve_many(d.code_lines(io.StringIO("\ufeffGO1-E-AAAAAAB\r\n\r\nbad\r\n")),
                                               verdict_only=True)]
    assert [r.get("deal", r.get("line")) for r in got] == ["GO1-E-AAAAAAB", 3]
    assert d.DealBatch.build(c for c in ["GO1-E-AAAAAAB"]).size == 1


# ---------------------------------------------------------------------------
# stats runs
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["stats", "fair-stats"])
def test_a_run_resumed_or_extended_with_another_spelling_of_its_rule_set_goes_on(run_cli, tmp_path, kind):
    """stats --rules classic+empty-start, then --resume --rules classic+empty (the same rule set:
    the switch has two names, as joker1 and jokers1 have, or switches in another order) was
    refused "differs in rules classic+empty-start (here classic+empty)", and --extend --count 2
    --rules classic+empty said "'classic+empty-start' and 'classic+empty' in --rules are the same
    rule set under two names", of a --rules that named one"""
    import pandas as pd

    out = str(tmp_path / "run")
    extra = ["--player", "fast"] if kind == "fair-stats" else []
    r = run_cli([kind, "--count", "1", "--rules", "classic+empty-start", "-j", "1", "--out", out, "-q", *extra])
    assert r.exit_code == 0, r.stderr
    r = run_cli([kind, "--count", "1", "--rules", "classic+empty", "-j", "1", "--out", out, "-q", "--resume", *extra])
    assert r.exit_code == 0, r.stderr
    r = run_cli([kind, "--count", "2", "--rules", "classic+empty", "-j", "1", "--out", out, "-q", "--extend", *extra])
    assert r.exit_code == 0, r.stderr
    df = pd.read_parquet(out)
    assert sorted(df["rules"]) == ["classic+empty-start"] * 2 and sorted(df["deal"]) == [0, 1]


def test_the_library_resumes_a_run_under_another_spelling_of_its_rule_set(tmp_path):
    from golfsolve.stats import CensusSpec, run_census

    out = tmp_path / "run"
    run_census(out, CensusSpec(0, 1, ("easy+draw-when-stuck",)), jobs=1, progress=False)
    run_census(out, CensusSpec(0, 1, ("easy+stuck",)), jobs=1, progress=False, resume=True)
    with pytest.raises(InputError, match="differs in rules"):  # another rule set is another run still
        run_census(out, CensusSpec(0, 1, ("classic",)), jobs=1, progress=False, resume=True)


def test_a_report_compares_a_rule_set_with_its_published_figure_whatever_its_name(tmp_path):
    """a stats run of --rules strict+anytime,dead-king+king-queen (Dead King and Classic under
    other names: switches on another preset) reported "—" in the published column for both,
    where --rules dead-king,classic gets black-hole-solve's 26% and 45% beside them"""
    from golfsolve.stats import CensusSpec, run_census
    from golfsolve.stats.report import report_data

    out = tmp_path / "run"
    run_census(out, CensusSpec(0, 2, ("strict+anytime", "dead-king+king-queen")), jobs=1, progress=False)
    got = {w["rules"]: (w.get("reference") or {}).get("name", "") for w in report_data(out)["win_rates"]}
    assert got["strict+anytime"].startswith("no-card-on-king") and got["dead-king+king-queen"].startswith(
        "queen-on-king"), got
