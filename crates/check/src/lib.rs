//! Checking a record against the rules: the one place that decides whether
//! a record is valid. One state machine ([`check_text`]'s visitor) replays
//! the record as the notation's reader hands over its tags, moves, round
//! markers, comments and result, so that no game is read twice:
//! `mancala-validate` reports its verdict, `mancala-render` draws its
//! plies, `mancala-play` continues from it. Variations are replayed too,
//! each from the position before the move it follows, and the line around
//! taken up again after it; what the tools observe is the main line.
//!
//! ```
//! use mancala_check::{Build, ProblemKind, check_text};
//! use mancala_notation::Reader;
//!
//! // Two games in one stream, each checked; the second plays South's `D` twice.
//! let stream = "[Game \"olowuka\"]\n\n1. D b *\n\n[Game \"olowuka\"]\n\n1. D D *\n";
//! let mut verdicts = Vec::new();
//! for game in Reader::new(stream.as_bytes()) {
//!     let game = game?;
//!     let checked = check_text(&game, None, Build::Nothing, None);
//!     for problem in &checked.problems {
//!         let at = game.line_col(problem.span.start);
//!         verdicts.push((problem.kind, at, game.text()?[problem.span.clone()].to_owned()));
//!     }
//! }
//! // Where the problem lies: the stream's line and column, and its text.
//! assert_eq!(verdicts, [(ProblemKind::Move, (7, 6), "D".to_owned())]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::cell::Cell;
use std::ops::{ControlFlow, Range};

use mancala_notation::{
    Eval, Form, GameResult, GameText, Item, Nag, ParsedGame, RecordBuilder, Skip, StandardTags,
    Tag, TagValue, Visitor, forget_move,
};
use mancala_rules::{
    EndReason, Game, GameId, Move, Opt, Options, OptionsError, Outcome, PlayError, PlayReport,
    Position, RoundEnd, Rules, Setup, SetupError, Side,
};
use serde::Serialize;

/// What kind of problem a record has (`kind` in JSON verdicts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProblemKind {
    /// The text is not a well-formed game.
    Syntax,
    /// The game's options (or its game id with them) are refused.
    Options,
    /// The set-up is refused, or the start cannot be decided.
    Setup,
    /// A move is illegal, or comes after the end.
    Move,
    /// A move's `+N` says otherwise than the move.
    Annotation,
    /// A round marker is missing, wrong or out of place.
    Round,
    /// The result says otherwise than the game.
    Result,
    /// The `Termination` tag says otherwise than the game.
    Termination,
    /// A comment's `[%eval …]` command is malformed.
    Eval,
}

/// One thing wrong with a record, located in its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Byte range in the game's text.
    #[serde(skip)]
    pub span: Range<usize>,
    pub kind: ProblemKind,
    pub message: String,
}

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

/// What the tools say of a move the rules refuse: which move, at which ply
/// (from 1), whose turn it was (`mover`: the error's position may be the
/// one after the move, when what follows it cannot be decided) and why.
pub fn illegal_move(mv: Move, ply: usize, mover: Side, e: &PlayError) -> String {
    format!("illegal move {mv} (ply {ply}, {mover} to move): {e}")
}

/// What the tools say of a move whose `+N` annotation (`claimed`) is not
/// what `mover` gains with it.
#[must_use]
pub fn misannotation(mv: Move, claimed: u32, mover: Side, gained: u32) -> String {
    format!("move {mv} is annotated +{claimed}, but {mover} gains {gained} seeds with it")
}

fn problem(span: Range<usize>, kind: ProblemKind, message: impl Into<String>) -> Problem {
    Problem {
        span,
        kind,
        message: message.into(),
    }
}

/// The tag in which a record says the lap budget it was played under
/// (spec/notation.md §3.3): the tools read it under that budget.
pub const LAP_BUDGET_TAG: &str = mancala_notation::Record::LAP_BUDGET_TAG;

