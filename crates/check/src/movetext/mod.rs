//! The movetext's phase: the replay of a record's moves, round markers,
//! comments and result as the notation's reader hands them over, from the
//! start its tags made. Settling what the fast lane leaves open is in
//! [`settle`], variations in [`variation`], the visitor in [`visit`].

mod settle;
mod variation;
mod visit;

use std::ops::{ControlFlow, Range};

use mancala_notation::{Eval, Form, Item, ParsedGame};
use mancala_rules::{Game, Move, PlayReport, RoundEnd, Rules, Side};

use crate::end::rounds_begun;
use crate::problem::{End, Problem, ProblemDetail};
use crate::tags::{Start, Tags, TagsSeen};
use crate::{Checked, Ply, Replay};
use settle::Deferred;
use variation::{Before, Branch};

/// The check of one record, as the notation's reader hands over its parts:
/// the state machine every tool's check runs. Each move is played as it is
/// read: by the game's fast lane, which leaves "cannot move" open, while
/// nothing else is asked of the move; by the full rules, with everything
/// settled first, for anything else (a move the fast lane leaves, a round
/// marker, the result, and every move when plies are observed). It never
/// stops the reading: a syntax error later in the text overrides all.
pub(crate) struct Check<'s, 'p, R> {
    /// Fed everything read, moves as the replay leaves them.
    record: R,
    /// The text read and its form, when there is one: the fast lane runs
    /// only then (see [`Check::refuse_last`]).
    pub(crate) source: Option<(Form, &'s str)>,
    /// `--lap-budget`, which overrides the record's `LapBudget` tag.
    lap_budget: Option<u32>,
    on_ply: Option<&'p mut dyn FnMut(&Ply<'_>)>,
    /// What the tags say, and where: written while they are read, read
    /// after.
    pub(crate) tags: TagsSeen,
    // The replay.
    /// The rules the tags make, once the movetext begins.
    rules: Option<Rules>,
    /// The game's start, made from the tags once the movetext begins: no
    /// move is replayed without it.
    start: Option<Start>,
    /// `None` before the movetext, and when the rules, options or set-up
    /// are invalid or the start cannot be decided.
    game: Option<Game>,
    /// Whether the fast lane may take the next move: the game replayed,
    /// no marker owed, no observer of plies, nothing stopped.
    lane: Lane,
    /// Set when an error stops the replay; annotation errors do not.
    stopped: bool,
    plies: usize,
    /// Where the movetext's first item (or else the result) begins.
    first_item: Option<usize>,
    round_ends: Vec<RoundEnd>,
    /// Rounds begun whose markers the record still owes, in order.
    markers_due: Vec<u32>,
    problems: Vec<Problem>,
    /// Whether the record has variations, so that the game before each
    /// move is kept in `before_last`.
    pub(crate) keep_before: bool,
    /// The line being read as it stood before its last move: a variation
    /// after that move starts from it. `None` where no move was played
    /// (none yet, or the replay stopped before it).
    before_last: Option<Before>,
    /// The lines the variations being read branch from, outermost first.
    branches: Vec<Branch>,
    /// From this depth of variations on, `record` is not fed: it passed
    /// over the variation there.
    record_skipped_from: Option<usize>,
    /// A round begun by [`Check::settle_to_round_start`], whether its
    /// first player can move still open: the replay as it stood before.
    deferred: Option<Deferred>,
    /// [`Check::settle_to_round_start`]'s report, its space reused.
    round_report: PlayReport,
}

/// Which lane takes the next move ([`Check::mv`]): the full rules, or the
/// game's fast lane, keeping the game before the move or not (see
/// [`Check::keep_before`]). One value, not two flags: every move asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lane {
    Full,
    Fast,
    FastKeeping,
}

