//! Positions as written down, before any rule is checked, and every way a
//! set-up can fail to be a position.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::MAX_SEEDS;
use crate::descriptor::RefillFrom;
use crate::options::{GameId, Rules};
use crate::side::{Dir, Side};

/// A position as written down, not yet checked against any rules: rows of any
/// length, counts of any size. [`crate::Position::from_setup`] validates it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Setup {
    /// South's holes from South's left (`A` first); `None` is a closed hole.
    pub south: Vec<Option<u32>>,
    /// North's holes from North's left (`a` first).
    pub north: Vec<Option<u32>>,
    /// South's and North's store (or captured seeds, or winnings kept aside).
    pub stores: [u32; 2],
    pub to_move: Side,
    /// Olinda Keliya: South's sowing direction once the first move chose it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub south_dir: Option<Dir>,
    /// The round of a match, from 1.
    #[serde(default = "first_round")]
    pub round: u32,
    /// Who started the current round; the next round starts with the other
    /// player. `None` means the side to move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_starter: Option<Side>,
}

fn first_round() -> u32 {
    1
}

impl Setup {
    /// The standard starting position of `rules`.
    #[must_use]
    pub fn start(rules: Rules) -> Setup {
        let row = vec![Some(u32::from(rules.seeds_per_hole())); rules.holes()];
        Setup {
            south: row.clone(),
            north: row,
            stores: [0, 0],
            to_move: Side::South,
            south_dir: None,
            round: 1,
            round_starter: None,
        }
    }

    #[must_use]
    pub fn row(&self, side: Side) -> &[Option<u32>] {
        match side {
            Side::South => &self.south,
            Side::North => &self.north,
        }
    }

    /// Every problem that keeps this set-up from being a position of `rules`.
    #[must_use]
    pub fn problems(&self, rules: Rules) -> Vec<SetupProblem> {
        let mut problems = Vec::new();
        let game = rules.game();
        let n = rules.holes();
        for side in Side::BOTH {
            let row = self.row(side);
            if row.len() != n {
                problems.push(SetupProblem::RowLength {
                    side,
                    found: row.len(),
                    expected: n,
                });
            }
            let closed: Vec<bool> = row.iter().map(Option::is_none).collect();
            if closed.iter().any(|c| *c) {
                if !game.has_rounds() {
                    problems.push(SetupProblem::ClosedHoleInGame { side, game });
                } else if self.round == 1 && rules.plays_rounds() {
                    // A game of one round may start from any position a
                    // refill could leave (a study or a puzzle); a match
                    // starts full.
                    problems.push(SetupProblem::ClosedHoleInRoundOne { side });
                } else if closed.iter().all(|c| *c) {
                    problems.push(SetupProblem::NoOpenHole { side });
                } else {
                    // Refilling closes the holes it reaches last.
                    let open_then_closed = |c: &[bool]| c.windows(2).all(|w| w[0] <= w[1]);
                    let ok = match game.descriptor().refill {
                        Some(RefillFrom::Right) => {
                            let rev: Vec<bool> = closed.iter().rev().copied().collect();
                            open_then_closed(&rev)
                        }
                        _ => open_then_closed(&closed),
                    };
                    if !ok {
                        problems.push(SetupProblem::ClosedHolesOrder { side, game });
                    }
                }
            }
        }
        let total: u64 = self
            .south
            .iter()
            .chain(&self.north)
            .flatten()
            .map(|&s| u64::from(s))
            .chain(self.stores.iter().map(|&s| u64::from(s)))
            .sum();
        if total > u64::from(MAX_SEEDS) {
            problems.push(SetupProblem::TooManySeeds { total });
        } else if total != u64::from(rules.total_seeds()) {
            problems.push(SetupProblem::NotConserved {
                found: total,
                expected: rules.total_seeds(),
            });
        }
        if self.south_dir.is_some() && !rules.chooses_direction() {
            problems.push(SetupProblem::DirectionNotChosen { game });
        }
        if self.round_starter.is_some() && !game.has_rounds() {
            problems.push(SetupProblem::StarterWithoutRounds { game });
        }
        if self.round == 0 {
            problems.push(SetupProblem::RoundZero);
        } else if self.round > 1 && !rules.plays_rounds() {
            problems.push(SetupProblem::RoundWithoutRounds {
                round: self.round,
                game,
            });
        } else if let Some(last) = rules.last_round()
            && self.round > last
        {
            problems.push(SetupProblem::RoundPastLast {
                round: self.round,
                last,
            });
        }
        problems
    }
}

/// One thing wrong with a [`Setup`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "problem")]
pub enum SetupProblem {
    RowLength {
        side: Side,
        found: usize,
        expected: usize,
    },
    TooManySeeds {
        total: u64,
    },
    NotConserved {
        found: u64,
        expected: u32,
    },
    ClosedHoleInGame {
        side: Side,
        game: GameId,
    },
    ClosedHoleInRoundOne {
        side: Side,
    },
    StarterWithoutRounds {
        game: GameId,
    },
    ClosedHolesOrder {
        side: Side,
        game: GameId,
    },
    NoOpenHole {
        side: Side,
    },
    DirectionNotChosen {
        game: GameId,
    },
    RoundZero,
    RoundWithoutRounds {
        round: u32,
        game: GameId,
    },
    /// `rounds=N`: the match is over by round `round`.
    RoundPastLast {
        round: u32,
        last: u32,
    },
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupProblem::RowLength {
                side,
                found,
                expected,
            } => {
                write!(f, "{side}'s row has {found} holes, expected {expected}")
            }
            SetupProblem::TooManySeeds { total } => {
                write!(
                    f,
                    "the set-up holds {total} seeds, more than the {MAX_SEEDS} supported"
                )
            }
            SetupProblem::NotConserved { found, expected } => write!(
                f,
                "seeds not conserved: the set-up holds {found} seeds in all, the game has {expected}"
            ),
            SetupProblem::ClosedHoleInRoundOne { side } => write!(
                f,
                "{side}'s row has a closed hole in round 1, but every hole is filled when a match starts (a game of one round, single-round, may start with closed holes)"
            ),
            SetupProblem::StarterWithoutRounds { game } => {
                write!(f, "a round starter is given, but {game} has no rounds")
            }
            SetupProblem::ClosedHoleInGame { side, game } => {
                write!(
                    f,
                    "{side}'s row has a closed hole, but {game} has no closed holes"
                )
            }
            SetupProblem::ClosedHolesOrder { side, game } => {
                let from = game.descriptor().refill.map_or("left", RefillFrom::as_str);
                write!(
                    f,
                    "{side}'s closed holes are out of place: {game} refills from the {from}, so closed holes come last"
                )
            }
            SetupProblem::NoOpenHole { side } => write!(f, "{side} has no open hole"),
            SetupProblem::DirectionNotChosen { game } => write!(
                f,
                "a sowing direction is given, but in {game} with these options nobody chooses one"
            ),
            SetupProblem::RoundZero => f.write_str("rounds are numbered from 1"),
            SetupProblem::RoundWithoutRounds { round, game } => {
                write!(
                    f,
                    "round {round} given, but {game} with these options has a single round"
                )
            }
            SetupProblem::RoundPastLast { round, last } => write!(
                f,
                "round {round} given, but the match ends after round {last} (rounds={last})"
            ),
        }
    }
}

/// A set-up that is not a position: every problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    pub problems: Vec<SetupProblem>,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid set-up: ")?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SetupError {}
