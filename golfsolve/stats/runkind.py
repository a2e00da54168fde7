"""One kind of batch run, declared once: what ``stats``, ``fair-stats`` and ``grid simulate``
have in common.

A run kind (:class:`RunKind`) says

* its parameters, as a frozen dataclass whose constructor checks them (bad values are
  :class:`~golfsolve.errors.InputError`, the same bounds whether they come from the
  command line or from a manifest);
* how they go into a run folder's manifest and come back (:meth:`RunKind.key`,
  :meth:`RunKind.from_manifest`), with the manifest's ``params`` checked by a pydantic
  model (:attr:`RunKind.params_model`) before anything uses them;
* how ``--resume`` and ``--extend`` merge what a command gives with what the run holds
  (:meth:`RunKind.resolve`: what is not given comes from the run; ``--extend`` adds
  groups);
* its chunk schema (:meth:`RunKind.schema`): every chunk's columns, Arrow types and row
  keys are checked against it before anything reads the chunk, and ``--resume`` redoes a
  chunk that fails;
* how its chunks are computed (:meth:`RunKind.source`).

:meth:`RunKind.run` and :meth:`RunKind.load` do the rest the same way for every kind, in a
locked run folder (:mod:`golfsolve.stats.runfolder`).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Generic, Iterator, Optional, Sequence, TypeVar

from ..errors import InputError, clip
from ..inputs import ascii_lower, expect, flag, split_items
from ..progress import check_show
from ..text import plural_of
from .runblocks import Chunk
from .runkey import RunKey, as_played_key, key_from_manifest
from .chunkschema import ChunkSchema, row_values
from .runfolder import (RunFolder, check_resume_extend, default_chunk_size as _default_chunk_size, holds_a_run,
                        load_chunks, manifest_path, no_run_to_continue, open_run, read_manifest, run_folder_chunks)
from .outdirs import check_out_dir
from .atomic import check_replaceable

if TYPE_CHECKING:  # loaded when a run is read or written: a command's arguments are checked before
    import pandas as pd
    from pydantic import BaseModel

P = TypeVar("P")


def parse_rules_list(spec: str | Sequence[str], option: str = "--rules") -> tuple[str, ...]:
    """Rule set names from ``"easy,classic,strict"`` (or a list), checked and canonical.

    Aliases map to the preset's own name (``wrap`` is ``easy``), and two names for one rule
    set (``strict`` and ``strict+stuck``, ``classic`` and ``wrap+nowrap``) are refused naming
    both, so that no rule set is counted twice. Raises :class:`InputError` on an empty list,
    an empty name (two commas in a row: refused, as every list option refuses it, never
    skipped), an unknown name or a repeat.
    """
    from ..solitaire.rules import get_rules

    if not isinstance(spec, str):
        expect(spec, (list, tuple), "rules", "rule set names, e.g. 'easy,classic' or ('easy', 'classic')")
        for name in spec:
            expect(name, str, "each rule set", "named by text, e.g. 'classic+jokers1'")
    names = split_items(spec if isinstance(spec, str) else ",".join(spec), option, "rule set name")
    if not names:
        raise InputError(f"{option} needs at least one rule set, e.g. easy,classic,strict")
    out: list[str] = []
    seen: dict[tuple, tuple[str, str]] = {}  # meaning: (canonical name, the name as given)
    for n in names:
        rules = get_rules(n)
        if rules.meaning in seen:
            first, given = seen[rules.meaning]
            if first == rules.name and ascii_lower(given.strip()) == ascii_lower(n.strip()):
                raise InputError(f"rule set {rules.name!r} is listed twice in {option}")
            # the names as typed: "easy,wrap" is two names for one rule set, not 'easy' twice
            a = first if ascii_lower(given.strip()) == first else given.strip()
            b = rules.name if ascii_lower(n.strip()) == rules.name else n.strip()
            raise InputError(f"{a!r} and {b!r} in {option} are the same rule set under two names; give one of them")
        seen[rules.meaning] = (rules.name, n)
        out.append(rules.name)
    return tuple(out)


def as_recorded(given: Sequence[str], recorded: Sequence[str]) -> tuple[str, ...]:
    """The rule sets ``given`` for a run to resume or extend, each named as the run records
    it where the run has it under another name (``easy+joker1`` for ``easy+jokers1``, switches
    in another order): one rule set, so not another run, nor a second copy of it."""
    from ..solitaire.rules import get_rules

    def meaning(name: str) -> object:
        try:
            return get_rules(name).meaning
        except InputError:  # an unknown name is refused where the list is checked
            return name

    by_meaning = {meaning(g): g for g in recorded}
    return tuple(by_meaning.get(meaning(g), g) for g in given)


def rules_described(names: Sequence[str]) -> dict[str, str]:
    """Each rule set of a solitaire run (``stats``, ``fair-stats``) in words, for its manifest: a
    name's meaning may change between versions, and the manifest must say what was played."""
    from ..solitaire.rules import get_rules

    return {r: get_rules(r).describe() for r in names}


