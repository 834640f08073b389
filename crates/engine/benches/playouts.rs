//! Random playouts to the end and MCTS playouts per second, in each game.
//!
//! ```text
//! cargo bench -p mancala-engine --bench playouts
//! ```
//!
//! `play_out_plies`: 64 seeded random games from the start through
//! `play_out` (each move sown once; the games `play_random` plays), plies
//! per second. `mcts_playouts`: one MCTS search of 500 playouts from the
//! start, playouts per second. Instructions per unit, which do not move
//! with the machine's load: `python3 crates/bench/benches/engine_speed.py`.

use divan::Bencher;
use divan::counter::ItemsCount;
use fastrand::Rng;
use mancala_engine::{Budget, Mcts, play_out};
use mancala_rules::GameId;

mod common;
use common::start;

fn main() {
    divan::main();
}

/// Games per iteration.
const GAMES: u64 = 64;

fn games_to_end(id: GameId) -> u64 {
    let mut rng = Rng::with_seed(1);
    (0..GAMES)
        .map(|_| {
            let mut game = start(id);
            play_out(&mut game, &mut rng, u32::MAX).map_or(0, u64::from)
        })
        .sum()
}

#[divan::bench(args = GameId::ALL, sample_count = 20)]
fn play_out_plies(bencher: Bencher, id: GameId) {
    bencher
        .counter(ItemsCount::new(games_to_end(id)))
        .bench(|| games_to_end(divan::black_box(id)));
}

const PLAYOUTS: u32 = 500;

#[divan::bench(args = GameId::ALL, sample_count = 20)]
fn mcts_playouts(bencher: Bencher, id: GameId) {
    let game = start(id);
    bencher
        .counter(ItemsCount::new(PLAYOUTS))
        .bench(|| Mcts::new(Budget::limit(PLAYOUTS), 1).search(divan::black_box(&game)));
}
