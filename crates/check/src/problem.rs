//! What is wrong with a record: a problem's kind and where it stands.

use std::ops::Range;

use mancala_rules::{Move, PlayError, Side};
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

pub(crate) fn problem(
    span: Range<usize>,
    kind: ProblemKind,
    message: impl Into<String>,
) -> Problem {
    Problem {
        span,
        kind,
        message: message.into(),
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
