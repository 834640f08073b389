//! Games in progress: a position plus repetition history, the end of a game
//! or round, and the rounds of a match; and the replayer that checks a
//! record's moves with the least bookkeeping.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::options::{Opt, Rules};
use crate::position::{Lean, Move, PlayError, PlayErrorKind, Played, Position, Verdict};
use crate::side::Side;
use crate::sow::Sown;
use crate::trace::{NoTrace, Observer};

/// Why a game, or a round of a match, ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The player to move had no legal move.
    NoMoves,
    /// The same position occurred for the third time.
    Repetition,
    /// Olowuka: a player reached 25 captured seeds.
    TwentyFive,
    /// `endless-ends-game`: an endless move was played.
    EndlessMove,
    /// A match of rounds: a player could not fill a single hole.
    CannotRefill,
    /// A match under `rounds=N`: round N was played (and both players could
    /// have filled a hole for another).
    RoundsPlayed,
}

impl EndReason {
    pub const ALL: [EndReason; 6] = [
        EndReason::NoMoves,
        EndReason::Repetition,
        EndReason::TwentyFive,
        EndReason::EndlessMove,
        EndReason::CannotRefill,
        EndReason::RoundsPlayed,
    ];

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            EndReason::NoMoves => "no-moves",
            EndReason::Repetition => "repetition",
            EndReason::TwentyFive => "twenty-five",
            EndReason::EndlessMove => "endless-move",
            EndReason::CannotRefill => "cannot-refill",
            EndReason::RoundsPlayed => "rounds-played",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for EndReason {
    type Err = String;

    fn from_str(s: &str) -> Result<EndReason, String> {
        EndReason::ALL.into_iter().find(|r| r.as_str() == s).ok_or_else(|| {
            format!(
                "unknown end reason `{}` (expected no-moves, repetition, twenty-five, endless-move, cannot-refill or rounds-played)",
                crate::text::shorten(s)
            )
        })
    }
}

/// What the hint cache keeps of a move [`Position::first_playable`] found:
/// finite moves only (an endless one is sown again if played).
fn cached(found: Option<&(Move, Verdict)>) -> Option<(Move, Sown)> {
    found.and_then(|(mv, verdict)| Some((*mv, Position::sown_of(verdict)?)))
}

fn winner_of(score: [u32; 2]) -> Option<Side> {
    match score[0].cmp(&score[1]) {
        std::cmp::Ordering::Greater => Some(Side::South),
        std::cmp::Ordering::Less => Some(Side::North),
        std::cmp::Ordering::Equal => None,
    }
}

/// The end of a whole game (or match).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// South's and North's seeds at the end, the rows' remaining seeds included.
    pub score: [u32; 2],
    pub reason: EndReason,
    /// `None` for a draw.
    pub winner: Option<Side>,
}

/// The end of one round of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundEnd {
    pub round: u32,
    pub reason: EndReason,
    /// Holdings at the round's end, the rows' seeds taken.
    pub holdings: [u32; 2],
    pub winner: Option<Side>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    Over(Outcome),
}

/// What a move did, beyond the new position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayReport {
    /// Seeds each side gained during the move itself (captures of every kind).
    pub gained: [u32; 2],
    pub laps: u64,
    /// The move was endless and, under `endless-ends-game`, ended the game or round.
    pub endless: bool,
    /// Rounds that ended after this move (several when a new round cannot
    /// even start), each followed by the next round unless the match is over.
    pub round_ends: Vec<RoundEnd>,
    /// Set when the game (or match) ended.
    pub outcome: Option<Outcome>,
}

/// Repetition keys since seeds last left the board, with two 512-bit Bloom
/// filters over them: keys seen once, and keys seen again. A position
/// occurs a third time only if its key is in the second filter, so most
/// checks need no scan, even when the position was seen once. (Histories
/// run to a dozen keys or more between captures.)
#[derive(Clone, Debug)]
struct History {
    keys: Vec<u128>,
    once: [u64; 8],
    twice: [u64; 8],
}

impl History {
    fn new(first: u128) -> History {
        let mut history = History {
            keys: Vec::with_capacity(16),
            once: [0; 8],
            twice: [0; 8],
        };
        history.push(first);
        history
    }

    /// The filters' word and bit for `key`.
    #[inline]
    fn bit(key: u128) -> (usize, u64) {
        let folded = (key as u64) ^ ((key >> 64) as u64);
        let hash = folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 55;
        ((hash >> 6) as usize, 1 << (hash & 63))
    }

