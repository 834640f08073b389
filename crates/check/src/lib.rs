//! Checking a record against the rules: the one place that decides whether
//! a record is valid. One state machine ([`check_text`]'s visitor) replays
//! the record as the notation's reader hands over its tags, moves, round
//! markers, comments and result, so that no game is read twice:
//! `mancala-validate` reports its verdict, `mancala-render` draws its
//! plies, `mancala-play` continues from it. Variations are replayed too,
//! each from the position before the move it follows, and the line around
//! taken up again after it; what the tools observe is the main line.
//!
//! The check goes in two phases, as a record does: the tags' (`tags`),
//! which notes what they say and makes the game's start from them, then
//! the movetext's (`movetext`), which replays from that start and from
//! nothing else; the result is judged at the end (`end`), and every
//! problem is a [`Problem`] (`problem`).
//!
//! ```
//! use mancala_check::{Build, ProblemDetail, ProblemKind, check_text};
//! use mancala_notation::Reader;
//!
//! // Two games in one stream, each checked; the second plays South's `D` twice.
//! let stream = "[Game \"olowuka\"]\n\n1. D b *\n\n[Game \"olowuka\"]\n\n1. D D *\n";
//! let mut verdicts = Vec::new();
//! for game in Reader::new(stream.as_bytes()) {
//!     let game = game?;
//!     let checked = check_text(&game, None, Build::Nothing, None);
//!     for problem in &checked.problems {
//!         // What is wrong comes with its data: here the move and its ply.
//!         assert!(matches!(*problem.detail, ProblemDetail::IllegalMove { ply: 2, .. }));
//!         let at = game.line_col(problem.span.start);
//!         verdicts.push((problem.kind(), at, game.text()?[problem.span.clone()].to_owned()));
//!     }
//! }
//! // Where the problem lies: the stream's line and column, and its text.
//! assert_eq!(verdicts, [(ProblemKind::Move, (7, 6), "D".to_owned())]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod end;
mod movetext;
mod problem;
mod tags;

use std::ops::Range;

use mancala_notation::{
    Form, GameText, Item, ParsedGame, RecordBuilder, StandardTags, Tag, Visitor,
};
use mancala_rules::{Game, GameId, Move, Options, Outcome, PlayReport, Position, RoundEnd, Rules};

pub use end::rounds_begun;
pub use problem::{End, Problem, ProblemDetail, ProblemKind, illegal_move, misannotation};
pub use tags::{BadLapBudget, LAP_BUDGET_TAG, Tags, lap_budget_of, start_position};

use movetext::Check;
use tags::TagsSeen;

/// A ply as it was replayed.
#[derive(Debug)]
pub struct Ply<'a> {
    /// Ply number in the game, from 1.
    pub number: usize,
    pub mv: Move,
    pub before: &'a Position,
    pub after: &'a Position,
    pub report: &'a PlayReport,
}

/// The result of replaying a record.
#[derive(Debug)]
pub struct Replay {
    /// The record's game and options, as its tags say.
    pub game_id: GameId,
    pub options: Options,
    pub rules: Option<Rules>,
    /// The game as far as it could be replayed (`None` when the rules,
    /// options or set-up are invalid).
    pub game: Option<Game>,
    /// Plies replayed successfully.
    pub plies: usize,
    /// Round ends seen while replaying, in order.
    pub round_ends: Vec<RoundEnd>,
    /// Rounds begun whose markers the record has not written yet (an
    /// unfinished record cut where a round began): they come before the
    /// next move.
    pub markers_due: Vec<u32>,
}

impl Replay {
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.as_ref().and_then(Game::outcome)
    }
}

/// A game's text checked from syntax to result: what every tool needs
/// before it trusts a record.
#[derive(Debug)]
pub struct Checked {
    /// The record, when it was asked for and the text parses.
    pub parsed: Option<ParsedGame>,
    /// The descriptive tags, when only they were asked for and the text
    /// parses ([`Checked::tags`] reads them from either).
    pub tags: Option<Tags>,
    /// `None` when the text does not parse.
    pub replay: Option<Replay>,
    pub problems: Vec<Problem>,
}

impl Checked {
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty()
    }

    /// The record's descriptive tags, standard and extra, when they were
    /// built (with the tags alone or with the whole record).
    #[must_use]
    pub fn tags(&self) -> Option<(&StandardTags, &[Tag])> {
        match (&self.parsed, &self.tags) {
            (Some(parsed), _) => Some((&parsed.record.tags, &parsed.record.extra)),
            (None, Some(tags)) => Some((&tags.standard, &tags.extra)),
            (None, None) => None,
        }
    }

    /// A text that is not a well-formed game: only that is reported.
    fn syntax(e: mancala_notation::ParseError) -> Checked {
        Checked {
            parsed: None,
            tags: None,
            replay: None,
            problems: vec![Problem::new(e.span.clone(), ProblemDetail::Syntax(e))],
        }
    }
}