def stamped(answer: Any) -> Any:
    """``answer`` (a command's ``--json``, a JSON Lines record, an HTTP API answer) as it goes
    out: with ``golfsolve_version``, and where it names one solitaire rule set (a ``rules`` name
    at its top) ``rules_described``, that rule set in words as :func:`rules_described` gives it
    to a manifest. A file holding only the answer then says what made it: a rule set's name
    may mean other rules in a later version. A list (``rate``'s answers) has each of its
    objects stamped; a field the answer has already is kept (a report's ``rules_described``
    is the one its run recorded). The answer given is not changed."""
    from .runfolder import running_version

    if isinstance(answer, list):
        return [stamped(a) for a in answer]
    if not isinstance(answer, dict):
        return answer
    out = dict(answer)
    rules = out.get("rules")
    if isinstance(rules, str) and "rules_described" not in out:
        out["rules_described"] = rules_described([rules])[rules]
    out.setdefault("golfsolve_version", running_version())
    return out


def code_check(table: Any) -> tuple[Any, Callable[[int], str]]:
    """A check for :func:`~.chunkschema.first_bad_row`: each row's ``code`` is its ``deal``'s under
    its ``rules``, as ``stats`` and ``fair-stats`` write it (a code edited by hand, or a row
    from another rule set's chunk, named another deal than the one counted)."""
    import numpy as np

    from ..solitaire.dealcode import format_codes
    from ..solitaire.rules import code_letter, get_rules

    names = row_values(table, "rules")
    letter = {name: code_letter(get_rules(name)) for name in set(names.tolist())}
    code = row_values(table, "code")  # objects: as fixed-width text one long hand-edited code would widen every row
    meant = format_codes(row_values(table, "deal"), np.array([letter[r] for r in names.tolist()], dtype="S1"))
    return code != meant.astype(object), lambda i: f"the code {clip(code[i])}, not {str(meant[i])!r}"


