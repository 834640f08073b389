//! Plain exhaustive search by the rules' own [`Game`], repetition history
//! and all: the reference a database is checked against. It shares
//! nothing with the database but the rules crate (no index, no layers, no
//! retrograde step).

use std::collections::HashMap;

use mancala_rules::{Game, Position};

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
    let mover = pos.to_move();
    if let Some(held) = report
        .round_ends
        .first()
        .map(|r| r.holdings)
        .or(report.outcome.map(|o| o.score))
    {
        let won = |s: mancala_rules::Side| held[s.index()] as i32 - i32::from(pos.store(s));
        return Some(won(mover) - won(mover.opposite()));
    }
    let mut search = Search {
        memo: HashMap::new(),
        nodes: 0,
        node_limit,
    };
    search.value(&game)
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
            let ended = report
                .round_ends
                .first()
                .map(|r| r.holdings)
                .or(report.outcome.map(|o| o.score));
            let v = match ended {
                Some(held) => {
                    // What the end swept to each side: its holdings less
                    // its store before the move and the move's gains.
                    let swept = |s: mancala_rules::Side| {
                        held[s.index()] as i32
                            - i32::from(pos.store(s))
                            - report.gained[s.index()] as i32
                    };
                    gained + swept(mover) - swept(mover.opposite())
                }
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
