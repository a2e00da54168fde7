"""What the tests check a printed line of play with: the game engine, which shares no move
generation with the solver, replays it (the standard's second cross-check)."""

from __future__ import annotations

from golfsolve.solitaire.engine import Game, replay


def assert_record_replays(rec: dict, layout, before: str = "") -> Game:
    """The engine must accept every move of ``rec["moves"]`` (after the moves ``before``, as a
    hint's line goes on from its move) and end with the promised cards left: a won line wins,
    a lost one is played to the game's end (docs/formats.md, ``solve --json``'s ``moves``)."""
    game, results = replay(layout, f"{before} {rec['moves']}".split(), layout.rules)
    assert all(r.ok for r in results), [(i, r.move, r.message) for i, r in enumerate(results) if not r.ok][:3]
    assert game.traditional_score() == rec["best_cards_left"]
    assert game.won == (rec["outcome"] == "won")
    if rec["outcome"] == "lost":
        assert game.locked, "a lost line must be played to the game's end"
    return game
