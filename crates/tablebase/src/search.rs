//! Plain exhaustive search by the rules' own [`Game`], repetition history
//! and all: the reference a database is checked against. It shares
//! nothing with the database but the rules crate (no index, no layers, no
//! retrograde step).

use std::collections::HashMap;

use mancala_rules::{Game, PlayReport, Position, Side};

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
            let gained = report.net_gain(mover);
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

/// Whether the mover of `pos` can force a margin of at least `target` (of
/// the seeds still to be won from `pos`, as [`search_margin`] counts
/// them), in a game from `pos`, proved by search: `Some(true)` when the
/// mover has a strategy that gets at least `target` along every line,
/// `Some(false)` when the opponent has one that holds it below, each
/// ending every line in finitely many moves with no position recurring
/// (so no repetition rule can cut it short); `None` when neither is found
/// within `node_limit` moves in all, or a move cannot be decided within
/// the lap budget. Moves and the ends of the game (or round) are the
/// rules' `Game`'s.
///
/// A value `v` is proved by two of them: at least `v`, not at least
/// `v + 1`. Each side's proof is sought in turn by iterative deepening
/// (the depth doubled each round), a line longer than the depth counting
/// as the prover's failure. Positions are searched as if without a
/// history, their answers kept by position and depth: a strategy found
/// so ends every line within the depth, and the strategy that plays at
/// each position what works soonest never meets a position again, so it
/// holds under the rules. A value resting on unending play (a database's
/// convention) lacks one of its two proofs at least.
#[must_use]
pub fn search_at_least(pos: &Position, target: i32, node_limit: u64) -> Option<bool> {
    let mut game = Game::start(*pos);
    let report = game.settle().ok()?;
    if let Some(v) = ended_margin(pos, &report) {
        return Some(v >= target);
    }
    let mover = pos.to_move();
    let mut search = ProofSearch {
        known: HashMap::new(),
        fails: HashMap::new(),
        nodes: 0,
        node_limit,
        prover: mover,
    };
    // A proof of depth `d` plays `d` moves at least: none is deeper than
    // the node limit.
    let deepest = u32::try_from(node_limit).unwrap_or(u32::MAX);
    let mut depth = 1;
    while depth <= deepest {
        for prover in [mover, mover.opposite()] {
            search.prover = prover;
            if search.reaches(pos, target, depth)? == (prover == mover) {
                return Some(prover == mover);
            }
        }
        depth = depth.saturating_mul(2);
        if depth == u32::MAX {
            break;
        }
    }
    None
}

/// The search of [`search_at_least`].
struct ProofSearch {
    /// Proved: whether the mover of a position forces a target.
    known: HashMap<(Position, i32), bool>,
    /// The prover's failures: the depth (and prover) within which it found
    /// no proof from a position for a target.
    fails: HashMap<(Position, i32), (Side, u32)>,
    nodes: u64,
    node_limit: u64,
    /// The side whose proof is sought: a line cut at the depth is its
    /// failure.
    prover: Side,
}

impl ProofSearch {
    /// Whether the mover of `pos` (a game going on) forces at least
    /// `target` within `depth` moves, a line cut there counted as the
    /// prover's failure: an answer in the prover's favour is proved.
    fn reaches(&mut self, pos: &Position, target: i32, depth: u32) -> Option<bool> {
        let mover = pos.to_move();
        let failure = mover != self.prover;
        // No margin is beyond the seeds on the board.
        let on_board = (pos.row_seeds(mover) + pos.row_seeds(mover.opposite())) as i32;
        if target <= -on_board || target > on_board {
            return Some(target <= -on_board);
        }
        let key = (*pos, target);
        if let Some(&reaches) = self.known.get(&key) {
            return Some(reaches);
        }
        if self
            .fails
            .get(&key)
            .is_some_and(|&(prover, within)| prover == self.prover && within >= depth)
            || depth == 0
        {
            return Some(failure);
        }
        let reaches = self.reaches_by_moves(pos, target, depth)?;
        if reaches == failure {
            self.fails.insert(key, (self.prover, depth));
        } else {
            self.known.insert(key, reaches);
        }
        Some(reaches)
    }

    /// [`ProofSearch::reaches`] by trying each move.
    fn reaches_by_moves(&mut self, pos: &Position, target: i32, depth: u32) -> Option<bool> {
        let mover = pos.to_move();
        let fresh = Game::start(*pos);
        // The moves after which the game goes on: what each gained, and
        // the position after it.
        let mut goes_on = Vec::new();
        for mv in pos.legal_moves().ok()?.iter() {
            self.nodes += 1;
            if self.nodes > self.node_limit {
                return None;
            }
            let mut game = fresh.clone();
            let report = game.play(mv).ok()?;
            match ended_margin(pos, &report) {
                Some(v) if v >= target => return Some(true),
                Some(_) => {}
                None => {
                    let gained = report.net_gain(mover);
                    goes_on.push((gained, *game.position()));
                }
            }
        }
        // The moves that gain most first: they decide most often.
        goes_on.sort_by_key(|(gained, _)| -gained);
        for (gained, next) in &goes_on {
            // The next mover must force at least `need` (the same mover),
            // or must not (the other one).
            let (need, same) = if next.to_move() == mover {
                (target - gained, true)
            } else {
                (gained - target + 1, false)
            };
            if self.reaches(next, need, depth - 1)? == same {
                return Some(true);
            }
        }
        Some(false)
    }
}
