#!/usr/bin/env python3
"""Strength at equal time: this build's alpha-beta against an older build's.

    python3 crates/bench/benches/ab_strength.py [--old REV] [--games N] [--ms MS] [--new-ms MS]
        [--game ID ...] [--jobs J] [--opening K] [--balanced DEPTH] [--option WORD ...]
        [--old-bin DIR] [--new-bin DIR]

Builds `mancala-play` of this tree and of revision REV (a git worktree under
target/ab-old/, its own target directory; default e960f4b, the revision
before issue 20's engine work), then plays N games (default 400) of each
game (default all four) between the two, both as `alphabeta:ms=MS` (default
100): the new build is South in even-numbered games, North in odd ones, and
games 2k and 2k+1 share a seed and an opening, so both builds play each
opening from both sides. With `--new-ms` the new build gets that time a
move instead (the old keeps `--ms`): ten times the time, say, bounds what
any speed-up of the search could buy in a game.

Openings: each pair of games starts with K plies (default 4) of two random
players seeded by the pair's seed, the same plies in both games; then the
two builds play on. Between two deterministic searchers the games of one
seed are nearly alike (in Olinda Keliya South won every seeded game at
ms=100, so each build won exactly its South games whatever its strength);
the random plies make the pairs differ. A pair won by the side, not the
build (one game each), tells nothing: the tally counts the pairs the new
build won both games of, split, and lost both of (after four random plies
South still won 89% of Olinda Keliya games, and 191 of 200 pairs split). Four is the smallest K that gives
nine pairs in ten an opening of their own in every game (179 to 190
distinct of 200; K=2 gives 32 to 59, K=3 104 to 147), and an even K gives
each side as many random moves as the other.

With `--balanced DEPTH` a pair's opening is the first of its seed's openings
(the seed, then the seed plus 100,000, 200,000, …) that this build's
`mancala-analyze --depth DEPTH` rates within one seed of level after its
last ply: in Olinda Keliya the side to move first keeps its edge through
four random plies, and a pair split by the side tells nothing of the builds.

Pallankuzhi is played under the option `rounds=5` (the match ends after
round 5 and is won on holdings; spec/rules/common.md): its full matches
between two such players run to thousands of plies, neither side able to
close the other out, so a game would take minutes and most would be
stopped unfinished. The other games are played under their standard rules.
`--option WORD` (repeatable) adds a variant option to every game asked for,
e.g. `--game rio-kadalis --option single-round`: after a match's first round
every round starts from a board that the holdings alone set (a round drawn
24-24 starts the next from the full board, the starter alternating), so the
later rounds of a run's matches replay a handful of positions whatever the
opening, and the score tells how each build plays those few; one round a
game keeps each pair's opening its own (STRENGTH.md, "Rio Kadalis: the
rounds after the first").

A game is played a ply at a time: the build whose side is to move continues
the record with `--plies 1` (each search starts with an empty table, on both
sides alike), and this tree's `mancala-render` says whose turn it is. A game
that reaches 2,000 plies is stopped and counted as a draw.

It prints the new build's wins, draws and losses per game and its score
(wins plus half the draws) as a share of the games, with a 95% interval
(normal approximation over the games' scores of 1, 1/2 and 0); the running
tally on stderr says the same as games end. Timed searches: run it on a
quiet machine, with --jobs at most the number of idle cores. Not run in CI;
400 games of each game take hours (a ply costs MS milliseconds).
"""

import argparse
import math
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
GAMES = ("olinda-keliya", "olowuka", "pallankuzhi", "rio-kadalis")
MAX_PLIES = 2000
# Options each game is played under (see the docstring).
GAME_OPTIONS = {"pallankuzhi": ["rounds=5"]}


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


