"""The heuristic with parameters fitted by self-play: the bot ``heuristic-fit``.

:class:`.bots.HeuristicBot` plays :data:`.policy.DEFAULT_HP`, the hand-set parameters that
are also the play-out policy of ``mc`` and ``ismcts``. This bot plays the
same compiled policy with :data:`.policy.FITTED_HP`, found by CMA-ES
(``benchmarks/fit_grid_policy.py``): it takes the discard only when it beats an average
stock card by 2.7 points rather than 0.5, swaps a stock card in only for a gain over a
point, and closes only when a little ahead.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from .bots import HeuristicBot
from .policy import FITTED_HP


class FittedHeuristicBot(HeuristicBot):
    """:class:`.bots.HeuristicBot` with the fitted parameters :data:`.policy.FITTED_HP`."""

    kind = "heuristic-fit"

    def __init__(self, rng: Optional[np.random.Generator] = None, name: Optional[str] = None) -> None:
        super().__init__(rng, name)
        self.hp = FITTED_HP.copy()
