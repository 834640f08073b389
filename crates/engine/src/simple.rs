//! The two players without search.

use fastrand::Rng;
use mancala_rules::{Game, Move};

use crate::Player;
use crate::play::{MoveBuf, children};

/// Plays a uniformly random legal move.
#[derive(Debug)]
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    #[must_use]
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::with_seed(seed),
        }
    }
}

impl Player for RandomPlayer {
    /// Tries the candidates in random order with [`Position::play`](mancala_rules::Position::play) (a copy,
    /// no allocation) and returns the first that plays.
    fn choose(&mut self, game: &Game) -> Option<Move> {
        if game.outcome().is_some() {
            return None;
        }
        let pos = game.position();
        let mut moves = MoveBuf::from(pos.candidates());
        while let Some(mv) = moves.take_random(&mut self.rng) {
            if pos.play(mv).is_ok() {
                return Some(mv);
            }
        }
        None
    }

    fn name(&self) -> String {
        "random".to_owned()
    }
}

/// Plays the move with the largest immediate net gain (seeds the mover
/// gains during the move minus seeds the opponent gains), breaking ties at
/// random.
#[derive(Debug)]
pub struct Greedy {
    rng: Rng,
}

impl Greedy {
    #[must_use]
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: Rng::with_seed(seed),
        }
    }
}

impl Player for Greedy {
    fn choose(&mut self, game: &Game) -> Option<Move> {
        let kids = children(game);
        let best = kids.iter().map(|c| c.gain).max()?;
        let ties = kids.iter().filter(|c| c.gain == best).count();
        let pick = self.rng.usize(..ties);
        kids.iter()
            .filter(|c| c.gain == best)
            .nth(pick)
            .map(|c| c.mv)
    }

    fn name(&self) -> String {
        "greedy".to_owned()
    }
}
