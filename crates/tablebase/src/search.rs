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

/// Whether the mover of `pos` can force a margin of at least `target` (of
/// the seeds still to be won from `pos`, as [`search_margin`] counts
/// them), searched by the rules' `Game` from a fresh game at `pos` as
/// [`search_margin`] searches, but for a proof: `None` when more than
/// `node_limit` moves would be played in all or a move cannot be decided
/// within the lap budget.
///
/// A value `v` is proved by two of them: at least `v`, not at least
/// `v + 1`. Each is searched by iterative deepening (the depth doubled
/// each round), in turn for either
/// side's proof: one side (the prover) must force its result within `d`
/// moves, a line longer than that counting as its failure. A proof found
/// so is one under the rules (cutting a line short only ever hurts the
/// prover); a failure with no line cut short is the other side's proof.
/// Where a short forced line exists (every exact entry of a database has
/// one) it is found without walking round the layer's cycles to their
/// repetitions, as a full search must.
#[must_use]
pub fn search_at_least(pos: &Position, target: i32, node_limit: u64) -> Option<bool> {
    let mut game = Game::start(*pos);
    let report = game.settle().ok()?;
    if let Some(v) = ended_margin(pos, &report) {
        return Some(v >= target);
    }
    let mover = pos.to_move();
    let mut search = BoundSearch {
        memo: HashMap::new(),
        nodes: 0,
        node_limit,
        prover: mover,
    };
    // Doubled each round: the rounds before the last cost at most as much
    // as it does.
    let mut depth = 1;
    loop {
        for prover in [mover, mover.opposite()] {
            search.prover = prover;
            let answer = search.reaches(&game, target, depth)?;
            if answer.fact {
                return Some(answer.reaches);
            }
        }
        depth = depth.saturating_mul(2);
    }
}

/// The search of [`search_at_least`].
struct BoundSearch {
    /// Facts about positions right after a capture: whether their mover
    /// forces a target.
    memo: HashMap<(Position, i32), bool>,
    nodes: u64,
    node_limit: u64,
    /// The side whose proof is searched: a line cut short is its failure.
    prover: Side,
}

/// What [`BoundSearch::reaches`] found.
#[derive(Clone, Copy)]
struct Answer {
    /// Whether the mover forces the target.
    reaches: bool,
    /// Whether that holds under the rules, not only with lines cut short
    /// at the depth (a cut answer is always the prover's failure).
    fact: bool,
}

impl BoundSearch {
    /// Whether the mover of `game` (ongoing, settled) forces at least
    /// `target` within `depth` more moves, lines cut there counted as the
    /// prover's failure.
    fn reaches(&mut self, game: &Game, target: i32, depth: u32) -> Option<Answer> {
        let pos = *game.position();
        let mover = pos.to_move();
        let fact = |reaches| {
            Some(Answer {
                reaches,
                fact: true,
            })
        };
        // No margin is beyond the seeds on the board.
        let on_board = (pos.row_seeds(mover) + pos.row_seeds(mover.opposite())) as i32;
        if target <= -on_board {
            return fact(true);
        }
        if target > on_board {
            return fact(false);
        }
        if depth == 0 {
            return Some(Answer {
                reaches: mover != self.prover,
                fact: false,
            });
        }
        // The moves after which the game goes on: what each gained, and
        // the game after it.
        let mut goes_on = Vec::new();
        for mv in pos.legal_moves().ok()?.iter() {
            self.nodes += 1;
            if self.nodes > self.node_limit {
                return None;
            }
            let mut child = game.clone();
            let report = child.play(mv).ok()?;
            match ended_margin(&pos, &report) {
                Some(v) if v >= target => return fact(true),
                Some(_) => {}
                None => {
                    let gained = report.gained[mover.index()] as i32
                        - report.gained[mover.opposite().index()] as i32;
                    goes_on.push((gained, child));
                }
            }
        }
        // The moves that gain most first: they decide most often.
        goes_on.sort_by_key(|(gained, _)| -gained);
        let mut all_facts = true;
        for (gained, child) in &goes_on {
            let next = *child.position();
            // The child's mover must force at least `need` (the same
            // mover), or must not (the other one).
            let (need, same) = if next.to_move() == mover {
                (target - gained, true)
            } else {
                (gained - target + 1, false)
            };
            // After a capture the history holds only the position: what
            // its mover forces is the position's own.
            let captured = child.position().stores() != pos.stores();
            let answer = match self.memo.get(&(next, need)) {
                Some(&reaches) if captured => Answer {
                    reaches,
                    fact: true,
                },
                _ => {
                    let answer = self.reaches(child, need, depth - 1)?;
                    if captured && answer.fact {
                        self.memo.insert((next, need), answer.reaches);
                    }
                    answer
                }
            };
            if answer.reaches == same {
                return Some(Answer {
                    reaches: true,
                    fact: answer.fact,
                });
            }
            all_facts &= answer.fact;
        }
        Some(Answer {
            reaches: false,
            fact: all_facts,
        })
    }
}
