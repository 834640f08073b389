//! The solver's measurements, for `crates/bench/benches/solve.py`:
//!
//! ```text
//! solve start GAME OPTIONS NODES SECONDS [TABLEBASE-DIR [TABLE-BITS]]
//!     (a table of 2^TABLE-BITS slots of 16 bytes, default 24: 256 MiB)
//!     solves the start of GAME under OPTIONS ("" for the standard rules):
//!     "start: value V proved P nodes N in T s (databases to K seeds)"
//! solve endgames GAME SEEDS COUNT NODES SECONDS [TABLEBASE-DIR]
//!     COUNT positions with at most SEEDS seeds on the board, each the first
//!     such position of a seeded game between two alpha-beta players
//!     (depth 4) after a few random opening moves, each solved within NODES nodes and SECONDS seconds:
//!     "endgames: P of C proved (D by the database), T s in all, slowest S s"
//! solve unproved GAME SEEDS COUNT NODES SECONDS [TABLEBASE-DIR]
//!     the same positions, one line for each the solver leaves unproved:
//!     its seed, seeds on the board, database entry, bounds, nodes, time,
//!     and how many positions of its layer can be reached from it
//!
//! With TABLEBASE-DIR the solver probes the databases built there for the
//! rules (`mancala-tablebase build`), if any, else for the same rules with
//! the standard seeds a hole (Kalah(m, n) shares Kalah(m, 4)'s); D counts
//! the positions the databases prove at once, for the game as it stands
//! (`Tablebase::probe_game`), the others being proved by search (with the
//! databases at its leaves).
//! ```

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use mancala_engine::{AlphaBeta, Budget, Player, Solution, Solver, play_random};
use mancala_rules::{Game, GameId, Options, Played, Position, Rules};
use mancala_tablebase::Tablebase;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: solve start GAME OPTIONS NODES SECONDS | solve endgames|unproved GAME SEEDS COUNT NODES SECONDS";
    let id: GameId = args.get(2).expect(usage).parse().expect("a game id");
    match args.get(1).map(String::as_str) {
        Some("start") => {
            let options: Options = args[3].parse().expect("options");
            let rules = Rules::new(id, options).expect("rules");
            let (nodes, time) = limits(&args[4], &args[5]);
            let (game, _) = Game::new(Position::new(rules)).expect("a start");
            let tablebase = tablebase(args.get(6), rules);
            let held = tablebase.as_ref().map_or(0, |t| t.max_seeds());
            let bits = args.get(7).map_or(24, |b| b.parse().expect("table bits"));
            let mut solver = Solver::new(nodes, Some(time), bits).with_tablebase(tablebase);
            let s = solver.solve(&game).expect("a move");
            say(&format!(
                "start: value {} proved {} nodes {} in {:.3} s (databases to {held} seeds)",
                s.lower,
                s.proved(),
                s.nodes,
                s.elapsed.as_secs_f64()
            ));
        }
        Some("unproved") => unproved(&args, id),
        Some("endgames") => {
            let (mut proved, mut tried, mut by_database) = (0, 0, 0);
            let (mut total, mut slowest) = (0.0, 0.0f64);
            solve_endgames(&args, id, |_, game, s, tb| {
                tried += 1;
                proved += u32::from(s.proved());
                by_database += u32::from(tb.is_some_and(|t| t.probe_game(game).is_some()));
                let secs = s.elapsed.as_secs_f64();
                total += secs;
                slowest = slowest.max(secs);
            });
            say(&format!(
                "endgames: {proved} of {tried} proved ({by_database} by the database), {total:.3} s in all, slowest {slowest:.3} s"
            ));
        }
        _ => panic!("{usage}"),
    }
}

