#!/usr/bin/env python3
"""Strength at equal time: this build's alpha-beta against an older build's.

    python3 crates/bench/benches/ab_strength.py [--old REV] [--games N] [--ms MS]
        [--game ID ...] [--jobs J] [--old-bin DIR] [--new-bin DIR]

Builds `mancala-play` of this tree and of revision REV (a git worktree under
target/ab-old/, its own target directory; default e960f4b, the revision
before issue 20's engine work), then plays N games (default 400) of each
game (default all four) between the two, both as `alphabeta:ms=MS` (default
100): the new build is South in even-numbered games, North in odd ones, and
games 2k and 2k+1 share a seed, so both sides play each opening. A game is
played a ply at a time: the build whose side is to move continues the
record with `--plies 1` (each search starts with an empty table, on both
sides alike), and this tree's `mancala-render` says whose turn it is.

It prints the new build's wins, draws and losses per game and its score
(wins plus half the draws) as a share of the games. Timed searches: run it
on a quiet machine, with --jobs at most the number of idle cores. Not run
in CI; 400 games of each game take hours (a ply costs MS milliseconds).
"""

import argparse
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
GAMES = ("olinda-keliya", "olowuka", "pallankuzhi", "rio-kadalis")
MAX_PLIES = 2000


def build_new() -> Path:
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bins"], cwd=ROOT, check=True)
    return ROOT / "target" / "release"


def build_old(rev: str) -> Path:
    base = ROOT / "target" / "ab-old"
    src = base / "src"
    commit = subprocess.run(["git", "rev-parse", rev], cwd=ROOT, capture_output=True, text=True, check=True)
    commit = commit.stdout.strip()
    if src.exists():
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=src, capture_output=True, text=True).stdout.strip()
        if head != commit:
            subprocess.run(["git", "checkout", "--quiet", "--detach", commit], cwd=src, check=True)
    else:
        base.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "worktree", "add", "--detach", str(src), commit], cwd=ROOT, check=True)
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "--bin", "mancala-play"],
        cwd=src,
        env={**__import__("os").environ, "CARGO_TARGET_DIR": str(base / "target")},
        check=True,
    )
    return base / "target" / "release"


def to_move(render: Path, record: Path) -> str:
    """`south` or `north`: whose turn it is at the end of `record`."""
    out = subprocess.run([str(render), "--color", "never", str(record)], capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines():
        if "<- to move" in line:
            return line.split()[0].lower()
    sys.exit(f"cannot tell whose turn it is in {record}:\n{out.stdout}")


def result(record: str) -> str:
    m = re.search(r'\[Result "([^"]*)"\]', record)
    return m.group(1) if m else "*"


def play(game: str, number: int, new: Path, old: Path, spec: str) -> str:
    """One game; the new build's outcome: `win`, `draw` or `loss`."""
    new_side = "south" if number % 2 == 0 else "north"
    seed = 1 + number // 2
    flags = ["--quiet", "--plies", "1", "--south", spec, "--north", spec, "--seed", str(seed)]
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "game.txt"
        side = "south"
        # The first ply starts the record (South moves first).
        binary = new if side == new_side else old
        text = subprocess.run(
            [str(binary / "mancala-play"), "--game", game, *flags], capture_output=True, text=True, check=True
        ).stdout
        for _ in range(MAX_PLIES):
            record.write_text(text)
            res = result(text)
            if res != "*":
                break
            side = to_move(new / "mancala-render", record)
            binary = new if side == new_side else old
            run = subprocess.run([str(binary / "mancala-play"), *flags, str(record)], capture_output=True, text=True)
            if run.returncode != 0 or run.stdout == text:
                # An undecided move or a refused one: the game stops here.
                break
            text = run.stdout
        res = result(text)
    # Results are the final scores, South's first (`14-34`); `*` unfinished.
    m = re.fullmatch(r"(\d+)-(\d+)", res)
    if not m or m.group(1) == m.group(2):
        return "draw"
    south_won = int(m.group(1)) > int(m.group(2))
    return "win" if south_won == (new_side == "south") else "loss"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default="e960f4b", help="the revision to play against (default e960f4b)")
    parser.add_argument("--games", type=int, default=400, help="games of each game (default 400)")
    parser.add_argument("--ms", type=int, default=100, help="milliseconds a move, both sides (default 100)")
    parser.add_argument("--game", action="append", choices=GAMES, help="repeatable; default all four")
    parser.add_argument("--jobs", type=int, default=1, help="games at once (default 1)")
    parser.add_argument("--old-bin", type=Path, help="a directory holding the old build's mancala-play (no build)")
    parser.add_argument("--new-bin", type=Path, help="the same for this build's mancala-play and mancala-render")
    args = parser.parse_args()

    new = args.new_bin or build_new()
    old = args.old_bin or build_old(args.old)
    spec = f"alphabeta:ms={args.ms}"
    print(f"new ({ROOT.name}, HEAD) against old ({args.old}), both {spec}, {args.games} games each")
    print(f"{'game':<15} {'wins':>5} {'draws':>5} {'losses':>6} {'score %':>8}")
    total = {"win": 0, "draw": 0, "loss": 0}
    for game in args.game or GAMES:
        outcomes = []
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            # The running tally goes to stderr as games end, so a run cut short still tells.
            for outcome in pool.map(lambda n: play(game, n, new, old, spec), range(args.games)):
                outcomes.append(outcome)
                wins, draws = outcomes.count("win"), outcomes.count("draw")
                print(
                    f"{game}: {len(outcomes)}/{args.games} games, {wins} won, {draws} drawn, "
                    f"{len(outcomes) - wins - draws} lost",
                    file=sys.stderr,
                    flush=True,
                )
        count = {k: outcomes.count(k) for k in total}
        for k in total:
            total[k] += count[k]
        score = 100 * (count["win"] + count["draw"] / 2) / max(1, args.games)
        print(f"{game:<15} {count['win']:>5} {count['draw']:>5} {count['loss']:>6} {score:>8.1f}", flush=True)
    n = sum(total.values())
    score = 100 * (total["win"] + total["draw"] / 2) / max(1, n)
    print(f"{'all':<15} {total['win']:>5} {total['draw']:>5} {total['loss']:>6} {score:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
