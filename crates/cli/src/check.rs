//! Replaying a parsed record against the rules: the one place that decides
//! whether a record is valid. `mancala-validate` reports its verdict,
//! `mancala-render` draws its plies, `mancala-play` continues from it.

use std::ops::Range;

use mancala_notation::{GameResult, GameText, Item, ParsedGame};
use mancala_rules::{Game, Move, NoTrace, Outcome, PlayReport, Position, Rules, Status, Trace};
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
    pub round_ends: Vec<mancala_rules::RoundEnd>,
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

fn problem(span: Range<usize>, kind: &'static str, message: impl Into<String>) -> Problem {
    Problem {
        span,
        kind,
        message: message.into(),
    }
}

/// The rules of a record (game id, options and lap budget checked).
pub fn record_rules(parsed: &ParsedGame, lap_budget: u32) -> Result<Rules, Problem> {
    let record = &parsed.record;
    let span = parsed
        .spans
        .tag("Options")
        .or_else(|| parsed.spans.tag("Game"))
        .unwrap_or(0..0);
    Rules::new(record.game, record.options)
        .and_then(|rules| rules.with_lap_budget(lap_budget))
        .map_err(|e| problem(span, "options", e.to_string()))
}

/// The position a record starts from.
pub fn start_position(parsed: &ParsedGame, rules: Rules) -> Result<Position, Problem> {
    match &parsed.record.setup {
        None => Ok(Position::new(rules)),
        Some(setup) => Position::from_setup(rules, setup).map_err(|e| {
            problem(
                parsed.spans.setup.clone().unwrap_or(0..0),
                "setup",
                e.to_string(),
            )
        }),
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
/// everything rules.md and the notation say a record must satisfy.
pub fn replay(
    parsed: &ParsedGame,
    options: ReplayOptions,
    mut on_ply: impl FnMut(&Ply<'_>),
) -> Replay {
    let mut out = Replay {
        rules: None,
        game: None,
        plies: 0,
        round_ends: Vec::new(),
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
                        None if game.status() != Status::Ongoing => {
                            format!("round marker R{round} after the end of the game")
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
                            "move {mv} (ply {}) comes after the end of the game ({}, {}-{})",
                            out.plies + 1,
                            outcome.reason,
                            outcome.score[0],
                            outcome.score[1]
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
                            format!(
                                "illegal move {mv} (ply {}, {} to move): {e}",
                                out.plies + 1,
                                before.to_move()
                            ),
                        ));
                        stopped = true;
                        break;
                    }
                };
                out.plies += 1;
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
                    mv: *mv,
                    before: &before,
                    after: game.position(),
                    report: &report,
                    trace: options.trace.then_some(&trace),
                });
            }
        }
    }
    if !stopped {
        check_end(parsed, &game, &markers_due, &mut out.problems);
    }
    out.game = Some(game);
    out
}

/// The record's result, termination and trailing round markers against the
/// game's real end.
fn check_end(parsed: &ParsedGame, game: &Game, markers_due: &[u32], problems: &mut Vec<Problem>) {
    let record = &parsed.record;
    let result_span = parsed.spans.result.clone();
    match (record.result, game.outcome()) {
        (GameResult::Unfinished, None) => {
            if record.termination.is_some() {
                let span = parsed.spans.tag("Termination").unwrap_or(result_span);
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
            if let Some(claimed) = record.termination
                && claimed != outcome.reason
            {
                let span = parsed.spans.tag("Termination").unwrap_or(0..0);
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
    let replay = replay(&parsed, options, on_ply);
    let problems = replay.problems.clone();
    Checked {
        parsed: Some(parsed),
        replay: Some(replay),
        problems,
    }
}