/// Solves the endgames of `solve endgames GAME SEEDS COUNT NODES SECONDS
/// [TABLEBASE-DIR]` (`args`), handing each to `each` with the seed of its
/// game, its solution and the databases.
fn solve_endgames(
    args: &[String],
    id: GameId,
    mut each: impl FnMut(u64, &Game, &Solution, Option<&Tablebase>),
) {
    let rules = Rules::standard(id);
    let seeds: u32 = args[3].parse().expect("seeds");
    let count: u64 = args[4].parse().expect("count");
    let (nodes, time) = limits(&args[5], &args[6]);
    let tb = tablebase(args.get(7), rules);
    let mut solver = Solver::new(nodes, Some(time), 22).with_tablebase(tb.clone());
    let (mut seed, mut tried) = (0, 0);
    while tried < count && seed < count * 20 {
        seed += 1;
        let Some(game) = endgame(rules, seed, seeds) else {
            continue;
        };
        tried += 1;
        let s = solver.solve(&game).expect("a move");
        each(seed, &game, &s, tb.as_deref());
    }
}

/// `solve unproved`: the endgames `solve endgames` draws that the solver
/// leaves unproved, one line each.
fn unproved(args: &[String], id: GameId) {
    solve_endgames(args, id, |seed, game, s, tb| {
        if s.proved() {
            return;
        }
        let pos = game.position();
        let entry = match tb.and_then(|t| t.entry(pos)) {
            Some(e) if e.is_exact() => format!("exact {:?}", e.value()),
            Some(e) => format!("convention {:?}", e.value()),
            None => "none".to_owned(),
        };
        say(&format!(
            "seed {seed}: {} seeds, entry {entry}, bounds [{}, {}], nodes {}, {:.3} s, layer reach {}",
            pos.board_seeds(),
            s.lower,
            s.upper,
            s.nodes,
            s.elapsed.as_secs_f64(),
            layer_reach(pos)
        ));
    });
}

/// How many positions with as many seeds on the board as `pos` can be
/// reached from it (itself included): the room a line has before it must
/// capture or repeat.
fn layer_reach(pos: &Position) -> usize {
    let seeds = pos.board_seeds();
    let mut seen = HashSet::from([*pos]);
    let mut stack = vec![*pos];
    while let Some(at) = stack.pop() {
        let Ok(moves) = at.legal_moves() else {
            continue;
        };
        for mv in moves.iter() {
            if let Ok(Played::Finite { position, .. }) = at.play(mv)
                && position.board_seeds() == seeds
                && seen.insert(position)
            {
                stack.push(position);
            }
        }
    }
    seen.len()
}

/// The databases of `rules` under `dir`, if any: their own, else those of
/// the same rules with the standard seeds a hole (which hold Kalah(m, n)
/// for every n), a standard `holes=M` left out.
fn tablebase(dir: Option<&String>, rules: Rules) -> Option<Arc<Tablebase>> {
    let dir = Path::new(dir?);
    let mut options = rules.options().with_seeds(0);
    if rules.holes() == Rules::standard(rules.game()).holes() {
        options = options.with_holes(0);
    }
    let standard = Rules::new(rules.game(), options).ok();
    Tablebase::open(dir, rules)
        .ok()
        .or_else(|| Tablebase::open(dir, standard?).ok())
        .map(Arc::new)
}

fn say(line: &str) {
    // A closed stdout loses nothing worth a failure here.
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

fn limits(nodes: &str, seconds: &str) -> (u64, Duration) {
    let nodes = nodes.parse().expect("nodes");
    let seconds: f64 = seconds.parse().expect("seconds");
    (nodes, Duration::from_secs_f64(seconds))
}

/// The first position with at most `seeds` seeds on the board of a game
/// between two alpha-beta players seeded `seed`, still going on, after
/// two to seven random opening moves (which make the games differ).
fn endgame(rules: Rules, seed: u64, seeds: u32) -> Option<Game> {
    let mut players = [seed, seed + 1_000_000].map(|s| AlphaBeta::new(Budget::limit(4), s));
    let (mut game, _) = Game::new(Position::new(rules)).ok()?;
    let mut rng = fastrand::Rng::with_seed(seed);
    for _ in 0..2 + seed % 6 {
        play_random(&mut game, &mut rng)?;
        if game.outcome().is_some() {
            return None;
        }
    }
    let mut ply = 0;
    while game.outcome().is_none() {
        if game.position().board_seeds() <= seeds {
            return Some(game);
        }
        players[ply % 2].play(&mut game)?.report.ok()?;
        ply += 1;
    }
    None
}
