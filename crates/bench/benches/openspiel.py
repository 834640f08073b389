#!/usr/bin/env python3
"""Random playouts per second: OpenSpiel's C++ Oware and Kalah next to ours.

    python3 crates/bench/benches/openspiel.py [--games N] [--venv DIR] [--instructions]

Installs OpenSpiel (the `open-spiel` package from PyPI) into a virtualenv
(default target/openspiel-venv; made once, reused after), builds our
`speed` example (crates/engine/examples/speed.rs) in release, then in one
run times

- OpenSpiel: N games of `oware` and of `mancala` (Kalah) between two
  `uniform_random` bots, each game played to its end in C++ by
  `pyspiel.evaluate_bots` (one Python call a game); plies are the length of
  each final state's history;
- ours: N random games to the end of each of our four games through
  `mancala_engine::play_out` (`speed playouts GAME N`).

It prints plies per second of each, and the ratio of ours (Olowuka, the
nearest of our games to Oware: same board, single laps aside) to OpenSpiel's
Oware and Kalah. Oware and Kalah sow single laps; our games relay, so a ply
of ours sows more. `--instructions` also counts instructions per ply with
valgrind (OpenSpiel's C++ path with one Python call a game, ours), which
does not move with the machine's load. Not run in CI. If OpenSpiel cannot be installed (no
wheel for this platform or Python, no network), the script says so, prints
our figures alone and exits with status 1.
"""

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

# Runs inside the virtualenv: N games of each OpenSpiel game, one line each.
OPENSPIEL_PROBE = r"""
import sys, time
import pyspiel
games = int(sys.argv[1])
for name in ("oware", "mancala"):
    game = pyspiel.load_game(name)
    bots = [pyspiel.make_uniform_random_bot(0, 1), pyspiel.make_uniform_random_bot(1, 2)]
    plies = 0
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_initial_state()
        pyspiel.evaluate_bots(state, bots, seed)
        plies += len(state.history())
    secs = time.perf_counter() - start
    print(f"{name} {games} {plies} {secs:.6f}")
"""


def install(venv: Path) -> tuple[Path | None, str]:
    """The virtualenv's python with open-spiel installed, or None and why."""
    python = venv / "bin" / "python"
    if not python.exists():
        made = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True)
        if made.returncode != 0:
            return None, f"could not make a virtualenv at {venv}: {made.stderr.strip()}"
    check = subprocess.run([str(python), "-c", "import pyspiel"], capture_output=True)
    if check.returncode == 0:
        return python, ""
    print(f"installing open-spiel into {venv} (a few minutes)...", file=sys.stderr)
    pip = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--prefer-binary", "open-spiel"],
        capture_output=True,
        text=True,
    )
    if pip.returncode != 0:
        tail = "\n".join((pip.stderr or pip.stdout).strip().splitlines()[-8:])
        return None, f"pip install open-spiel failed (exit {pip.returncode}):\n{tail}"
    check = subprocess.run([str(python), "-c", "import pyspiel"], capture_output=True, text=True)
    if check.returncode != 0:
        return None, f"open-spiel installed but `import pyspiel` failed: {check.stderr.strip()}"
    return python, ""


def ours(games: int) -> dict[str, tuple[int, float]]:
    """Plies and seconds of `games` random games of each of our games."""
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "-p", "mancala-engine", "--example", "speed"],
        cwd=ROOT,
        check=True,
    )
    speed = ROOT / "target" / "release" / "examples" / "speed"
    out = {}
    for game in ("olowuka", "olinda-keliya", "pallankuzhi", "rio-kadalis"):
        # The round games last hundreds of plies: fewer games, like time.
        n = games if game in ("olowuka", "olinda-keliya") else max(1, games // 8)
        line = subprocess.run([str(speed), "playouts", game, str(n)], capture_output=True, text=True, check=True).stdout
        m = re.search(r": (\d+) plies in ([\d.]+) s", line)
        if not m:
            sys.exit(f"unexpected output from speed: {line!r}")
        out[game] = (int(m.group(1)), float(m.group(2)))
    return out


def callgrind(cmd: list[str]) -> int:
    """Instructions `cmd` executes, counted by valgrind's callgrind."""
    err = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd], capture_output=True, text=True
    ).stderr
    m = re.search(r"refs:\s+([\d,]+)", err)
    if not m:
        sys.exit(f"no instruction count from valgrind: {err[-400:]}")
    return int(m.group(1).replace(",", ""))


