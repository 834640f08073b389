//! The end of a record: its result, its termination and the round markers
//! it still owes, against the game's real end.

use std::ops::Range;

use mancala_notation::GameResult;
use mancala_rules::{EndReason, Game, PlayReport};

use crate::problem::{Problem, ProblemDetail};

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
                problems.push(Problem::new(span, ProblemDetail::TerminationOfUnfinished));
            }
        }
        (GameResult::Unfinished, Some(outcome)) => problems.push(Problem::new(
            result_span,
            ProblemDetail::OverButUnfinished(outcome),
        )),
        (GameResult::Score(s, n), None) => problems.push(Problem::new(
            result_span,
            ProblemDetail::NotOver { claimed: [s, n] },
        )),
        (GameResult::Score(s, n), Some(outcome)) => {
            if let Some(due) = markers_due.first() {
                problems.push(Problem::new(
                    result_span.clone(),
                    ProblemDetail::MarkerMissingAtEnd { due: *due },
                ));
            }
            if [s, n] != outcome.score {
                problems.push(Problem::new(
                    result_span,
                    ProblemDetail::WrongScore {
                        claimed: [s, n],
                        outcome,
                    },
                ));
            }
            if let Some(claimed) = claimed
                && claimed != outcome.reason
            {
                problems.push(Problem::new(
                    termination_span.unwrap_or(0..0),
                    ProblemDetail::WrongTermination {
                        claimed,
                        reason: outcome.reason,
                    },
                ));
            }
        }
    }
}
