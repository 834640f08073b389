//! Probing a game in progress: what a database proves about a position
//! *as the game has reached it*, its repetition history and all.
//!
//! An exact entry is forced by both sides along plays that never meet a
//! position of its layer twice (spec/tablebase.md). The game's history
//! since seeds last left the board holds positions of that same layer; a
//! forced play meets each of them at most once more, and the position
//! probed not at all. So the entry is the game's value as long as no
//! position of the history but the current one has occurred as often as
//! one more occurrence would end the game: under the third-occurrence
//! rule, none but the current position twice already; under Oware's
//! second occurrence, none but the current position at all (its first
//! position after a capture, or the game's start). Without a repetition
//! rule (Kalah, where no position recurs, or `no-repetition-rule`) the
//! history never matters.

use mancala_rules::{Game, Move, Opt, Rules};

use crate::Tablebase;
use crate::search::ended_margin;

/// A move a database proves best, with its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProvedMove {
    pub mv: Move,
    /// The margin for the mover of the seeds still to be won, the move's
    /// own gains included (as [`Tablebase::probe`]).
    pub value: i32,
}

/// What playing a move tells of its value.
enum MoveValue {
    /// The game refuses the move (or cannot decide it within the lap budget).
    Unplayable,
    Unproved,
    Proved(i32),
}

impl Tablebase {
    /// The exact margin for the side to move of the seeds still to be won
    /// in `game` (to the end of the round, in a match), under best play
    /// and under the game's own repetition history: `None` where the
    /// database does not hold the position, its value rests on the
    /// convention for unending play, the history could change it (see the
    /// module's doc), or the game is over.
    #[must_use]
    pub fn probe_game(&self, game: &Game) -> Option<i32> {
        if game.outcome().is_some() || !history_cannot_interfere(game) {
            return None;
        }
        self.probe(game.position())
    }

    /// The exact value of playing `mv` in `game`, for its mover: the
    /// margin of the seeds still to be won, the move's own gains
    /// included, under the history the move leaves. `None` where the game
    /// refuses the move or the value is not proved (as
    /// [`Tablebase::probe_game`] of the game after it). A move that ends
    /// the game (or round) has the value of that end, database or not.
    #[must_use]
    pub fn probe_move(&self, game: &Game, mv: Move) -> Option<i32> {
        match self.move_value(game, mv) {
            MoveValue::Proved(v) => Some(v),
            MoveValue::Unplayable | MoveValue::Unproved => None,
        }
    }

    /// A best move of `game` with its value, where the database proves
    /// one: a move whose value ([`Tablebase::probe_move`]) is the
    /// position's proved value ([`Tablebase::probe_game`]), or, where the
    /// position's is not proved, the best of its moves when every move's
    /// value is. The first such move in hole order.
    #[must_use]
    pub fn best_move(&self, game: &Game) -> Option<ProvedMove> {
        if game.outcome().is_some() {
            return None;
        }
        let target = self.probe_game(game);
        let mut best: Option<ProvedMove> = None;
        let mut every_move_proved = true;
        for mv in game.position().candidates().iter() {
            let value = match self.move_value(game, mv) {
                MoveValue::Unplayable => continue,
                MoveValue::Unproved => {
                    every_move_proved = false;
                    continue;
                }
                MoveValue::Proved(v) => v,
            };
            if target == Some(value) {
                return Some(ProvedMove { mv, value });
            }
            if best.is_none_or(|b| value > b.value) {
                best = Some(ProvedMove { mv, value });
            }
        }
        best.filter(|_| every_move_proved)
    }

    fn move_value(&self, game: &Game, mv: Move) -> MoveValue {
        let before = *game.position();
        let mover = before.to_move();
        let mut after = game.clone();
        let Ok(report) = after.play(mv) else {
            return MoveValue::Unplayable;
        };
        if let Some(v) = ended_margin(&before, &report) {
            return MoveValue::Proved(v);
        }
        let Some(rest) = self.probe_game(&after) else {
            return MoveValue::Unproved;
        };
        let gained = report.net_gain(mover);
        MoveValue::Proved(if after.position().to_move() == mover {
            gained + rest
        } else {
            gained - rest
        })
    }
}

/// Whether no repetition can make `game`'s value differ from its
/// position's exact entry (see the module's doc).
fn history_cannot_interfere(game: &Game) -> bool {
    let current = game.position().repetition_key();
    let others = game.repetition_history().filter(|&k| k != current);
    exact_values_hold(game.position().rules(), others)
}

/// Whether the exact entries of a database hold for positions reached by
/// plays that never meet a position of their layer twice, after
/// `history`: the repetition keys of the positions met since seeds last
/// left the board, each once an occurrence, the position probed left out
/// (see the module's doc). Under the third-occurrence rule no position of
/// it may have occurred twice; under Oware's second occurrence it must be
/// empty; without a repetition rule (or where no position recurs) any
/// history will do. The solver asks it of its root's history, the root
/// included, for the lines below.
pub fn exact_values_hold(rules: Rules, history: impl IntoIterator<Item = u128>) -> bool {
    if rules.never_repeats() || rules.has(Opt::NoRepetitionRule) {
        return true;
    }
    let mut history = history.into_iter();
    if rules.repetition_ends_at_second() {
        return history.next().is_none();
    }
    let mut keys: Vec<u128> = history.collect();
    keys.sort_unstable();
    keys.windows(2).all(|w| w[0] != w[1])
}
