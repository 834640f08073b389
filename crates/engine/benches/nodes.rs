//! Alpha-beta nodes per second in each game.
//!
//! ```text
//! cargo bench -p mancala-engine --bench nodes
//! ```
//!
//! One iteration searches a fixed set of positions (the start and positions
//! from a seeded random game) to a fixed depth with an empty transposition
//! table; the throughput column is nodes per second.

use divan::Bencher;
use divan::counter::ItemsCount;
use fastrand::Rng;
use mancala_engine::{AlphaBeta, Budget, play_random};
use mancala_rules::{Game, GameId, Position, Rules};

fn main() {
    divan::main();
}

const DEPTH: u32 = AlphaBeta::DEFAULT_DEPTH;

/// The start, and the position before every tenth ply of a seeded random
/// game, up to six positions.
fn positions(id: GameId) -> Vec<Game> {
    let rules = Rules::standard(id);
    let Ok((mut game, _)) = Game::new(Position::new(rules)) else {
        unreachable!("the start can be played");
    };
    let mut rng = Rng::with_seed(2024);
    let mut out = vec![game.clone()];
    for ply in 1..=50 {
        if play_random(&mut game, &mut rng).is_none() {
            break;
        }
        if ply % 10 == 0 && game.outcome().is_none() {
            out.push(game.clone());
        }
    }
    out
}

fn player() -> AlphaBeta {
    // A small table: divan may build a few players ahead of timing them.
    AlphaBeta::with_table_bits(Budget::limit(DEPTH), 0, 16)
}

fn search_all(player: &mut AlphaBeta, games: &[Game]) -> u64 {
    games
        .iter()
        .filter_map(|g| player.search(g))
        .map(|info| info.nodes)
        .sum()
}

#[divan::bench(args = GameId::ALL, sample_count = 30, sample_size = 1)]
fn alphabeta(bencher: Bencher, id: GameId) {
    let games = positions(id);
    // The search is deterministic, so the node count is known in advance.
    let nodes = search_all(&mut player(), &games);
    bencher
        .counter(ItemsCount::new(nodes))
        .with_inputs(player)
        .bench_local_values(|mut p| search_all(&mut p, &games));
}