/// Reads and checks one game's text in one pass: every legal move is
/// handed to `on_ply` (when given) as it is replayed, and what `build` asks
/// for is built alongside: the record, its moves as the canonical notation
/// writes them (a rightly named direction that a move does not choose is
/// dropped), or only its descriptive tags. A syntax error anywhere is all
/// that is reported (plies handed over before it count for nothing).
pub fn check_text(
    text: &GameText,
    lap_budget: Option<u32>,
    build: Build,
    on_ply: Option<&mut dyn FnMut(&Ply<'_>)>,
) -> Checked {
    check_text_as(Form::Mgn, text, lap_budget, build, on_ply)
}

/// [`check_text`] for a text in either form: MGN, or a JSON record (whose
/// problems point into its JSON text).
pub fn check_text_as(
    form: Form,
    text: &GameText,
    lap_budget: Option<u32>,
    build: Build,
    on_ply: Option<&mut dyn FnMut(&Ply<'_>)>,
) -> Checked {
    let source = match text.source() {
        Ok(source) => source,
        Err(e) => return Checked::syntax(e),
    };
    let source = (form, source);
    match build {
        Build::Record => run(
            source,
            RecordBuilder::new(source.1),
            lap_budget,
            on_ply,
            |b| (Some(b.finish()), None),
        ),
        Build::Tags => run(source, Tags::default(), lap_budget, on_ply, |t| {
            (None, Some(t))
        }),
        Build::Nothing => run(source, NoRecord, lap_budget, on_ply, |_| (None, None)),
    }
}

/// [`check_text_as`] feeding `visitor`, which `built` turns into what the
/// check hands back.
fn run<R: Visitor>(
    (form, source): (Form, &str),
    visitor: R,
    lap_budget: Option<u32>,
    on_ply: Option<&mut dyn FnMut(&Ply<'_>)>,
    built: impl FnOnce(R) -> (Option<ParsedGame>, Option<Tags>),
) -> Checked {
    let mut check = Check::new(visitor, lap_budget, on_ply);
    check.source = Some((form, source));
    // Only a text with variations needs the game before each move (an
    // MGN text's movetext is looked into once its tags are read).
    check.keep_before = match form {
        Form::Mgn => false,
        Form::Json => memchr::memmem::find(source.as_bytes(), b"\"variation\"").is_some(),
    };
    match form.visit(source, &mut check) {
        Ok(_) => check.finish(built),
        Err(e) => Checked::syntax(e),
    }
}

/// Checks a record that is already parsed (one built from command-line
/// flags, say), handing every legal move to `on_ply`. The record comes back
/// as it was given.
pub fn check_parsed(
    parsed: ParsedGame,
    lap_budget: Option<u32>,
    on_ply: Option<&mut dyn FnMut(&Ply<'_>)>,
) -> Checked {
    let mut check = Check::new(NoRecord, lap_budget, on_ply);
    let (record, spans) = (&parsed.record, &parsed.spans);
    check.tags = TagsSeen::of_record(record, spans);
    let _ = check.movetext(spans.header.clone());
    check.keep_before = record
        .items
        .iter()
        .any(|item| matches!(item, Item::Variation { .. }));
    let (mut outer, mut inner) = (spans.items.iter(), spans.inner.iter());
    // The spans of the variations open, to close them where the walk
    // comes out of them.
    let mut open: Vec<Range<usize>> = Vec::new();
    for (depth, item) in record.walk() {
        while open.len() > depth {
            let end = open.pop().map_or(0, |span| span.end);
            let _ = check.end_variation(end.saturating_sub(1)..end);
        }
        let spans = if depth == 0 { &mut outer } else { &mut inner };
        let span = spans.next().cloned().unwrap_or(0..0);
        match item {
            Item::Variation { .. } => {
                open.push(span.clone());
                let _ = check.begin_variation(span.start..span.start + 1);
            }
            Item::Nag { nag } => {
                let _ = check.nag(*nag, span);
            }
            item => {
                let _ = check.item(item.clone(), span);
            }
        }
    }
    while let Some(span) = open.pop() {
        let _ = check.end_variation(span.end.saturating_sub(1)..span.end);
    }
    check.result(record.result, spans.result.clone());
    check.finish(|_| (Some(parsed), None))
}

/// What [`Check`] feeds what it reads to when no record is asked for.
#[derive(Debug)]
struct NoRecord;

impl Visitor for NoRecord {}

/// What [`check_text`] builds beside the check of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// Nothing: the verdict alone.
    Nothing,
    /// The descriptive tags ([`Checked::tags`]), not the movetext.
    Tags,
    /// The whole record ([`Checked::parsed`]).
    Record,
}
