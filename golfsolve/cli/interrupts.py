"""What happens when a command is stopped: Ctrl-C, ``kill`` and a closed terminal all end
it the same way (one line "interrupted", exit 130), including an interruption that Python
could only drop because it arrived while numba's compiler ran.
"""

from __future__ import annotations

import signal
import sys

from ..errors import interrupted


def _raise_interrupt(signum, frame):  # noqa: ARG001 - signal handler signature
    raise KeyboardInterrupt


#: The signals that stop a command as Ctrl-C does (one line "interrupted", exit 130, a run's
#: finished chunks kept and its invocation recorded): ``kill`` and a batch system's SIGTERM,
#: and the SIGHUP of a closed terminal or a dropped ssh session, which killed a run outright
#: (exit 129, no line, its invocation never recorded) and every other command silently.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def stop_signals_interrupt() -> dict:
    """Make :data:`STOP_SIGNALS` raise KeyboardInterrupt; returns the handlers they had, for
    :func:`restore_handlers`. A signal left ignored (``nohup`` ignores SIGHUP) stays ignored."""
    old = {}
    for s in STOP_SIGNALS:
        try:
            if signal.getsignal(s) is signal.SIG_IGN:
                continue
            old[s] = signal.signal(s, _raise_interrupt)
        except ValueError:  # not the main thread (an embedding caller's worker thread): left as it is
            pass
    return old


def restore_handlers(old: dict) -> None:
    """Give each signal of ``old`` (what :func:`stop_signals_interrupt` returned) its handler back."""
    for s, h in old.items():
        signal.signal(s, h)


#: KeyboardInterrupts that Python could only drop: raised by Ctrl-C or SIGTERM while a C
#: library ran a Python callback (numba's compiler does, as it caches each kernel). The
#: compile then fails with an error of its own, which is the interruption's doing.
_dropped_interrupts: list[KeyboardInterrupt] = []


def install_interrupt_hook() -> None:
    """Keep a dropped KeyboardInterrupt off stderr (Python prints a traceback for it) and
    remember it, so that the error it causes is reported as the interruption it is."""
    previous = sys.unraisablehook

    def hook(unraisable) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            _dropped_interrupts.append(unraisable.exc_value)
            return
        previous(unraisable)

    sys.unraisablehook = hook


def was_interrupted(e: BaseException) -> bool:
    """Did ``e`` come from an interruption: :func:`~golfsolve.errors.interrupted`, or any
    error after an interruption that Python dropped (see :func:`install_interrupt_hook`)."""
    return interrupted(e) or bool(_dropped_interrupts)