    #[inline]
    fn clear(&mut self) {
        self.keys.clear();
        self.once = [0; 8];
        self.twice = [0; 8];
    }

    #[inline]
    fn push(&mut self, key: u128) {
        self.keys.push(key);
        let (word, bit) = History::bit(key);
        self.twice[word] |= self.once[word] & bit;
        self.once[word] |= bit;
    }

    /// Whether `key` is in the history twice or more.
    #[inline(always)]
    fn occurred_twice(&self, key: u128) -> bool {
        let (word, bit) = History::bit(key);
        self.twice[word] & bit != 0 && self.keys.iter().filter(|k| **k == key).count() >= 2
    }

    /// How a move ends the game (or round) by itself under `rules`, in
    /// rules.md's order: Olowuka's 25 (the move left `stores`), then the
    /// third occurrence of the position `key` (never after an irreversible
    /// move, which clears the history). "Cannot move" comes after these and
    /// needs the next position's moves.
    #[inline(always)]
    fn ending(
        &self,
        rules: Rules,
        stores: [u8; 2],
        key: u128,
        irreversible: bool,
    ) -> Option<EndReason> {
        if rules.ends_at_twenty_five(stores) {
            Some(EndReason::TwentyFive)
        } else if !rules.has(Opt::NoRepetitionRule) && !irreversible && self.occurred_twice(key) {
            Some(EndReason::Repetition)
        } else {
            None
        }
    }

    /// The history after a move that left the position `key`.
    #[inline(always)]
    fn advance(&mut self, key: u128, irreversible: bool) {
        if irreversible {
            self.clear();
        }
        self.push(key);
    }
}

/// A game in progress: a position plus what one position cannot know —
/// repetition history, whether the game or round is over, and rounds.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    /// Repetition keys of this round since seeds last left the board (no
    /// earlier position can recur once the board holds fewer seeds).
    history: History,
    status: Status,
    /// A finite move of `position` already sown by the "cannot move" check:
    /// playing it next needs no second sowing.
    sown: Option<(Move, Sown)>,
}

impl Game {
    /// A game from `position`, which counts as its first occurrence. The
    /// game may be over at once if the side to move cannot move.
    pub fn new(position: Position) -> Result<(Game, PlayReport), PlayError> {
        Game::new_hinted(position, None)
    }

    /// [`Game::new`], told which move will probably come first (a record's
    /// first move): the "cannot move" check tries it first, as
    /// [`Game::play_hinted`] does. The result is the same whatever the hint.
    pub fn new_hinted(
        position: Position,
        first: Option<Move>,
    ) -> Result<(Game, PlayReport), PlayError> {
        let mut game = Game {
            position,
            history: History::new(position.repetition_key()),
            status: Status::Ongoing,
            sown: None,
        };
        let mut report = PlayReport::default();
        game.start_round(&mut report, first)?;
        Ok((game, report))
    }

    #[must_use]
    pub const fn position(&self) -> &Position {
        &self.position
    }

