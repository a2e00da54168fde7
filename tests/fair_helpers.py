"""Small endgames whose fair answers are known (tests/fair/test_fair.py works them out; the fair
sampling tests and the native kernels' agreement test play them too)."""

from __future__ import annotations

from golfsolve.solitaire.layout import parse_layout_text


def endgame(text: str):
    """A mid-game layout whose stock cards are the only unseen ones: every other card is
    listed as played (it went to the discard pile earlier), as a player would know."""
    lay = parse_layout_text(text)
    stock = set(lay.stock)
    played = [c for c in lay.unseen_cards(0) if c not in stock]
    return lay, played


# Classic. With this stock, removing 3H (col 2), 5H (col 4) or 3C (col 5) all keep a win, and
# the clairvoyant hint ranks 3H first. Without the stock order only 5H wins for every order
# of the five stock cards; 3H and 3C win in 96 of the 120 orders.
DIFFER = """rules: classic
discard: 4H
stock: 4S TH 6D 4D 6C
1: 2D
2: 3H
3:
4: 8D 5H
5: 3S 3C
6:
7: 9S
"""

# Classic. 5H then 6S empties the table at once; a draw (KD or 2C) blocks 5H for good.
AGREE = """rules: classic
discard: 4C
stock: KD 2C
1: 6S 5H
2:
3:
4:
5:
6:
7:
"""


# Easy: deal 111 (GO1-E-AAAAAEH) after a winning line down to 8 table cards and 6 stock cards.
ENDGAME = """rules: easy
discard: JC
stock: 3S JH TD QD 5S JS
1: KH 9C
2:
3:
4: 7H QH QS
5: TS
6: 6S
7: 4C
"""
