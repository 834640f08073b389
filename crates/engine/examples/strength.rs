//! Strength table from seeded matches between engines, in every game.
//!
//! ```text
//! cargo run --release -p mancala-engine --example strength -- --games 100
//! ```
//!
//! Options: `--games N` (games per pairing and game, default 100), `--seed S`
//! (default 1), `--jobs J` (worker threads, default: all cores), `--game ID`
//! (repeatable; default all four), `--pair "A vs B"` (repeatable; player
//! specs as `mancala-play` takes them; default: alphabeta vs random,
//! alphabeta vs greedy, mcts vs random), `--option WORD` (repeatable;
//! variant options as records write them, e.g. `rounds=5`, for every game
//! asked for, which must all take them).
//!
//! The first player of a pairing is South in even-numbered games and North
//! in odd ones. Every game is seeded from (seed, game, pairing, number), so
//! the table does not depend on the number of threads. Wins, draws and losses
//! are the first player's.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use mancala_engine::{PlayerSpec, holdings};
use mancala_rules::{Game, GameId, Options, Position, Rules, Side};

/// A game longer than this is stopped and scored on holdings (it cannot
/// happen under the standard rules, whose repetition rule ends every game).
const MAX_PLIES: u32 = 10_000;

struct Args {
    games: u32,
    seed: u64,
    jobs: usize,
    ids: Vec<GameId>,
    options: Options,
    pairs: Vec<(PlayerSpec, PlayerSpec)>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        games: 100,
        seed: 1,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        ids: Vec::new(),
        options: Options::new(),
        pairs: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--games" => args.games = value()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--seed" => args.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--jobs" => {
                args.jobs = value()?
                    .parse::<usize>()
                    .map_err(|e| format!("--jobs: {e}"))?
                    .max(1);
            }
            "--game" => args
                .ids
                .push(value()?.parse().map_err(|e| format!("--game: {e}"))?),
            "--option" => args
                .options
                .insert_word(&value()?)
                .map_err(|e| format!("--option: {e}"))?,
            "--pair" => {
                let v = value()?;
                let (a, b) = v
                    .split_once(" vs ")
                    .ok_or_else(|| format!("--pair `{v}`: expected `A vs B`"))?;
                let a = a.parse().map_err(|e| format!("--pair: {e}"))?;
                let b = b.parse().map_err(|e| format!("--pair: {e}"))?;
                args.pairs.push((a, b));
            }
            _ => return Err(format!("unknown argument `{flag}`")),
        }
    }
    if args.ids.is_empty() {
        args.ids = GameId::ALL.to_vec();
    }
    for &id in &args.ids {
        Rules::new(id, args.options).map_err(|e| format!("--option: {e}"))?;
    }
    if args.pairs.is_empty() {
        for pair in [
            "alphabeta vs random",
            "alphabeta vs greedy",
            "mcts vs random",
        ] {
            let (a, b) = pair.split_once(" vs ").unwrap_or_default();
            args.pairs.push((
                a.parse().map_err(|e| format!("{e}"))?,
                b.parse().map_err(|e| format!("{e}"))?,
            ));
        }
    }
    Ok(args)
}

/// splitmix64, to derive independent seeds.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[derive(Clone, Copy, Debug, Default)]
struct Result1 {
    /// 1 win, 0 draw, -1 loss, for the pairing's first player.
    result: i8,
    plies: u32,
    stopped: bool,
    time: Duration,
    /// Alpha-beta nodes and search time of the first player, if it searches.
    nodes: u64,
    search_time: Duration,
}

