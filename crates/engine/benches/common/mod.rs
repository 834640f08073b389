//! What the `nodes` bench and the `speed` example both search (included
//! by path, as `mod common`).

// Each includer uses a part of it.
#![allow(dead_code)]

use fastrand::Rng;
use mancala_engine::play_random;
use mancala_rules::{Game, GameId, Position, Rules};

/// The start of `id` under the standard rules.
pub fn start(id: GameId) -> Game {
    match Game::new(Position::new(Rules::standard(id))) {
        Ok((game, _)) => game,
        Err(e) => unreachable!("the start of {id} plays: {e}"),
    }
}

/// The start, and the position before every tenth ply of a seeded random
/// game, up to six positions.
pub fn positions(id: GameId) -> Vec<Game> {
    let mut game = start(id);
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