    #[must_use]
    pub const fn status(&self) -> Status {
        self.status
    }

    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        match self.status {
            Status::Over(outcome) => Some(outcome),
            Status::Ongoing => None,
        }
    }

    pub fn play(&mut self, mv: Move) -> Result<PlayReport, PlayError> {
        self.play_traced(mv, &mut NoTrace)
    }

    /// Plays `mv` and applies every end check of rules.md in order: endless
    /// move, Olowuka's 25, repetition, then "cannot move".
    pub fn play_traced<O: Observer>(
        &mut self,
        mv: Move,
        obs: &mut O,
    ) -> Result<PlayReport, PlayError> {
        self.play_hinted(mv, None, obs)
    }

    /// [`Game::play_traced`], told which move will probably come next (a
    /// record's next move): the "cannot move" check tries it first, so that
    /// playing it then costs no sowing of its own. The result is the same
    /// whatever the hint.
    pub fn play_hinted<O: Observer>(
        &mut self,
        mv: Move,
        next: Option<Move>,
        obs: &mut O,
    ) -> Result<PlayReport, PlayError> {
        if !O::RECORDS
            && let Some(report) = self.play_expected(mv, next)
        {
            return Ok(report);
        }
        self.play_any(mv, next, obs)
    }

    /// The common case of replaying a record, in few steps: `mv` is the
    /// move sown ahead, it feeds, ends nothing, and `next` (sown here, for
    /// the "cannot move" check) ends too. `None`, with the game untouched,
    /// as soon as anything else happens: [`Game::play_any`] then plays the
    /// move, with the same result for the cases both handle (tested).
    #[inline]
    fn play_expected(&mut self, mv: Move, next: Option<Move>) -> Option<PlayReport> {
        let next = next?;
        let sown = match &self.sown {
            Some((sown_mv, sown)) if *sown_mv == mv && self.status == Status::Ongoing => *sown,
            _ => return None,
        };
        if self.position.starves(&sown.board) {
            return None;
        }
        let gained = self.position.gains_to(sown.stores);
        let irreversible = gained != [0, 0];
        // Changed in place, put back if anything else happens.
        let before = self.position;
        self.position.apply_sown(mv, &sown);
        let key = self.position.repetition_key();
        let ends = self
            .history
            .ending(self.position.rules(), sown.stores, key, irreversible);
        let next_sown = if ends.is_some() {
            None
        } else {
            self.position.sow_finite(next)
        };
        let Some(next_sown) = next_sown else {
            self.position = before;
            return None;
        };
        self.history.advance(key, irreversible);
        self.sown = Some((next, next_sown));
        Some(PlayReport {
            gained,
            laps: sown.laps,
            ..PlayReport::default()
        })
    }

    /// [`Game::play_hinted`] for every case.
    fn play_any<O: Observer>(
        &mut self,
        mv: Move,
        next: Option<Move>,
        obs: &mut O,
    ) -> Result<PlayReport, PlayError> {
        if self.status != Status::Ongoing {
            return Err(PlayError {
                kind: PlayErrorKind::GameOver,
                position: self.position,
            });
        }
        let before = self.position;
        let played = match &self.sown {
            Some((sown_mv, sown)) if *sown_mv == mv && !O::RECORDS => before.judge(
                mv,
                Verdict::Finite {
                    position: before.after_sown(mv, sown),
                    laps: sown.laps,
                },
            )?,
            _ => before.play_traced(mv, obs)?,
        };
        let mut report = PlayReport::default();
        match played {
            Played::Endless { position, .. } => {
                report.endless = true;
                // Ending the round can still fail (an undecided move at the
                // next round's start): the move is then refused whole, and
                // the game stays as it was.
                let mut ended = self.clone();
                ended.position = position;
                ended.end_round(EndReason::EndlessMove, &mut report)?;
                *self = ended;
            }
            Played::Finite { position, laps } => {
                // Decide "cannot move" before changing anything, so that an
                // undecided verdict leaves the game as it was.
                let stores = position.stores();
                report.gained = before.gains_to(stores);
                let key = position.repetition_key();
                let irreversible = report.gained != [0, 0];
                debug_assert_eq!(irreversible, position.board_seeds() != before.board_seeds());
                let ends = self
                    .history
                    .ending(position.rules(), stores, key, irreversible);
                // The record's next move usually settles "cannot move" with
                // one sowing, kept for when it is played.
                let (playable, can_move) = if ends.is_some() {
                    (None, true)
                } else if let Some(hint) = next
                    && let Some(sown) = position.sow_finite(hint)
                {
                    (Some((hint, sown)), true)
                } else {
                    let found = position.first_playable(next)?;
                    (cached(found.as_ref()), found.is_some())
                };
                report.laps = laps;
                let ending = ends.or((!can_move).then_some(EndReason::NoMoves));
                let advance = |game: &mut Game| {
                    game.position = position;
                    game.history.advance(key, irreversible);
                    game.sown = playable;
                };
                match ending {
                    None => advance(self),
                    Some(reason) => {
                        // Refilling and starting the next round can still
                        // fail (an undecided move): the move is then refused
                        // whole, and the game stays as it was.
                        let mut ended = self.clone();
                        advance(&mut ended);
                        ended.end_round(reason, &mut report)?;
                        *self = ended;
                    }
                }
            }
        }
        Ok(report)
    }

    /// Ends the current round (or the game), then starts the next round of a
    /// match, as many times as rounds end without a move, unless the match
    /// ends ([`Rules::match_end`]).
    fn end_round(&mut self, reason: EndReason, report: &mut PlayReport) -> Result<(), PlayError> {
        let rules = self.position.rules();
        self.position.sweep_rows();
        let holdings = Side::BOTH.map(|s| u32::from(self.position.store(s)));
        if !rules.game().has_rounds() {
            self.finish(reason, report);
            return Ok(());
        }
        let round = self.position.round();
        report.round_ends.push(RoundEnd {
            round,
            reason,
            holdings,
            winner: winner_of(holdings),
        });
        if !rules.plays_rounds() {
            self.finish(reason, report);
            return Ok(());
        }
        if let Some(end) = rules.match_end(round, holdings) {
            self.finish(end, report);
            return Ok(());
        }
        self.position.refill();
        self.history = History::new(self.position.repetition_key());
        self.start_round(report, None)
    }

    /// At the start of a game or round only "cannot move" is checked.
    fn start_round(
        &mut self,
        report: &mut PlayReport,
        hint: Option<Move>,
    ) -> Result<(), PlayError> {
        if let Some(mv) = hint
            && let Some(sown) = self.position.sow_finite(mv)
        {
            self.sown = Some((mv, sown));
            return Ok(());
        }
        let found = self.position.first_playable(hint)?;
        self.sown = cached(found.as_ref());
        if found.is_some() {
            Ok(())
        } else {
            self.end_round(EndReason::NoMoves, report)
        }
    }

    fn finish(&mut self, reason: EndReason, report: &mut PlayReport) {
        let score = Side::BOTH.map(|s| u32::from(self.position.store(s)));
        let outcome = Outcome {
            score,
            reason,
            winner: winner_of(score),
        };
        self.status = Status::Over(outcome);
        report.outcome = Some(outcome);
    }
}