fn play_one(rules: Rules, a: PlayerSpec, b: PlayerSpec, seed: u64, a_south: bool) -> Result1 {
    let start = Instant::now();
    let mut pa = a.build(mix(seed));
    let mut pb = b.build(mix(seed ^ 0xb));
    let a_side = if a_south { Side::South } else { Side::North };
    let Ok((mut game, _)) = Game::new(Position::new(rules)) else {
        unreachable!("starting positions can be played")
    };
    let mut out = Result1::default();
    while game.outcome().is_none() && out.plies < MAX_PLIES {
        let mover = game.position().to_move();
        let player = if mover == a_side { &mut pa } else { &mut pb };
        let Some(mv) = player.choose(&game) else {
            break;
        };
        if mover == a_side
            && let Some(info) = player.info()
        {
            out.nodes += info.nodes;
            out.search_time += info.elapsed;
        }
        if let Err(e) = game.play(mv) {
            panic!("{} chose an unplayable move {mv}: {e}", player.name());
        }
        out.plies += 1;
    }
    let score = match game.outcome() {
        Some(o) => o.score,
        None => {
            out.stopped = true;
            holdings(&game)
        }
    };
    let (mine, theirs) = (score[a_side.index()], score[a_side.opposite().index()]);
    out.result = match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Less => -1,
    };
    out.time = start.elapsed();
    out
}

fn run(args: &Args, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "| game | first player | second player | win % | draw % | loss % | win % as S / N | avg plies | ms/game | first player's knodes/s |"
    )?;
    writeln!(out, "|---|---|---|---:|---:|---:|---:|---:|---:|---:|")?;
    let total = Instant::now();
    for (gi, &id) in args.ids.iter().enumerate() {
        let rules = Rules::new(id, args.options).map_err(io::Error::other)?;
        // The game column: the id, and the options when there are some.
        let game = if args.options.is_empty() {
            id.to_string()
        } else {
            format!("{id} {}", args.options)
        };
        for (pi, &(a, b)) in args.pairs.iter().enumerate() {
            let base = mix(args.seed ^ mix(gi as u64 + 1) ^ mix(((pi as u64) << 32) + 7));
            let games = args.games as usize;
            let mut results = vec![Result1::default(); games];
            let chunk = games.div_ceil(args.jobs).max(1);
            std::thread::scope(|s| {
                for (c, slots) in results.chunks_mut(chunk).enumerate() {
                    s.spawn(move || {
                        for (k, slot) in slots.iter_mut().enumerate() {
                            let i = c * chunk + k;
                            *slot =
                                play_one(rules, a, b, mix(base ^ i as u64), i.is_multiple_of(2));
                        }
                    });
                }
            });
            let n = games.max(1) as f64;
            let pct = |r: i8| 100.0 * results.iter().filter(|x| x.result == r).count() as f64 / n;
            // Game i has the first player South when i is even.
            let side_pct = |parity: usize| {
                let mine = results.iter().enumerate().filter(|(i, _)| i % 2 == parity);
                let count = mine.clone().count().max(1) as f64;
                100.0 * mine.filter(|(_, x)| x.result == 1).count() as f64 / count
            };
            let plies: u32 = results.iter().map(|r| r.plies).sum();
            let time: Duration = results.iter().map(|r| r.time).sum();
            let nodes: u64 = results.iter().map(|r| r.nodes).sum();
            let search: Duration = results.iter().map(|r| r.search_time).sum();
            let stopped = results.iter().filter(|r| r.stopped).count();
            let knps = if nodes > 0 {
                format!(
                    "{:.0}",
                    nodes as f64 / search.as_secs_f64().max(1e-9) / 1000.0
                )
            } else {
                "–".to_owned()
            };
            writeln!(
                out,
                "| {game} | {a} | {b} | {:.1} | {:.1} | {:.1} | {:.0} / {:.0} | {:.1}{} | {:.1} | {knps} |",
                pct(1),
                pct(0),
                pct(-1),
                side_pct(0),
                side_pct(1),
                f64::from(plies) / n,
                if stopped > 0 {
                    format!(" ({stopped} stopped)")
                } else {
                    String::new()
                },
                time.as_secs_f64() * 1000.0 / n,
            )?;
            out.flush()?;
        }
    }
    writeln!(
        out,
        "\n{} games per row, seed {}, {} threads, {:.1} s in all.",
        args.games,
        args.seed,
        args.jobs,
        total.elapsed().as_secs_f64()
    )?;
    Ok(())
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            let _ = writeln!(io::stderr(), "strength: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = BufWriter::new(io::stdout().lock());
    match run(&args, &mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "strength: {e}");
            ExitCode::FAILURE
        }
    }
}
