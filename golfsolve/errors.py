"""The one base class for bad input, so the CLI can map it to exit code 2."""

from __future__ import annotations

from .cards import CardError
from .solitaire.dealcode import DealCodeError
from .solitaire.layout import LayoutError
from .solitaire.rules import RulesError


class InputError(ValueError):
    """Bad input that is neither a card, a code, a layout nor a rule name."""


#: Exceptions that mean "the user gave us something wrong": one line, exit 2.
BAD_INPUT = (InputError, CardError, DealCodeError, LayoutError, RulesError)