/// The lap budget a record is read under: `flag` (`--lap-budget`) when
/// given, else the record's `LapBudget` tag (`tag`), else the default.
/// `Err` says what is wrong with the tag's value.
pub fn lap_budget_of(flag: Option<u32>, tag: Option<&str>) -> Result<u32, String> {
    match (flag, tag) {
        (Some(budget), _) => Ok(budget),
        (None, None) => Ok(mancala_rules::DEFAULT_LAP_BUDGET),
        (None, Some(value)) => value.parse().ok().filter(|&b| b >= 1).ok_or_else(|| {
            format!(
                "the {LAP_BUDGET_TAG} tag must be a number of laps from 1 to {}, not `{}`",
                u32::MAX,
                mancala_rules::shorten(value)
            )
        }),
    }
}

/// The rules of `game` under `options` and `lap_budget`, checked. The
/// last rules made are kept, with what they were made of: the records of
/// a file mostly share them, and making them again cost some 100
/// instructions a record.
fn rules_of(game: GameId, options: Options, lap_budget: u32) -> Result<Rules, OptionsError> {
    thread_local! {
        static LAST: Cell<Option<(GameId, Options, u32, Rules)>> = const { Cell::new(None) };
    }
    if let Some((last_game, last_options, last_budget, rules)) = LAST.get()
        && (last_game, last_options, last_budget) == (game, options, lap_budget)
    {
        return Ok(rules);
    }
    let rules = Rules::new(game, options).and_then(|rules| rules.with_lap_budget(lap_budget))?;
    LAST.set(Some((game, options, lap_budget, rules)));
    Ok(rules)
}

/// The position a game under `rules` starts from: `setup`, or the standard
/// start.
fn start_of(setup: Option<&Setup>, rules: Rules) -> Result<Position, SetupError> {
    match setup {
        None => Ok(Position::new(rules)),
        Some(setup) => Position::from_setup(rules, setup),
    }
}

/// The position a record starts from.
pub fn start_position(parsed: &ParsedGame, rules: Rules) -> Result<Position, Problem> {
    start_of(parsed.record.setup.as_ref(), rules).map_err(|e| {
        problem(
            parsed.spans.setup.clone().unwrap_or(0..0),
            ProblemKind::Setup,
            e.to_string(),
        )
    })
}

/// Rounds that begin after these round ends (all but a final one that ended
/// the match): each needs an `R<n>` marker in the record.
pub fn rounds_begun(report: &PlayReport) -> impl Iterator<Item = u32> + '_ {
    let last_ends_match = report.outcome.is_some();
    let n = report.round_ends.len();
    report
        .round_ends
        .iter()
        .enumerate()
        .filter(move |(i, _)| !(last_ends_match && *i + 1 == n))
        .map(|(_, end)| end.round.saturating_add(1))
}

/// `the end of the game (reason, S-N)`, or for a match that `rounds=N`
/// ended, `the end of the match: rounds=N ends it after round N (…)`.
fn the_end(outcome: &Outcome, rules: Rules) -> String {
    let (reason, [s, n]) = (outcome.reason, outcome.score);
    match rules.last_round() {
        Some(last) if reason == EndReason::RoundsPlayed => format!(
            "the end of the match: rounds={last} ends it after round {last} ({reason}, {s}-{n})"
        ),
        _ => format!("the end of the game ({reason}, {s}-{n})"),
    }
}

