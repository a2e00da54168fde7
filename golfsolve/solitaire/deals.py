"""Many deals in one run: deal sources in, one answer per deal out.

Checking 10,000 deal codes should pay Python's and numba's start-up once, not 10,000
times. A :class:`DealBatch` gathers deals from codes, PySol number ranges and layout
files, checking every item before anything is solved (so bad input fails before any
work); :func:`code_lines` reads one deal code per line from a stream as the lines
arrive, turning a bad line into a :class:`BadLine` instead of stopping; and
:func:`solve_many` solves them one after another with one :class:`Solver`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Iterator, Optional, TextIO, Union

import numpy as np

from ..errors import MAX_DIGITS, MAX_INT64, InputError, clip
from ..inputs import expect, split_items, whole_count
from .dealcode import DealCodeError, parse_code
from .layout import PYSOL_MAX, Layout, LayoutError, file_with_rules, layout_from_number, layout_from_pysol
from .rules import EASY, Rules, rules_arg
from .solver import Solution, Solver, StockUnknownError, pack, solver_arg

_RANGE = re.compile(r"^\s*([0-9]+)\s*(?:(?:-|\.\.)\s*([0-9]+)\s*)?$")  # ASCII digits only


def parse_pysol_range(spec: str) -> list[range]:
    """PySol deal numbers from ``"7"``, ``"1-1000"``, ``"1..1000"`` or a comma list of them.

    Ranges include both ends. Raises :class:`LayoutError` for anything else, for a
    number outside 1..PYSOL_MAX and for a range that runs backwards.
    """
    expect(spec, str, "a PySol range", "text such as '1-1000'")
    out = []
    parts = split_items(spec, "--pysol", "deal number or range", error=LayoutError)
    if not parts:
        raise LayoutError(f"--pysol needs a deal number or a range like 1-1000, not {clip(spec)}")
    for part in parts:
        m = _RANGE.match(part)
        if not m:
            raise LayoutError(f"--pysol {clip(spec)}: {clip(part.strip())} is not a deal number or a range like "
                              "1-1000")
        if any(g is not None and len(g.lstrip("0")) > MAX_DIGITS for g in m.groups()):
            lo, hi = 0, 0  # int() refuses more than 4,300 digits
        else:
            lo = int(m.group(1))
            hi = int(m.group(2)) if m.group(2) is not None else lo
        if lo < 1 or hi > PYSOL_MAX:
            raise LayoutError(f"--pysol {clip(spec)}: PySol deal numbers are 1 to {PYSOL_MAX}")
        if hi < lo:
            raise LayoutError(f"--pysol {clip(spec)}: the range {lo}-{hi} runs backwards")
        out.append(range(lo, hi + 1))
    return out


def _with_rules(lay: Layout, rules: Optional[Rules]) -> Layout:
    # the same precedence as load_layout: an explicit rule set, else the source's, else Easy
    if rules is not None:
        return lay.with_rules(rules)
    return lay if lay.rules is not None else lay.with_rules(EASY)


@dataclass(frozen=True)
class DealBatch:
    """Deals from codes, PySol ranges and layout files, checked when the batch is made.

    Iterating deals the layouts lazily, in this order: the codes as given, then the
    layout files, then the PySol ranges. ``rules`` (when given) overrides each deal's own.
    """

    codes: tuple = ()  # parsed DealCode objects
    layouts: tuple[Layout, ...] = ()
    pysol: tuple[range, ...] = ()
    rules: Optional[Rules] = None

    @classmethod
    def build(
        cls,
        codes: Iterable[str] = (),
        layout_files: Iterable[str] = (),
        pysol: Iterable[str] = (),
        rules: Optional[Rules] = None,
    ) -> "DealBatch":
        """Check every item now; raise the first problem (a bad code, file or range).

        A layout file whose stock order is not fully known raises
        :class:`StockUnknownError`: no exact answer exists for it.
        """
        rules_arg(rules)
        for what, items in (("codes", codes), ("layout_files", layout_files), ("pysol", pysol)):
            if isinstance(items, str):  # one item as text would be read an item per character
                raise TypeError(f"{what} must be a list, e.g. [{items[:40]!r}], not str")
            if not hasattr(items, "__iter__"):  # None failed as "'NoneType' object is not iterable"
                raise TypeError(f"{what} must be a list (empty for none), not {type(items).__name__} "
                                f"{repr(items)[:40]}")
        pysol = [expect(spec, str, "a PySol range", "text, e.g. '1-1000' or '7'") for spec in pysol]
        layout_files = list(layout_files)
        if sum(str(p) == "-" for p in layout_files) > 1:  # the second read what the first left: "the layout is empty"
            raise LayoutError("--layout - is given more than once; stdin holds one layout, give the others as files")
        parsed = tuple(parse_code(c) for c in codes)
        # the rules are applied now, so a layout they do not fit is refused before any solving
        layouts = tuple(file_with_rules(p, rules) for p in layout_files)
        for lay in layouts:
            try:
                pack(lay)
            except StockUnknownError as e:
                raise StockUnknownError(f"{lay.name or 'layout'}: {e}") from None
        ranges = tuple(r for spec in pysol for r in parse_pysol_range(spec))
        if ranges and rules is not None:  # every PySol deal has 52 cards: rules with a joker fit none of them
            layout_from_pysol(ranges[0].start, rules)
        return cls(parsed, layouts, ranges, rules)

    @property
    def size(self) -> int:
        """How many deals: any number (``len()`` stops at ``sys.maxsize``, and PySol ranges run to 2**64 - 1)."""
        return len(self.codes) + len(self.layouts) + sum(r.stop - r.start for r in self.pysol)

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[Layout]:
        for dc in self.codes:
            yield layout_from_number(dc.number, self.rules or dc.rules, dc.letter)
        for lay in self.layouts:
            yield _with_rules(lay, self.rules)
        for r in self.pysol:
            for n in r:
                yield _with_rules(layout_from_pysol(n, self.rules), self.rules)


@dataclass(frozen=True)
class BadLine:
    """A line of a code stream that is not a deal code (the stream goes on)."""

    line: int
    text: str
    error: str

    def to_json(self) -> dict:
        """The line's error record in ``golfsolve solve --codes-from --json`` output."""
        return {"line": self.line, "input": self.text, "error": self.error}

    as_json = to_json  # the name golfsolve.fair's results use: either works


