//! Games in progress: a position plus repetition history, the end of a game
//! or round, and the rounds of a match; with a lean entry that replays a
//! record's moves with the least bookkeeping and settles the rest later.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::options::{Opt, Rules};
use crate::position::{Lean, Move, MoveList, PlayError, PlayErrorKind, Played, Position, gains};
use crate::side::Side;
use crate::trace::{NoTrace, Observer};

/// What [`Game::play_drawn_unsettled`] did.
#[derive(Clone, Copy, Debug)]
pub enum Drawn {
    /// The move drawn was played.
    Played,
    /// The move drawn, `candidates`' move `index`, was not played (the
    /// fast lane leaves it to [`Game::play`]); the game is as it was.
    Refused { candidates: MoveList, index: usize },
    /// The side to move has no candidate: nothing was drawn.
    NoCandidate,
}

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

/// A word that is not an [`EndReason`] (it is kept, to be quoted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseEndReasonError(pub String);

impl fmt::Display for ParseEndReasonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown end reason `{}`{}",
            mancala_prose::shorten(&self.0),
            mancala_prose::did_you_mean(&self.0, EndReason::ALL.map(EndReason::as_str))
        )
    }
}

impl std::error::Error for ParseEndReasonError {}

impl std::str::FromStr for EndReason {
    type Err = ParseEndReasonError;

    fn from_str(s: &str) -> Result<EndReason, ParseEndReasonError> {
        EndReason::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| ParseEndReasonError(s.to_owned()))
    }
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

impl PlayReport {
    /// Seeds `mover` gained during the move less those the opponent gained
    /// (Rio Kadalis gives some fours to the row's owner).
    #[must_use]
    #[inline]
    pub fn net_gain(&self, mover: Side) -> i32 {
        self.gained[mover.index()] as i32 - self.gained[mover.opposite().index()] as i32
    }

    /// An empty report, its space for round ends kept.
    fn clear(&mut self) {
        let PlayReport {
            gained,
            laps,
            endless,
            round_ends,
            outcome,
        } = self;
        (*gained, *laps, *endless, *outcome) = ([0, 0], 0, false, None);
        round_ends.clear();
    }
}

/// Repetition keys since seeds last left the board, with two 512-bit Bloom
/// filters over them: keys seen once, and keys seen again. A position
/// occurs a third time only if its key is in the second filter, so most
/// checks need no scan, even when the position was seen once. (Histories
/// run to a dozen keys or more between captures.)
///
/// The first [`INLINE_KEYS`] keys are held in the history itself and only
/// the rest on the heap: a copied game allocates nothing until its
/// history grows past them. MCTS copies a game for every node of its tree,
/// and a heap copy of the keys (allocated, then freed with the tree) cost
/// some 470 instructions a node (3% of an Olinda Keliya playout as it
/// was measured, 4% of one now).
#[derive(Debug)]
struct History {
    /// The first keys, `len` of them (up to [`INLINE_KEYS`]).
    first: [u128; INLINE_KEYS],
    /// The keys after the first [`INLINE_KEYS`].
    rest: Vec<u128>,
    len: usize,
    once: [u64; 8],
    twice: [u64; 8],
    /// What `once` holds when cleared: every bit under
    /// [`Rules::repetition_ends_at_second`] (see [`History::start_from`]),
    /// else none.
    seen_before: u64,
}

/// Keys a [`History`] holds before it spills to the heap: most stretches
/// between captures of a random playout, in all four games.
const INLINE_KEYS: usize = 8;

impl Clone for History {
    fn clone(&self) -> History {
        History {
            first: self.first,
            rest: self.rest.clone(),
            len: self.len,
            once: self.once,
            twice: self.twice,
            seen_before: self.seen_before,
        }
    }

    /// Reuses `self`'s heap keys: copying a game into scratch space
    /// allocates nothing once the space has grown.
    fn clone_from(&mut self, source: &History) {
        self.first = source.first;
        self.rest.clone_from(&source.rest);
        self.len = source.len;
        self.once = source.once;
        self.twice = source.twice;
        self.seen_before = source.seen_before;
    }
}

