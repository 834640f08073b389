#!/usr/bin/env python3
"""Strength where the builds differ: this build's alpha-beta moves against an
older build's, each rated by a search twenty times longer.

    python3 crates/bench/benches/ab_judge.py [--old REV] [--games N] [--ms MS]
        [--judge-ms MS] [--game ID ...] [--jobs J] [--opening K] [--option WORD ...]
        [--old-bin DIR] [--new-bin DIR]

`ab_strength.py` scores whole games between the two builds, and in games
where the side to move first keeps its edge (Olinda Keliya, Pallankuzhi
under `rounds=5`, a round of Rio Kadalis) nearly every pair of games is
split by the side whatever the searchers do: two searchers that choose the
same move almost everywhere play the same game from both sides. This
script looks only where their choices differ.

It plays the games `ab_strength.py` plays (its openings, seeds, sides and
options; the new build South in even games), both builds as
`alphabeta:ms=MS` (default 100). At every ply the build whose turn it is
moves, and the other build is asked for its move in the same position
(`mancala-play --plies 1` with the same seed). Where the two moves differ,
`judge` (this tree's `crates/bench/src/bin/judge.rs`) analyses the position
for `--judge-ms` (default 2000) with this build's margin search, the one
`mancala-analyze` uses, and searches each move to the depth that reached;
which move is searched first alternates, since the second finds the
table warm. A position is judged once per run: the same board with the
same side to move and the same two moves (later rounds of a match often
start from the same board) counts once.

It prints, for each game, the positions judged, how often the new build's
move was rated better, equal and worse, the share of the unequal ones it
won with a 95% interval (a sign test: normal approximation), and the mean
margin in seeds the new build's choice gained. The judge is this build's
search, with the evaluation both builds share (at a fixed depth the two
builds choose the same moves): it sees deeper, not differently. Not run in
CI; timed searches, so run it on a quiet machine with `--jobs` at most the
number of idle cores (each job runs one search at a time).
"""

import argparse
import math
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ab_strength import (  # noqa: E402
    GAMES,
    MAX_PLIES,
    ROOT,
    add_match_flags,
    board,
    build_new,
    build_old,
    next_ply,
    opening_of,
    options_of,
    pair_of,
    result,
)


def build_judge() -> Path:
    subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "mancala-bench", "--bin", "judge"], cwd=ROOT, check=True)
    return ROOT / "target" / "release" / "judge"


class Tally:
    """Judged positions of one game, shared by its jobs."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seen: set[tuple[str, str, str]] = set()
        self.margins: list[int] = []  # new's value minus old's, centiseeds
        self.asked = 0  # positions where both builds were asked

    def claim(self, key: tuple[str, str, str]) -> bool:
        with self.lock:
            if key in self.seen:
                return False
            self.seen.add(key)
            return True

    def line(self) -> str:
        better = sum(m > 0 for m in self.margins)
        worse = sum(m < 0 for m in self.margins)
        equal = len(self.margins) - better - worse
        unequal = better + worse
        if unequal:
            share = better / unequal
            half = 1.96 * math.sqrt(share * (1 - share) / unequal)
            won = f"{100 * share:.1f} ({100 * (share - half):.1f}-{100 * (share + half):.1f})"
        else:
            won = "-"
        mean = sum(self.margins) / len(self.margins) / 100 if self.margins else 0.0
        return (
            f"{self.asked:>6} {len(self.margins):>6} {better:>6} {equal:>6} {worse:>6} {won:>20} {mean:>+8.2f}"
        )


def last_move(text: str) -> str:
    """The last move token of a record's movetext (a key, not parsed)."""
    movetext = text.rstrip().rsplit("\n\n", 1)[-1].split()
    tokens = [t for t in movetext[:-1] if not t.endswith(".") and not t.startswith("R")]
    return tokens[-1] if tokens else ""


def play(game: str, number: int, new: Path, old: Path, judge: Path, args: argparse.Namespace, tally: Tally) -> None:
    new_side, seed = pair_of(number)
    spec = f"alphabeta:ms={args.ms}"
    options = options_of(game, args.option)
    with tempfile.TemporaryDirectory() as tmp:
        record, by_new, by_old = (Path(tmp) / name for name in ("before.mgn", "new.mgn", "old.mgn"))
        text = opening_of(game, options, seed, new, args.opening, None)
        for ply in range(MAX_PLIES):
            record.write_text(text)
            if result(text) != "*":
                return
            diagram, side = board(new / "mancala-render", record)
            texts = {}
            for binary, out in ((new, by_new), (old, by_old)):
                continued = next_ply(binary, seed, spec, record, text)
                if continued is None:
                    return
                out.write_text(continued)
                texts[out] = continued
            with tally.lock:
                tally.asked += 1
            moves = (last_move(texts[by_new]), last_move(texts[by_old]))
            if moves[0] != moves[1] and tally.claim((diagram, *moves)):
                margin = judged(judge, args.judge_ms, record, by_new, by_old, new_first=ply % 2 == 0)
                if margin is not None:
                    with tally.lock:
                        tally.margins.append(margin)
            text = texts[by_new if side == new_side else by_old]


def judged(judge: Path, ms: int, record: Path, by_new: Path, by_old: Path, new_first: bool) -> int | None:
    """The judge's value of the new build's move minus the old's, in
    centiseeds; `None` when the two are one move written two ways. Which
    move is searched first alternates (the second finds the table warm)."""
    first, second = (by_new, by_old) if new_first else (by_old, by_new)
    run = subprocess.run([str(judge), "--ms", str(ms), str(record), str(first), str(second)], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"judge failed on {record.read_text()}: {run.stderr}")
    words = run.stdout.split()
    if words == ["same"]:
        return None
    values = dict(zip(words[::2], words[1::2]))
    a, b = int(values["a"]), int(values["b"])
    return a - b if new_first else b - a


HEADER = f"{'game':<15} {'asked':>6} {'judged':>6} {'better':>6} {'equal':>6} {'worse':>6} {'won % of unequal (95%)':>20} {'seeds':>8}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_match_flags(parser)
    parser.add_argument("--games", type=int, default=40, help="games of each game played for positions (default 40)")
    parser.add_argument("--ms", type=int, default=100, help="milliseconds a move for both builds (default 100)")
    parser.add_argument("--judge-ms", type=int, default=2000, help="milliseconds the judge analyses a position (default 2000)")
    args = parser.parse_args()

    new = args.new_bin or build_new()
    old = args.old_bin or build_old(args.old)
    judge = build_judge()
    options = "".join(f", option {word}" for word in args.option)
    print(f"new ({ROOT.name}, HEAD) against old ({args.old}), both alphabeta:ms={args.ms}, "
          f"judge {args.judge_ms} ms, {args.games} games each{options}")
    print("asked: positions both builds chose a move in; judged: distinct ones where the moves differed;")
    print("better/equal/worse: the judge's value of the new build's move against the old's; seeds: mean margin")
    print(HEADER, flush=True)
    for game in args.game or GAMES:
        tally = Tally()
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            jobs = [pool.submit(play, game, n, new, old, judge, args, tally) for n in range(args.games)]
            for done, job in enumerate(jobs, 1):
                job.result()
                with tally.lock:
                    line = tally.line()
                # The running tally goes to stderr as games end, so a run cut short still tells.
                print(f"{game}: {done}/{args.games} games {line}", file=sys.stderr, flush=True)
        print(f"{game:<15} {tally.line()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
