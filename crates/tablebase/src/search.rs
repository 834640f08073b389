//! Plain exhaustive search by the rules' own [`Game`], repetition history
//! and all: the reference a database is checked against. It shares
//! nothing with the database but the rules crate (no index, no layers, no
//! retrograde step).

use std::collections::HashMap;

use mancala_rules::{Game, PlayReport, Position};

/// The margin for the side to move of the seeds still to be won from
/// `pos` (to the end of the round in a match), under best play, searched
/// to the end of every line from a fresh game at `pos` (its first
/// occurrence); `None` when more than `node_limit` moves would be played
/// or a move cannot be decided within the lap budget. Positions met right
/// after a capture (the history then holds only them) are remembered.
#[must_use]
pub fn search_margin(pos: &Position, node_limit: u64) -> Option<i32> {
    let mut game = Game::start(*pos);
    let report = game.settle().ok()?;
    if let Some(v) = ended_margin(pos, &report) {
        return Some(v);
    }
    search_game(&game, node_limit)
}

/// [`search_margin`] of a game in progress, under its own repetition
/// history: the margin for the side to move of the seeds still to be won
/// from its position; `None` also when the game is over.
#[must_use]
pub fn search_game(game: &Game, node_limit: u64) -> Option<i32> {
    if game.outcome().is_some() {
        return None;
    }
    let mut search = Search {
        memo: HashMap::new(),
        nodes: 0,
        node_limit,
    };
    search.value(game)
}

/// Where `report` (of a move, or of settling a fresh game, in a position
/// `before`) ended the game or its round: the margin for `before`'s mover
/// of what the move and the end brought each side, its holdings at the end
/// less its store in `before`.
pub(crate) fn ended_margin(before: &Position, report: &PlayReport) -> Option<i32> {
    let held = report
        .round_ends
        .first()
        .map(|r| r.holdings)
        .or(report.outcome.map(|o| o.score))?;
    let won = |s: mancala_rules::Side| held[s.index()] as i32 - i32::from(before.store(s));
    let mover = before.to_move();
    Some(won(mover) - won(mover.opposite()))
}

struct Search {
    memo: HashMap<Position, i32>,
    nodes: u64,
    node_limit: u64,
}

impl Search {
    /// The margin for the mover of `game` (ongoing, settled).
    fn value(&mut self, game: &Game) -> Option<i32> {
        let pos = *game.position();
        let mover = pos.to_move();
        let mut best = None;
        for mv in pos.legal_moves().ok()?.iter() {
            self.nodes += 1;
            if self.nodes > self.node_limit {
                return None;
            }
            let mut child = game.clone();
            let report = child.play(mv).ok()?;
            let gained = report.gained[mover.index()] as i32
                - report.gained[mover.opposite().index()] as i32;
            let v = match ended_margin(&pos, &report) {
                Some(v) => v,
                None => {
                    let next = *child.position();
                    let w = if report.gained != [0, 0] {
                        match self.memo.get(&next) {
                            Some(&w) => w,
                            None => {
                                let w = self.value(&child)?;
                                self.memo.insert(next, w);
                                w
                            }
                        }
                    } else {
                        self.value(&child)?
                    };
                    gained + if next.to_move() == mover { w } else { -w }
                }
            };
            best = Some(best.map_or(v, |b: i32| b.max(v)));
        }
        best
    }
}