impl History {
    fn new(first: u128) -> History {
        let mut history = History {
            first: [0; INLINE_KEYS],
            rest: Vec::new(),
            len: 0,
            once: [0; 8],
            twice: [0; 8],
            seen_before: 0,
        };
        history.push(first);
        history
    }

    /// The keys, oldest first.
    fn keys(&self) -> impl Iterator<Item = &u128> {
        self.first[..self.len.min(INLINE_KEYS)]
            .iter()
            .chain(&self.rest)
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
        self.len = 0;
        self.rest.clear();
        self.once = [self.seen_before; 8];
        self.twice = [0; 8];
    }

    #[inline]
    fn push(&mut self, key: u128) {
        self.push_at(key, History::bit(key));
    }

    /// [`History::push`] with `key`'s filter word and bit given.
    #[inline(always)]
    fn push_at(&mut self, key: u128, (word, bit): (usize, u64)) {
        if self.len < INLINE_KEYS {
            self.first[self.len] = key;
        } else {
            if self.rest.capacity() == 0 {
                // Room at once for most long stretches: a replay starts a
                // game for every record, and Olowuka's grow past a dozen.
                self.rest.reserve(64 - INLINE_KEYS);
            }
            self.rest.push(key);
        }
        self.len += 1;
        self.twice[word] |= self.once[word] & bit;
        self.once[word] |= bit;
    }

    /// Whether `key`, whose filter word and bit are `at`, is in the
    /// history twice or more.
    #[inline(always)]
    fn occurred_twice(&self, key: u128, at: (usize, u64)) -> bool {
        // Where "twice" is "before" (see `History::start_from`), once is
        // enough.
        let needed = if self.seen_before != 0 { 1 } else { 2 };
        self.may_have_occurred_twice(at) && self.keys().filter(|k| **k == key).count() >= needed
    }

    /// The filter's answer for a key whose filter word and bit are
    /// `(word, bit)`: `false` when no key of the history that has them is
    /// there twice (no scan needed).
    #[inline(always)]
    fn may_have_occurred_twice(&self, (word, bit): (usize, u64)) -> bool {
        self.twice[word] & bit != 0
    }

    /// How a move ends the game (or round) by itself under `rules`, in
    /// the rules' order: Olowuka's 25 (the move left `stores`), then the
    /// third occurrence of the position `key` (never after an irreversible
    /// move, which clears the history). "Cannot move" comes after these and
    /// needs the next position's moves. `at`: `key`'s filter word and bit.
    /// Kalah's end when either row is empty comes with the 25, as
    /// [`EndReason::NoMoves`] (the side with the empty row cannot move).
    #[inline(always)]
    fn ending(
        &self,
        position: &Position,
        key: u128,
        irreversible: bool,
        at: (usize, u64),
    ) -> Option<EndReason> {
        let rules = position.rules();
        // The filter is asked first, as it mostly says no, then the rule,
        // before the history is scanned: under `no-repetition-rule` there
        // is nothing to scan for (the history keeps a few keys at most).
        if rules.ends_at_twenty_five(position.stores()) {
            Some(EndReason::TwentyFive)
        } else if irreversible {
            // A row empties only as seeds leave it for a store (a Kalah
            // mover's last seeds) or are captured: never on a move that
            // leaves the stores as they were. (A start with an empty row
            // is settled by `Game::start`.)
            (rules.ends_on_empty_row() && position.a_row_is_empty()).then_some(EndReason::NoMoves)
        } else if self.may_have_occurred_twice(at)
            && !rules.has(Opt::NoRepetitionRule)
            && self.occurred_twice(key, at)
        {
            Some(EndReason::Repetition)
        } else {
            None
        }
    }

    /// The history after a move that left the position `key` (whose
    /// filter word and bit are `at`). Under `no-repetition-rule` no key is
    /// ever looked up, so the history is dropped whenever it fills its
    /// inline keys: a capture-free stretch can run on for ever there, and a
    /// copy of the game (the engines copy one for every move they weigh)
    /// would cost its length. (The rule is asked only then, off the
    /// validator's common path.)
    #[inline(always)]
    fn advance(&mut self, rules: Rules, key: u128, irreversible: bool, at: (usize, u64)) {
        if irreversible || (self.len >= INLINE_KEYS && rules.has(Opt::NoRepetitionRule)) {
            self.clear();
        }
        self.push_at(key, at);
    }

