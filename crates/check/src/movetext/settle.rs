//! Settling what the fast lane leaves open: whether the side to move can
//! move, the rounds that end, and a move refused after the fact.

use std::ops::{ControlFlow, Range};

use mancala_notation::{Item, Visitor};
use mancala_rules::{Game, Move, PlayError, Side};

use super::Check;
use crate::end::rounds_begun;
use crate::problem::{ProblemDetail, ProblemKind};

/// What the replay held before a round marker's settling left a round's
/// start open (see [`Check::settle_to_round_start`]), at ply `plies`: put
/// back if a later settling, with no move played since, fails.
#[derive(Debug)]
pub(super) struct Deferred {
    pub(super) plies: usize,
    round_ends: usize,
    markers_due: Vec<u32>,
    /// The side to move before.
    to_move: Side,
}

/// The record read again up to its `ply`-th move (see
/// [`Check::refuse_last`]): the move and where it stands, with the game
/// just before it.
struct ReadAgain {
    ply: usize,
    seen: usize,
    game: Game,
    found: Option<(Move, Range<usize>)>,
}

impl Visitor for ReadAgain {
    fn item(&mut self, item: Item, span: Range<usize>) -> ControlFlow<()> {
        if let Item::Move { mv, .. } = item {
            self.seen += 1;
            if self.seen == self.ply {
                self.found = Some((mv, span));
                return ControlFlow::Break(());
            }
            // Every move before it was played once already.
            let _ = self.game.play(mv);
        }
        ControlFlow::Continue(())
    }
}

impl<R: Visitor> Check<'_, '_, R> {
    /// Settles what the fast lane left open, noting the rounds that ended:
    /// `false`, with the replay stopped, when that cannot be decided (the
    /// start, or the last move, is then what is wrong).
    pub(super) fn settle(&mut self) -> bool {
        self.settle_leaving(false)
    }

    /// [`Check::settle`] for a round marker: a round that begins is begun
    /// with whether its first player can move left open (see
    /// [`Game::settle_to_round_start`]), on the main line, where the
    /// record's next move mostly proves it. What the replay held before is
    /// kept in [`Check::deferred`], so that when a later settling finds
    /// that it cannot be decided, the replay stops as if this one had.
    pub(super) fn settle_to_round_start(&mut self) -> bool {
        self.settle_leaving(self.branches.is_empty())
    }

    /// [`Check::settle`]; `leave_start`: [`Check::settle_to_round_start`].
    fn settle_leaving(&mut self, leave_start: bool) -> bool {
        let Some(game) = &mut self.game else {
            return false;
        };
        // The replay before the first round begun so, while no move has
        // been played since (a move played proves that its side could move).
        let kept = (self.deferred.take())
            .filter(|undo| undo.plies == self.plies && self.branches.is_empty());
        let to_move = game.position().to_move();
        let settled = if leave_start {
            game.settle_to_round_start(&mut self.round_report)
        } else {
            game.settle().map(|report| self.round_report = report)
        };
        match settled {
            Ok(()) => {
                let report = &self.round_report;
                // A round begun and its start left open: the match is not
                // over, and some round ended.
                let begun = report.outcome.is_none() && !report.round_ends.is_empty();
                if leave_start && begun {
                    self.deferred = Some(kept.unwrap_or_else(|| Deferred {
                        plies: self.plies,
                        round_ends: self.round_ends.len(),
                        // Mostly none are due: nothing to copy.
                        markers_due: if self.markers_due.is_empty() {
                            Vec::new()
                        } else {
                            self.markers_due.clone()
                        },
                        to_move,
                    }));
                }
                self.markers_due.extend(rounds_begun(report));
                self.round_ends.extend_from_slice(&report.round_ends);
                true
            }
            Err(e) => {
                // As if the settling that left the start open had failed.
                let to_move = match kept {
                    Some(undo) => {
                        self.round_ends.truncate(undo.round_ends);
                        self.markers_due = undo.markers_due;
                        undo.to_move
                    }
                    None => to_move,
                };
                if let Some(branch) = self.branches.last() {
                    // Only the start of a variation can be left open here
                    // (its moves are played by the full rules).
                    let detail = ProblemDetail::BranchUndecided(e);
                    self.game = None;
                    self.stop(branch.at.clone(), detail);
                } else if self.plies > 0 {
                    self.refuse_last(&e);
                } else {
                    // Point at the set-up, or else at the start of the
                    // movetext.
                    let at = self.first_item.unwrap_or(0);
                    let span = self.tags.setup_span.clone().unwrap_or(at..at);
                    // This is the check that the side to move can move
                    // at all: say so, not only which move is undecided.
                    let side = to_move;
                    let detail = ProblemDetail::StartUndecided { side, error: e };
                    self.game = None;
                    self.stop(span, detail);
                }
                false
            }
        }
    }

    /// The last move, which the fast lane played, cannot stand: what
    /// follows it cannot be decided (`e`). It is refused whole, as the full
    /// rules refuse it, and the game goes back to before it. The fast lane
    /// keeps nothing to take a move back, so the record is read again up to
    /// that move: only on this error, which takes a tiny lap budget.
    #[cold]
    fn refuse_last(&mut self, e: &PlayError) {
        let (Some((form, source)), Some(start)) = (self.source, self.start) else {
            return;
        };
        let mut again = ReadAgain {
            ply: self.plies,
            seen: 0,
            game: Game::start(start.position),
            found: None,
        };
        let _ = form.visit(source, &mut again);
        let Some((mv, span)) = again.found else {
            return;
        };
        // What was said of its annotation goes with it.
        if self
            .problems
            .last()
            .is_some_and(|p| p.kind() == ProblemKind::Annotation && p.span == span)
        {
            self.problems.pop();
        }
        let mover = again.game.position().to_move();
        self.game = Some(again.game);
        self.plies -= 1;
        let detail = ProblemDetail::IllegalMove {
            mv,
            ply: self.plies + 1,
            mover,
            error: e.clone(),
        };
        self.stop(span, detail);
    }
}