#: The longest line :func:`code_lines` reads whole.
MAX_LINE = 1024


def code_lines(stream: TextIO, rules: Optional[Rules] = None) -> Iterator[Union[Layout, BadLine]]:
    """One deal code per line of ``stream``, dealt as each line arrives.

    Blank lines are skipped, and so is everything from a ``#`` on (a comment, as in a
    layout file); a UTF-8 byte-order mark before the first line is fine. A line that is not a deal code
    (or, in a stream opened with ``errors="surrogateescape"``, not UTF-8) yields a :class:`BadLine` in its
    place, so one typo in 10,000 codes costs one record, not the run.
    """
    if not callable(getattr(stream, "readline", None)):  # a code as text would fail as "no attribute 'readline'"
        raise TypeError(f"stream must be a text stream of deal codes, e.g. open('codes.txt') or io.StringIO(text), "
                        f"not {type(stream).__name__} {repr(stream)[:40]}")
    rules_arg(rules)
    return _code_lines(stream, rules)


def _code_lines(stream: TextIO, rules: Optional[Rules]) -> Iterator[Union[Layout, BadLine]]:
    n = 0
    while True:
        # a line is read in bounded pieces, so a file with no line breaks (/dev/zero) cannot fill memory
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        if not isinstance(raw, str):  # a file opened "rb": its lines are bytes
            raise TypeError(f"stream must be opened as text, e.g. open('codes.txt'), not read {type(raw).__name__}")
        n += 1
        if len(raw) > MAX_LINE:
            raise InputError(f"line {n} of the deal codes is longer than {MAX_LINE} characters; give one deal "
                             "code per line")
        # a byte that is not UTF-8, kept by errors="surrogateescape" (the CLI opens the stream so):
        # a strict text stream decodes ahead of the lines solved and would stop the whole run
        escaped = next((c for c in raw if "\udc80" <= c <= "\udcff"), None)
        if escaped is not None:
            text = raw.encode("utf-8", "surrogateescape").decode("utf-8", "replace").strip()
            yield BadLine(n, text, f"not UTF-8 text (byte {ord(escaped) - 0xDC00:#04x})")
            continue
        if n == 1:
            raw = raw.lstrip("\ufeff")  # what Windows editors put first
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            dc = parse_code(text)
        except DealCodeError as e:
            yield BadLine(n, text, str(e))
            continue
        yield layout_from_number(dc.number, rules or dc.rules, dc.letter)


def solve_many(
    deals: Iterable[Union[Layout, BadLine]],
    solver: Optional[Solver] = None,
    node_limit: int = 0,
    verdict_only: bool = False,
) -> Iterator[Union[tuple[Layout, Solution], BadLine]]:
    """Solve deals one after another with one solver; bad lines pass through unsolved.

    Yields ``(layout, solution)`` per deal, in input order, as each is solved. The solver
    and the settings are checked at the call, not when the first deal comes (solver="fast"
    would fail as an AttributeError).
    """
    if isinstance(deals, (str, Layout)) or not hasattr(deals, "__iter__"):
        # a code as text was read a deal per character ("not str 'G'")
        raise TypeError(f"deals must be a list of Layouts (or an iterator of them, e.g. code_lines(stream)), "
                        f"not {type(deals).__name__} {repr(deals)[:40]}")
    solver_arg(solver)
    if type(node_limit) is not int or not 0 <= node_limit <= MAX_INT64:
        node_limit = whole_count(node_limit, "node_limit", 0, MAX_INT64)
    if not isinstance(verdict_only, (bool, np.bool_)):
        raise TypeError(f"verdict_only must be True or False, not {type(verdict_only).__name__} "
                        f"{repr(verdict_only)[:40]}")
    return _solve_many(deals, solver or Solver(), node_limit, bool(verdict_only))


def _solve_many(deals: Iterable[Union[Layout, BadLine]], solver: Solver, node_limit: int,
                verdict_only: bool) -> Iterator[Union[tuple[Layout, Solution], BadLine]]:
    for item in deals:
        if isinstance(item, BadLine):
            yield item
        else:
            expect(item, Layout, "each deal", "a Layout, e.g. layout_from_code('GO1-E-AAAAAAB'), or a BadLine")
            yield item, solver.solve(item, item.rules, node_limit, verdict_only=verdict_only)


def record(item: Union[tuple[Layout, Solution], BadLine]) -> dict:
    """The JSON record of one :func:`solve_many` answer: what ``solve --json`` prints for the deal."""
    if isinstance(item, BadLine):
        return item.to_json()
    if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Layout)
            and isinstance(item[1], Solution)):
        raise TypeError(f"item must be one answer of solve_many: a (Layout, Solution) pair or a BadLine, not "
                        f"{type(item).__name__} {repr(item)[:40]}")
    lay, sol = item
    return {"deal": lay.name, **sol.to_json()}


__all__ = ["DealBatch", "BadLine", "code_lines", "parse_pysol_range", "solve_many", "record"]