impl<'p, R: mancala_notation::Visitor> Check<'_, 'p, R> {
    pub(crate) fn new(
        record: R,
        lap_budget: Option<u32>,
        on_ply: Option<&'p mut dyn FnMut(&Ply<'_>)>,
    ) -> Self {
        Check {
            record,
            source: None,
            lap_budget,
            on_ply,
            tags: TagsSeen::default(),
            rules: None,
            start: None,
            game: None,
            lane: Lane::Full,
            stopped: false,
            plies: 0,
            first_item: None,
            round_ends: Vec::new(),
            markers_due: Vec::new(),
            problems: Vec::new(),
            keep_before: false,
            before_last: None,
            branches: Vec::new(),
            record_skipped_from: None,
            deferred: None,
            round_report: PlayReport::default(),
        }
    }

    /// The movetext begins: the replay starts from the start the tags
    /// make, or a problem says why it cannot.
    pub(crate) fn begin_replay(&mut self) {
        let rules = match self.tags.rules(self.lap_budget) {
            None => return,
            Some(Ok(rules)) => rules,
            Some(Err(problem)) => return self.problems.push(problem),
        };
        self.rules = Some(rules);
        match self.tags.start(rules) {
            Ok(start) => {
                self.start = Some(start);
                self.game = Some(Game::start(start.position));
                self.lane = self.fast_lane_if(self.on_ply.is_none() && self.source.is_some());
            }
            Err(problem) => self.problems.push(problem),
        }
    }

    /// The fast lane when `open`, keeping the game before each move when
    /// the record has variations; else the full rules.
    fn fast_lane_if(&self, open: bool) -> Lane {
        match (open, self.keep_before) {
            (false, _) => Lane::Full,
            (true, false) => Lane::Fast,
            (true, true) => Lane::FastKeeping,
        }
    }

    /// Whether `record` is fed what is read (it has not passed over the
    /// variation being read).
    fn feeds_record(&self) -> bool {
        self.record_skipped_from.is_none()
    }

    /// A comment's `[%eval …]` command, checked: `span` is the comment's
    /// in the text. In an MGN text the command is found in the text itself,
    /// so that a CR before it counts; in JSON (escapes) or a record given
    /// as values, the problem points at the whole comment.
    fn check_eval(&mut self, comment: &str, span: &Range<usize>) {
        let raw = match self.source {
            Some((Form::Mgn, source)) => source.get(span.start + 1..span.end.saturating_sub(1)),
            _ => None,
        };
        let found = Eval::find(raw.unwrap_or(comment));
        if let Some(Err(e)) = found {
            let at = span.start + 1;
            let span = match raw {
                Some(_) => at + e.span.start..at + e.span.end,
                None => span.clone(),
            };
            self.problems
                .push(Problem::new(span, ProblemDetail::Eval(e)));
        }
    }

    /// The verdict, once the whole text is read (`record` makes the record
    /// of what was fed to it).
    pub(crate) fn finish(
        self,
        built: impl FnOnce(R) -> (Option<ParsedGame>, Option<Tags>),
    ) -> Checked {
        let (parsed, tags) = built(self.record);
        // A well-formed text has a Game tag. Matched, not mapped: a
        // closure would take the game (some 400 bytes) by one more copy.
        let replay = match self.tags.game_id {
            Some(game_id) => Some(Replay {
                game_id,
                options: self.tags.options,
                rules: self.rules,
                game: self.game,
                plies: self.plies,
                round_ends: self.round_ends,
                markers_due: self.markers_due,
            }),
            None => None,
        };
        Checked {
            parsed,
            tags,
            replay,
            problems: self.problems,
        }
    }

    fn stop(&mut self, span: Range<usize>, detail: ProblemDetail) {
        let problem = self.in_line(Problem::new(span, detail));
        self.problems.push(problem);
        self.stopped = true;
    }

    /// `problem` of the line being read: inside a variation it says so.
    fn in_line(&self, problem: Problem) -> Problem {
        Problem {
            in_variation: !self.branches.is_empty(),
            ..problem
        }
    }

    #[cold]
    #[inline(never)]
    fn misannotated(
        &mut self,
        mv: Move,
        claimed: u32,
        mover: Side,
        gained: u32,
        span: Range<usize>,
    ) {
        let detail = ProblemDetail::Misannotation {
            mv,
            claimed,
            mover,
            gained,
        };
        let problem = self.in_line(Problem::new(span, detail));
        self.problems.push(problem);
    }

    /// Any item the fast lane does not take.
    #[cold]
    #[inline(never)]
    fn slow_item(&mut self, item: Item, span: Range<usize>) -> ControlFlow<()> {
        self.first_item.get_or_insert(span.start);
        if let Item::Comment { comment } = &item {
            // A round's start left open is decided first, so that what it
            // finds is said before what the comment's command is.
            if !self.stopped
                && self
                    .deferred
                    .as_ref()
                    .is_some_and(|undo| undo.plies == self.plies)
            {
                self.settle();
            }
            self.check_eval(comment, &span);
        }
        let item = if self.stopped || self.game.is_none() {
            if matches!(item, Item::Move { .. }) {
                // A variation after this move cannot be replayed either.
                self.before_last = None;
            }
            item
        } else {
            self.replay(item, span.clone())
        };
        self.lane = self.fast_lane_if(
            !self.stopped
                && self.game.is_some()
                && self.markers_due.is_empty()
                && self.on_ply.is_none()
                && self.source.is_some()
                && self.branches.is_empty(),
        );
        if !self.feeds_record() {
            return ControlFlow::Continue(());
        }
        self.record.item(item, span)
    }

    /// [`Check::slow_item`] while the game is replayed: the item as the
    /// record keeps it.
    fn replay(&mut self, item: Item, span: Range<usize>) -> Item {
        let (mv, captured) = match item {
            Item::Comment { .. } | Item::Nag { .. } | Item::Variation { .. } => return item,
            Item::Round { round } => {
                // The marker due needs only the round begun; any other is
                // judged with everything settled.
                if self.settle_to_round_start()
                    && (self.markers_due.first() == Some(&round) || self.settle())
                {
                    self.round_marker(round, span);
                }
                return item;
            }
            Item::Move { mv, captured } => (mv, captured),
        };
        self.before_last = None;
        if !self.settle() {
            return item;
        }
        self.keep(span.end);
        let (Some(game), Some(rules)) = (&mut self.game, self.rules) else {
            return item;
        };
        if let Some(due) = self.markers_due.first() {
            let detail = ProblemDetail::MarkerOwed { due: *due };
            self.stop(span, detail);
            return item;
        }
        if let Some(outcome) = game.outcome() {
            let detail = ProblemDetail::AfterTheEnd {
                mv,
                ply: self.plies + 1,
                end: End::of(outcome, rules),
            };
            self.stop(span, detail);
            return item;
        }
        let before = *game.position();
        let mover = before.to_move();
        let report = match game.play(mv) {
            Ok(report) => report,
            Err(e) => {
                let detail = ProblemDetail::IllegalMove {
                    mv,
                    ply: self.plies + 1,
                    mover,
                    error: e,
                };
                self.stop(span, detail);
                return item;
            }
        };
        self.plies += 1;
        let canonical = before.canonical_move(mv);
        let gained = report.gained[mover.index()];
        if let Some(claimed) = captured
            && claimed != gained
        {
            self.misannotated(mv, claimed, mover, gained, span);
        }
        self.markers_due.extend(rounds_begun(&report));
        self.round_ends.extend(report.round_ends.iter().copied());
        // Observers follow the main line.
        if let (Some(on_ply), Some(game), true) =
            (&mut self.on_ply, &self.game, self.branches.is_empty())
        {
            on_ply(&Ply {
                number: self.plies,
                mv: canonical,
                before: &before,
                after: game.position(),
                report: &report,
            });
        }
        Item::Move {
            mv: canonical,
            captured,
        }
    }

    /// A round marker, with everything before it settled.
    fn round_marker(&mut self, round: u32, span: Range<usize>) {
        if self.markers_due.first() == Some(&round) {
            self.markers_due.remove(0);
            return;
        }
        let (Some(game), Some(rules)) = (&self.game, self.rules) else {
            return;
        };
        let now = game.position().round();
        let detail = match self.markers_due.first() {
            _ if !rules.game().has_rounds() => ProblemDetail::MarkerWithoutRounds {
                round,
                game: rules.game(),
            },
            _ if !rules.plays_rounds() => ProblemDetail::MarkerInSingleRound { round },
            Some(&due) => ProblemDetail::MarkerNotDue { round, due },
            None if let Some(outcome) = game.outcome() => ProblemDetail::MarkerAfterTheEnd {
                round,
                end: End::of(outcome, rules),
            },
            None => ProblemDetail::MarkerMidRound { round, now },
        };
        self.stop(span, detail);
    }
}