    /// A history that starts (again) from the position `key`, its first
    /// occurrence.
    /// Under [`Rules::repetition_ends_at_second`] the first filter starts
    /// full: a key's first push marks it in the second, so that "seen
    /// twice" is "seen before" there, for no work on any move.
    fn start_from(&mut self, rules: Rules, key: u128) {
        self.seen_before = if rules.repetition_ends_at_second() {
            u64::MAX
        } else {
            0
        };
        self.clear();
        self.push(key);
    }
}

/// A game in progress: a position plus what one position cannot know —
/// repetition history, whether the game or round is over, and rounds.
///
/// [`Game::play`] plays a move and settles everything it leads to: the
/// report says which rounds ended and whether the game did.
/// [`Game::play_unsettled`] is the lean entry for replaying records: it
/// plays the common move (legal, finite) and leaves the rest open ("cannot
/// move", and what follows an end), for the next move to prove that there
/// was a move or for [`Game::settle`] to decide when the end must be known.
/// Both share one fast lane (a move sown once, its shape checked in a few
/// steps wherever no direction is due) and `play` falls back to the full
/// rules for the moves the lane leaves.
#[derive(Debug)]
pub struct Game {
    position: Position,
    /// Repetition keys of this round since seeds last left the board (no
    /// earlier position can recur once the board holds fewer seeds).
    history: History,
    status: Status,
    /// Whether what follows the last move (or the start) is still to be
    /// settled (see [`Game::play_unsettled`]).
    open: bool,
    /// Set when the last move ended the game or round by itself (25 or
    /// repetition): what follows is settled with the rest.
    ended: Option<EndReason>,
    /// What the fast lane needs of the position, while it holds (see
    /// [`Position::lean`]).
    lean: Option<Lean>,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            position: self.position,
            history: self.history.clone(),
            status: self.status,
            open: self.open,
            ended: self.ended,
            lean: self.lean,
        }
    }

    /// Reuses `self`'s history space (see [`History::clone_from`]): random
    /// playouts copy a game into the same scratch game again and again.
    fn clone_from(&mut self, source: &Game) {
        self.history.clone_from(&source.history);
        self.position = source.position;
        self.status = source.status;
        self.open = source.open;
        self.ended = source.ended;
        self.lean = source.lean;
    }
}

impl Game {
    /// A game from `position`, which counts as its first occurrence. The
    /// game may be over at once if the side to move cannot move.
    pub fn new(position: Position) -> Result<(Game, PlayReport), PlayError> {
        let mut game = Game::start(position);
        let report = game.settle()?;
        Ok((game, report))
    }

    /// [`Game::new`] with nothing decided yet: whether the side to move can
    /// move is left open, as [`Game::play_unsettled`] leaves it (a move
    /// played, or [`Game::settle`], decides).
    #[must_use]
    pub fn start(position: Position) -> Game {
        let mut history = History::new(position.repetition_key());
        history.start_from(position.rules(), position.repetition_key());
        Game {
            position,
            history,
            status: Status::Ongoing,
            open: true,
            ended: position.ended_by_empty_row(),
            lean: position.lean(),
        }
    }

    /// Makes this game [`Game::start`]'s from `position`, its history's
    /// space reused: random playouts start game after game.
    pub fn restart(&mut self, position: Position) {
        self.history
            .start_from(position.rules(), position.repetition_key());
        self.position = position;
        self.status = Status::Ongoing;
        self.open = true;
        self.ended = position.ended_by_empty_row();
        self.lean = position.lean();
    }

