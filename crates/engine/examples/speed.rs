//! A fixed amount of engine work, for instruction counts (callgrind) and
//! timings of whole runs: random playouts, alpha-beta nodes, MCTS playouts.
//!
//! ```text
//! cargo build --release -p mancala-engine --example speed
//! target/release/examples/speed playouts olowuka 2000   # random games to the end
//! target/release/examples/speed random olowuka 2000     # the same, a play_random call a ply
//! target/release/examples/speed alphabeta olowuka 9     # depth-9 searches, 2^16 table
//! target/release/examples/speed mcts olowuka 20000      # MCTS playouts from the start
//! ```
//!
//! It prints the units of work done (plies, nodes, playouts) and their
//! number per second, so that `valgrind --tool=callgrind` gives
//! instructions per unit: `crates/bench/benches/engine_speed.py` runs it
//! that way, beside an older build if asked. It uses only the engine's
//! public API (and `benches/common/mod.rs`, copied along); against a
//! revision without `play_out`, `playouts` is `random` (the same games).

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use fastrand::Rng;
use mancala_engine::{AlphaBeta, Budget, Mcts, play_out, play_random};
use mancala_rules::GameId;

#[path = "../benches/common/mod.rs"]
mod common;
use common::{positions, start};

/// `n` seeded random games to the end through [`play_out`]; their plies.
///
/// The start is set up once and each game plays on a copy of it, as a
/// search's playouts start from a copy of the position searched (and as
/// OpenSpiel's `load_game` once, `new_initial_state` a game, which
/// `crates/bench/benches/openspiel_family.py` times beside this).
fn playouts(id: GameId, n: u64) -> u64 {
    let mut rng = Rng::with_seed(1);
    let mut plies = 0;
    let first = start(id);
    for _ in 0..n {
        let mut game = first.clone();
        match play_out(&mut game, &mut rng, u32::MAX) {
            Ok(played) => plies += u64::from(played),
            Err(e) => unreachable!("standard games are decided within the lap budget: {e}"),
        }
    }
    plies
}

/// The same games as [`playouts`], a [`play_random`] call a ply.
fn random_plies(id: GameId, n: u64) -> u64 {
    let mut rng = Rng::with_seed(1);
    let mut plies = 0;
    let first = start(id);
    for _ in 0..n {
        let mut game = first.clone();
        while play_random(&mut game, &mut rng).is_some() {
            plies += 1;
        }
    }
    plies
}

/// Alpha-beta to `depth` on [`positions`] (the `nodes` bench's), a fresh 2^16-slot player each;
/// the nodes visited.
fn alphabeta(id: GameId, depth: u64) -> u64 {
    positions(id)
        .iter()
        .filter_map(|g| AlphaBeta::with_table_bits(Budget::limit(depth as u32), 0, 16).search(g))
        .map(|info| info.nodes)
        .sum()
}

/// MCTS with `n` playouts from the start; the playouts run.
fn mcts(id: GameId, n: u64) -> u64 {
    Mcts::new(Budget::limit(n as u32), 1)
        .search(&start(id))
        .map_or(0, |info| info.nodes)
}

/// A usage error: `message` on stderr, exit code 2.
fn usage(message: &str) -> ExitCode {
    let _ = writeln!(std::io::stderr().lock(), "speed: {message}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [what, game, n] = args.as_slice() else {
        return usage("usage: speed playouts|random|alphabeta|mcts GAME N");
    };
    let (Ok(id), Ok(n)) = (game.parse::<GameId>(), n.parse::<u64>()) else {
        return usage(&format!("unknown game `{game}` or bad number `{n}`"));
    };
    let clock = Instant::now();
    let (units, unit) = match what.as_str() {
        "playouts" => (playouts(id, n), "plies"),
        "random" => (random_plies(id, n), "plies"),
        "alphabeta" => (alphabeta(id, n), "nodes"),
        "mcts" => (mcts(id, n), "playouts"),
        _ => {
            return usage(&format!(
                "unknown work `{what}` (playouts, random, alphabeta or mcts)"
            ));
        }
    };
    let secs = clock.elapsed().as_secs_f64();
    let line = format!(
        "{what} {id}: {units} {unit} in {secs:.6} s, {:.0} {unit}/s\n",
        units as f64 / secs.max(1e-9)
    );
    // A closed stdout loses nothing worth a failure here.
    let _ = std::io::stdout().lock().write_all(line.as_bytes());
    ExitCode::SUCCESS
}
