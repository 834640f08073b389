//! Static evaluation and terminal scores, always from the point of view of a
//! given side (in negamax: the side to move).

use mancala_rules::{Position, Rules, Side};

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
    /// The weights used under `rules`.
    ///
    /// Stores are safe and rows are not, so a stored seed counts for more. In
    /// matches of rounds (Pallankuzhi, Rio Kadalis) a round is won on
    /// holdings and the row seeds come back to their owner at the refill, so
    /// the two are worth nearly the same.
    ///
    /// Measured in Olinda Keliya (600 seeded games at depth 9 against
    /// greedy): row weights 1 and 2 win 91%, 0 wins 85%, 3 and 4 win 87%.
    /// Extra terms (non-empty holes, largest hole, single seeds, a bonus for
    /// the side to move), fitted or guessed, did not win more games.
    #[must_use]
    pub fn for_rules(rules: Rules) -> Weights {
        if rules.plays_rounds() {
            Weights { store: 4, row: 3 }
        } else {
            Weights { store: 4, row: 1 }
        }
    }
}

impl Weights {
    /// The static value of `pos` for `side`: weighted stores and rows, mine
    /// minus the opponent's.
    #[must_use]
    pub fn evaluate(self, pos: &Position, side: Side) -> i32 {
        let value =
            |s: Side| self.store * i32::from(pos.store(s)) + self.row * pos.row_seeds(s) as i32;
        value(side) - value(side.opposite())
    }
}

/// The score of a game that ended with `score` (South's, North's), for
/// `side`, `ply` moves from the search root: wins above every evaluation
/// (sooner and by more is better), losses below, draws zero.
#[must_use]
pub fn terminal(score: [u32; 2], side: Side, ply: u32) -> i32 {
    let diff = score[side.index()] as i32 - score[side.opposite().index()] as i32;
    match diff.signum() {
        0 => 0,
        1 => WIN + diff - ply as i32,
        _ => -WIN + diff + ply as i32,
    }
}