def board(render: Path, record: Path) -> tuple[str, str]:
    """The diagram of the position at the end of `record` (the board, the
    stores and whose turn it is, without the title or the ply count), and
    `south` or `north`: whose turn it is."""
    out = subprocess.run([str(render), "--color", "never", str(record)], capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()[2:]
    for line in lines:
        if "<- to move" in line:
            return "\n".join(lines), line.split()[0].lower()
    sys.exit(f"cannot tell whose turn it is in {record}:\n{out.stdout}")


def result(record: str) -> str:
    m = re.search(r'\[Result "([^"]*)"\]', record)
    return m.group(1) if m else "*"


def last_eval(record: str) -> int | None:
    """The seeds of the last `[%eval V,D]` (or `=V`) in an analysed record."""
    found = re.findall(r"\[%eval =?([+-]?\d+)(?:\.\d+)?(?:,\d+)?\]", record)
    return int(found[-1]) if found else None


def opening_of(game: str, options: list[str], seed: int, new: Path, opening: int, balanced: int | None) -> str:
    """The pair's opening: `opening` plies of two random players seeded by
    `seed`. With `balanced` (a depth), the first of the openings seeded
    `seed`, `seed + 100000`, … that this build's `mancala-analyze` at that
    depth rates within one seed of level."""
    for attempt in range(200):
        start = ["--game", game, *options, "--quiet", "--seed", str(seed + 100_000 * attempt)]
        start += ["--south", "random", "--north", "random", "--plies", str(opening)]
        text = subprocess.run([str(new / "mancala-play"), *start], capture_output=True, text=True, check=True).stdout
        if balanced is None or result(text) != "*":
            if balanced is None:
                return text
            continue
        rated = subprocess.run(
            [str(new / "mancala-analyze"), "--depth", str(balanced), "--jobs", "1", "-"],
            input=text, capture_output=True, text=True, check=True,
        ).stdout
        value = last_eval(rated)
        if value is not None and abs(value) <= 1:
            return text
    sys.exit(f"{game}: no balanced opening found from seed {seed}")


def pair_of(number: int) -> tuple[str, int]:
    """Game `number`'s side for the new build and its seed: games 2k and
    2k+1 share a seed, and so an opening; the new build is South in the
    even one."""
    return ("south" if number % 2 == 0 else "north"), 1 + number // 2


def options_of(game: str, extra: list[str]) -> list[str]:
    """`mancala-play`'s option flags for `game`: its own, then `extra`."""
    return [w for word in GAME_OPTIONS.get(game, []) + extra for w in ("--option", word)]


def next_ply(binary: Path, seed: int, spec: str, record: Path, text: str) -> str | None:
    """`text` (held in `record`) continued by one ply of `binary`'s
    `mancala-play`, both sides played by `spec`; `None` where the game stops
    there: a move undecided under the lap budget, or one refused."""
    flags = ["--quiet", "--plies", "1", "--seed", str(seed), "--south", spec, "--north", spec]
    run = subprocess.run([str(binary / "mancala-play"), *flags, str(record)], capture_output=True, text=True)
    if run.returncode != 0 or run.stdout == text:
        return None
    return run.stdout


def play(
    game: str,
    number: int,
    new: Path,
    old: Path,
    specs: tuple[str, str],
    opening: int,
    balanced: int | None,
    extra: list[str],
) -> str:
    """One game, `specs` the new build's player and the old's; the new
    build's outcome: `win`, `draw` or `loss`."""
    new_side, seed = pair_of(number)
    options = options_of(game, extra)
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "game.txt"
        # The pair's opening, the same random plies in both of its games.
        text = opening_of(game, options, seed, new, opening, balanced)
        for _ in range(MAX_PLIES):
            record.write_text(text)
            if result(text) != "*":
                break
            _, side = board(new / "mancala-render", record)
            binary, spec = (new, specs[0]) if side == new_side else (old, specs[1])
            continued = next_ply(binary, seed, spec, record, text)
            if continued is None:
                break
            text = continued
        res = result(text)
    # Results are the final scores, South's first (`14-34`); `*` unfinished.
    m = re.fullmatch(r"(\d+)-(\d+)", res)
    if not m or m.group(1) == m.group(2):
        return "draw"
    south_won = int(m.group(1)) > int(m.group(2))
    return "win" if south_won == (new_side == "south") else "loss"


def interval(wins: int, draws: int, games: int) -> str:
    """The score and its 95% interval in percent, e.g. `54.6 (49.8-59.4)`."""
    if games == 0:
        return "-"
    mean = (wins + draws / 2) / games
    # The variance of the games' scores (1, 1/2 or 0).
    losses = games - wins - draws
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2) / games
    half = 1.96 * math.sqrt(var / games)
    return f"{100 * mean:.1f} ({100 * (mean - half):.1f}-{100 * (mean + half):.1f})"


