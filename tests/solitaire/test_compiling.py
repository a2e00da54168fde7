"""Which kernels a run compiles, and the notice that hears of it first and never when they
are ready. A real cold batch in a fresh process (it says so once, first) is in
tests/solitaire/test_native.py, where its build serves the ahead-of-time module's tests too.
"""

from __future__ import annotations

from golfsolve import compilenotice
from golfsolve.solitaire import compiling, native
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import ensure_kernels


def test_kernels_are_only_the_ones_the_rules_need():
    assert compiling.kernels_for([get_rules("easy")]) == ("hunt",)
    assert compiling.kernels_for([get_rules("strict")]) == ("search",)
    assert compiling.kernels_for([get_rules("easy")], level_search=True) == ("search",)
    both = compiling.kernels_for([get_rules(r) for r in ("easy", "classic", "strict")], given=True)
    assert both == ("hunt", "search", "line_wins")


def test_the_notice_hears_of_compiling_before_it_starts_and_never_when_ready(monkeypatch):
    # numba's JIT path (the ahead-of-time module absent and not to be built); the native
    # path's notice is tests/solitaire/test_native.py's
    heard = []

    class Recorder(compilenotice.Notice):
        def start(self, kernels, seconds):
            heard.append(("start", tuple(kernels), seconds > 0))

        def kernel(self, name, i, n):
            heard.append(("kernel", name, i, n))

        def done(self, seconds):
            heard.append(("done",))

    monkeypatch.setattr(compiling, "_ready", set())
    monkeypatch.setattr(compiling, "_functions", {})
    monkeypatch.setattr(native, "load", lambda: None)
    monkeypatch.setattr(native, "buildable", lambda: False)
    monkeypatch.setattr(compiling, "_cached", lambda name: name != "line_wins")  # as if only it were missing
    compilenotice.set_notice(Recorder())
    try:
        ensure_kernels(("hunt", "line_wins"))
        ensure_kernels(("hunt", "line_wins"))  # ready now: silent
    finally:
        compilenotice.set_notice(None)
    assert heard == [("start", ("line_wins",), True), ("kernel", "line_wins", 1, 1), ("done",)]
    from golfsolve.solitaire import kernel

    assert compiling.function("hunt") is kernel.hunt and compiling.function("take_rows") is kernel.take_rows


def test_the_docs_quote_the_first_run_notice_as_it_prints():
    """The first run's notice estimates the ahead-of-time build (``COMPILE_SECONDS``); README,
    docs/performance.md and docs/serve.md quote it, so a new measurement changes them all."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    line = compilenotice.notice_line(compiling.COMPILE_SECONDS[compiling.NATIVE])
    for doc in ("README.md", "docs/performance.md"):
        assert line in " ".join((root / doc).read_text(encoding="utf-8").split()), doc
    seconds = round(compiling.COMPILE_SECONDS[compiling.NATIVE])
    assert f"about {seconds} s of CPU" in " ".join((root / "docs/serve.md").read_text(encoding="utf-8").split())


def test_the_commands_progress_line_while_compiling_uses_no_escape_codes(monkeypatch):
    """was: each kernel's line began '\\r\\x1b[K', an escape code a dumb terminal (TERM=dumb,
    an editor's shell) prints as it is; now a line is padded over the one before it."""
    import io

    from golfsolve.cli.startup import install_compile_notice

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Terminal()
    monkeypatch.setattr("sys.stderr", err)
    install_compile_notice()
    try:
        shown = compilenotice.notice()
        shown.kernel("hunt", 1, 2)
        shown.kernel("line_wins", 2, 2)
        shown.done(3.25)
    finally:
        compilenotice.set_notice(None)
    out = err.getvalue()
    assert "\x1b" not in out and out.endswith("\n")
    first, second, last = out.split("\r")[1:]
    assert first.startswith("  1/2: ") and second.startswith("  2/2: ") and len(second) >= len(first)
    assert last.rstrip() == "  compiled in 3.2 s" and len(last) - 1 >= len(second.rstrip())  # the line before covered