class RunKind(Generic[P]):
    """The protocol every batch run implements (see the module's docstring).

    Subclasses set the class attributes and implement :meth:`key`, :meth:`from_manifest`,
    :meth:`schema`, :meth:`complete` and :meth:`source`.
    """

    #: the manifest's ``format``
    format: ClassVar[str]
    #: the command that makes the run
    command: ClassVar[str]
    #: what one item is (``deal``, ``match``)
    item: ClassVar[str] = "deal"
    #: the parameters' dataclass
    params_type: ClassVar[type]
    #: makes (once, cached) the pydantic model of the manifest's ``params``: a function, so
    #: that pydantic loads when a run is read, not when a command checks its arguments
    make_params_model: ClassVar[Callable[[], type[BaseModel]]]
    #: the field of :attr:`params_type` holding the groups (rule sets), or None
    group_field: ClassVar[Optional[str]] = "rules"
    #: the largest default chunk
    max_default_chunk: ClassVar[int]
    #: items are numbered below this (the same bound as on the command line)
    max_items: ClassVar[int]
    #: does the command have ``--extend`` (its messages offer it only then)
    extendable: ClassVar[bool] = True
    #: how a refused ``--resume`` names a field of the run's key the user gave by another name
    #: (None: it follows from the other fields; :func:`~.runkey.differences`)
    field_names: ClassVar[dict[str, Optional[str]]] = {}
    #: the files the command writes beside the chunks when the run ends
    side_files: ClassVar[tuple[str, ...]] = ()
    #: params the manifest records as golfsolve reads them back (a list of names, such as a
    #: grid run's bots): one recorded otherwise was edited by hand (:meth:`_check_as_written`).
    #: Not settings golfsolve fills in from its own version (a preset's values), which may
    #: change between versions without anyone editing the manifest.
    as_written: ClassVar[tuple[str, ...]] = ()

    # -- what each kind says ------------------------------------------------------
    def key(self, p: P) -> RunKey:
        """The run folder's key of the run ``p``: what a resumed run must agree on (by
        default the parameters' own ``run_key()``)."""
        self.check_type(p)
        return p.run_key()  # type: ignore[attr-defined]

    def check_type(self, p: object) -> None:
        """A :class:`TypeError` naming the spec unless ``p`` is this kind's parameters: a kind
        whose :meth:`key` or :meth:`open` reads a field first would fail there as an
        AttributeError that names nothing the caller gave."""
        if not isinstance(p, self.params_type):
            raise TypeError(f"a {self.command} run's spec must be a {self.params_type.__name__}, "
                            f"not {type(p).__name__} {repr(p)[:40]}")

    def from_manifest(self, m: dict) -> P:
        """The parameters a checked manifest records (all its items and groups)."""
        raise NotImplementedError

    def schema(self, p: P) -> ChunkSchema:
        """What every chunk of the run ``p`` holds."""
        raise NotImplementedError

    def complete(self, values: dict, jobs: int) -> P:
        """The parameters from ``values`` (one per field; None: neither given nor in the run),
        defaults filled in for ``jobs`` workers."""
        raise NotImplementedError

    def source(self, todo: Sequence[Chunk], p: P, jobs: int) -> Iterator[tuple[Chunk, pd.DataFrame]]:
        """``(chunk, table)`` for each chunk of ``todo`` as it finishes, in ``jobs`` processes."""
        raise NotImplementedError

    def manifest_extra(self, p: P) -> dict:
        """What else goes into the manifest (descriptions a reader wants), rewritten on --extend."""
        return {}

    def new_run_extra(self, p: P) -> dict:
        """What else goes into the manifest of a new run only, never rewritten: what the run's
        first items were made with (a grid run's bots' full settings), which a later
        ``--resume`` or ``--extend`` checks (:meth:`check_continued`) rather than restates."""
        return {}

    def check_continued(self, out: str | Path, p: P, flag: str) -> None:
        """:class:`InputError` (one line, ``flag`` is ``--resume`` or ``--extend``) if the run in
        ``out`` cannot be continued as ``p``, for a reason its key does not show (by default none)."""

    # -- the same for every kind ---------------------------------------------------
    @property
    def params_model(self) -> type[BaseModel]:
        """The pydantic model of the manifest's ``params`` (:attr:`make_params_model`)."""
        return self.make_params_model()

    def ungrouped_key(self, count: int, chunk_size: int, params: dict[str, Any]) -> RunKey:
        """The key of a run of ``count`` items numbered from 0 in no groups (a grid kind's
        :meth:`key`), its ``params`` through a JSON round trip: the manifest's copy must
        compare equal to a fresh one."""
        params = json.loads(json.dumps(params))
        return RunKey(self.format, 0, count, (), chunk_size, tuple(sorted(params.items())))

    def default_chunk_size(self, count: int, jobs: int) -> int:
        """About ten chunks per worker for small runs, at most :attr:`max_default_chunk` items."""
        return _default_chunk_size(count, jobs, self.max_default_chunk)

    def check_manifest(self, m: dict, out: str | Path) -> P:
        """The parameters of the manifest ``m`` of the run in ``out``, every field checked:
        :class:`InputError` naming the file and the field otherwise."""
        from pydantic import ValidationError

        path = manifest_path(out) or Path(out)
        try:
            self.params_model.model_validate(m["params"])
        except ValidationError as e:
            err = e.errors()[0]
            where = ".".join(str(x) for x in ("params", *err["loc"]))
            raise InputError(f"{path}: field {where}: {err['msg'].removeprefix('Value error, ')}; repair or "
                             "remove the file (a run folder's manifest is written by golfsolve)") from None
        if m["start"] + m["count"] > self.max_items:
            raise InputError(f"{path}: field count: {plural_of(self.item)} {m['start']}..{m['start'] + m['count'] - 1} run "
                             f"past the last {self.item}, {self.max_items - 1}; repair or remove the file")
        if self.group_field is not None:
            try:
                parse_rules_list(m["rules"], "its rules")
            except InputError as e:
                raise InputError(f"{path}: field rules: {e}") from None
        elif m["rules"]:
            raise InputError(f"{path}: field rules: a '{self.command}' run has no rule sets")
        try:
            return self.from_manifest(m)
        except InputError as e:
            raise InputError(f"{path}: {e} (a value in the manifest)") from None

    def read_manifest(self, out: str | Path) -> dict:
        """The checked manifest of the run of this kind in ``out``."""
        m = read_manifest(out, self.format)
        self.check_manifest(m, out)
        return m

    def read(self, out: str | Path) -> P:
        """The parameters of the run of this kind in ``out``."""
        return self.check_manifest(read_manifest(out, self.format), out)

    def resolve(self, out: str | Path, given: dict, *, resume: bool = False, extend: bool = False,
                jobs: int = 1) -> P:
        """The run a command asks for: ``given`` maps fields to values (None: not given).

        With ``resume`` or ``extend`` on a run in ``out``, what is not given comes from the
        run; ``extend`` adds the groups given to the run's. Whatever is given must still
        agree with the run; :meth:`run` checks that.
        """
        check_resume_extend(resume, extend)
        out = check_out_dir(out, create=False)
        if (resume or extend) and manifest_path(out) is None:
            # was (stats): "--count N is required", where the folder name was mistyped
            raise no_run_to_continue(out, resume)
        if not (resume or extend) and manifest_path(out) is not None:
            # was (stats): "--count N is required" on a folder whose run only wanted --resume
            raise holds_a_run(out, key_from_manifest(self.read_manifest(out)), self.extendable)
        values = {f.name: given.get(f.name) for f in dataclasses.fields(self.params_type)}
        if (resume or extend) and manifest_path(out) is not None:
            old = self.read(out)
            for name, v in values.items():
                was = getattr(old, name)
                if v is not None and name == self.group_field:
                    v = values[name] = as_recorded(v, was)
                if v is None:
                    values[name] = was
                elif extend and name == self.group_field:
                    # the run's groups first, then the new ones; a new name for an old rule set is refused
                    values[name] = parse_rules_list(list(was) + [g for g in v if g not in was])
        return self.complete(values, jobs)

    def open(self, out: str | Path, p: P, *, resume: bool = False, extend: bool = False,
             command: str = "") -> RunFolder:
        """Create or reopen (and lock) the run folder ``out`` for the run ``p``."""
        if (resume or extend) and self.group_field is not None and manifest_path(out) is not None:
            try:
                recorded = read_manifest(out, self.format)[self.group_field]
            except (InputError, KeyError, TypeError):
                recorded = ()  # open_run names what is wrong with the manifest
            if isinstance(recorded, list) and all(isinstance(g, str) for g in recorded):
                given = getattr(p, self.group_field)
                p = dataclasses.replace(p, **{self.group_field: as_recorded(given, recorded)})
        extra = self.manifest_extra(p)
        if (resume or extend) and manifest_path(out) is not None:
            self._check_as_written(out)
            self.check_continued(out, p, "--resume" if resume else "--extend")
        elif not (resume or extend):  # a new run (open_run refuses a folder that holds one)
            extra = {**extra, **self.new_run_extra(p)}
        folder = open_run(out, self.key(p), resume=resume, extend=extend, command=command,
                          extra=extra, extendable=self.extendable, names=self.field_names)
        try:
            self.check_manifest(folder.manifest, out)
            if extend:
                folder.manifest.update(self.manifest_extra(self.from_manifest(folder.manifest)))
                folder.save_manifest()
        except BaseException:
            folder.close()
            raise
        return folder

    def _check_as_written(self, out: str | Path) -> None:
        """:class:`InputError` if the manifest in ``out`` records one of :attr:`as_written`
        otherwise than golfsolve writes it (``"greedy, random"`` for ``"greedy,random"``):
        the manifest was edited. Compared as written, such a run "differs" from any command,
        even one that gives none of its settings again, and ``--resume`` named a difference
        the user did not make. A manifest golfsolve cannot read is left to :func:`open_run`."""
        if not self.as_written:
            return
        try:
            m = read_manifest(out, self.format)
            meant = self.key(self.check_manifest(m, out))
        except InputError:
            return
        written = dict(key_from_manifest(m).params)
        ours = dict(as_played_key(meant).params)
        edited = [k for k in self.as_written if written.get(k) != ours.get(k)]
        if edited:
            shown = ", ".join(f"{k} {json.dumps(written.get(k))} (golfsolve writes {json.dumps(ours.get(k))})"
                              for k in edited[:3])
            raise InputError(f"{manifest_path(out)} was edited by hand: its {shown}; put it back as golfsolve wrote "
                             "it, or start a new run in another folder")

    def run(self, out: str | Path, p: P, *, resume: bool = False, extend: bool = False, jobs: int = 1,
            command: str = "", progress: Optional[bool] = None, info: Optional[dict] = None,
            source: Optional[Callable[[Sequence[Chunk], P], Iterator[tuple[Chunk, pd.DataFrame]]]] = None,
            on_chunk: Optional[Callable[[Chunk], None]] = None) -> tuple[dict, RunFolder]:
        """Compute every chunk of ``p`` that is missing or damaged in ``out``, writing each as it ends.

        ``resume`` continues the run in ``out``, ``extend`` grows it to ``p``. ``source``
        replaces :meth:`source` (another engine). Returns the invocation's manifest entry
        (``repaired``: the chunks found damaged and redone, with why) and the folder (closed).
        A KeyboardInterrupt stops the work; every chunk written before it stays.
        """
        self.check_type(p)  # before any work, whatever this kind's key or open reads first
        # a library caller meets what the commands refuse: both at once, or resume="no" (a true value)
        check_resume_extend(resume, extend)
        # and what is checked only once the work starts, before the folder is made: progress="no"
        # left a new run folder behind it, a command that is no text a manifest no command reads
        check_show(progress)
        expect(command, str, "command", "the command line the manifest records, e.g. 'golfsolve stats ...', or ''")
        with self.open(out, p, resume=resume, extend=extend, command=command) as folder:
            for name in self.side_files:  # refused before the work, not after it
                check_replaceable(folder.path / name)
            full = self.from_manifest(folder.manifest)
            todo = folder.todo(self.schema(full))
            src = source(todo, full) if source is not None else self.source(todo, full, jobs)
            inv = run_folder_chunks(folder, todo, src, command=command, progress=progress, unit=self.item,
                                    info=info, on_chunk=on_chunk)
        inv["repaired"] = [f"{name}: {why}" for name, why in folder.repairs]
        return inv, folder

    def load(self, out: str | Path, allow_incomplete: bool = True) -> tuple[dict, P, list[pd.DataFrame]]:
        """The manifest, the parameters and every finished chunk (checked) of the run in ``out``."""
        # "no" is a true value: an unfinished run would be read as if it were whole
        allow_incomplete = flag(allow_incomplete, "allow_incomplete")
        m = read_manifest(out, self.format)
        p = self.check_manifest(m, out)
        m, frames = load_chunks(out, self.format, self.schema(p), allow_incomplete)
        return m, p, frames


__all__ = ["RunKind", "as_recorded", "code_check", "parse_rules_list", "rules_described", "stamped"]
