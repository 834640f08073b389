//! Static evaluation and terminal scores, always from the point of view of a
//! given side (in negamax: the side to move).

use mancala_rules::{Game, Outcome, Side};

/// A won game scores at least this much (minus the plies it takes), so that
/// any win beats any evaluation.
pub const WIN: i32 = 1_000_000;

/// Scores at or beyond this magnitude are proven results, not estimates.
pub const PROVEN: i32 = WIN / 2;

/// Weights of the static evaluation, in points per seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A seed in a side's store (captured, won, or kept aside).
    pub store: i32,
    /// A seed in a side's own row, which it keeps if the game (or round)
    /// ended now but may still lose to a capture.
    pub row: i32,
}

impl Weights {
    /// The weights used for `game`.
    ///
    /// Stores are safe and rows are not, so a stored seed counts for more. In
    /// round games (Pallankuzhi, Rio Kadalis) a round is won on holdings and
    /// the row seeds come back to their owner at the refill, so the two are
    /// worth nearly the same.
    #[must_use]
    pub fn for_game(game: &Game) -> Weights {
        if game.position().rules().plays_rounds() {
            Weights { store: 4, row: 3 }
        } else {
            Weights { store: 4, row: 1 }
        }
    }
}

/// The static value of `game` for `side`: weighted stores and rows, mine
/// minus the opponent's. Finished games get [`terminal`] scores.
#[must_use]
pub fn evaluate(game: &Game, side: Side) -> i32 {
    if let Some(outcome) = game.outcome() {
        return terminal(&outcome, side, 0);
    }
    let w = Weights::for_game(game);
    let pos = game.position();
    let value = |s: Side| w.store * i32::from(pos.store(s)) + w.row * pos.row_seeds(s) as i32;
    value(side) - value(side.opposite())
}

/// The score of a finished game for `side`, `ply` moves from the search root:
/// wins above every evaluation (sooner and by more is better), losses below,
/// draws zero.
#[must_use]
pub fn terminal(outcome: &Outcome, side: Side, ply: u32) -> i32 {
    let diff = outcome.score[side.index()] as i32 - outcome.score[side.opposite().index()] as i32;
    match outcome.winner {
        None => 0,
        Some(w) if w == side => WIN + diff - ply as i32,
        Some(_) => -WIN + diff + ply as i32,
    }
}