def instructions(python: Path, games: int) -> None:
    """Instructions per ply of OpenSpiel's Oware and Kalah and of our Olowuka
    (a run of no games taken off each: interpreter and process start-up)."""
    probe = OPENSPIEL_PROBE.replace('("oware", "mancala")', "(sys.argv[2],)")
    speed = ROOT / "target" / "release" / "examples" / "speed"
    rows = []
    for name, label in (("oware", "OpenSpiel C++ oware"), ("mancala", "OpenSpiel C++ kalah")):
        out = subprocess.run([str(python), "-c", probe, str(games), name], capture_output=True, text=True).stdout
        plies = int(out.split()[2])
        idle = callgrind([str(python), "-c", probe, "0", name])
        rows.append((label, (callgrind([str(python), "-c", probe, str(games), name]) - idle) / plies))
    line = subprocess.run([str(speed), "playouts", "olowuka", str(games)], capture_output=True, text=True).stdout
    plies = int(re.search(r": (\d+) plies", line).group(1))
    idle = callgrind([str(speed), "playouts", "olowuka", "0"])
    rows.append(("ours olowuka", (callgrind([str(speed), "playouts", "olowuka", str(games)]) - idle) / plies))
    print(f"\n{'instructions per ply (callgrind)':<34} {'':>10}")
    for label, per_ply in rows:
        print(f"{label:<34} {per_ply:>10,.0f}")
    print(f"OpenSpiel Oware / ours olowuka, instructions per ply: {rows[0][1] / rows[2][1]:.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20000, help="random games of each (default 20000)")
    parser.add_argument("--venv", type=Path, default=ROOT / "target" / "openspiel-venv")
    parser.add_argument(
        "--instructions", action="store_true", help="also count instructions per ply with valgrind (1,000 games)"
    )
    args = parser.parse_args()

    python, why = install(args.venv)
    theirs = {}
    if python is not None:
        run = subprocess.run([str(python), "-c", OPENSPIEL_PROBE, str(args.games)], capture_output=True, text=True)
        if run.returncode != 0:
            python, why = None, f"OpenSpiel's playouts failed: {run.stderr.strip()}"
        else:
            for line in run.stdout.splitlines():
                name, n, plies, secs = line.split()
                theirs[name] = (int(plies), float(secs))
    mine = ours(args.games)

    print(f"{'playouts':<28} {'games':>7} {'plies':>10} {'seconds':>8} {'plies/s':>12}")
    rows = []
    for name, label in (("oware", "OpenSpiel C++ oware"), ("mancala", "OpenSpiel C++ kalah")):
        if name in theirs:
            rows.append((label, args.games, *theirs[name]))
    for game, (plies, secs) in mine.items():
        n = args.games if game in ("olowuka", "olinda-keliya") else max(1, args.games // 8)
        rows.append((f"ours {game}", n, plies, secs))
    for label, n, plies, secs in rows:
        print(f"{label:<28} {n:>7} {plies:>10} {secs:>8.3f} {plies / secs:>12,.0f}")
    ours_rate = mine["olowuka"][0] / mine["olowuka"][1]
    if python is None:
        print(f"\nOpenSpiel could not be installed or run, so there is no ratio: {why}")
        return 1
    for name, label in (("oware", "Oware"), ("mancala", "Kalah")):
        plies, secs = theirs[name]
        print(f"ours olowuka / OpenSpiel {label}, plies per second: {ours_rate / (plies / secs):.2f}x")
    if args.instructions:
        instructions(python, 1000)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("CARGO_TERM_COLOR", "never")
    sys.exit(main())
