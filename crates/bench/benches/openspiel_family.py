#!/usr/bin/env python3
"""Kalah and Oware checked ply by ply against OpenSpiel, and timed against it.

    python3 crates/bench/benches/openspiel_family.py [--games N] [--setups N]
        [--ply-games N] [--speed-games N] [--instructions] [--venv DIR] [--seed S]

Installs OpenSpiel (`open-spiel` from PyPI) into a virtualenv as
crates/bench/benches/openspiel.py does (default target/openspiel-venv), builds
our tools in release, then for each of OpenSpiel's `mancala` (Kalah: 2 x 6,
4 seeds) and `oware` (Abapa):

1. plays N random games from the start (uniform over OpenSpiel's legal
   actions, seeded) and `--setups` games from random set-ups: OpenSpiel
   offers no way to set a board, so a set-up is the position after a random
   number of random plies (0 to 59; in Oware, the position right after a
   capture or the start, so that both sides' repetition histories start
   there too), written as the record's `SetUp` tag, the game played on from
   there;
2. writes each game as an MGN record: every move with `+N`, the seeds the
   mover's store or captures grew by in OpenSpiel (its last move's left out
   in Oware, where OpenSpiel adds the rows' seeds to the scores as the game
   ends), and OpenSpiel's final score as the result;
3. runs `mancala-validate --quiet` on them all: it replays every ply under
   our rules and reports any move we refuse (a side to move, a legal move or
   an end that differs), any `+N` we disagree with (the stores, ply by ply),
   any record that goes on after our game ended or ends before it does, and
   any score that differs;
4. for the first `--ply-games` games of each kind, draws every ply with
   `mancala-render --format json --plies ..` and compares each ply's rows,
   stores and side to move with OpenSpiel's (the last ply's score too).

Every disagreement is printed with its game. Then it times random playouts
to the end, ours (`speed playouts kalah|oware N`, crates/engine/examples/
speed.rs) against OpenSpiel's C++ (`pyspiel.evaluate_bots` with two
`uniform_random` bots, one Python call a game), in plies per second, and
with `--instructions` in instructions per ply under valgrind (1,000 games,
a run of none taken off for start-up). Not run in CI.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from openspiel import OPENSPIEL_PROBE, ROOT, callgrind, install  # noqa: E402

HOLES = 6


def kalah_view(state):
    """(south row, north row, [south store, north store], player to move)
    of an OpenSpiel `mancala` state: pit 0 is North's store, 1..6 South's
    houses from its left, 7 South's store, 8..13 North's houses from its
    left (the first after South's store)."""
    t = [round(x) for x in state.observation_tensor(0)[:14]]
    return t[1:7], t[8:14], [t[7], t[0]]


def oware_view(state, total=48):
    """The same of an OpenSpiel `oware` state, whose observation is every
    house's seeds then both scores, each over the total."""
    t = [round(x * total) for x in state.observation_tensor(0)]
    return t[0:HOLES], t[HOLES : 2 * HOLES], [t[12], t[13]]


def letter(player, action, game):
    """Our hole label of OpenSpiel's action: Kalah's actions are pits (1..6
    South's, 8..13 North's), Oware's a house of the mover's row (0..5)."""
    index = action - (1 if player == 0 else 8) if game == "kalah" else action
    return chr((ord("A") if player == 0 else ord("a")) + index)


def generate(game, count, setups, seed, out_mgn, out_expect):
    """Runs inside the virtualenv: plays the games and writes the records
    and, per game, OpenSpiel's position after every ply (JSON lines)."""
    import pyspiel

    spiel = pyspiel.load_game("mancala" if game == "kalah" else "oware")
    view = kalah_view if game == "kalah" else oware_view
    with open(out_mgn, "w") as mgn, open(out_expect, "w") as expect:
        for i in range(count + setups):
            rng = random.Random(seed * 1_000_003 + i + (0 if game == "kalah" else 500_000_000))
            state = spiel.new_initial_state()
            setup = None
            if i >= count:
                prefix = rng.randrange(60)
                start = None
                for _ in range(prefix):
                    if state.is_terminal():
                        break
                    before = view(state)[2]
                    state.apply_action(rng.choice(state.legal_actions()))
                    if game == "kalah" or view(state)[2] != before:
                        start = state.clone()
                state = start if start is not None and not start.is_terminal() else spiel.new_initial_state()
                south, north, stores = view(state)
                side = "S" if state.current_player() == 0 else "N"
                setup = f"{side} {','.join(map(str, south))}/{','.join(map(str, north))} {stores[0]}-{stores[1]}"
            moves, plies = [], []
            truncated = False
            while not state.is_terminal():
                player = state.current_player()
                action = rng.choice(state.legal_actions())
                before = view(state)[2][player]
                try:
                    state.apply_action(action)
                except Exception:  # OpenSpiel's length cap (1,000 plies)
                    truncated = True
                    break
                south, north, stores = view(state)
                gain = stores[player] - before
                moves.append((letter(player, action, game), gain))
                to_move = None if state.is_terminal() else ("south" if state.current_player() == 0 else "north")
                plies.append([south, north, stores, to_move])
            if game == "kalah" and state.is_terminal():
                south, north, stores = view(state)
                score = [sum(south) + stores[0], sum(north) + stores[1]]
            else:
                score = view(state)[2]
            finished = state.is_terminal() and not truncated and state.move_number() <= spiel.max_game_length()
            tokens = []
            for k, (mv, gain) in enumerate(moves):
                last_in_oware = game == "oware" and k == len(moves) - 1 and finished
                tokens.append(mv if last_in_oware else f"{mv}+{gain}")
            result = f"{score[0]}-{score[1]}" if finished else "*"
            mgn.write(f"[Game \"{game}\"]\n[Event \"OpenSpiel game {i + 1}\"]\n")
            if setup:
                mgn.write(f'[SetUp "{setup}"]\n')
            mgn.write(f'[Result "{result}"]\n\n')
            line = ""
            for token in tokens + [result]:
                if len(line) + len(token) + 1 > 78:
                    mgn.write(line + "\n")
                    line = ""
                line += (" " if line else "") + token
            mgn.write(line + "\n\n")
            expect.write(json.dumps({"plies": plies, "score": score, "finished": finished}) + "\n")


def tool(name):
    return str(ROOT / "target" / "release" / name)


def check(game, mgn, expect_path, ply_games):
    """Our verdicts on OpenSpiel's games; the number of disagreements."""
    expected = [json.loads(line) for line in open(expect_path)]
    problems = 0
    run = subprocess.run([tool("mancala-validate"), "--quiet", mgn], capture_output=True, text=True)
    errors = [line for line in run.stderr.splitlines() if ": error: " in line]
    problems += len(errors)
    for line in errors[:20]:
        print(f"  {game}: {line}")
    records = len(expected)
    if run.returncode == 0:
        print(f"  {game}: mancala-validate: all {records} records valid (every ply, +N, end and score)")
    elif not errors:
        problems += 1
        print(f"  {game}: mancala-validate failed (exit {run.returncode}): {run.stderr.strip()[-400:]}")
    else:
        print(f"  {game}: mancala-validate: {len(errors)} errors in {records} records")
    # Every ply of the first games, drawn by mancala-render.
    subset = Path(mgn).with_suffix(".subset.mgn")
    text = Path(mgn).read_text()
    records = text.split('[Game "')[1 : ply_games + 1]
    subset.write_text("".join('[Game "' + r for r in records))
    render = subprocess.run(
        [tool("mancala-render"), "--format", "json", "--plies", "..", str(subset)], capture_output=True, text=True
    )
    compared = plies = 0
    for k, line in enumerate(render.stdout.splitlines()):
        frames = [f for f in json.loads(line)["frames"] if f["kind"] == "ply"]
        want = expected[k]
        if len(frames) != len(want["plies"]):
            problems += 1
            print(f"  {game} game {k + 1}: {len(frames)} plies drawn, OpenSpiel played {len(want['plies'])}")
            continue
        for n, (frame, (south, north, stores, to_move)) in enumerate(zip(frames, want["plies"]), 1):
            board = frame["board"]
            last = n == len(frames) and want["finished"]
            got = [board["south"], board["north"], board["stores"], board["to_move"]]
            if last:
                ours = [sum(board["south"]) + board["stores"][0], sum(board["north"]) + board["stores"][1]]
                same = ours == want["score"]
            else:
                same = got == [south, north, stores, to_move]
            plies += 1
            if not same:
                problems += 1
                if problems <= 20:
                    print(f"  {game} game {k + 1} ply {n}: ours {got}, OpenSpiel {[south, north, stores, to_move]}")
        compared += 1
    print(f"  {game}: mancala-render --format json: {compared} games, {plies} plies compared ply by ply")
    return problems


def speed(python, games, instructions):
    """Random playouts to the end: ours against OpenSpiel's C++."""
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "-p", "mancala-engine", "--example", "speed"], cwd=ROOT, check=True
    )
    ours_bin = ROOT / "target" / "release" / "examples" / "speed"
    print(f"\n{'random playouts':<22} {'games':>7} {'plies':>10} {'seconds':>8} {'plies/s':>12} {'ours / theirs':>14}")
    rates = {}
    # openspiel.py's probe: one line per game, `name games plies seconds`.
    out = subprocess.run(
        [str(python), "-c", OPENSPIEL_PROBE, str(games)], capture_output=True, text=True, check=True
    ).stdout
    timed = {name: (plies, secs) for name, _, plies, secs in (line.split() for line in out.splitlines())}
    for game, name in (("kalah", "mancala"), ("oware", "oware")):
        plies, secs = timed[name]
        theirs = int(plies) / max(float(secs), 1e-6)
        line = subprocess.run([str(ours_bin), "playouts", game, str(games)], capture_output=True, text=True).stdout
        m = re.search(r": (\d+) plies in ([\d.]+) s", line)
        # Our speed example prints its seconds to three places: a short run
        # can read 0.000 s, so a millisecond is the least it is taken for.
        mine = int(m.group(1)) / max(float(m.group(2)), 0.001)
        rates[game] = (theirs, mine)
        print(f"{'OpenSpiel ' + game:<22} {games:>7} {plies:>10} {float(secs):>8.3f} {theirs:>12,.0f}")
        print(
            f"{'ours ' + game:<22} {games:>7} {m.group(1):>10} {float(m.group(2)):>8.3f} {mine:>12,.0f} {mine / theirs:>13.1f}x"
        )
    if not instructions:
        return
    n = 1000
    print(f"\n{'instructions per ply':<22} {'OpenSpiel':>12} {'ours':>10} {'theirs / ours':>14}")
    # The probe for one game, named after the count (as openspiel.py runs
    # it): the other game's instructions are not counted.
    probe = OPENSPIEL_PROBE.replace('("oware", "mancala")', "(sys.argv[2],)")
    for game, name in (("kalah", "mancala"), ("oware", "oware")):
        out = subprocess.run([str(python), "-c", probe, str(n), name], capture_output=True, text=True).stdout
        plies = int(out.split()[2])
        theirs = (callgrind([str(python), "-c", probe, str(n), name]) - callgrind([str(python), "-c", probe, "0", name])) / plies
        line = subprocess.run([str(ours_bin), "playouts", game, str(n)], capture_output=True, text=True).stdout
        our_plies = int(re.search(r": (\d+) plies", line).group(1))
        mine = (callgrind([str(ours_bin), "playouts", game, str(n)]) - callgrind([str(ours_bin), "playouts", game, "0"])) / our_plies
        print(f"{game:<22} {theirs:>12,.0f} {mine:>10,.0f} {theirs / mine:>13.1f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="random games from the start, each game (100000)")
    parser.add_argument("--setups", type=int, default=10_000, help="random games from random set-ups, each (10000)")
    parser.add_argument("--ply-games", type=int, default=5_000, help="games drawn and compared every ply (5000)")
    parser.add_argument("--speed-games", type=int, default=20_000, help="random playouts timed, each (20000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--instructions", action="store_true", help="also count instructions per ply (valgrind)")
    parser.add_argument("--venv", type=Path, default=ROOT / "target" / "openspiel-venv")
    parser.add_argument("--generate", nargs=6, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.generate:
        game, count, setups, seed, out_mgn, out_expect = args.generate
        generate(game, int(count), int(setups), int(seed), out_mgn, out_expect)
        return 0

    python, why = install(args.venv)
    if python is None:
        print(f"OpenSpiel could not be installed or run: {why}", file=sys.stderr)
        return 1
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bins"], cwd=ROOT, check=True)
    problems = 0
    with tempfile.TemporaryDirectory() as tmp:
        for game in ("kalah", "oware"):
            mgn, expect = f"{tmp}/{game}.mgn", f"{tmp}/{game}.jsonl"
            start = time.perf_counter()
            subprocess.run(
                [str(python), __file__, "--generate", game, str(args.games), str(args.setups), str(args.seed), mgn, expect],
                check=True,
            )
            print(f"{game}: {args.games} games from the start and {args.setups} from set-ups played by OpenSpiel "
                  f"({time.perf_counter() - start:.0f} s)")
            problems += check(game, mgn, expect, args.ply_games)
    print(f"\ndisagreements with OpenSpiel: {problems}")
    speed(python, args.speed_games, args.instructions)
    return 1 if problems else 0


if __name__ == "__main__":
    os.environ.setdefault("CARGO_TERM_COLOR", "never")
    sys.exit(main())