def pairs(outcomes: list[str]) -> str:
    """The completed pairs the new build won both games of / split / lost both."""
    points = [sum({"win": 2, "draw": 1, "loss": 0}[o] for o in outcomes[i : i + 2]) for i in range(0, len(outcomes) - 1, 2)]
    return f"{points.count(4)}/{len(points) - points.count(4) - points.count(0)}/{points.count(0)}"


def add_match_flags(parser: argparse.ArgumentParser) -> None:
    """The flags this script shares with `ab_judge.py`: which builds, which
    games, and how the games open."""
    parser.add_argument("--old", default="e960f4b", help="the revision to play against (default e960f4b)")
    parser.add_argument("--game", action="append", choices=GAMES, help="repeatable; default all four")
    parser.add_argument("--jobs", type=int, default=1, help="games at once (default 1)")
    parser.add_argument("--opening", type=int, default=4, help="random plies opening each pair (default 4)")
    parser.add_argument("--option", action="append", default=[], metavar="WORD",
                        help="a variant option for every game asked for (repeatable), e.g. single-round")
    parser.add_argument("--old-bin", type=Path, help="a directory holding the old build's mancala-play (no build)")
    parser.add_argument("--new-bin", type=Path, help="the same for this build's mancala-play and mancala-render")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_match_flags(parser)
    parser.add_argument("--games", type=int, default=400, help="games of each game (default 400)")
    parser.add_argument("--ms", type=int, default=100, help="milliseconds a move: the old build's, and the new's unless --new-ms (default 100)")
    parser.add_argument("--new-ms", type=int, metavar="MS", help="the new build's milliseconds a move (default --ms)")
    parser.add_argument("--balanced", type=int, metavar="DEPTH",
                        help="only openings this build's mancala-analyze at DEPTH rates within a seed of level")
    args = parser.parse_args()

    new = args.new_bin or build_new()
    old = args.old_bin or build_old(args.old)
    specs = (f"alphabeta:ms={args.new_ms or args.ms}", f"alphabeta:ms={args.ms}")
    both = f"both {specs[0]}" if specs[0] == specs[1] else f"{specs[0]} against {specs[1]}"
    options = "".join(f", option {word}" for word in args.option)
    print(f"new ({ROOT.name}, HEAD) against old ({args.old}), {both}, {args.games} games each{options}")
    print(f"{'game':<15} {'wins':>5} {'draws':>5} {'losses':>6} {'score % (95% interval)':>20}")
    total = {"win": 0, "draw": 0, "loss": 0}
    for game in args.game or GAMES:
        outcomes = []
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            # The running tally goes to stderr as games end, so a run cut short still tells.
            for outcome in pool.map(lambda n: play(game, n, new, old, specs, args.opening, args.balanced, args.option), range(args.games)):
                outcomes.append(outcome)
                wins, draws = outcomes.count("win"), outcomes.count("draw")
                print(
                    f"{game}: {len(outcomes)}/{args.games} games, {wins} won, {draws} drawn, "
                    f"{len(outcomes) - wins - draws} lost, score {interval(wins, draws, len(outcomes))}, "
                    f"pairs won/split/lost {pairs(outcomes)}",
                    file=sys.stderr,
                    flush=True,
                )
        count = {k: outcomes.count(k) for k in total}
        for k in total:
            total[k] += count[k]
        score = interval(count["win"], count["draw"], len(outcomes))
        print(
            f"{game:<15} {count['win']:>5} {count['draw']:>5} {count['loss']:>6} {score:>20}  pairs won/split/lost "
            f"{pairs(outcomes)}",
            flush=True,
        )
    n = sum(total.values())
    score = interval(total["win"], total["draw"], n)
    print(f"{'all':<15} {total['win']:>5} {total['draw']:>5} {total['loss']:>6} {score:>20}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
