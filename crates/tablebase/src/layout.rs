//! The dense index of a layer: every position with `k` seeds on the board,
//! seen by the side to move (its row first), ranked among the ways `k`
//! seeds fill the holes, times what else the value needs (the mover's
//! direction, or its store where a goal ends the game).

use mancala_rules::{Dir, Hole, Position, Rules, Setup, Side};

use crate::TablebaseError;

/// The most seeds on the board a database holds: values are margins of at
/// most that many seeds, kept in 7 bits (see [`crate::Entry`]).
pub const MAX_TABLE_SEEDS: u32 = 63;

/// What a position's value needs beyond the seeds in its holes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Extra {
    /// Nothing: the stores never matter (they only add up what was won).
    None,
    /// Olinda Keliya: the direction the mover sows in (counter-clockwise
    /// first).
    Dir,
    /// A goal ends the game (Olowuka's and Oware's 25): the mover's store,
    /// from the least a live position allows; the opponent's is the rest.
    Store { goal: u32 },
}

/// How a game's positions map to indices.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    rules: Rules,
    holes: usize,
    total: u32,
    extra: Extra,
    /// `binom[n][r]`: n choose r, for the ways seeds fill holes.
    binom: [[u64; 2 * MAX_BINOM]; 2 * MAX_BINOM],
}

/// Seeds plus holes stay below this: 63 seeds in 14 holes.
const MAX_BINOM: usize = 40;

impl Layout {
    pub(crate) fn new(rules: Rules) -> Layout {
        let mut binom = [[0u64; 2 * MAX_BINOM]; 2 * MAX_BINOM];
        for n in 0..2 * MAX_BINOM {
            binom[n][0] = 1;
            for r in 1..=n {
                binom[n][r] = binom[n - 1][r - 1].saturating_add(binom[n - 1][r]);
            }
        }
        // The goal, asked of the rules rather than restated: the least
        // store that ends the game.
        let goal = (0..=255u8).find(|&g| rules.ends_at_twenty_five([g, 0]));
        let extra = match goal {
            Some(goal) => Extra::Store {
                goal: u32::from(goal),
            },
            None if rules.chooses_direction() => Extra::Dir,
            None => Extra::None,
        };
        Layout {
            rules,
            holes: rules.holes(),
            total: rules.total_seeds(),
            extra,
            binom,
        }
    }

    pub(crate) const fn rules(&self) -> Rules {
        self.rules
    }

    /// Whether positions of `rules` have the values of the layout's: the
    /// same rules, or rules that differ in the seeds a hole starts with
    /// alone where nothing else (a goal, a direction, a next round filled
    /// by the hole) depends on them: Kalah(m, n) for every n shares one
    /// database.
    pub(crate) fn holds(&self, rules: Rules) -> bool {
        rules == self.rules
            || (self.extra == Extra::None
                && !rules.plays_rounds()
                && rules.game() == self.rules.game()
                && rules.holes() == self.rules.holes()
                && rules.lap_budget() == self.rules.lap_budget()
                && unsized_options(rules) == unsized_options(self.rules))
    }

    pub(crate) const fn extra(&self) -> Extra {
        self.extra
    }

    /// Ways `seeds` fill `holes` holes.
    fn fills(&self, seeds: u32, holes: usize) -> u64 {
        if holes == 0 {
            return u64::from(seeds == 0);
        }
        self.binom[seeds as usize + holes - 1][holes - 1]
    }

    /// The mover's stores a live position with `k` seeds on the board can
    /// have, where a goal ends the game: `lo..=hi`, or `None` when every
    /// such position is over.
    fn store_range(&self, k: u32, goal: u32) -> Option<(u32, u32)> {
        let stores = self.total.checked_sub(k)?;
        let lo = stores.saturating_sub(goal - 1);
        let hi = stores.min(goal - 1);
        (lo <= hi).then_some((lo, hi))
    }

    /// How many values of the extra part a layer has.
    fn extras(&self, k: u32) -> u64 {
        match self.extra {
            Extra::None => 1,
            Extra::Dir => 2,
            Extra::Store { goal } => self
                .store_range(k, goal)
                .map_or(0, |(lo, hi)| u64::from(hi - lo + 1)),
        }
    }

    /// Positions in layer `k` (`k` seeds on the board).
    pub(crate) fn layer_len(&self, k: u32) -> u64 {
        if k > self.total {
            return 0;
        }
        self.fills(k, 2 * self.holes) * self.extras(k)
    }