/// Replays a game's moves with the least bookkeeping, to check records
/// fast: each move is sown once and reports only the seeds gained. It
/// settles what nearly every ply is, a finite move that [`Game::play`]
/// accepts, and it ends the game (or round) at 25 or by repetition as
/// `Game` does; [`Replayer::finish`] then hands the [`Game`] over, deciding
/// "cannot move" last. Between the rounds of a match the caller finishes
/// the replay, where the record says a round ended, and resumes it on the
/// game `Game` made of the round's end and refill ([`Replayer::resume`]).
/// Anything else, an illegal move included, gives up (`None`): the caller
/// then replays with `Game`, which explains. Both share every rule: sowing,
/// feeding, the 25, repetition, the ends and the refills are `Game`'s own
/// code.
#[derive(Clone, Debug)]
pub struct Replayer {
    position: Position,
    /// Set once no direction is due (at once, but for Olinda Keliya's
    /// first move).
    lean: Option<Lean>,
    history: History,
    /// Set once a move ended the game or round (25 or repetition).
    ended: Option<EndReason>,
}

impl Replayer {
    /// A replay from `position`.
    #[must_use]
    pub fn new(position: Position) -> Replayer {
        Replayer {
            position,
            lean: position.lean(),
            history: History::new(position.repetition_key()),
            ended: None,
        }
    }

    /// The replay of `game` from where it stands (a match's next round,
    /// say), or `None` once it is over.
    #[must_use]
    pub fn resume(game: Game) -> Option<Replayer> {
        if game.status != Status::Ongoing {
            return None;
        }
        Some(Replayer {
            position: game.position,
            lean: game.position.lean(),
            history: game.history,
            ended: None,
        })
    }

    #[must_use]
    pub const fn position(&self) -> &Position {
        &self.position
    }

    /// Plays `mv`: the seeds each side gained with it, or `None`, with the
    /// replay as it was, when the move is not one of those it settles (see
    /// [`Replayer`]) or comes after the end of the game.
    #[inline(always)]
    pub fn play(&mut self, mv: Move) -> Option<[u32; 2]> {
        if self.ended.is_some() {
            return None;
        }
        let before = self.position;
        match &self.lean {
            Some(lean) => self.position.play_lean(lean, mv)?,
            None => {
                self.position.play_finite(mv)?;
                self.lean = self.position.lean();
            }
        }
        let stores = self.position.stores();
        let gained = before.gains_to(stores);
        let irreversible = gained != [0, 0];
        let key = self.position.repetition_key();
        if let Some(reason) = self
            .history
            .ending(self.position.rules(), stores, key, irreversible)
        {
            self.ended = Some(reason);
        }
        self.history.advance(key, irreversible);
        Some(gained)
    }

    /// The game the moves played so far make, with what `Game` would have
    /// reported of its end after the last move: the game (or round) over if
    /// a move ended it or if the side to move cannot move (the check `Game`
    /// makes after every move; a move played since settled it for the
    /// positions before), and in a match the rounds that followed. An error
    /// when that cannot be decided within the lap budget.
    pub fn finish(self) -> Result<(Game, PlayReport), PlayError> {
        let mut game = Game {
            position: self.position,
            history: self.history,
            status: Status::Ongoing,
            sown: None,
        };
        let mut report = PlayReport::default();
        match self.ended {
            Some(reason) => game.end_round(reason, &mut report)?,
            None => game.start_round(&mut report, None)?,
        }
        Ok((game, report))
    }
}
