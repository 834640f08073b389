//! What is wrong with a record: a problem's kind, its data and where it
//! stands.

use std::fmt;
use std::ops::Range;

use mancala_notation::ParseError;
use mancala_rules::{
    EndReason, GameId, Move, OptionsError, Outcome, PlayError, Rules, SetupError, Side,
};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use crate::tags::BadLapBudget;

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

/// One thing wrong with a record, located in its text: what is wrong, as
/// a [`ProblemDetail`] with its data. `Display` writes the message the
/// tools show (and JSON verdicts write as `message`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Byte range in the game's text.
    pub span: Range<usize>,
    /// Boxed: a problem is rare, and its detail may hold a position.
    pub detail: Box<ProblemDetail>,
    /// Found in a variation, not the main line.
    pub in_variation: bool,
}

impl Problem {
    pub(crate) fn new(span: Range<usize>, detail: ProblemDetail) -> Problem {
        Problem {
            span,
            detail: Box::new(detail),
            in_variation: false,
        }
    }

    /// What kind of problem it is.
    #[must_use]
    pub fn kind(&self) -> ProblemKind {
        self.detail.kind()
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.in_variation {
            f.write_str("in a variation, ")?;
        }
        self.detail.fmt(f)
    }
}

impl std::error::Error for Problem {}

/// As JSON verdicts write a problem: its kind and its message.
impl Serialize for Problem {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut problem = serializer.serialize_struct("Problem", 2)?;
        problem.serialize_field("kind", &self.kind())?;
        problem.serialize_field("message", &self.to_string())?;
        problem.end()
    }
}

/// How a game ended, as a problem names it: its outcome, and the last
/// round when a `rounds=N` limit ended the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct End {
    pub outcome: Outcome,
    /// The `rounds=N` limit that ended the match (`None` when none did).
    pub last_round: Option<u32>,
}

impl End {
    pub(crate) fn of(outcome: Outcome, rules: Rules) -> End {
        let last_round = rules
            .last_round()
            .filter(|_| outcome.reason == EndReason::RoundsPlayed);
        End {
            outcome,
            last_round,
        }
    }
}

/// `the end of the game (reason, S-N)`, or for a match that `rounds=N`
/// ended, `the end of the match: rounds=N ends it after round N (…)`.
impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (reason, [s, n]) = (self.outcome.reason, self.outcome.score);
        match self.last_round {
            Some(last) => write!(
                f,
                "the end of the match: rounds={last} ends it after round {last} ({reason}, {s}-{n})"
            ),
            None => write!(f, "the end of the game ({reason}, {s}-{n})"),
        }
    }
}

/// What is wrong with a record, with the data that says how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProblemDetail {
    /// The text is not a well-formed game.
    Syntax(ParseError),
    /// A comment's `[%eval …]` command is malformed.
    Eval(ParseError),
    /// The `LapBudget` tag's value is no lap budget.
    LapBudget(BadLapBudget),
    /// The options (or the game with them) are refused.
    Options(OptionsError),
    /// The set-up is refused.
    Setup(SetupError),
    /// Whether `side`, to move at the start, can move cannot be decided.
    StartUndecided { side: Side, error: PlayError },
    /// The position a variation branches from cannot be decided.
    BranchUndecided(PlayError),
    /// The rules refuse move `mv`, at ply `ply` (from 1), `mover` to move.
    IllegalMove {
        mv: Move,
        ply: usize,
        mover: Side,
        error: PlayError,
    },
    /// Move `mv`, at ply `ply`, comes after the game's end.
    AfterTheEnd { mv: Move, ply: usize, end: End },
    /// Move `mv` is annotated `+claimed`, but `mover` gains `gained`.
    Misannotation {
        mv: Move,
        claimed: u32,
        mover: Side,
        gained: u32,
    },
    /// Round `due` has begun: its marker must come before the next move.
    MarkerOwed { due: u32 },
    /// Round `due` began and ended without a move, and its marker is
    /// missing before the result.
    MarkerMissingAtEnd { due: u32 },
    /// A marker `R<round>` in a game that has no rounds.
    MarkerWithoutRounds { round: u32, game: GameId },
    /// A marker `R<round>` in a game played in a single round.
    MarkerInSingleRound { round: u32 },
    /// The marker `R<due>` is due, not `R<round>`.
    MarkerNotDue { round: u32, due: u32 },
    /// A marker `R<round>` after the game's end.
    MarkerAfterTheEnd { round: u32, end: End },
    /// A marker `R<round>` while round `now` is still being played.
    MarkerMidRound { round: u32, now: u32 },
    /// An unfinished record (`*`) with a `Termination` tag.
    TerminationOfUnfinished,
    /// The game is over, but the record is marked unfinished.
    OverButUnfinished(Outcome),
    /// The record claims the result `claimed`, but the game is not over.
    NotOver { claimed: [u32; 2] },
    /// The record claims the score `claimed`, but the game ended otherwise.
    WrongScore { claimed: [u32; 2], outcome: Outcome },
    /// The `Termination` tag says `claimed`, but the game ended by `reason`.
    WrongTermination {
        claimed: EndReason,
        reason: EndReason,
    },
}