    /// The positions the rules compare the next one with for repetition,
    /// oldest first, the current one last: this round's since seeds last
    /// left the board (none before can recur). A search that proves values
    /// starts its line from them.
    pub fn repetition_history(&self) -> impl Iterator<Item = u128> + '_ {
        self.history.keys().copied()
    }

    /// The position after the last move (as settled: a game over has its
    /// rows swept, a match its next round set up, once settled).
    #[must_use]
    pub const fn position(&self) -> &Position {
        &self.position
    }

    /// Whether the last move, played with [`Game::play_unsettled`], ended
    /// the game or round by itself (Olowuka's 25, a third occurrence):
    /// [`Game::settle`] then ends it, and until then `play_unsettled`
    /// refuses every move, so a caller choosing moves settles first.
    /// ("Cannot move" is not known until settled.)
    #[must_use]
    pub const fn ended_unsettled(&self) -> bool {
        self.ended.is_some()
    }

    /// The status as of the last settling (see [`Game::play_unsettled`]).
    #[must_use]
    pub const fn status(&self) -> Status {
        self.status
    }

    /// The outcome, as of the last settling.
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

    /// Plays `mv` and applies every end check of the rules in order: endless
    /// move, Olowuka's 25, repetition, then "cannot move". What
    /// [`Game::play_unsettled`] left open is settled first (an error there
    /// is about that earlier move). A move refused, or one whose end cannot
    /// be decided within the lap budget, leaves the game as it was.
    pub fn play_traced<O: Observer>(
        &mut self,
        mv: Move,
        obs: &mut O,
    ) -> Result<PlayReport, PlayError> {
        self.settle()?;
        if self.status != Status::Ongoing {
            return Err(PlayError {
                kind: PlayErrorKind::GameOver,
                position: self.position,
            });
        }
        let before = self.position;
        let fast = if O::RECORDS { None } else { self.play_fast(mv) };
        let laps = match fast {
            Some(laps) => laps,
            None => match before.play_traced(mv, obs)? {
                Played::Endless { position, .. } => {
                    let mut report = PlayReport {
                        endless: true,
                        ..PlayReport::default()
                    };
                    // Ending the round can still fail (an undecided move at
                    // the next round's start): the move is then refused
                    // whole, and the game stays as it was.
                    self.end_round(position, EndReason::EndlessMove, &mut report, false)?;
                    return Ok(report);
                }
                Played::Finite { position, laps } => {
                    self.position = position;
                    self.lean = position.lean();
                    laps
                }
            },
        };
        // Decided before the history changes, so that an undecided verdict
        // leaves the game as it was.
        let stores = self.position.stores();
        let gained = gains(before.stores(), stores);
        let irreversible = gained != [0, 0];
        let key = self.position.repetition_key();
        let at = History::bit(key);
        let ending = match self.history.ending(&self.position, key, irreversible, at) {
            Some(reason) => Ok(Some(reason)),
            None => self
                .position
                .has_legal_move()
                .map(|can| (!can).then_some(EndReason::NoMoves)),
        };
        let mut report = PlayReport {
            gained,
            laps,
            ..PlayReport::default()
        };
        let ended = match ending {
            Ok(None) => {
                self.history
                    .advance(self.position.rules(), key, irreversible, at);
                Ok(())
            }
            // Refilling and starting the next round can still fail.
            Ok(Some(reason)) => self
                .end_round(self.position, reason, &mut report, false)
                .map(|_| ()),
            Err(e) => Err(e),
        };
        if let Err(e) = ended {
            self.position = before;
            self.lean = before.lean();
            return Err(e);
        }
        Ok(report)
    }

    /// Plays `mv` when it is the common case of a record: the move legal
    /// and finite, no end pending. The seeds each side gained with it, or
    /// `None`, with the game as it was, for anything else ([`Game::play`]
    /// then rules on it and explains). The move may end the game or round by
    /// itself (25, repetition), and the side to move next may be unable to
    /// move: both are left open, for [`Game::settle`]. A later move played
    /// proves that the side could move, so only the end of a record, or a
    /// round or result it states, needs settling. Until then
    /// [`Game::status`] and [`Game::position`] are the unsettled ones.
    #[inline(always)]
    pub fn play_unsettled(&mut self, mv: Move) -> Option<[u32; 2]> {
        // A game over needs no check: its rows are swept, so no move has
        // the shape of one.
        if self.ended.is_some() {
            return None;
        }
        let before = self.position.stores();
        self.play_fast(mv)?;
        let stores = self.position.stores();
        // Told from the stores, not the gains: a caller that needs no gains
        // (most moves carry no `+N` to compare) has none worked out.
        let irreversible = stores != before;
        let gained = gains(before, stores);
        let key = self.position.repetition_key();
        // The key's filter bit worked out once, for the check and the
        // history.
        let at = History::bit(key);
        self.ended = self.history.ending(&self.position, key, irreversible, at);
        self.history
            .advance(self.position.rules(), key, irreversible, at);
        self.open = true;
        Some(gained)
    }

    /// [`Game::play_unsettled`] for a game none of whose positions can
    /// occur twice ([`Rules::never_repeats`]: Kalah), with no repetition
    /// history kept: random playouts take it, deciding once a playout
    /// which to call, so that the other games' moves pay nothing for it.
    /// The history keeps what it held before (positions that cannot recur,
    /// so no check that reads it later is misled). For any other game it
    /// is [`Game::play_unsettled`].
    #[inline(always)]
    pub fn play_unsettled_unrepeated(&mut self, mv: Move) -> Option<[u32; 2]> {
        if !self.position.rules().never_repeats() {
            return self.play_unsettled(mv);
        }
        if self.ended.is_some() {
            return None;
        }
        let before = self.position.stores();
        if !self.position.play_store_track(mv) {
            return None;
        }
        self.unrepeated_played(before);
        Some(gains(before, self.position.stores()))
    }

    /// Draws a candidate of the side to move and plays it as
    /// [`Game::play_unsettled`] does: `draw`, given the number of
    /// [`Position::candidates`], returns the index of one below it (random
    /// playouts: a uniformly random one). What it did: the move drawn
    /// played, or not (the list and the index drawn given back, the game
    /// as it was), or no candidate to draw from (`draw` not called).
    #[inline(always)]
    pub fn play_drawn_unsettled(&mut self, draw: impl FnOnce(usize) -> usize) -> Drawn {
        if self.position.direction_due() {
            return self.play_drawn_listed(draw);
        }
        // Most moves drawn play: the list is made only for one that does
        // not (the game is then as it was, and so are its candidates).
        match self.position.drawn_candidate(draw) {
            None => Drawn::NoCandidate,
            Some((mv, _)) if self.play_unsettled(mv).is_some() => Drawn::Played,
            Some((_, index)) => Drawn::Refused {
                candidates: self.position.candidates(),
                index,
            },
        }
    }

    /// [`Game::play_drawn_unsettled`] from the listed candidates.
    #[inline(never)]
    fn play_drawn_listed(&mut self, draw: impl FnOnce(usize) -> usize) -> Drawn {
        let candidates = self.position.candidates();
        if candidates.is_empty() {
            return Drawn::NoCandidate;
        }
        let index = draw(candidates.len());
        match candidates.get(index) {
            Some(mv) if self.play_unsettled(mv).is_some() => Drawn::Played,
            _ => Drawn::Refused { candidates, index },
        }
    }

    /// [`Game::play_drawn_unsettled`] as [`Game::play_unsettled_unrepeated`]
    /// plays (the same draws, the same moves and games): where no position
    /// repeats (Kalah), the candidates are not listed, the move drawn is
    /// sown with no check, and no history is kept.
    #[inline(always)]
    pub fn play_drawn_unrepeated(&mut self, draw: impl FnOnce(usize) -> usize) -> Drawn {
        if !self.position.rules().never_repeats() || self.ended.is_some() {
            // Where the game ended, no candidate is listed (its rows are
            // swept), or any listed is refused as `play_unsettled` does.
            return self.play_drawn_unsettled(draw);
        }
        let before = self.position.stores();
        if !self.position.play_drawn_store_track(draw) {
            return Drawn::NoCandidate;
        }
        self.unrepeated_played(before);
        Drawn::Played
    }

    /// What [`Game::play_unsettled_unrepeated`] records after a move that
    /// left the stores at `before`: [`History::ending`] with no repetition
    /// to look for. Only a move that changed the stores can end the game
    /// by itself; the rows' test is made whatever the move did, as a value
    /// (whether a random move changed the stores is no better than a coin
    /// toss to the processor's branch predictor).
    #[inline(always)]
    fn unrepeated_played(&mut self, before: [u8; 2]) {
        let rules = self.position.rules();
        let stores = self.position.stores();
        let ending = if rules.ends_at_twenty_five(stores) {
            Some(EndReason::TwentyFive)
        } else if rules.ends_on_empty_row() & self.position.a_row_is_empty() {
            Some(EndReason::NoMoves)
        } else {
            None
        };
        self.ended = if stores == before { None } else { ending };
        self.open = true;
    }

    /// The fast lane: `mv` played in place when it is legal and finite (see
    /// [`Position::play_lean`]), its laps; `None`, the game as it was,
    /// otherwise.
    #[inline(always)]
    fn play_fast(&mut self, mv: Move) -> Option<u64> {
        match &self.lean {
            Some(lean) => self.position.play_lean(lean, mv),
            None => {
                let laps = self.position.play_finite(mv)?;
                // Olinda Keliya's first move fixes the directions. (Kalah,
                // whose moves may earn another turn, never takes the lane.)
                if self.position.rules().chooses_direction() {
                    self.lean = self.position.lean();
                }
                Some(laps)
            }
        }
    }

    /// Decides what [`Game::play_unsettled`] (or [`Game::start`]) left
    /// open: whether the last move ended the game or round, or the side to
    /// move cannot move, and then in a match the rounds that follow. The
    /// report says which rounds ended and whether the game did (empty when
    /// nothing did, or nothing was open). An error when that cannot be
    /// decided within the lap budget: the last move unsettled (or the
    /// start) cannot stand, and the game cannot go on (settling again gives
    /// the same error).
    pub fn settle(&mut self) -> Result<PlayReport, PlayError> {
        let mut report = PlayReport::default();
        self.settle_leaving(false, &mut report)?;
        Ok(report)
    }

    /// [`Game::settle`], except that when a round of a match ends and the
    /// next begins, whether its first player can move is left open, as
    /// [`Game::start`] leaves it: the next move played proves it, or a
    /// later `settle` decides it (and then ends that round, or fails, as
    /// `settle` would have here). A replay reading a round marker needs
    /// the round begun, not yet its first move: the check that sows the new
    /// round's candidates is then mostly spared, as the record's own first
    /// move of the round is sown anyway. Still open afterwards exactly when
    /// a round began. The report is written into `report`, cleared first,
    /// whose space a replay reuses round after round.
    pub fn settle_to_round_start(&mut self, report: &mut PlayReport) -> Result<(), PlayError> {
        report.clear();
        self.settle_leaving(true, report)
    }

    /// [`Game::settle`] into `report` (empty); `leave_start`:
    /// [`Game::settle_to_round_start`].
    fn settle_leaving(
        &mut self,
        leave_start: bool,
        report: &mut PlayReport,
    ) -> Result<(), PlayError> {
        if !self.open {
            return Ok(());
        }
        let reason = match self.ended {
            Some(reason) => reason,
            None if self.position.has_legal_move()? => {
                self.open = false;
                return Ok(());
            }
            None => EndReason::NoMoves,
        };
        let start_open = self.end_round(self.position, reason, report, leave_start)?;
        self.open = start_open;
        self.ended = None;
        Ok(())
    }

    /// Ends the current round (or the game) in `position`, then starts the
    /// next round of a match, as many times as rounds end without a move,
    /// unless the match ends ([`Rules::match_end`]). Nothing changes when
    /// that fails (an undecided move at a round's start). With
    /// `leave_start`, the next round is begun with whether its first player
    /// can move left open (see [`Game::settle_to_round_start`]); `true` when
    /// that was done.
    fn end_round(
        &mut self,
        mut position: Position,
        mut reason: EndReason,
        report: &mut PlayReport,
        leave_start: bool,
    ) -> Result<bool, PlayError> {
        let rules = position.rules();
        let end = loop {
            position.sweep_rows();
            let holdings = Side::BOTH.map(|s| u32::from(position.store(s)));
            if !rules.game().has_rounds() {
                break reason;
            }
            let round = position.round();
            report.round_ends.push(RoundEnd {
                round,
                reason,
                holdings,
                winner: winner_of(holdings),
            });
            if !rules.plays_rounds() {
                break reason;
            }
            if let Some(end) = rules.match_end(round, holdings) {
                break end;
            }
            // A set-up may start a match at round u32::MAX: the round after
            // it would have no number, so the move that begins it is
            // refused (nothing changes).
            if round == u32::MAX {
                return Err(PlayError {
                    kind: PlayErrorKind::RoundsExhausted,
                    position,
                });
            }
            position.refill();
            // At the start of a round only "cannot move" is checked.
            if leave_start || position.has_legal_move()? {
                self.position = position;
                // A new round's history: its start is its first
                // occurrence (the old keys' space reused, not reallocated).
                self.history
                    .start_from(position.rules(), position.repetition_key());
                self.lean = position.lean();
                return Ok(leave_start);
            }
            reason = EndReason::NoMoves;
        };
        self.position = position;
        self.finish(end, report);
        Ok(false)
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

#[cfg(test)]
mod tests {
    use super::{EndReason, Game, History, INLINE_KEYS};
    use crate::{GameId, Move, Opt, Options, Position, Rules};

    /// Olinda Keliya's relay loop (G a G a …, no seed taken) after the
    /// opening of a random game: endless under `no-repetition-rule`, whose
    /// history keeps no more than its inline keys (copies of the game cost
    /// no more at ply 1000 than at ply 20); a repetition under the rule.
    #[test]
    fn a_history_stays_short_where_no_repetition_is_looked_for() {
        let opening = "F:ccw e D a B g D a C f G d G d E a A a C e B d G a D c G a G a";
        let relay = ["G", "a"].iter().cycle().take(1000);
        let moves: Vec<Move> = opening
            .split(' ')
            .chain(relay.copied())
            .map(|m| m.parse().unwrap())
            .collect();
        let no_rule = Options::default().with(Opt::NoRepetitionRule);
        let rules = Rules::new(GameId::OlindaKeliya, no_rule).unwrap();
        let mut played = Game::start(Position::new(rules));
        let mut replayed = played.clone();
        for (ply, mv) in moves.iter().enumerate() {
            played.play(*mv).unwrap();
            assert!(replayed.play_unsettled(*mv).is_some(), "ply {ply}");
            for game in [&played, &replayed] {
                assert!(game.history.len <= INLINE_KEYS, "ply {ply}");
                assert!(game.history.rest.is_empty(), "ply {ply}");
            }
        }
        assert!(played.outcome().is_none());
        let rules = Rules::new(GameId::OlindaKeliya, Options::default()).unwrap();
        let mut game = Game::start(Position::new(rules));
        let ended = moves.iter().find_map(|mv| game.play(*mv).unwrap().outcome);
        assert_eq!(ended.map(|o| o.reason), Some(EndReason::Repetition));
    }

    /// Keys past the inline ones go to the heap; a third occurrence is
    /// found whichever part holds the earlier two, and copies (fresh or
    /// into used space) keep every key.
    #[test]
    fn a_history_finds_repeats_on_both_sides_of_its_inline_keys() {
        let mut history = History::new(0);
        for key in 1..(3 * INLINE_KEYS as u128) {
            history.push(key);
        }
        let twice_across = 3; // once inline, pushed again on the heap
        history.push(twice_across);
        let heap_only = 2 * INLINE_KEYS as u128 + 1;
        history.push(heap_only);
        let never_again = 5;
        for (key, expected) in [
            (twice_across, true),
            (heap_only, true),
            (never_again, false),
        ] {
            let at = History::bit(key);
            assert_eq!(history.occurred_twice(key, at), expected, "key {key}");
            let mut used = History::new(99);
            for k in 100..140 {
                used.push(k);
            }
            used.clone_from(&history);
            assert_eq!(
                used.occurred_twice(key, at),
                expected,
                "copied into used space, key {key}"
            );
            assert_eq!(
                history.clone().occurred_twice(key, at),
                expected,
                "cloned, key {key}"
            );
        }
        assert_eq!(history.keys().count(), 3 * INLINE_KEYS + 2);
        history.clear();
        history.push(twice_across);
        assert_eq!(history.keys().copied().collect::<Vec<_>>(), [twice_across]);
    }
}
