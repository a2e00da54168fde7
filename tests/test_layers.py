"""The house's layers point one way, and the game domains write no files.

Bottom: ``cards``, ``errors``, ``intervals``, ``inputs`` (checks of what a user writes), ``text``, ``progress`` (the progress bar), the compile notice and the kernel caches (``jitcache``,
``kernelsources``, ``aotcache``) import nothing of golfsolve but each other. The game domains ``solitaire/`` and ``grid/`` import the bottom and themselves, not
each other, and never fair play, the batch runs and reports of ``stats/`` or the CLI.
``fair/`` (play without seeing the stock) sits above ``solitaire/``; ``stats/`` above the
domains and ``fair/``, ``serve/`` (the HTTP API and the web page) above them, and ``cli/`` on
top of everything. Every import counts, also the ones
inside functions (a lazy import is still a dependency). Inside a layer too, no module imports
itself round a loop (type-only imports count there as well).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import golfsolve

ROOT = Path(golfsolve.__file__).parent
BOTTOM = {"aotcache", "cards", "compilenotice", "errors", "intervals", "jitcache", "kernelsources", "inputs", "progress",
          "text", "__init__", "__version__"}  # __version__: __init__'s (``from .. import __version__``)
# what each layer may import, by the first part of the module's name inside golfsolve
ALLOWED = {
    "bottom": BOTTOM,
    "solitaire": BOTTOM | {"solitaire"},
    "fair": BOTTOM | {"solitaire", "fair"},
    "grid": BOTTOM | {"grid"},
    "stats": BOTTOM | {"solitaire", "fair", "grid", "stats"},
    "serve": BOTTOM | {"solitaire", "fair", "grid", "stats", "serve"},
    "cli": BOTTOM | {"solitaire", "fair", "grid", "stats", "serve", "cli"},
    "__main__": {"cli"},
}


def _layer(rel: Path) -> str:
    top = rel.parts[0]
    if len(rel.parts) == 1:
        return "__main__" if rel.stem == "__main__" else "bottom"
    return top


def _import_targets(path: Path, type_checking: bool = True,
                    root: Path = ROOT) -> list[tuple[str, tuple[str, ...], bool]]:
    """Each golfsolve import of ``path`` under ``root`` as (the module it names, relative to the
    package, relative imports resolved; the names a ``from`` import takes, else ``()``; whether
    it takes them from a package itself: ``from . import x``, ``from golfsolve import x``, whose
    names are modules); without ``type_checking``, not those under ``if TYPE_CHECKING:`` (type
    hints only, never run)."""
    rel = path.relative_to(root)
    package = list(rel.parts[:-1])  # where a relative import starts
    out: list[tuple[str, tuple[str, ...], bool]] = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if not type_checking:
        for node in ast.walk(tree):
            for name, value in ast.iter_fields(node):
                if isinstance(value, list):
                    setattr(node, name, [v for v in value if not (isinstance(v, ast.If) and "TYPE_CHECKING"
                                                                  in ast.unparse(v.test))])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name[len("golfsolve."):], (), False) for a in node.names if a.name.startswith("golfsolve.")]
        elif isinstance(node, ast.ImportFrom):
            names = tuple(a.name for a in node.names)
            if node.level == 0:
                if node.module == "golfsolve":
                    out.append(("", names, True))
                elif node.module and node.module.startswith("golfsolve."):
                    out.append((node.module[len("golfsolve."):], names, False))
                continue
            base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
            out.append((".".join(base + ([node.module] if node.module else [])), names, not node.module))
    return out


def _imports(path: Path, type_checking: bool = True) -> set[str]:
    """The golfsolve modules ``path`` imports, as names relative to the package (``solitaire.layout``);
    without ``type_checking``, not those under ``if TYPE_CHECKING:`` (type hints only, never run)."""
    out: set[str] = set()
    for mod, names, from_package in _import_targets(path, type_checking):
        out |= {f"{mod}.{n}".strip(".") for n in names} if from_package else {mod}
    return out


MODULES = sorted(p for p in ROOT.rglob("*.py") if "__pycache__" not in p.parts)


def test_the_scan_sees_relative_and_lazy_imports():
    deps = _imports(ROOT / "cli" / "stats.py")  # imports its library inside the commands
    assert "stats.census" in deps and "errors" in deps
    assert "solitaire.layout" in _imports(ROOT / "solitaire" / "hint.py")
    assert "solitaire.layout" in _imports(ROOT / "fair" / "view.py")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_down(path):
    rel = path.relative_to(ROOT)
    layer = _layer(rel)
    bad = sorted(d for d in _imports(path) if d.split(".")[0] not in ALLOWED[layer] and d)
    assert not bad, f"{rel} ({layer}) imports {bad}"


#: the run folder's lower modules in ``stats/``: what any output, pool or file write needs, and
#: the run folder's plain parts (its constants, blocks and lock), so they import only the bottom
#: and each other, never the run folder, a report or a run kind built on them (which would make
#: a loop, and load the run folder where a path is checked)
STATS_BASE = {"stats.atomic", "stats.outdirs", "stats.pool", "stats.runlayout", "stats.runblocks", "stats.runlock"}
#: the run folder's parts that know a run's settings: its key (which completes a fair player's
#: settings from ``fair.settings``, plain data) and the check of its chunks; below the run
#: folder too, so a run kind or a test uses them without it
RUN_PARTS = {"stats.runkey", "stats.chunkschema"}


@pytest.mark.parametrize("module", sorted(STATS_BASE))
def test_the_run_folders_lower_modules_import_nothing_built_on_them(module):
    deps = _imports(ROOT / (module.replace(".", "/") + ".py"))
    bad = sorted(d for d in deps if d and d.split(".")[0] not in BOTTOM and d not in STATS_BASE)
    assert not bad, f"{module} imports {bad}"


@pytest.mark.parametrize("module", sorted(RUN_PARTS))
def test_the_run_folders_parts_import_nothing_built_on_them(module):
    deps = _imports(ROOT / (module.replace(".", "/") + ".py"))
    bad = sorted(d for d in deps if d and d.split(".")[0] not in BOTTOM and d not in STATS_BASE | RUN_PARTS
                 and d != "fair.settings")
    assert not bad, f"{module} imports {bad}"


# writing files: what a run folder or a report does
WRITES = re.compile(r"\.to_parquet\(|\.to_csv\(|\.write_text\(|\.write_bytes\(|\.savefig\(|\.mkdir\("
                    r"|open\([^)]*['\"][wax]b?['\"]")


@pytest.mark.parametrize("domain", ["solitaire", "fair", "grid"])
def test_game_domains_write_no_files(domain):
    found = [f"{p.relative_to(ROOT)}:{i}" for p in sorted((ROOT / domain).rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if WRITES.search(line)]
    assert not found, f"writing belongs in golfsolve/stats: {found}"


def test_public_module_functions_and_classes_have_docstrings():
    missing = []
    for path in MODULES:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_") \
                    and ast.get_docstring(node) is None:
                missing.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert not missing, missing


def test_comments_say_why_not_what_the_code_once_did():
    """A "was: ..." comment is history, which lives in git: a comment says what would go wrong
    without its line."""
    found = [f"{path.relative_to(ROOT)}:{n}" for path in [*MODULES, *ROOT.glob("serve/static/*.js")]
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "was:" in line]
    assert not found, found


def _module_name(path: Path, root: Path = ROOT) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def import_graph(root: Path = ROOT) -> dict[str, list[str]]:
    """Module -> the golfsolve modules it imports, every import counted: at the top, inside a
    function (a lazy import is still a loop in the plan) and under ``if TYPE_CHECKING:``."""
    paths = {_module_name(p, root): p for p in sorted(root.rglob("*.py")) if "__pycache__" not in p.parts}

    def home(name: str) -> str:
        while name not in paths:  # a name inside a module (``solitaire.layout.Layout``): that module
            name = name.rpartition(".")[0]
        return name

    graph = {}
    for m, p in paths.items():
        deps = set()
        for mod, names, _ in _import_targets(p, root=root):
            # ``from ..solitaire import compiling`` imports the module solitaire.compiling
            deps |= {home(f"{mod}.{n}".strip(".")) for n in names} if names else {home(mod)}
        graph[m] = sorted(deps - {m})
    return graph


def import_cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """One loop (``a -> b -> a``) of each set of modules that import each other."""
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1 on the path, 2 done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in graph[m]:
            if state.get(d) == 1:
                cycles.append(path[path.index(d):] + [d])
            elif d not in state:
                visit(d, path + [d])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    return cycles


def test_the_import_graph_resolves_packages_relative_and_type_only_imports():
    graph = import_graph()
    assert "solitaire.compiling" in graph["fair.infoset"]  # from ..solitaire import compiling
    assert "stats.runlayout" in graph["stats.manifestmodel"]  # from .runlayout import COMMANDS
    assert "grid.tally" in graph["grid.tournament"]  # a lazy import inside a method
    assert "stats.census" in graph["stats"]  # from . import census, inside __getattr__
    assert import_cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c", "a"]]


def test_no_module_imports_itself_round_a_loop():
    """Imports point one way across the whole package, lazy and type-only ones too: e.g. the
    bot registry names ``grid.spiel`` by a string, so ``grid.bots`` and ``grid.spiel`` do not
    import each other; the run folder's constants live in ``stats.runlayout``, below both
    ``stats.runfolder`` and the manifest's pydantic model; ``solitaire.compiling`` gets the
    solver's warm-up solve from ``solitaire.solver`` as an argument.

    was: three loops (``stats.manifestmodel`` <-> ``stats.runfolder``, ``grid.ratings`` ->
    ``grid.tournament`` -> ``grid.tally`` -> ``grid.ratings``, ``solitaire.compiling`` <->
    ``solitaire.solver``), unseen by a check of ``grid/`` alone that skipped type-only imports."""
    cycles = import_cycles(import_graph())
    assert not cycles, "import loops: " + "; ".join(" -> ".join(c) for c in cycles)
