"""The solver's ahead-of-time kernels: built once with a notice, loaded without numba,
the JIT's answers, stale when a kernel source changes, and the JIT when they cannot be built.

One build (a real cold ``golfsolve stats --jobs 2`` with ``NUMBA_CACHE_DIR`` at an empty
folder, which must say once, first, that it compiles, and a ``golfsolve solve`` started
while it builds, which must wait for that build) serves every test here, and the rest of
the suite (tests/conftest.py).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numba  # noqa: F401  (numba reads NUMBA_CACHE_DIR once, at import: before any test changes it)
import numpy as np
import pytest

import golfsolve
from golfsolve import aotcache, compilenotice
from golfsolve.solitaire import compiling, kernel, native
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import LostStates, PackedPosition, Solver, ensure_kernels, line_wins, pack_number

NOTICE = re.compile(r"^compiling the solver's kernels once, about \d+ s; later runs start at once$")
WAIT = re.compile(r"^waiting for another process compiling the solver's kernels once, about \d+ s; later runs start at once$")


def _golfsolve(args, cache: Path, cwd: Path, *python_flags: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("GOLFSOLVE_NATIVE", None)
    return subprocess.run([sys.executable, *python_flags, "-m", "golfsolve", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def cold_batch(cold_solver_batch):
    """The test run's real cold batch (tests/run_helpers.py, run once for the whole suite, whose
    own cache it seeds), ``golfsolve stats --jobs 2`` with ``NUMBA_CACHE_DIR`` at an empty
    folder, and a ``golfsolve solve`` started on the same folder once the batch has said it
    compiles: the cache (the ahead-of-time module, or numba's JIT cache where there is no C
    compiler), the finished batch and the finished solve."""
    done = [subprocess.CompletedProcess(**cold_solver_batch[k]) for k in ("batch", "solve")]
    for run in done:
        assert run.returncode == 0, run.stderr
    return Path(cold_solver_batch["cache"]), *done


@pytest.fixture(scope="module")
def built(cold_batch, c_compiler):
    """A numba cache folder holding the ahead-of-time module, built by the cold batch, and a
    warm solve's answer from it."""
    cache, _, _ = cold_batch
    assert list(cache.rglob(native.SPEC.prefix + "*"))
    run = _golfsolve(["solve", "GO1-E-AAAAAAB", "--json"], cache, cache.parent)
    assert run.returncode == 0 and run.stderr == "", run.stderr  # compiled: nothing to say
    assert json.loads(run.stdout)["outcome"] == "won"
    return cache, json.loads(run.stdout)


def test_a_batch_compiles_once_in_the_parent_and_says_so_first(cold_batch, tmp_path):
    cache, run, _ = cold_batch
    lines = run.stderr.splitlines()
    # said once, before anything else, though two workers solved (they found the kernels compiled);
    # the C compiler's chatter goes to the build's log
    assert NOTICE.match(lines[0]), run.stderr
    assert sum(bool(NOTICE.match(x)) for x in lines) == 1
    assert "  1/" not in run.stderr  # the progress line is for a terminal only

    # every kernel a single solve needs is in the cache now: nothing to say
    solve = _golfsolve(["solve", "GO1-C-AAAAAAB", "--json"], cache, tmp_path)
    assert solve.returncode == 0 and solve.stderr == ""
    assert json.loads(solve.stdout)["outcome"] == "lost"


def test_a_process_started_while_another_builds_waits_for_that_build_and_loads_it(cold_batch, built):
    # two cold processes at once (a batch and a solve, a server's workers, a test suite's) build
    # the module once: the second finds the build lock held, says it waits, and loads the module
    _, batch, solve = cold_batch
    said = batch.stderr.splitlines() + solve.stderr.splitlines()
    assert sum(bool(NOTICE.match(x)) for x in said) == 1 and NOTICE.match(batch.stderr.splitlines()[0])
    assert [x for x in solve.stderr.splitlines() if "compil" in x] == solve.stderr.splitlines()
    assert WAIT.match(solve.stderr.splitlines()[0]), solve.stderr
    assert {**json.loads(solve.stdout), "seconds": 0} == {**built[1], "seconds": 0}


