"""What happens when a command is stopped: Ctrl-C, ``kill`` and a closed terminal all end
it the same way (one line "interrupted", exit 130), including an interruption that Python
could only drop because it arrived while numba's compiler ran.
"""

from __future__ import annotations

import _thread
import signal
import sys
import threading

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
#: library ran a Python callback (numba's compiler does, as it caches each kernel) or while
#: a finalizer ran. A compile may then fail with an error of its own, which is the
#: interruption's doing.
_dropped_interrupts: list[KeyboardInterrupt] = []


def install_interrupt_hook() -> None:
    """Keep a dropped KeyboardInterrupt off stderr (Python prints a traceback for it), remember
    it, so that the error it causes is reported as the interruption it is, and deliver it again
    to the main thread: dropped, it would leave the command running to its end as if the
    signal had never come (a run stopped with Ctrl-C that finished and exited 0)."""
    previous = sys.unraisablehook

    def hook(unraisable) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            previous(unraisable)
            return
        _dropped_interrupts.append(unraisable.exc_value)
        _deliver_again()

    sys.unraisablehook = hook


#: Seconds from a dropped interrupt to its delivery again: enough for the hook to return.
_REDELIVERY_DELAY = 0.05
_timers: list[threading.Timer] = []


def _deliver_again() -> None:
    """Raise KeyboardInterrupt in the main thread once it runs Python code again, through a
    stop signal whose handler raises it (``interrupt_main`` does nothing for a signal Python
    does not handle, and a shell may start a command with SIGINT ignored). From a timer
    thread a moment later: at once, it would be raised in this hook and dropped again;
    should it land in such a callback again, the hook comes back here."""
    for s in (signal.SIGINT, *STOP_SIGNALS):
        if signal.getsignal(s) in (signal.default_int_handler, _raise_interrupt):
            try:
                timer = threading.Timer(_REDELIVERY_DELAY, _interrupt_main, (s,))
                timer.daemon = True
                timer.start()
                _timers.append(timer)
            except RuntimeError:  # the interpreter is shutting down: the command is ending anyway
                pass
            return


def _interrupt_main(signum: int) -> None:
    try:
        _thread.interrupt_main(signum)
    except (ValueError, OSError):  # a signal this platform cannot simulate: nothing better to do
        pass


def settle_dropped_interrupts() -> bool:
    """Was an interrupt dropped? Called as a command ends, with or without an error; cancels
    any delivery still to come, which would otherwise interrupt the command's last words (a
    second line) or its shutdown. A command that ends without an error after a dropped
    interrupt ended before it came again."""
    for timer in _timers:
        timer.cancel()
    return bool(_dropped_interrupts)


def was_interrupted(e: BaseException) -> bool:
    """Did ``e`` come from an interruption: :func:`~golfsolve.errors.interrupted`, or any
    error after an interruption that Python dropped (see :func:`install_interrupt_hook`)?
    Asked as a command ends on ``e``, so it settles the dropped ones
    (:func:`settle_dropped_interrupts`) either way."""
    return settle_dropped_interrupts() or interrupted(e)
