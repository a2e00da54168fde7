"""Fair play: Golf solitaire without seeing the stock.

A player holding the real game sees the table, the discard pile and the cards turned so
far, never the order of the stock. Everything here answers from that view only, so two
positions that differ only in hidden cards get the same answer (the honesty tests check
it). The public API:

* :func:`odds` (:class:`OddsResult`): the clairvoyant chance (share of consistent stock
  orders that can be won at all) and the fair chance (the fair player's win rate, or the
  exact expectimax value when few cards are unknown), each with a 95% interval;
* :func:`fair_hint` (:class:`FairHint`): every legal move ranked without peeking;
* :func:`play` (:class:`FairGame`): the fair player plays a deal whose stock only the
  referee knows; :class:`PlayerSettings` and :data:`PRESETS` (``fast``, ``strong``)
  name its settings;
* :func:`rate` (:class:`Rating`) and :func:`pick` (:class:`PickResult`): a deal's
  difficulty by its fair chance, and deals of a chosen difficulty;
* :func:`player_view`: what a player sees of a position; :func:`odds_for_player` and
  :func:`fair_hint_for_player`: both answers from a real position's view, as the
  commands and the server give them (:func:`fair_hint_answer`: the hint's ``--json``);
* :func:`stock_orders`: every stock order consistent with a view when there are few,
  else a seeded sample; :func:`unknown_pool`: the places and cards behind it;
  :func:`referee_seed`: the seed of the orders ``odds`` and ``rate`` play on, apart from
  the player's own.

Every result has ``as_json()``, the exact dict ``golfsolve ... --json`` prints, and
records the player's full settings. Modules: :mod:`.orders`, :mod:`.view`,
:mod:`.infoset` (pre-draw states and their values), :mod:`.exact` (expectimax),
:mod:`.player`, :mod:`.odds`, :mod:`.api` (the fair hint), :mod:`.difficulty`, and
:mod:`.settings` (the presets, the difficulty labels, the stopping rule of ``odds``: plain
data). Each name is imported from its module when it is first used (PEP 562), so that a
command can check its options against :mod:`.settings` without loading the solver.
"""

import sys
import types
from importlib import import_module
from typing import Any

#: where each public name lives
_WHERE = {
    "FairHint": "api", "MoveChance": "api", "fair_hint": "api", "fair_hint_answer": "api", "fair_hint_for_player": "api",
    "fair_game_over_answer": "api",
    "OddsResult": "odds", "odds": "odds", "odds_for_player": "odds",
    "PickResult": "difficulty", "PickStopped": "difficulty", "Rating": "difficulty", "pick": "difficulty", "rate": "difficulty",
    "require_real_stock": "difficulty",
    "referee_seed": "orders", "stock_orders": "orders", "unknown_pool": "orders",
    "FairGame": "player", "play": "player",
    "BANDS": "settings", "LABELS": "settings", "PRESETS": "settings", "PlayerSettings": "settings",
    "label_of": "settings", "player_settings": "settings",
    "player_view": "view",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(import_module(f".{_WHERE[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Package(types.ModuleType):
    """``golfsolve.fair.odds`` is the function: importing the module ``.odds`` (which Python
    then sets as the package's attribute of that name) must not hide it."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _WHERE and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


__all__ = list(_WHERE)
