//! The end of a record: its result, its termination and the round markers
//! it still owes, against the game's real end.

use std::ops::Range;

use mancala_notation::GameResult;
use mancala_rules::{EndReason, Game, Outcome, PlayReport, Rules};

use crate::problem::{Problem, ProblemKind, problem};

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
pub(crate) fn the_end(outcome: &Outcome, rules: Rules) -> String {
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
pub(crate) fn check_end(
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