    /// Layer and index of `pos`; `None` when the tables do not hold it: a
    /// hole closed (a later round of a match), a direction still to be
    /// chosen, or a goal reached (the game is over).
    pub(crate) fn key(&self, pos: &Position) -> Option<(u32, u64)> {
        if !self.holds(pos.rules()) || pos.direction_due() {
            return None;
        }
        let mover = pos.to_move();
        let mut holes = [0u8; 14];
        let n = self.holes;
        for (i, side) in [mover, mover.opposite()].into_iter().enumerate() {
            for h in 0..n {
                holes[i * n + h] = pos.seeds(Hole::new(side, h as u8))?;
            }
        }
        let k: u32 = holes[..2 * n].iter().map(|&s| u32::from(s)).sum();
        let extra = match self.extra {
            Extra::None => 0,
            Extra::Dir => match pos.dir_of(mover)? {
                Dir::Ccw => 0,
                Dir::Cw => 1,
            },
            Extra::Store { goal } => {
                let (lo, hi) = self.store_range(k, goal)?;
                let store = u32::from(pos.store(mover));
                if !(lo..=hi).contains(&store) {
                    return None;
                }
                u64::from(store - lo)
            }
        };
        Some((
            k,
            extra * self.fills(k, 2 * n) + self.rank(&holes[..2 * n], k),
        ))
    }

    /// The rank of a filling of the holes among all fillings with its
    /// seeds: fewer seeds in an earlier hole rank first.
    fn rank(&self, holes: &[u8], k: u32) -> u64 {
        let mut rest = k;
        let mut rank = 0;
        let last = holes.len() - 1;
        for (i, &seeds) in holes[..last].iter().enumerate() {
            for c in 0..u32::from(seeds) {
                rank += self.fills(rest - c, last - i);
            }
            rest -= u32::from(seeds);
        }
        rank
    }

    /// The filling of rank `rank` ([`Layout::rank`]'s inverse).
    fn unrank(&self, mut rank: u64, k: u32, holes: &mut [u8]) {
        let mut rest = k;
        let last = holes.len() - 1;
        for (i, hole) in holes[..last].iter_mut().enumerate() {
            let mut c = 0;
            loop {
                let ways = self.fills(rest - c, last - i);
                if rank < ways {
                    break;
                }
                rank -= ways;
                c += 1;
            }
            *hole = c as u8;
            rest -= c;
        }
        holes[last] = rest as u8;
    }

    /// The position of index `index` in layer `k`: South to move (the
    /// mover's view), `None` when the rules refuse it as a set-up.
    pub(crate) fn position(&self, k: u32, index: u64) -> Option<Position> {
        let n = self.holes;
        let fills = self.fills(k, 2 * n);
        let (extra, rank) = (index / fills, index % fills);
        let mut holes = [0u8; 14];
        self.unrank(rank, k, &mut holes[..2 * n]);
        let stores = self.total - k;
        let (store, south_dir) = match self.extra {
            Extra::None => (stores, None),
            Extra::Dir => (stores, Some(if extra == 0 { Dir::Ccw } else { Dir::Cw })),
            Extra::Store { goal } => (self.store_range(k, goal)?.0 + extra as u32, None),
        };
        let row = |from: usize| holes[from..from + n].iter().map(|&s| Some(u32::from(s)));
        let setup = Setup {
            south: row(0).collect(),
            north: row(n).collect(),
            stores: [store, stores - store],
            to_move: Side::South,
            south_dir,
            round: 1,
            round_starter: None,
        };
        Position::from_setup(self.rules, &setup).ok()
    }

    /// Checks that `k` seeds on the board can be tabled.
    pub(crate) fn check_seeds(&self, k: u32) -> Result<(), TablebaseError> {
        if k > MAX_TABLE_SEEDS || k > self.total {
            return Err(TablebaseError::TooManySeeds {
                seeds: k,
                max: MAX_TABLE_SEEDS.min(self.total),
            });
        }
        Ok(())
    }
}

/// The options of `rules` but `seeds=N` and `holes=M` (the holes are
/// compared as the rules count them: `holes=6` is Kalah's default).
fn unsized_options(rules: Rules) -> mancala_rules::Options {
    rules.options().with_seeds(0).with_holes(0)
}

#[cfg(test)]
mod tests {
    use super::Layout;
    use mancala_rules::{GameId, Rules};

    #[test]
    fn ranks_and_unranks_every_filling_of_a_small_layer() {
        let layout = Layout::new(Rules::standard(GameId::Kalah));
        for k in 0..=4 {
            let len = layout.layer_len(k);
            let mut holes = [0u8; 12];
            for rank in 0..len {
                layout.unrank(rank, k, &mut holes);
                assert_eq!(holes.iter().map(|&s| u32::from(s)).sum::<u32>(), k);
                assert_eq!(layout.rank(&holes, k), rank);
                let pos = layout.position(k, rank).unwrap();
                assert_eq!(layout.key(&pos), Some((k, rank)));
            }
        }
    }
}
