#!/usr/bin/env python3
"""The solver: the share of endgames proved, and Kalah(m, n) from the start.

    python3 crates/bench/benches/solve.py [--count N] [--nodes N] [--seconds S]
                                          [--kalah-seconds S] [--no-kalah]
                                          [--kalah-only] [--boards M,N ...]
                                          [--tablebase DIR] [--only GAME]

Builds the engine's `solve` example (crates/engine/examples/solve.rs) in
release and prints

- for each of the six games, positions with at most 8, 12 and 16 seeds on
  the board taken from engine games (the first such position of a seeded
  game between two depth-4 alpha-beta players after a few random opening
  moves; `--count` of them, default 20), the share the solver proves within
  `--nodes` (default 1,000,000) and `--seconds` (default 1) each, with the
  total and slowest time. In a match of rounds a value is exact to the end
  of the round (spec/rules/common.md). With `--tablebase DIR` the solver
  probes the endgame databases built there (`mancala-tablebase build
  --tablebase DIR`), and each cell also says how many positions the
  databases proved at once for the game as it stands (`db N`: in them, an
  exact value, and a repetition history that cannot change it; see
  spec/tablebase.md), the rest being proved by search with the databases
  at its leaves;
- Kalah(m, n) from the start, m houses a side and n seeds a house, under
  both readings of a capture into an empty house facing an empty one: our
  default (the seed stays, as OpenSpiel and the commercial rules have it)
  and `empty-capture` (the seed is taken: the reading Irving, Donkers and
  Uiterwijk solved, per Rawlings): the value proved (the first player's
  final margin), the nodes and the time, within `--kalah-seconds` each
  (default 60), beside the published value where one was found. With
  `--tablebase DIR` the solver probes the databases built there for the
  board's own rules (`mancala-tablebase build --game kalah [-o holes=M]
  [-o seeds=N] [-o empty-capture] --seeds K --tablebase DIR`), if any.

Not run in CI; timings depend on the machine.
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
GAMES = ("olowuka", "olinda-keliya", "pallankuzhi", "rio-kadalis", "kalah", "oware")
CELLS = (8, 12, 16)
# Published values (the first player's margin from the start), by the
# options they hold under. Irving, Donkers & Uiterwijk, "Solving Kalah",
# ICGA Journal 23(3), 2000: Kalah(6,4) +10 and Kalah(6,5) +12, under the
# empty-capture reading (so Rawlings's account of their result, Wikipedia's
# "Kalah" article, 2015, which gives Kalah(6,6) +2 under it too, his own).
# Their table of smaller boards, and any value under the other reading,
# were not found in the sources at hand: those cells say so rather than
# guess.
PUBLISHED = {("empty-capture", 6, 4): 10, ("empty-capture", 6, 5): 12, ("empty-capture", 6, 6): 2}
KALAH = [(m, n) for m in range(1, 7) for n in range(1, 7) if m * n <= 30]
READINGS = ("", "empty-capture")


def example(*args: str) -> str:
    binary = ROOT / "target" / "release" / "examples" / "solve"
    return subprocess.run([str(binary), *args], capture_output=True, text=True, check=True).stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20, help="positions per cell (default 20)")
    parser.add_argument("--nodes", type=int, default=1_000_000, help="node budget a position (default 1e6)")
    parser.add_argument("--seconds", type=float, default=1.0, help="time budget a position (default 1)")
    parser.add_argument("--kalah-seconds", type=float, default=60.0, help="time budget a board (default 60)")
    parser.add_argument("--no-kalah", action="store_true", help="skip the Kalah(m, n) table")
    parser.add_argument("--kalah-only", action="store_true", help="only the Kalah(m, n) table")
    parser.add_argument(
        "--boards", nargs="+", metavar="M,N", help="the Kalah boards to solve (default: every m <= 6, n <= 6, m n <= 30)"
    )
    parser.add_argument("--tablebase", metavar="DIR", help="endgame databases to probe (mancala-tablebase build)")
    parser.add_argument("--only", metavar="GAME", choices=GAMES, help="endgames of this game alone (no Kalah(m, n) table)")
    args = parser.parse_args()
    boards = [tuple(int(x) for x in b.split(",")) for b in args.boards] if args.boards else KALAH
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "-p", "mancala-engine", "--example", "solve"], cwd=ROOT, check=True
    )

    if not args.kalah_only:
        endgames(args)
    if not (args.no_kalah or args.only):
        kalah(args, boards)
    return 0


def endgames(args: argparse.Namespace) -> None:
    databases = [str(Path(args.tablebase).resolve())] if args.tablebase else []
    print(f"endgames from engine games: proved within {args.nodes:,} nodes and {args.seconds} s each")
    if databases:
        print(f"databases: {databases[0]} (db N: proved by them at once)")
    width = 32 if databases else 24
    print(f"{'game':<14}" + "".join(f" {'<= ' + str(c) + ' seeds':>{width}}" for c in CELLS))
    for game in [args.only] if args.only else GAMES:
        line = f"{game:<14}"
        for cell in CELLS:
            out = example(
                "endgames", game, str(cell), str(args.count), str(args.nodes), str(args.seconds), *databases
            )
            m = re.search(
                r"(\d+) of (\d+) proved \((\d+) by the database\), ([\d.]+) s in all, slowest ([\d.]+) s", out
            )
            if not m:
                sys.exit(f"unexpected output: {out!r}")
            proved, tried, db, slowest = int(m[1]), int(m[2]), int(m[3]), float(m[5])
            share = f"{100 * proved / tried:.0f}%" if tried else "n/a"
            cell_text = f"{proved}/{tried} {share}" + (f" db {db}" if databases else "") + f" max {slowest:.2f}s"
            line += f" {cell_text:>{width}}"
        print(line, flush=True)
    print()


def kalah(args: argparse.Namespace, boards: list) -> None:
    db = f", databases under {args.tablebase}" if args.tablebase else ""
    print(f"Kalah(m, n) from the start, within {args.kalah_seconds} s each{db}")
    print(f"{'board':<10} {'options':<14} {'value':>6} {'proved':>7} {'nodes':>14} {'seconds':>9} {'published':>10}")
    for m, n in boards:
        for reading in READINGS:
            options = " ".join(o for o in (f"holes={m}", f"seeds={n}", reading) if o)
            tail = [args.tablebase] if args.tablebase else []
            out = example("start", "kalah", options, str(2**62), str(args.kalah_seconds), *tail)
            r = re.search(r"value (-?\d+) proved (\w+) nodes (\d+) in ([\d.]+) s", out)
            if not r:
                sys.exit(f"unexpected output: {out!r}")
            published = PUBLISHED.get((reading, m, n))
            published = f"{published:+d}" if published is not None else "not found"
            value = f"{int(r[1]):+d}" if r[2] == "true" else "-"
            print(
                f"Kalah({m},{n}) {reading or 'default':<14} {value:>6} {r[2]:>7} {int(r[3]):>14,}"
                f" {float(r[4]):>9.2f} {published:>10}",
                flush=True,
            )


if __name__ == "__main__":
    sys.exit(main())