/// The record's result, termination and trailing round markers against the
/// game's real end.
fn check_end(
    (result, result_span): (GameResult, Range<usize>),
    termination: Option<&(EndReason, Option<Range<usize>>)>,
    game: &Game,
    markers_due: &[u32],
    problems: &mut Vec<Problem>,
) {
    let claimed = termination.map(|(reason, _)| *reason);
    let termination_span = termination.and_then(|(_, span)| span.clone());
    match (result, game.outcome()) {
        (GameResult::Unfinished, None) => {
            if claimed.is_some() {
                let span = termination_span.unwrap_or(result_span);
                problems.push(problem(
                    span,
                    ProblemKind::Termination,
                    "an unfinished game (`*`) cannot have a Termination tag",
                ));
            }
        }
        (GameResult::Unfinished, Some(outcome)) => problems.push(problem(
            result_span,
            ProblemKind::Result,
            format!(
                "the game is over ({}, {}-{}) but the record is marked unfinished (`*`)",
                outcome.reason, outcome.score[0], outcome.score[1]
            ),
        )),
        (GameResult::Score(s, n), None) => problems.push(problem(
            result_span,
            ProblemKind::Result,
            format!("the record claims the result {s}-{n}, but the game is not over"),
        )),
        (GameResult::Score(s, n), Some(outcome)) => {
            if let Some(due) = markers_due.first() {
                problems.push(problem(
                    result_span.clone(),
                    ProblemKind::Round,
                    format!("round {due} began and ended without a move: the record needs the marker R{due}"),
                ));
            }
            if [s, n] != outcome.score {
                problems.push(problem(
                    result_span,
                    ProblemKind::Result,
                    format!(
                        "the record claims {s}-{n}, but the game ended {}-{} ({})",
                        outcome.score[0], outcome.score[1], outcome.reason
                    ),
                ));
            }
            if let Some(claimed) = claimed
                && claimed != outcome.reason
            {
                problems.push(problem(
                    termination_span.unwrap_or(0..0),
                    ProblemKind::Termination,
                    format!(
                        "the Termination tag says {claimed}, but the game ended by {}",
                        outcome.reason
                    ),
                ));
            }
        }
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
            problems: vec![problem(e.span, ProblemKind::Syntax, e.message)],
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
    check.game_id = Some(record.game);
    check.options = record.options;
    check.setup.clone_from(&record.setup);
    check.game_line = spans.tag("Game");
    check.options_span.clone_from(&spans.options);
    check.setup_span.clone_from(&spans.setup);
    check.lap_budget_tag = record
        .tag(LAP_BUDGET_TAG)
        .map(|value| (value.to_owned(), spans.tag(LAP_BUDGET_TAG).unwrap_or(0..0)));
    check.termination = record
        .termination
        .map(|reason| (reason, spans.tag("Termination")));
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

/// The descriptive tags of a game, kept as a record keeps them.
#[derive(Debug, Default)]
pub struct Tags {
    pub standard: StandardTags,
    /// The others, in order (the parser has made their names unique).
    pub extra: Vec<Tag>,
}

impl Visitor for Tags {
    fn tag(&mut self, tag: TagValue<'_>, _: Range<usize>, _: Range<usize>) -> ControlFlow<()> {
        if let TagValue::Text { name, value } = tag {
            match self.standard.get_mut(name) {
                Some(slot) => *slot = Some(value.into_owned()),
                None => self.extra.push(Tag {
                    name: name.to_owned(),
                    value: value.into_owned(),
                }),
            }
        }
        ControlFlow::Continue(())
    }
}

/// The check of one record, as the notation's reader hands over its parts:
/// the state machine every tool's check runs. Each move is played as it is
/// read: by the game's fast lane, which leaves "cannot move" open, while
/// nothing else is asked of the move; by the full rules, with everything
/// settled first, for anything else (a move the fast lane leaves, a round
/// marker, the result, and every move when plies are observed). It never
/// stops the reading: a syntax error later in the text overrides all.
struct Check<'s, 'p, R> {
    /// Fed everything read, moves as the replay leaves them.
    record: R,
    /// The text read and its form, when there is one: the fast lane runs
    /// only then (see [`Check::refuse_last`]).
    source: Option<(Form, &'s str)>,
    /// `--lap-budget`, and the record's `LapBudget` tag with its line.
    lap_budget: Option<u32>,
    lap_budget_tag: Option<(String, Range<usize>)>,
    on_ply: Option<&'p mut dyn FnMut(&Ply<'_>)>,
    // What the tags say, and where.
    game_id: Option<GameId>,
    options: Options,
    setup: Option<Setup>,
    /// The `Game` tag's line.
    game_line: Option<Range<usize>>,
    /// The `Options` and `SetUp` tags' values.
    options_span: Option<Range<usize>>,
    setup_span: Option<Range<usize>>,
    /// The `Termination` tag's reason and line.
    termination: Option<(EndReason, Option<Range<usize>>)>,
    // The replay.
    rules: Option<Rules>,
    start: Option<Position>,
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
    keep_before: bool,
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

/// What the replay held before a round marker's settling left a round's
/// start open (see [`Check::settle_to_round_start`]), at ply `plies`: put
/// back if a later settling, with no move played since, fails.
#[derive(Debug)]
struct Deferred {
    plies: usize,
    round_ends: usize,
    markers_due: Vec<u32>,
    /// The side to move before.
    to_move: Side,
}

/// A line as it stood before a move.
#[derive(Clone, Debug)]
struct Before {
    game: Game,
    plies: usize,
    markers_due: Vec<u32>,
}

/// Whether a variation opens after a move, `after` being the text that
/// follows the move's token: only NAGs and comments may stand between.
/// Each stretch of text between two moves is scanned once.
fn variation_follows(after: &[u8]) -> bool {
    let mut at = 0;
    loop {
        while after.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        match after.get(at) {
            Some(b'(') => return true,
            Some(b'{') => match after[at..].iter().position(|&b| b == b'}') {
                Some(close) => at += close + 1,
                None => return false,
            },
            Some(b'$' | b'!' | b'?') => {
                while after
                    .get(at)
                    .is_some_and(|&b| !b.is_ascii_whitespace() && !matches!(b, b'{' | b'(' | b')'))
                {
                    at += 1;
                }
            }
            _ => return false,
        }
    }
}

/// What [`Check`] was reading when a variation began, taken up again at
/// its end.
#[derive(Debug)]
struct Branch {
    /// The variation's `(`.
    at: Range<usize>,
    game: Option<Game>,
    before_last: Option<Before>,
    plies: usize,
    markers_due: Vec<u32>,
    round_ends: usize,
    stopped: bool,
    lane: Lane,
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

impl<'p, R: Visitor> Check<'_, 'p, R> {
    fn new(
        record: R,
        lap_budget: Option<u32>,
        on_ply: Option<&'p mut dyn FnMut(&Ply<'_>)>,
    ) -> Self {
        Check {
            record,
            source: None,
            lap_budget,
            lap_budget_tag: None,
            on_ply,
            game_id: None,
            options: Options::new(),
            setup: None,
            game_line: None,
            options_span: None,
            setup_span: None,
            termination: None,
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

    /// Keeps the line as it stands before a move is played, when a
    /// variation follows the move (whose token ends at `move_end`): only
    /// then, as a copy costs as much as the game's repetition history is
    /// long. Under `no-repetition-rule` the history counts for nothing, and
    /// the copy is a game started from the position, which the line then
    /// is in all else (the move is played from a game neither over nor
    /// ended, so nothing else is pending).
    fn keep(&mut self, move_end: usize) {
        self.before_last = None;
        let (true, Some(game), Some(rules)) = (self.keep_before, &self.game, self.rules) else {
            return;
        };
        // In MGN the text after the move says whether a variation follows;
        // JSON is not looked into (its variations are rare beside MGN's).
        if let Some((Form::Mgn, source)) = self.source
            && !variation_follows(source.as_bytes().get(move_end..).unwrap_or_default())
        {
            return;
        }
        let game = if rules.has(Opt::NoRepetitionRule) {
            Game::start(*game.position())
        } else {
            game.clone()
        };
        self.before_last = Some(Before {
            game,
            plies: self.plies,
            markers_due: self.markers_due.clone(),
        });
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
                .push(problem(span, ProblemKind::Eval, e.message));
        }
    }

    /// The verdict, once the whole text is read (`record` makes the record
    /// of what was fed to it).
    fn finish(self, built: impl FnOnce(R) -> (Option<ParsedGame>, Option<Tags>)) -> Checked {
        let (parsed, tags) = built(self.record);
        // A well-formed text has a Game tag. Matched, not mapped: a
        // closure would take the game (some 400 bytes) by one more copy.
        let replay = match self.game_id {
            Some(game_id) => Some(Replay {
                game_id,
                options: self.options,
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

    fn stop(&mut self, span: Range<usize>, kind: ProblemKind, message: String) {
        let message = self.in_line(message);
        self.problems.push(problem(span, kind, message));
        self.stopped = true;
    }

    /// `message` about the line being read: inside a variation it says so.
    fn in_line(&self, message: String) -> String {
        if self.branches.is_empty() {
            message
        } else {
            format!("in a variation, {message}")
        }
    }

    /// Settles what the fast lane left open, noting the rounds that ended:
    /// `false`, with the replay stopped, when that cannot be decided (the
    /// start, or the last move, is then what is wrong).
    fn settle(&mut self) -> bool {
        self.settle_leaving(false)
    }

    /// [`Check::settle`] for a round marker: a round that begins is begun
    /// with whether its first player can move left open (see
    /// [`Game::settle_to_round_start`]), on the main line, where the
    /// record's next move mostly proves it. What the replay held before is
    /// kept in [`Check::deferred`], so that when a later settling finds
    /// that it cannot be decided, the replay stops as if this one had.
    fn settle_to_round_start(&mut self) -> bool {
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
                    let message =
                        format!("the position this variation branches from is undecided: {e}");
                    self.game = None;
                    self.stop(branch.at.clone(), ProblemKind::Move, message);
                } else if self.plies > 0 {
                    self.refuse_last(&e);
                } else {
                    // Point at the set-up, or else at the start of the
                    // movetext.
                    let at = self.first_item.unwrap_or(0);
                    let span = self.setup_span.clone().unwrap_or(at..at);
                    // This is the check that the side to move can move
                    // at all: say so, not only which move is undecided.
                    let side = to_move;
                    let message = format!("whether {side} can move at the start is undecided: {e}");
                    self.game = None;
                    self.stop(span, ProblemKind::Setup, message);
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
            game: Game::start(start),
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
            .is_some_and(|p| p.kind == ProblemKind::Annotation && p.span == span)
        {
            self.problems.pop();
        }
        let mover = again.game.position().to_move();
        self.game = Some(again.game);
        self.plies -= 1;
        let message = illegal_move(mv, self.plies + 1, mover, e);
        self.stop(span, ProblemKind::Move, message);
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
        let message = self.in_line(misannotation(mv, claimed, mover, gained));
        self.problems
            .push(problem(span, ProblemKind::Annotation, message));
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
            let message = format!(
                "round {due} has begun: the record needs the marker R{due} before this move"
            );
            self.stop(span, ProblemKind::Round, message);
            return item;
        }
        if let Some(outcome) = game.outcome() {
            let message = format!(
                "move {mv} (ply {}) comes after {}",
                self.plies + 1,
                the_end(&outcome, rules)
            );
            self.stop(span, ProblemKind::Move, message);
            return item;
        }
        let before = *game.position();
        let mover = before.to_move();
        let report = match game.play(mv) {
            Ok(report) => report,
            Err(e) => {
                let message = illegal_move(mv, self.plies + 1, mover, &e);
                self.stop(span, ProblemKind::Move, message);
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
        let message = match self.markers_due.first() {
            _ if !rules.game().has_rounds() => {
                format!("round marker R{round}, but {} has no rounds", rules.game())
            }
            _ if !rules.plays_rounds() => {
                format!("round marker R{round}, but this game is played in a single round")
            }
            Some(due) => format!("expected the marker R{due} here, not R{round}"),
            None if let Some(outcome) = game.outcome() => {
                format!("round marker R{round} after {}", the_end(&outcome, rules))
            }
            None => format!("round marker R{round}, but round {now} is still being played"),
        };
        self.stop(span, ProblemKind::Round, message);
    }
}

impl<R: Visitor> Visitor for Check<'_, '_, R> {
    /// Inlined into the parser's tag loop: most tags are matched away
    /// (their values are the parser's to check), and a call for each costs
    /// more than that.
    #[inline(always)]
    fn tag(
        &mut self,
        tag: TagValue<'_>,
        line: Range<usize>,
        value: Range<usize>,
    ) -> ControlFlow<()> {
        // Taken apart and put together again, not matched by reference:
        // the tag then stays in registers.
        let tag = match tag {
            TagValue::Game(game) => {
                self.game_id = Some(game);
                self.game_line = Some(line.clone());
                TagValue::Game(game)
            }
            TagValue::Options(options) => {
                self.options = options;
                self.options_span = Some(value.clone());
                TagValue::Options(options)
            }
            TagValue::SetUp(setup) => {
                self.setup = Some(setup.clone());
                self.setup_span = Some(value.clone());
                TagValue::SetUp(setup)
            }
            TagValue::Termination(reason) => {
                self.termination = Some((reason, Some(line.clone())));
                TagValue::Termination(reason)
            }
            TagValue::Text { name, value } => {
                if name == LAP_BUDGET_TAG {
                    self.lap_budget_tag = Some((value.to_string(), line.clone()));
                }
                TagValue::Text { name, value }
            }
            // The parser checks the Result tag against the movetext.
            TagValue::Result(result) => TagValue::Result(result),
        };
        self.record.tag(tag, line, value)
    }

    fn movetext(&mut self, header: Range<usize>) -> ControlFlow<()> {
        if let Some((Form::Mgn, source)) = self.source {
            self.keep_before = memchr::memchr(b'(', &source.as_bytes()[header.end..]).is_some();
        }
        let _ = self.record.movetext(header);
        // Without a Game tag the text is not a game: the reader says so.
        let Some(game_id) = self.game_id else {
            return ControlFlow::Continue(());
        };
        // The options' value when there is one (an option the game does
        // not take, or a bad seed count), else the game's tag.
        let tag = self.lap_budget_tag.as_ref();
        let lap_budget = match lap_budget_of(self.lap_budget, tag.map(|(value, _)| value.as_str()))
        {
            Ok(budget) => budget,
            Err(message) => {
                let span = tag.map_or(0..0, |(_, line)| line.clone());
                self.problems
                    .push(problem(span, ProblemKind::Options, message));
                return ControlFlow::Continue(());
            }
        };
        let rules = match rules_of(game_id, self.options, lap_budget) {
            Ok(rules) => rules,
            Err(e) => {
                let span = self.options_span.clone().or_else(|| self.game_line.clone());
                let span = span.unwrap_or(0..0);
                self.problems
                    .push(problem(span, ProblemKind::Options, e.to_string()));
                return ControlFlow::Continue(());
            }
        };
        self.rules = Some(rules);
        match start_of(self.setup.as_ref(), rules) {
            Ok(start) => {
                self.start = Some(start);
                self.game = Some(Game::start(start));
                self.lane = self.fast_lane_if(self.on_ply.is_none() && self.source.is_some());
            }
            Err(e) => {
                let span = self.setup_span.clone().unwrap_or(0..0);
                self.problems
                    .push(problem(span, ProblemKind::Setup, e.to_string()));
            }
        }
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
                self.termination.as_ref(),
                game,
                &self.markers_due,
                &mut self.problems,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ProblemKind;

    /// JSON verdicts write the kinds spec/json.md lists, in kebab-case.
    #[test]
    fn problem_kinds_are_written_as_spec_json_lists_them() {
        let kinds = [
            ProblemKind::Syntax,
            ProblemKind::Options,
            ProblemKind::Setup,
            ProblemKind::Move,
            ProblemKind::Annotation,
            ProblemKind::Round,
            ProblemKind::Result,
            ProblemKind::Termination,
            ProblemKind::Eval,
        ];
        let written: Vec<String> = kinds
            .iter()
            .map(|k| serde_json::to_string(k).unwrap())
            .collect();
        assert_eq!(
            written,
            [
                "\"syntax\"",
                "\"options\"",
                "\"setup\"",
                "\"move\"",
                "\"annotation\"",
                "\"round\"",
                "\"result\"",
                "\"termination\"",
                "\"eval\""
            ]
        );
    }
}
