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
        self.evaluate_rows(pos, side, Side::BOTH.map(|s| pos.row_seeds(s)))
    }

    /// [`Weights::evaluate`] given the seeds in each row (South's first),
    /// for a caller that counted them already.
    #[inline]
    #[must_use]
    pub fn evaluate_rows(self, pos: &Position, side: Side, rows: [u32; 2]) -> i32 {
        let value =
            |s: Side| self.store * i32::from(pos.store(s)) + self.row * rows[s.index()] as i32;
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

/// Plies a proven score can count: a margin of one seed outweighs them.
pub const MARGIN_SCALE: i32 = 256;

/// The score of a game that ended with `score`, for `side`, `ply` moves
/// from the search root, when the seed margin is what counts (analysis):
/// wins above every evaluation and losses below, ordered by the margin and
/// then by the distance (sooner wins, later losses), draws zero.
/// [`margin_of`] reads the margin back.
#[must_use]
pub fn margin_terminal(score: [u32; 2], side: Side, ply: u32) -> i32 {
    let diff = score[side.index()] as i32 - score[side.opposite().index()] as i32;
    // A search is far shorter than MARGIN_SCALE plies.
    let ply = (ply as i32).min(MARGIN_SCALE - 1);
    match diff.signum() {
        0 => 0,
        1 => WIN + diff * MARGIN_SCALE - ply,
        _ => -WIN + diff * MARGIN_SCALE + ply,
    }
}

/// The seed margin of a proven [`margin_terminal`] score (as a search
/// returns it, at any distance), or `None` for an estimate.
#[must_use]
pub fn margin_of(score: i32) -> Option<i32> {
    if score >= PROVEN {
        Some((score - WIN + MARGIN_SCALE - 1).div_euclid(MARGIN_SCALE))
    } else if score <= -PROVEN {
        Some((score + WIN).div_euclid(MARGIN_SCALE))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_read_back_at_any_distance() {
        for diff in [1i32, 2, 7, 48] {
            for ply in [1u32, 2, 30, 200] {
                let win = margin_terminal([24 + diff as u32, 24], Side::South, ply);
                assert_eq!(margin_of(win), Some(diff), "{diff} {ply}");
                let loss = margin_terminal([24 + diff as u32, 24], Side::North, ply);
                assert_eq!(margin_of(loss), Some(-diff), "{diff} {ply}");
                assert!(win > margin_terminal([24 + diff as u32, 24], Side::South, ply + 1));
            }
        }
        assert_eq!(margin_terminal([24, 24], Side::South, 5), 0);
        assert_eq!(margin_of(0), None);
        assert_eq!(margin_of(400), None);
    }
}
