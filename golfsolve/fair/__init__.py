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
  referee knows; :class:`PlayerSettings` and :data:`PRESETS` (``fast``, ``strong``, ``strongest``)
  name its settings;
* :func:`rate` (:class:`Rating`) and :func:`pick` (:class:`PickResult`): a deal's
  difficulty by its fair chance, and deals of a chosen difficulty;
* :func:`player_view`: what a player sees of a position; :func:`odds_for_player` and
  :func:`fair_hint_for_player`: both answers from a real position's view, as the
  commands and the server give them;
* :func:`stock_orders`: every stock order consistent with a view when there are few,
  else a seeded sample; :func:`unknown_pool`: the places and cards behind it.

Every result has ``as_json()``, the exact dict ``golfsolve ... --json`` prints, and
records the player's full settings. Modules: :mod:`.orders`, :mod:`.view`,
:mod:`.infoset` (pre-draw states and their values), :mod:`.exact` (expectimax),
:mod:`.player`, :mod:`.odds`, :mod:`.api` (the fair hint), :mod:`.difficulty`.
"""

from .api import FairHint, MoveChance, fair_hint, fair_hint_for_player
from .odds import OddsResult, odds, odds_for_player
from .difficulty import BANDS, LABELS, PickResult, Rating, label_of, pick, rate
from .orders import stock_orders, unknown_pool
from .player import PRESETS, FairGame, PlayerSettings, play, player_settings
from .view import player_view

__all__ = [
    "odds", "OddsResult", "odds_for_player", "fair_hint", "fair_hint_for_player", "FairHint", "MoveChance", "play", "FairGame", "PlayerSettings", "PRESETS",
    "player_settings", "rate", "Rating", "pick", "PickResult", "BANDS", "LABELS", "label_of", "player_view",
    "stock_orders", "unknown_pool",
]
