"""How a command ends when it cannot go on as asked: Ctrl-C, kill and a closed terminal while it
answers, a closed or unwritable stderr. Exit codes 2 and 130, one line, and what was made so far
kept."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from hostile_helpers import ROOT


def test_rate_json_stopped_by_ctrl_c_leaves_the_ratings_made_as_one_json_list(run_cli, monkeypatch):
    """rate --pysol 1-1000 --json, stopped with Ctrl-C after 31 deals, left "[ {...}, ... {...}"
    on stdout, a list never closed that no JSON reader takes (json.loads: "Expecting ','
    delimiter"), though the ratings are printed as they come so that a stopped run keeps them.
    Now the list is closed after the ratings made, and the exit code (130) and stderr say
    the run was stopped."""
    import json

    import golfsolve.fair
    from golfsolve.fair.difficulty import rate as real_rate

    calls = []

    def rate_then_ctrl_c(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_rate(*args, **kwargs)

    monkeypatch.setattr(golfsolve.fair, "rate", rate_then_ctrl_c)
    r = run_cli(["rate", "GO1-C-AAAAAAB", "GO1-C-AAAAAAC", "--games", "1", "--json"])
    assert r.exit_code == 130 and "interrupted" in r.stderr, (r.exit_code, r.stderr)
    assert [x["deal"] for x in json.loads(r.stdout)] == ["GO1-C-AAAAAAB"], r.stdout


def test_pick_json_stopped_by_ctrl_c_prints_the_deals_found_so_far(run_cli, monkeypatch):
    """pick --json prints its answer only at the end, so a long scan stopped with Ctrl-C
    printed nothing at all on stdout, where without --json every deal found was already on
    screen. Now the deals found so far are printed as the one JSON answer, marked
    "stopped": "interrupted", with how many deals were examined; exit 130 as before."""
    import json

    import golfsolve.fair.difficulty as difficulty

    real_scan = difficulty._scan

    def scan_then_ctrl_c(*args, **kwargs):
        for i, got in enumerate(real_scan(*args, **kwargs)):
            if i == 3:
                raise KeyboardInterrupt
            yield got

    monkeypatch.setattr(difficulty, "_scan", scan_then_ctrl_c)
    r = run_cli(["pick", "--rules", "classic", "--difficulty", "very-hard", "--count", "50", "--games", "1",
                 "--json"])
    assert r.exit_code == 130 and "interrupted" in r.stderr, (r.exit_code, r.stderr)
    got = json.loads(r.stdout)
    assert got["stopped"] == "interrupted" and got["examined"] == 3 and got["start"] == 0
    assert got["found"] == len(got["deals"]) >= 1 and got["player"]["preset"] == "fast"
    assert all(d["label"] == "very-hard" for d in got["deals"]), got["deals"]


@pytest.mark.skipif(not os.path.exists("/bin/bash"), reason="needs bash")
def test_a_closed_stderr_loses_the_messages_not_the_work(tmp_path):
    # was: 'golfsolve stats ... 2>&-' (a cron job, a daemon) failed at its progress bar with an
    # internal error (exit 1), leaving a run folder with a manifest and no chunk
    import subprocess
    import sys

    env = {**os.environ, "GOLFSOLVE_PY": sys.executable}
    out = tmp_path / "run"
    # a hang guard, not a time limit: on a cold cache this process may be the one that builds the
    # solver's ahead-of-time module (about 50 s of CPU, 121 s seen under load)
    r = subprocess.run(["bash", "-c", f'"$GOLFSOLVE_PY" -m golfsolve stats --count 4 --rules easy -j 1 --out {out} 2>&-'],
                       capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0 and "win rate: easy" in r.stdout
    assert len(list(out.glob("chunk-*.parquet"))) == 4
    r = subprocess.run(["bash", "-c", '"$GOLFSOLVE_PY" -m golfsolve solve GO1-X 2>&-'], capture_output=True,
                       text=True, timeout=120, env=env)
    assert r.returncode == 2 and r.stdout == ""  # bad input is still exit 2; its line has nowhere to go


#: A golfsolve process that sends itself ``SIG`` once the command has parsed its arguments
#: and is about to work (the step where a long solve or odds would be busy).
_SIGNALLED = """
import os, signal, sys
import golfsolve.cli.reading as reading
from golfsolve.cli.main import main

real = reading.get_layout

def signalled(*args, **kwargs):
    os.kill(os.getpid(), signal.{sig})
    return real(*args, **kwargs)

reading.get_layout = signalled
sys.argv = ["golfsolve", *sys.argv[1:]]
main()
"""


@pytest.mark.skipif(not hasattr(signal, 'SIGHUP'), reason='needs POSIX signals')
@pytest.mark.parametrize("sig, ignored, code, said", [
    ("SIGTERM", False, 130, "golfsolve: interrupted\n"),  # was: killed by the signal, exit 143, no line
    ("SIGHUP", False, 130, "golfsolve: interrupted\n"),  # was: exit 129, no line
    ("SIGHUP", True, 0, ""),  # under nohup a closed terminal stops nothing (held)
])
def test_kill_and_a_closed_terminal_stop_an_answer_as_ctrl_c_does(sig, ignored, code, said):
    """was: Ctrl-C stopped ``odds``, ``solve`` or ``hint`` with ``golfsolve: interrupted`` and
    exit 130, but ``kill`` (SIGTERM) and a closed terminal (SIGHUP) ended them silently with
    143 and 129: three ways to stop a command, three different endings."""
    def child():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGHUP, signal.SIG_IGN if ignored else signal.SIG_DFL)

    r = subprocess.run([sys.executable, "-c", _SIGNALLED.format(sig=sig), "deal", "GO1-E-AAAAAAB"],
                       capture_output=True, text=True, timeout=120, preexec_fn=child,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (r.returncode, r.stderr) == (code, said), (r.returncode, r.stderr)
    assert ("GO1-E-AAAAAAB" in r.stdout) == (code == 0)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["deal", "BAD"], ["grid", "simulate", "--matches", "0"], ["deal", "--bogus"]])
def test_bad_input_exits_2_when_stderr_cannot_be_written(args):
    """was: exit 1 and nothing said: with stderr on a full disk, writing the one-line message
    failed, and the OSError left the command as an unhandled exception"""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "golfsolve", *args], stdout=subprocess.PIPE, stderr=full, env=env,
                           timeout=120)
    assert r.returncode == 2 and r.stdout == b""