impl ProblemDetail {
    /// Its kind, as JSON verdicts write it.
    #[must_use]
    pub fn kind(&self) -> ProblemKind {
        use ProblemDetail as D;
        match self {
            D::Syntax(_) => ProblemKind::Syntax,
            D::Eval(_) => ProblemKind::Eval,
            D::LapBudget(_) | D::Options(_) => ProblemKind::Options,
            D::Setup(_) | D::StartUndecided { .. } => ProblemKind::Setup,
            D::BranchUndecided(_) | D::IllegalMove { .. } | D::AfterTheEnd { .. } => {
                ProblemKind::Move
            }
            D::Misannotation { .. } => ProblemKind::Annotation,
            D::MarkerOwed { .. }
            | D::MarkerMissingAtEnd { .. }
            | D::MarkerWithoutRounds { .. }
            | D::MarkerInSingleRound { .. }
            | D::MarkerNotDue { .. }
            | D::MarkerAfterTheEnd { .. }
            | D::MarkerMidRound { .. } => ProblemKind::Round,
            D::OverButUnfinished(_) | D::NotOver { .. } | D::WrongScore { .. } => {
                ProblemKind::Result
            }
            D::TerminationOfUnfinished | D::WrongTermination { .. } => ProblemKind::Termination,
        }
    }
}

impl fmt::Display for ProblemDetail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ProblemDetail as D;
        match self {
            D::Syntax(e) | D::Eval(e) => e.fmt(f),
            D::LapBudget(e) => e.fmt(f),
            D::Options(e) => e.fmt(f),
            D::Setup(e) => e.fmt(f),
            D::StartUndecided { side, error } => {
                write!(
                    f,
                    "whether {side} can move at the start is undecided: {error}"
                )
            }
            D::BranchUndecided(e) => {
                write!(
                    f,
                    "the position this variation branches from is undecided: {e}"
                )
            }
            D::IllegalMove {
                mv,
                ply,
                mover,
                error,
            } => f.write_str(&illegal_move(*mv, *ply, *mover, error)),
            D::AfterTheEnd { mv, ply, end } => write!(f, "move {mv} (ply {ply}) comes after {end}"),
            D::Misannotation {
                mv,
                claimed,
                mover,
                gained,
            } => f.write_str(&misannotation(*mv, *claimed, *mover, *gained)),
            D::MarkerOwed { due } => write!(
                f,
                "round {due} has begun: the record needs the marker R{due} before this move"
            ),
            D::MarkerMissingAtEnd { due } => write!(
                f,
                "round {due} began and ended without a move: the record needs the marker R{due}"
            ),
            D::MarkerWithoutRounds { round, game } => {
                write!(f, "round marker R{round}, but {game} has no rounds")
            }
            D::MarkerInSingleRound { round } => write!(
                f,
                "round marker R{round}, but this game is played in a single round"
            ),
            D::MarkerNotDue { round, due } => {
                write!(f, "expected the marker R{due} here, not R{round}")
            }
            D::MarkerAfterTheEnd { round, end } => write!(f, "round marker R{round} after {end}"),
            D::MarkerMidRound { round, now } => write!(
                f,
                "round marker R{round}, but round {now} is still being played"
            ),
            D::TerminationOfUnfinished => {
                f.write_str("an unfinished game (`*`) cannot have a Termination tag")
            }
            D::OverButUnfinished(outcome) => write!(
                f,
                "the game is over ({}, {}-{}) but the record is marked unfinished (`*`)",
                outcome.reason, outcome.score[0], outcome.score[1]
            ),
            D::NotOver { claimed: [s, n] } => write!(
                f,
                "the record claims the result {s}-{n}, but the game is not over"
            ),
            D::WrongScore {
                claimed: [s, n],
                outcome,
            } => write!(
                f,
                "the record claims {s}-{n}, but the game ended {}-{} ({})",
                outcome.score[0], outcome.score[1], outcome.reason
            ),
            D::WrongTermination { claimed, reason } => write!(
                f,
                "the Termination tag says {claimed}, but the game ended by {reason}"
            ),
        }
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
