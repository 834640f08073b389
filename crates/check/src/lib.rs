//! Replaying a parsed record against the rules: the one place that decides
//! whether a record is valid. `mancala-validate` reports its verdict,
//! `mancala-render` draws its plies, `mancala-play` continues from it.

use std::ops::{ControlFlow, Range};

use mancala_notation::{
    GameResult, GameText, Item, ParsedGame, RecordBuilder, TagValue, Visitor, visit_game,
};
use mancala_rules::{
    EndReason, Game, GameId, Move, NoTrace, Options, OptionsError, Outcome, PlayError, PlayReport,
    Position, Replayer, RoundEnd, Rules, Setup, SetupError, Side, Trace,
};
use serde::Serialize;

/// One thing wrong with a record, located in its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Byte range in the game's text.
    #[serde(skip)]
    pub span: Range<usize>,
    /// What kind of problem: `syntax`, `options`, `setup`, `move`,
    /// `annotation`, `round`, `result`, `termination`.
    pub kind: &'static str,
    pub message: String,
}

/// A ply as it was replayed.
#[derive(Debug)]
pub struct Ply<'a> {
    /// Index of the move in the record's items.
    pub item: usize,
    /// Ply number in the game, from 1.
    pub number: usize,
    pub mv: Move,
    pub before: &'a Position,
    pub after: &'a Position,
    pub report: &'a PlayReport,
    /// The move's laps and captures, when tracing was asked for.
    pub trace: Option<&'a Trace>,
}

/// The result of replaying a record.
#[derive(Debug)]
pub struct Replay {
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
    pub problems: Vec<Problem>,
}

impl Replay {
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.as_ref().and_then(Game::outcome)
    }
}

/// How to replay.
#[derive(Clone, Copy, Debug)]
pub struct ReplayOptions {
    pub lap_budget: u32,
    /// Record each move's trace for the callback (slower).
    pub trace: bool,
}

impl Default for ReplayOptions {
    fn default() -> ReplayOptions {
        ReplayOptions {
            lap_budget: mancala_rules::DEFAULT_LAP_BUDGET,
            trace: false,
        }
    }
}

/// What the tools say of a move the rules refuse: which move, at which ply
/// (from 1), whose turn it was (`mover`: the error's position may be the
/// one after the move, when what follows it cannot be decided) and why.
pub fn illegal_move(mv: Move, ply: usize, mover: Side, e: &PlayError) -> String {
    format!("illegal move {mv} (ply {ply}, {mover} to move): {e}")
}

fn problem(span: Range<usize>, kind: &'static str, message: impl Into<String>) -> Problem {
    Problem {
        span,
        kind,
        message: message.into(),
    }
}

/// The rules of `game` under `options` and `lap_budget`, checked.
fn rules_of(game: GameId, options: Options, lap_budget: u32) -> Result<Rules, OptionsError> {
    Rules::new(game, options).and_then(|rules| rules.with_lap_budget(lap_budget))
}

/// The rules of a record (game id, options and lap budget checked).
pub fn record_rules(parsed: &ParsedGame, lap_budget: u32) -> Result<Rules, Problem> {
    let record = &parsed.record;
    // The options' value when there is one (an option the game does not
    // take, or a bad seed count), else the game's tag.
    let span = parsed
        .spans
        .options
        .clone()
        .or_else(|| parsed.spans.tag("Game"))
        .unwrap_or(0..0);
    rules_of(record.game, record.options, lap_budget)
        .map_err(|e| problem(span, "options", e.to_string()))
}

/// The position a record starts from.
pub fn start_position(parsed: &ParsedGame, rules: Rules) -> Result<Position, Problem> {
    start_of(parsed.record.setup.as_ref(), rules).map_err(|e| {
        problem(
            parsed.spans.setup.clone().unwrap_or(0..0),
            "setup",
            e.to_string(),
        )
    })
}

