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
use mancala_engine::{AlphaBeta, Budget};
use mancala_rules::{Game, GameId};

mod common;
use common::positions;

fn main() {
    divan::main();
}

const DEPTH: u32 = AlphaBeta::DEFAULT_DEPTH;

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