def _hold_build_lock(cache: Path) -> subprocess.Popen:
    """A process that takes the solver module's build lock in ``cache`` through :func:`aotcache.build`
    and then builds forever (its build stands in for one); it says ``building`` when it holds it."""
    code = ("import time; from golfsolve import aotcache; from golfsolve.solitaire import native\n"
            "aotcache._build = lambda *a: time.sleep(600)\n"
            "aotcache.build(native.SPEC, building=lambda: print('building', flush=True))\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("GOLFSOLVE_NATIVE", None)
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "building\n"
    return proc


def test_a_killed_builder_leaves_no_lock_that_blocks_the_next(tmp_path, monkeypatch):
    # no real build: the builders' compiling is replaced, the lock and the path to it are real
    cache = tmp_path / "cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    monkeypatch.delenv("GOLFSOLVE_NATIVE", raising=False)
    monkeypatch.setattr(aotcache, "_loaded", {})
    builds = []
    monkeypatch.setattr(aotcache, "_build", lambda *a: builds.append(a[2]))
    heard = []

    holder = _hold_build_lock(cache)
    try:
        waited = threading.Event()
        here = threading.Thread(target=native.build, args=(lambda: heard.append("building"), waited.set))
        here.start()
        assert waited.wait(120)  # it found the lock held (a hang guard, not a time limit)
        assert builds == [] and here.is_alive()  # and waits
        holder.kill()  # SIGKILL: no chance to clean up
        here.join(120)
        assert not here.is_alive()
    finally:
        holder.kill()
        holder.wait()
    assert heard == ["building"] and builds == [aotcache.module_name(native.SPEC)]  # then built it itself

    # and a builder killed while nobody waited leaves nothing that blocks either
    holder = _hold_build_lock(cache)
    holder.kill()
    holder.wait()
    native.build(lambda: heard.append("building"), lambda: heard.append("waiting"))
    assert heard == ["building"] * 2 and len(builds) == 2


def test_a_warm_single_answer_loads_the_module_and_imports_no_numba(built, tmp_path):
    cache, first = built
    run = _golfsolve(["solve", "GO1-E-AAAAAAB", "--json"], cache, tmp_path, "-X", "importtime")
    assert run.returncode == 0
    imported = [line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")]
    assert "golfsolve.solitaire.solver" in imported and "numpy" in imported
    assert not [m for m in imported if m.split(".")[0] in ("numba", "llvmlite", "scipy")]
    assert not [line for line in run.stderr.splitlines() if not line.startswith("import time:")]  # no notice
    warm = json.loads(run.stdout)
    assert {**warm, "seconds": 0} == {**first, "seconds": 0}


@pytest.fixture
def kernel_sets(built, monkeypatch):
    """Run the solver on one set of kernels or the other: ``use("native")``, ``use("jit")``."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(built[0]))
    monkeypatch.setattr(aotcache, "_loaded", {})
    aot = native.load()
    assert aot is not None and aot.path.is_relative_to(built[0])
    sets = {"native": {n: getattr(aot, n) for n in native.EXPORTS},
            "jit": {n: getattr(kernel, n) for n in native.EXPORTS}}
    monkeypatch.setattr(compiling, "_ready", set(compiling.KERNELS))

    def use(name):
        monkeypatch.setattr(compiling, "_functions", dict(sets[name]))

    return use, aot


def _answers(rules_name, numbers, **how):
    rules = get_rules(rules_name)
    solver = Solver(level_search=how.pop("level_search", False))
    out = []
    for n in numbers:
        s = solver.solve_packed(pack_number(n, rules), rules, **how)
        out.append((n, s.outcome, s.best_left, s.moves, s.nodes))
    return out


@pytest.mark.parametrize("rules_name, numbers, how", [
    ("easy", range(0, 150), {}),
    ("classic", range(0, 150), {}),
    ("strict", range(0, 60), {}),
    ("easy", range(150, 200), {"level_search": True}),
    ("classic", range(200, 300), {"verdict_only": True}),
    ("easy", range(300, 340), {"node_limit": 300}),
    ("strict", range(60, 90), {"node_limit": 2000}),
])
def test_the_same_answers_as_numbas_jit(kernel_sets, rules_name, numbers, how):
    use, _ = kernel_sets
    use("jit")
    expected = _answers(rules_name, numbers, **dict(how))
    use("native")
    assert _answers(rules_name, numbers, **dict(how)) == expected
    assert len({a[1] for a in expected}) > 1 or how.get("node_limit")  # both outcomes seen, not one trivial case


def test_lost_states_and_line_checks_agree_too(kernel_sets):
    use, _ = kernel_sets
    easy, strict = get_rules("easy"), get_rules("strict")
    results = {}
    for name in ("jit", "native"):
        use(name)
        solver = Solver()
        got = []
        for n in range(40):
            p = pack_number(n, easy)
            # one LostStates a family (a LostStates refuses another deal's positions): the deal,
            # then the deal with each column's free card gone onto the discard
            lost = LostStates()
            s = solver.solve_packed(p, easy, verdict_only=True, lost=lost)
            got.append((s.outcome, s.nodes, len(lost.rows), lost.vals.tobytes()))
            if s.outcome == "won":
                got.append((line_wins(p, easy, s.moves), line_wins(pack_number(n, strict), strict, s.moves)))
            for c in range(7):
                heights = p.heights.copy()
                heights[c] -= 1
                child = PackedPosition(p.cols, heights, p.stock, int(p.cols[c, heights[c]]))
                s = solver.solve_packed(child, easy, verdict_only=True, lost=lost)
                got.append((s.outcome, s.nodes, len(lost.rows), lost.vals.tobytes()))
        results[name] = got
    assert results["native"] == results["jit"]
    assert any(r[2] for r in results["jit"] if len(r) == 4)  # lost states were kept and reused


def test_the_fair_players_order_search_agrees_too(kernel_sets):
    from golfsolve.fair.infoset import ChainValues, predraw_states
    from golfsolve.fair.orders import sample_stocks

    use, _ = kernel_sets
    results = {}
    for name in ("jit", "native"):
        use(name)
        got = []
        for rules in (get_rules("easy"), get_rules("classic")):
            for n in range(6):
                view = layout_from_number(n, rules).forget_stock(0)
                states = predraw_states(view, rules)
                cv = ChainValues(view, rules, states, Solver())
                cv.extend(sample_stocks(view, random.Random(n), 3, rules))
                got.append((cv.root_won, cv.nodes, sorted(cv._cache.items())))
                # a table a call: each search of an order starts from what the earlier ones proved
                one = ChainValues(view, rules, states, Solver())
                one.extend(cv.stocks, (), root=False)
                for i in range(len(cv.stocks)):
                    for st in states:
                        one.decide(i, [st])
                got.append((one.root_won, one.nodes, sorted(one._cache.items())))
        results[name] = got
    assert results["native"] == results["jit"]
    assert {won for r in results["jit"][::2] for won in r[0]} == {True, False}


def test_the_fair_players_exact_endgame_agrees_too(kernel_sets):
    from golfsolve.fair.exact import CompiledExpectimax
    from fair_helpers import AGREE, DIFFER, ENDGAME, endgame

    use, _ = kernel_sets
    results = {}
    for name in ("jit", "native"):
        use(name)
        got = []
        for text in (ENDGAME, DIFFER, AGREE):
            lay, played = endgame(text)
            for rules in (get_rules("easy"), get_rules("classic")):
                ev = CompiledExpectimax(rules, capacity=1 << 16).fair_value(lay.forget_stock(0), played, 20_000)
                got.append((ev.value, ev.moves, ev.states))
        results[name] = got
    assert results["native"] == results["jit"]
    assert len({r[0] for r in results["jit"]}) > 1


def test_an_argument_of_another_type_is_refused_not_misread(kernel_sets):
    _, aot = kernel_sets
    p = pack_number(0, get_rules("easy"))
    codes = np.zeros(3, dtype=np.int64)  # int8 expected
    with pytest.raises(TypeError, match="argument 6"):
        aot.line_wins(p.cols, p.heights, p.stock, np.int64(p.top), get_rules("easy").fits_table(), True, codes)


def _probe(root: Path) -> dict:
    code = ("import json; from golfsolve import aotcache; from golfsolve.solitaire import native; "
            "print(json.dumps({'name': aotcache.module_name(native.SPEC), 'loaded': native.load() is not None}))")
    env = dict(os.environ, PYTHONPATH=str(root))
    env.pop("NUMBA_CACHE_DIR", None)  # the module goes in __pycache__ next to the copy's sources
    env.pop("GOLFSOLVE_NATIVE", None)
    run = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_editing_a_kernel_source_makes_the_module_stale(built, tmp_path):
    root = tmp_path / "tree"
    shutil.copytree(Path(golfsolve.__file__).parent, root / "golfsolve", ignore=shutil.ignore_patterns("__pycache__"))
    (so,) = [p for p in built[0].rglob(native.SPEC.prefix + "*") if p.suffix not in (".failed", ".sha256", ".lock")]
    pycache = root / "golfsolve" / "solitaire" / "__pycache__"
    pycache.mkdir()
    for f in (so, so.with_name(so.name + ".sha256")):
        shutil.copy(f, pycache / f.name)  # the same sources, so the same name: the copy loads it
    first = _probe(root)
    assert first["loaded"] and so.name.startswith(first["name"])

    _edit(root / "golfsolve" / "cli" / "main.py", '"""', '"""An edit. ')  # no kernel uses it
    assert _probe(root) == first

    # packops.py is inlined into the kernels, two imports away from native.py
    _edit(root / "golfsolve" / "solitaire" / "packops.py", "return np.int64(1) << (FIELD * r)",
          "return np.int64(1) << (FIELD * r)  # an edit")
    edited = _probe(root)
    assert not edited["loaded"] and edited["name"] != first["name"]


def test_a_build_replaces_this_pythons_older_builds_and_keeps_other_pythons(tmp_path, monkeypatch):
    # venvs of two Python versions on one checkout share the __pycache__ folder: each build
    # removed the other's module, so every switch between them compiled again (about 50 s)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("GOLFSOLVE_NATIVE", raising=False)
    folder = aotcache._folders(native.SPEC)[0]
    folder.mkdir(parents=True)
    with monkeypatch.context() as m:
        m.setattr(sys, "version", "3.99.0 (another Python)")
        other = aotcache.module_name(native.SPEC)
    name = aotcache.module_name(native.SPEC)
    older = name[:-24] + "0" * 24  # this Python's, from other kernel sources
    unsaid = native.SPEC.prefix + "0" * 24  # a name that does not say whose it is
    kept = {other + ".cpython-399-x86_64-linux-gnu.so", other + ".cpython-399-x86_64-linux-gnu.so.sha256",
            other + ".failed", other + ".lock"}
    for f in kept | {older + aotcache._suffix(), older + ".failed", unsaid + aotcache._suffix(), unsaid + ".lock"}:
        (folder / f).write_text("", encoding="ascii")

    def fake_build(spec, folder, name, held):  # the compiling is not what is tested
        (folder / (name + aotcache._suffix())).write_text("", encoding="ascii")
        return object()

    monkeypatch.setattr(aotcache, "_build", fake_build)
    monkeypatch.setattr(aotcache, "_loaded", {})  # not the module another test loaded in this process
    assert aotcache.build(native.SPEC) is not None
    assert {f.name for f in folder.iterdir()} == kept | {name + aotcache._suffix(), name + ".lock"}


@pytest.mark.parametrize("damage", ["truncated", "flipped", "no digest"])
def test_a_damaged_module_is_not_loaded_but_rebuilt(built, tmp_path, damage):
    # truncated, the dynamic loader mapped it and the process died of SIGBUS at every later run
    cache = tmp_path / "cache"
    shutil.copytree(built[0], cache)
    (so,) = [p for p in cache.rglob(native.SPEC.prefix + "*") if p.suffix not in (".failed", ".sha256", ".lock")]
    data = so.read_bytes()
    if damage == "truncated":
        so.write_bytes(data[:4000])
    elif damage == "flipped":
        so.write_bytes(data[:len(data) // 2] + bytes([data[len(data) // 2] ^ 1]) + data[len(data) // 2 + 1:])
    else:
        so.with_name(so.name + ".sha256").unlink()
    code = ("import json; from golfsolve.solitaire import native; "
            "print(json.dumps({'loaded': native.load() is not None, 'buildable': native.buildable()}))")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("GOLFSOLVE_NATIVE", None)
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"loaded": False, "buildable": True}


def test_without_a_c_compiler_the_jit_answers_and_the_failure_is_remembered(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CC", str(tmp_path / "no-such-compiler"))
    monkeypatch.delenv("GOLFSOLVE_NATIVE", raising=False)
    monkeypatch.setattr(compiling, "_ready", set())
    monkeypatch.setattr(compiling, "_functions", {})
    monkeypatch.setattr(aotcache, "_loaded", {})  # a module an earlier test loaded stays in this process
    heard = []

    class Recorder(compilenotice.Notice):
        def start(self, kernels, seconds):
            heard.append(("start", tuple(kernels)))

        def kernel(self, name, i, n):
            heard.append(("kernel", name))

    assert native.load() is None and native.buildable()
    compilenotice.set_notice(Recorder())
    try:
        ensure_kernels(("hunt",))
    finally:
        compilenotice.set_notice(None)
    assert heard[:2] == [("start", ("native",)), ("kernel", "native")]  # said once, before trying
    assert compiling.function("hunt") is kernel.hunt  # numba's JIT serves
    assert "compiler" in native.failure()
    assert not native.buildable()  # the next process goes straight to the JIT
    # ... until the compiler settings change: one run with CC=false or a bare PATH does not
    # turn the ahead-of-time kernels off for good
    monkeypatch.setenv("CC", str(tmp_path / "another-compiler"))
    assert native.failure() is None and native.buildable()
    lay = layout_from_number(1, get_rules("easy"))
    assert Solver().solve(lay).outcome == "won"


def test_turned_off_it_is_neither_loaded_nor_built(built, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(built[0]))
    assert native.load() is not None
    monkeypatch.setenv("GOLFSOLVE_NATIVE", "0")
    assert native.load() is None and not native.buildable()


def test_the_module_is_named_for_the_cpu_it_targets(monkeypatch):
    # a cache shared between machines: a CPU without x86-64-v3's features must not load a
    # module built for them (it would die on an illegal instruction), so the names differ
    monkeypatch.setattr(aotcache, "_cpu_flags", lambda: aotcache._V3_FLAGS | {"sse", "sse2"})
    full = (aotcache.target_cpu(), aotcache.module_name(native.SPEC))
    for missing in ("avx2", "bmi2", "abm", "movbe"):
        monkeypatch.setattr(aotcache, "_cpu_flags", lambda: aotcache._V3_FLAGS - {missing})
        assert aotcache.target_cpu() == ""
        assert aotcache.module_name(native.SPEC) != full[1]
    monkeypatch.setattr(aotcache, "_cpu_flags", frozenset)  # no /proc/cpuinfo: generic
    assert aotcache.target_cpu() == ""
    if os.uname().machine.lower() in ("x86_64", "amd64"):
        assert full[0] == "x86-64-v3"


def test_the_cpu_flags_are_read_from_proc_cpuinfo():
    flags = aotcache._cpu_flags()
    if Path("/proc/cpuinfo").is_file() and os.uname().machine.lower() in ("x86_64", "amd64"):
        assert {"sse2", "fpu"} <= flags  # every x86-64 CPU has these
    assert all(isinstance(f, str) and f and " " not in f for f in flags)
