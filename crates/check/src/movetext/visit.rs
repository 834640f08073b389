//! The check as the notation's visitor: tags, then the movetext.

use std::ops::{ControlFlow, Range};

use mancala_notation::{Form, GameResult, Item, Nag, Skip, TagValue, Visitor, forget_move};
use mancala_rules::Move;

use super::variation::Branch;
use super::{Check, Lane};
use crate::end::check_end;

impl<R: Visitor> Visitor for Check<'_, '_, R> {
    /// Inlined into the parser's tag loop (see [`crate::tags::TagsSeen::read`]).
    #[inline(always)]
    fn tag(
        &mut self,
        tag: TagValue<'_>,
        line: Range<usize>,
        value: Range<usize>,
    ) -> ControlFlow<()> {
        let tag = self.tags.read(tag, &line, &value);
        self.record.tag(tag, line, value)
    }

    fn movetext(&mut self, header: Range<usize>) -> ControlFlow<()> {
        if let Some((Form::Mgn, source)) = self.source {
            self.keep_before = memchr::memchr(b'(', &source.as_bytes()[header.end..]).is_some();
        }
        let _ = self.record.movetext(header);
        self.begin_replay();
        ControlFlow::Continue(())
    }

    /// Moves of JSON records come here; MGN's go to [`Check::mv`].
    #[inline(always)]
    fn item(&mut self, item: Item, span: Range<usize>) -> ControlFlow<()> {
        if let Item::Move { mv, captured } = item {
            forget_move(item);
            return self.mv(mv, captured, span);
        }
        self.slow_item(item, span)
    }

    /// Nearly every item is a move the fast lane takes.
    #[inline(always)]
    fn mv(&mut self, mv: Move, captured: Option<u32>, span: Range<usize>) -> ControlFlow<()> {
        if self.lane != Lane::Full {
            if self.lane == Lane::FastKeeping {
                self.keep(span.end);
            }
            let Some(game) = &mut self.game else {
                return self.slow_item(Item::Move { mv, captured }, span);
            };
            // A direction rightly named where none is chosen is dropped.
            let canonical = match mv.dir {
                Some(_) => game.position().canonical_move(mv),
                None => mv,
            };
            if let Some(gained) = game.play_unsettled(mv) {
                self.plies += 1;
                if let Some(claimed) = captured {
                    // The move's own side: the side to move now may be
                    // the mover again (a move that earned another turn).
                    let mover = mv.hole.side;
                    let gained = gained[mover.index()];
                    if claimed != gained {
                        self.misannotated(mv, claimed, mover, gained, span.clone());
                    }
                }
                return self.record.mv(canonical, captured, span);
            }
        }
        self.slow_item(Item::Move { mv, captured }, span)
    }

    fn nag(&mut self, nag: Nag, span: Range<usize>) -> ControlFlow<()> {
        if self.feeds_record() {
            return self.record.nag(nag, span);
        }
        ControlFlow::Continue(())
    }

    /// Every variation is read, and replayed from the position before the
    /// move it follows; the line it stands in is taken up again after it.
    fn begin_variation(&mut self, span: Range<usize>) -> ControlFlow<(), Skip> {
        if self.feeds_record() {
            let Skip(skipped) = self.record.begin_variation(span.clone())?;
            if skipped {
                self.record_skipped_from = Some(self.branches.len());
            }
        }
        let from = self.before_last.clone();
        let branch = Branch {
            at: span,
            game: self.game.take(),
            before_last: self.before_last.take(),
            plies: self.plies,
            markers_due: std::mem::take(&mut self.markers_due),
            round_ends: self.round_ends.len(),
            stopped: self.stopped,
            lane: self.lane,
        };
        self.branches.push(branch);
        self.lane = Lane::Full;
        match from {
            Some(before) => {
                self.game = Some(before.game);
                self.plies = before.plies;
                self.markers_due = before.markers_due;
                self.stopped = false;
            }
            // The move it follows was not replayed: nor is the variation.
            None => self.stopped = true,
        }
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, span: Range<usize>) -> ControlFlow<()> {
        let Some(branch) = self.branches.pop() else {
            return ControlFlow::Continue(());
        };
        self.game = branch.game;
        self.before_last = branch.before_last;
        self.plies = branch.plies;
        self.markers_due = branch.markers_due;
        self.round_ends.truncate(branch.round_ends);
        self.stopped = branch.stopped;
        self.lane = branch.lane;
        match self.record_skipped_from {
            Some(depth) if depth == self.branches.len() => {
                self.record_skipped_from = None;
                ControlFlow::Continue(())
            }
            Some(_) => ControlFlow::Continue(()),
            None => self.record.end_variation(span),
        }
    }

    fn result(&mut self, result: GameResult, span: Range<usize>) {
        self.record.result(result, span.clone());
        self.first_item.get_or_insert(span.start);
        if self.stopped || self.game.is_none() || !self.settle() {
            return;
        }
        if let Some(game) = &self.game {
            check_end(
                (result, span),
                self.tags.termination.as_ref(),
                game,
                &self.markers_due,
                &mut self.problems,
            );
        }
    }
}
