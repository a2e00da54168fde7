"""Write golden_deals.json from the current GO1 generator.

Run once (``python tests/data/make_golden.py``) and check the result in: the golden test
then guards the generator against any change, since a deal code must deal the same cards
forever. Never regenerate this file to make a failing test pass.
"""

from __future__ import annotations

import json
from pathlib import Path

from golfsolve.cards import card_str

from golfsolve.solitaire.dealcode import N_DEALS, deal_deck, format_code
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import EASY

# Deal 0, deal 1, the last deal, small numbers, powers and places of 26, and a spread of
# large numbers (so high letters and 64-bit state are exercised).
NUMBERS = [0, 1, 2, 3, 7, 25, 26, 27, 100, 675, 676, 999, 17_576, 456_976, 11_881_376,
           123_456_789, 308_915_776, 1_000_000_007, 4_015_905_088, 7_777_777_777,
           N_DEALS - 2, N_DEALS - 1]
JOKER_DEALS = [(0, 1), (1, 2), (N_DEALS - 1, 2)]


def main() -> None:
    deals = []
    for n in NUMBERS:
        lay = layout_from_number(n, EASY)
        deals.append({
            "code": format_code(n, "E"),
            "number": n,
            "columns": [" ".join(card_str(c) for c in col) for col in lay.columns],
            "discard": card_str(lay.discard),
            "stock": " ".join(card_str(c) for c in lay.stock),
        })
    jokers = [{"number": n, "jokers": j, "deck": " ".join(card_str(int(c)) for c in deal_deck(n, j))}
              for n, j in JOKER_DEALS]
    out = {"generator": "GO1", "deals": deals, "decks_with_jokers": jokers}
    path = Path(__file__).with_name("golden_deals.json")
    path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(deals)} deals to {path}")


if __name__ == "__main__":
    main()