/// The position a game under `rules` starts from: `setup`, or the standard
/// start.
fn start_of(setup: Option<&Setup>, rules: Rules) -> Result<Position, SetupError> {
    match setup {
        None => Ok(Position::new(rules)),
        Some(setup) => Position::from_setup(rules, setup),
    }
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

/// Replays `parsed`, calling `on_ply` after every legal move, and checks
/// everything the rules and the notation say a record must satisfy. Each
/// move played is left in `parsed` as the canonical notation writes it (a
/// rightly named direction that the move does not choose is dropped).
pub fn replay(
    parsed: &mut ParsedGame,
    options: ReplayOptions,
    mut on_ply: impl FnMut(&Ply<'_>),
) -> Replay {
    let mut out = Replay {
        rules: None,
        game: None,
        plies: 0,
        round_ends: Vec::new(),
        markers_due: Vec::new(),
        problems: Vec::new(),
    };
    let rules = match record_rules(parsed, options.lap_budget) {
        Ok(rules) => rules,
        Err(p) => {
            out.problems.push(p);
            return out;
        }
    };
    out.rules = Some(rules);
    let start = match start_position(parsed, rules) {
        Ok(position) => position,
        Err(p) => {
            out.problems.push(p);
            return out;
        }
    };
    // Deciding whether the first player can move may fail (an undecided
    // move): point at the set-up, or else at the start of the movetext.
    let start_span = parsed.spans.setup.clone().unwrap_or_else(|| {
        let at = parsed
            .spans
            .items
            .first()
            .unwrap_or(&parsed.spans.result)
            .start;
        at..at
    });
    let first = parsed.record.moves().next();
    let (mut game, opening) = match Game::new_hinted(start, first) {
        Ok(started) => started,
        Err(e) => {
            out.problems
                .push(problem(start_span, "setup", e.to_string()));
            return out;
        }
    };
    let mut markers_due: Vec<u32> = rounds_begun(&opening).collect();
    out.round_ends.extend(opening.round_ends.iter().copied());
    let record = &parsed.record;
    let mut trace = Trace::default();
    // Set when an error stops the replay; annotation errors do not.
    let mut stopped = false;
    // Moves played that the canonical notation writes otherwise.
    let mut respelled = Vec::new();
    for (index, item) in record.items.iter().enumerate() {
        let span = parsed.spans.items.get(index).cloned().unwrap_or(0..0);
        match item {
            Item::Comment { .. } => {}
            Item::Round { round } => {
                if markers_due.first() == Some(round) {
                    markers_due.remove(0);
                } else {
                    let now = game.position().round();
                    let message = match markers_due.first() {
                        _ if !rules.game().has_rounds() => {
                            format!("round marker R{round}, but {} has no rounds", rules.game())
                        }
                        _ if !rules.plays_rounds() => {
                            format!(
                                "round marker R{round}, but this game is played in a single round"
                            )
                        }
                        Some(due) => format!("expected the marker R{due} here, not R{round}"),
                        None if let Some(outcome) = game.outcome() => {
                            format!("round marker R{round} after {}", the_end(&outcome, rules))
                        }
                        None => {
                            format!("round marker R{round}, but round {now} is still being played")
                        }
                    };
                    out.problems.push(problem(span, "round", message));
                    stopped = true;
                    break;
                }
            }
            Item::Move { mv, captured } => {
                if let Some(due) = markers_due.first() {
                    out.problems.push(problem(
                        span,
                        "round",
                        format!("round {due} has begun: the record needs the marker R{due} before this move"),
                    ));
                    stopped = true;
                    break;
                }
                if let Some(outcome) = game.outcome() {
                    out.problems.push(problem(
                        span,
                        "move",
                        format!(
                            "move {mv} (ply {}) comes after {}",
                            out.plies + 1,
                            the_end(&outcome, rules)
                        ),
                    ));
                    stopped = true;
                    break;
                }
                let before = *game.position();
                trace.events.clear();
                // The record's next move is the likely one to settle "cannot
                // move" after this one, which saves sowing it twice.
                let next = record.items[index + 1..]
                    .iter()
                    .find_map(|item| match item {
                        Item::Move { mv, .. } => Some(*mv),
                        _ => None,
                    });
                let result = if options.trace {
                    game.play_hinted(*mv, next, &mut trace)
                } else {
                    game.play_hinted(*mv, next, &mut NoTrace)
                };
                let report = match result {
                    Ok(report) => report,
                    Err(e) => {
                        out.problems.push(problem(
                            span,
                            "move",
                            illegal_move(*mv, out.plies + 1, before.to_move(), &e),
                        ));
                        stopped = true;
                        break;
                    }
                };
                out.plies += 1;
                let canonical = before.canonical_move(*mv);
                if canonical != *mv {
                    respelled.push((index, canonical));
                }
                let mover = before.to_move();
                if let Some(claimed) = captured {
                    let gained = report.gained[mover.index()];
                    if *claimed != gained {
                        out.problems.push(problem(
                            span.clone(),
                            "annotation",
                            format!("move {mv} is annotated +{claimed}, but {mover} gains {gained} seeds with it"),
                        ));
                    }
                }
                markers_due.extend(rounds_begun(&report));
                out.round_ends.extend(report.round_ends.iter().copied());
                on_ply(&Ply {
                    item: index,
                    number: out.plies,
                    mv: canonical,
                    before: &before,
                    after: game.position(),
                    report: &report,
                    trace: options.trace.then_some(&trace),
                });
            }
        }
    }
    if !stopped {
        let end = RecordEnd {
            result: record.result,
            result_span: parsed.spans.result.clone(),
            termination: record.termination,
            termination_span: parsed.spans.tag("Termination"),
        };
        check_end(&end, &game, &markers_due, &mut out.problems);
    }
    for (index, canonical) in respelled {
        if let Item::Move { mv, .. } = &mut parsed.record.items[index] {
            *mv = canonical;
        }
    }
    out.markers_due = markers_due;
    out.game = Some(game);
    out
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

/// What a record says of its end, and where.
struct RecordEnd {
    result: GameResult,
    result_span: Range<usize>,
    termination: Option<EndReason>,
    /// The `Termination` tag's line.
    termination_span: Option<Range<usize>>,
}

/// The record's result, termination and trailing round markers against the
/// game's real end.
fn check_end(end: &RecordEnd, game: &Game, markers_due: &[u32], problems: &mut Vec<Problem>) {
    let result_span = end.result_span.clone();
    match (end.result, game.outcome()) {
        (GameResult::Unfinished, None) => {
            if end.termination.is_some() {
                let span = end.termination_span.clone().unwrap_or(result_span);
                problems.push(problem(
                    span,
                    "termination",
                    "an unfinished game (`*`) cannot have a Termination tag",
                ));
            }
        }
        (GameResult::Unfinished, Some(outcome)) => problems.push(problem(
            result_span,
            "result",
            format!(
                "the game is over ({}, {}-{}) but the record is marked unfinished (`*`)",
                outcome.reason, outcome.score[0], outcome.score[1]
            ),
        )),
        (GameResult::Score(s, n), None) => problems.push(problem(
            result_span,
            "result",
            format!("the record claims the result {s}-{n}, but the game is not over"),
        )),
        (GameResult::Score(s, n), Some(outcome)) => {
            if let Some(due) = markers_due.first() {
                problems.push(problem(
                    result_span.clone(),
                    "round",
                    format!("round {due} began and ended without a move: the record needs the marker R{due}"),
                ));
            }
            if [s, n] != outcome.score {
                problems.push(problem(
                    result_span,
                    "result",
                    format!(
                        "the record claims {s}-{n}, but the game ended {}-{} ({})",
                        outcome.score[0], outcome.score[1], outcome.reason
                    ),
                ));
            }
            if let Some(claimed) = end.termination
                && claimed != outcome.reason
            {
                let span = end.termination_span.clone().unwrap_or(0..0);
                problems.push(problem(
                    span,
                    "termination",
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
    /// `None` when the text does not parse.
    pub parsed: Option<ParsedGame>,
    /// `None` when the text does not parse.
    pub replay: Option<Replay>,
    pub problems: Vec<Problem>,
}

impl Checked {
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Parses and replays one game's text, calling `on_ply` after every move.
pub fn check_text(
    text: &GameText,
    options: ReplayOptions,
    on_ply: impl FnMut(&Ply<'_>),
) -> Checked {
    match text.parse() {
        Err(e) => Checked {
            parsed: None,
            replay: None,
            problems: vec![problem(e.span.clone(), "syntax", e.message)],
        },
        Ok(parsed) => check_parsed(parsed, options, on_ply),
    }
}

/// Replays a record that is already parsed (one built from command-line
/// flags, say), calling `on_ply` after every move.
pub fn check_parsed(
    parsed: ParsedGame,
    options: ReplayOptions,
    on_ply: impl FnMut(&Ply<'_>),
) -> Checked {
    let mut parsed = parsed;
    let replay = replay(&mut parsed, options, on_ply);
    let problems = replay.problems.clone();
    Checked {
        parsed: Some(parsed),
        replay: Some(replay),
        problems,
    }
}

/// A game [`quick_check`] found valid.
#[derive(Debug)]
pub struct QuickChecked {
    pub game: GameId,
    /// The record's options, as written in it.
    pub options: Options,
    pub plies: usize,
    /// The game at the end of the record.
    pub replayed: Game,
    /// The rounds that ended, as [`Replay::round_ends`] lists them.
    pub round_ends: Vec<RoundEnd>,
    /// The record, when asked for.
    pub parsed: Option<ParsedGame>,
}

/// The validator's fast path: a game's text read and replayed in one pass,
/// each move played by a [`Replayer`] as it is read (and the record built
/// alongside only when `record` asks for it). `Some` only for a valid game
/// that the replayer settles to the end (no comments, every move one it
/// settles, every round marker where a round began, the result and
/// termination right): then [`check_text`] would find no problem and reach
/// the same game and round ends. `None` for anything else, valid or
/// not; [`check_text`] then decides, and explains (tested on every fixture
/// and in the fuzz harness).
pub fn quick_check(text: &GameText, options: ReplayOptions, record: bool) -> Option<QuickChecked> {
    if options.trace || text.is_truncated() {
        return None;
    }
    let text = text.text().ok()?;
    if record {
        quick_run(text, options, RecordBuilder::new(text))
    } else {
        quick_run(text, options, NoRecord)
    }
}

/// What [`QuickReplay`] feeds what it reads to when no record is asked for.
#[derive(Debug)]
struct NoRecord;

impl Visitor for NoRecord {
    #[inline(always)]
    fn tag(&mut self, _: TagValue<'_>, _: Range<usize>, _: Range<usize>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    #[inline(always)]
    fn movetext(&mut self, _: Range<usize>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    #[inline(always)]
    fn item(&mut self, _: Item, _: Range<usize>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    #[inline(always)]
    fn result(&mut self, _: GameResult, _: Range<usize>) {}
}

/// The records the fast path may build.
trait Recording: Visitor {
    fn into_parsed(self) -> Option<ParsedGame>;
}

impl Recording for NoRecord {
    fn into_parsed(self) -> Option<ParsedGame> {
        None
    }
}

impl Recording for RecordBuilder {
    fn into_parsed(self) -> Option<ParsedGame> {
        Some(self.finish())
    }
}

/// [`quick_check`] feeding `record` as it goes.
fn quick_run<R: Recording>(text: &str, options: ReplayOptions, record: R) -> Option<QuickChecked> {
    let mut quick = QuickReplay {
        record,
        lap_budget: options.lap_budget,
        game: None,
        options: Options::new(),
        setup: None,
        termination: None,
        replayer: None,
        between: None,
        markers_due: Vec::new(),
        round_ends: Vec::new(),
        plies: 0,
        end: None,
    };
    if visit_game(text, &mut quick).ok()?.is_break() {
        return None;
    }
    // The round being replayed is finished here; after a last round marker
    // the game stands where that round ended.
    if quick.replayer.is_some() {
        quick.finish_round()?;
    }
    let replayed = quick.between.take()?;
    let mut problems = Vec::new();
    check_end(&quick.end?, &replayed, &quick.markers_due, &mut problems);
    problems.is_empty().then_some(QuickChecked {
        game: quick.game?,
        options: quick.options,
        plies: quick.plies,
        replayed,
        round_ends: quick.round_ends,
        parsed: quick.record.into_parsed(),
    })
}

/// The visitor of [`quick_check`]: it stops at the first thing the
/// replayer does not settle or the record gets wrong.
struct QuickReplay<R> {
    /// Fed everything read that the replay accepts.
    record: R,
    lap_budget: u32,
    game: Option<GameId>,
    options: Options,
    setup: Option<Setup>,
    /// The `Termination` tag's reason and line.
    termination: Option<(EndReason, Range<usize>)>,
    /// The replay of the round being played; `None` before the movetext,
    /// and in a match from a round's end to the next round's first move.
    replayer: Option<Replayer>,
    /// The game where the replay was last finished: at a round's end (the
    /// next round set up) until that round's first move resumes it, or at
    /// the end of the record.
    between: Option<Game>,
    /// Rounds begun whose markers the record still owes, in order.
    markers_due: Vec<u32>,
    /// Every round end so far.
    round_ends: Vec<RoundEnd>,
    plies: usize,
    end: Option<RecordEnd>,
}

impl<R> QuickReplay<R> {
    /// Finishes the replay of the round being played into `between`, its
    /// round ends and the markers they make due noted: whether a round
    /// ended. `None` when there is no replay, or when "cannot move" cannot
    /// be decided.
    fn finish_round(&mut self) -> Option<bool> {
        let (game, report) = self.replayer.take()?.finish().ok()?;
        let ended = !report.round_ends.is_empty();
        if ended {
            self.markers_due.extend(rounds_begun(&report));
            self.round_ends.extend(report.round_ends);
        }
        self.between = Some(game);
        Some(ended)
    }

    /// Where the record marks a round that no round end has begun yet: the
    /// round being played must end right here, as the replay finished now
    /// says. `None` when it does not (or cannot tell).
    fn end_round(&mut self) -> Option<()> {
        self.finish_round()?.then_some(())
    }
}

impl<R: Visitor> QuickReplay<R> {
    /// Any item but a move of the round being replayed: a round marker,
    /// the next round's first move, or a comment (the full check's).
    #[cold]
    #[inline(never)]
    fn between_rounds(&mut self, item: Item, span: Range<usize>) -> ControlFlow<()> {
        match item {
            Item::Round { round } => {
                if self.markers_due.is_empty() && self.end_round().is_none() {
                    return ControlFlow::Break(());
                }
                if self.markers_due.first() != Some(&round) {
                    return ControlFlow::Break(());
                }
                self.markers_due.remove(0);
                self.record.item(item, span)
            }
            Item::Move { .. } if self.markers_due.is_empty() && self.replayer.is_none() => {
                match self.between.take().and_then(Replayer::resume) {
                    Some(resumed) => {
                        self.replayer = Some(resumed);
                        self.item(item, span)
                    }
                    None => ControlFlow::Break(()),
                }
            }
            Item::Move { .. } | Item::Comment { .. } => ControlFlow::Break(()),
        }
    }
}

impl<R: Visitor> Visitor for QuickReplay<R> {
    fn tag(
        &mut self,
        tag: TagValue<'_>,
        line: Range<usize>,
        value: Range<usize>,
    ) -> ControlFlow<()> {
        match &tag {
            TagValue::Game(game) => self.game = Some(*game),
            TagValue::Options(options) => self.options = *options,
            TagValue::SetUp(setup) => self.setup = Some(setup.clone()),
            TagValue::Termination(reason) => self.termination = Some((*reason, line.clone())),
            // The parser checks the Result tag against the movetext.
            TagValue::Result(_) | TagValue::Text { .. } => {}
        }
        self.record.tag(tag, line, value)
    }

    fn movetext(&mut self, header: Range<usize>) -> ControlFlow<()> {
        if self.record.movetext(header).is_break() {
            return ControlFlow::Break(());
        }
        let started = self.game.and_then(|game| {
            let rules = rules_of(game, self.options, self.lap_budget).ok()?;
            Some(Replayer::new(start_of(self.setup.as_ref(), rules).ok()?))
        });
        self.replayer = started;
        if self.replayer.is_some() {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    }

    #[inline(always)]
    fn item(&mut self, item: Item, span: Range<usize>) -> ControlFlow<()> {
        // A move while a round is being replayed: nearly every item. (No
        // marker is due then: they are owed only between rounds.)
        let (&Item::Move { mv, captured }, Some(replayer)) = (&item, &mut self.replayer) else {
            return self.between_rounds(item, span);
        };
        let mover = replayer.position().to_move();
        // The record keeps the move as the full check leaves it (a rightly
        // named direction the move does not choose dropped).
        let canonical = replayer.position().canonical_move(mv);
        match replayer.play(mv) {
            Some(gained) if captured.is_none_or(|claimed| claimed == gained[mover.index()]) => {
                self.plies += 1;
                let item = Item::Move {
                    mv: canonical,
                    captured,
                };
                self.record.item(item, span)
            }
            _ => ControlFlow::Break(()),
        }
    }

    fn result(&mut self, result: GameResult, span: Range<usize>) {
        self.record.result(result, span.clone());
        let (termination, termination_span) = self.termination.clone().unzip();
        self.end = Some(RecordEnd {
            result,
            result_span: span,
            termination,
            termination_span,
        });
    }
}
