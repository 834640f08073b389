//! Validated positions and moves: the legal moves of a position and what
//! playing one does to it.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::descriptor::{Direction, RefillFrom};
use crate::options::{GameId, Opt, Rules};
use crate::setup::{Setup, SetupError};
use crate::side::{Dir, Hole, Side};
use crate::sow::{
    Board, Sower, Sown, Unending, byte_sum, row_has_seeds, row_mask, row_sum, set_bits7,
};
use crate::trace::{NoTrace, Observer};

/// A move as a record writes it: the hole to empty, and on Olinda Keliya's
/// first move the direction chosen. Parses and prints without a position
/// (`E`, `e`, `E:ccw`), and serializes as that text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub hole: Hole,
    pub dir: Option<Dir>,
}

impl Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl Move {
    #[must_use]
    pub const fn new(hole: Hole) -> Move {
        Move { hole, dir: None }
    }

    #[must_use]
    pub const fn with_dir(hole: Hole, dir: Dir) -> Move {
        Move {
            hole,
            dir: Some(dir),
        }
    }
}

impl Move {
    /// Writes the move as the notation spells it (`E`, `e:cw`): the one
    /// spelling, for `Display` and for the notation's printer.
    #[inline]
    pub fn write_to(self, out: &mut impl fmt::Write) -> fmt::Result {
        out.write_char(self.hole.label())?;
        if let Some(dir) = self.dir {
            out.write_char(':')?;
            out.write_str(dir.as_str())?;
        }
        Ok(())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError(pub String);

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid move `{}` (expected a hole label such as E or e, optionally E:ccw or E:cw)",
            mancala_prose::shorten(&self.0)
        )
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let err = || ParseMoveError(s.to_owned());
        let mut chars = s.chars();
        let hole = chars.next().and_then(Hole::from_label).ok_or_else(err)?;
        match chars.as_str() {
            "" => Ok(Move::new(hole)),
            ":ccw" => Ok(Move::with_dir(hole, Dir::Ccw)),
            ":cw" => Ok(Move::with_dir(hole, Dir::Cw)),
            _ => Err(err()),
        }
    }
}

/// Up to 14 moves of one side (7 holes, two directions on Olinda Keliya's
/// first move), kept on the stack.
#[derive(Clone, Copy, Debug)]
pub struct MoveList {
    side: Side,
    /// The moves in `..len`, each as its hole's index plus 16 for
    /// counter-clockwise or 32 for clockwise when it names a direction:
    /// a list is 18 bytes to fill and copy (16 codes, so that an index
    /// below 16 needs no bounds check).
    codes: [u8; 16],
    len: u8,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::of(Side::South)
    }
}

impl MoveList {
    /// An empty list of `side`'s moves.
    const fn of(side: Side) -> MoveList {
        MoveList {
            side,
            codes: [0; 16],
            len: 0,
        }
    }

    #[inline(always)]
    fn push_code(&mut self, code: u8) {
        self.codes[usize::from(self.len & 15)] = code;
        self.len += 1;
    }

    #[inline(always)]
    fn push(&mut self, mv: Move) {
        self.side = mv.hole.side;
        let dir = match mv.dir {
            None => 0,
            Some(Dir::Ccw) => 16,
            Some(Dir::Cw) => 32,
        };
        self.push_code(mv.hole.index | dir);
    }

    #[inline(always)]
    fn decode(&self, code: u8) -> Move {
        const DIRS: [Option<Dir>; 4] = [None, Some(Dir::Ccw), Some(Dir::Cw), None];
        Move {
            hole: Hole::new(self.side, code & 15),
            dir: DIRS[usize::from(code >> 4) & 3],
        }
    }

    #[must_use]
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[must_use]
    #[inline]
    pub fn get(&self, i: usize) -> Option<Move> {
        self.codes[..self.len()]
            .get(i)
            .map(|&code| self.decode(code))
    }

    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.codes[..self.len()]
            .iter()
            .map(|&code| self.decode(code))
    }

    #[must_use]
    pub fn contains(&self, mv: Move) -> bool {
        self.iter().any(|m| m == mv)
    }

    /// Removes the move at `i` and returns it, the last move taking its
    /// place (as `Vec::swap_remove`): drawing moves at random without
    /// replacement needs no other bookkeeping.
    ///
    /// # Panics
    /// When `i` is not below [`MoveList::len`].
    #[inline]
    pub fn swap_remove(&mut self, i: usize) -> Move {
        let len = self.len();
        assert!(i < len, "swap_remove index {i} out of {len} moves");
        let code = self.codes[i];
        self.codes[i] = self.codes[len - 1];
        self.len -= 1;
        self.decode(code)
    }

    fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut out = MoveList::of(self.side);
        for mv in self.iter() {
            if keep(mv) {
                out.push(mv);
            }
        }
        *self = out;
    }
}

/// What [`Position::play_lean`] needs of a position's rules: the fast lane
/// of [`crate::Game`], open to a search that plays candidates on copies of
/// a position.
#[derive(Clone, Copy, Debug)]
pub struct Lean {
    holes: u8,
    /// Each side's sowing direction.
    dirs: [Dir; 2],
    /// For each side to move, the bytes of the opponent's row where the
    /// feeding rule applies, else none: a move starves the opponent (see
    /// [`Position::starves`]) when it leaves them all empty.
    fed_rows: [u128; 2],
}

/// What a move does when sown, before the feeding rule is considered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The move ends after `laps` laps in `position` (side to move switched).
    Finite { position: Position, laps: u64 },
    /// Lap-start state number `first_repeat` repeats an earlier one.
    Endless { first_repeat: u64, cycle: u64 },
    /// Neither ended nor repeated within the lap budget.
    Undecided { budget: u32 },
}

/// A validated position: board, stores, closed holes, side to move, Olinda
/// Keliya's directions and the round of a match. Small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    board: Board,
    closed: u16,
    stores: [u8; 2],
    to_move: Side,
    south_dir: Option<Dir>,
    round: u32,
    round_starter: Side,
}

impl Position {
    /// The starting position: South to move, every hole filled.
    #[must_use]
    pub fn new(rules: Rules) -> Position {
        let mut board = [0; 16];
        board[..2 * rules.holes()].fill(rules.seeds_per_hole());
        Position {
            rules,
            board,
            closed: 0,
            stores: [0, 0],
            to_move: Side::South,
            south_dir: None,
            round: 1,
            round_starter: Side::South,
        }
    }

    pub fn from_setup(rules: Rules, setup: &Setup) -> Result<Position, SetupError> {
        let problems = setup.problems(rules);
        if !problems.is_empty() {
            return Err(SetupError { problems });
        }
        let n = rules.holes();
        let mut board = [0u8; 16];
        let mut closed = 0u16;
        for (i, hole) in setup.south.iter().chain(&setup.north).enumerate() {
            match hole {
                // `problems` bounds every count by MAX_SEEDS.
                Some(seeds) => board[i] = *seeds as u8,
                None => closed |= 1 << i,
            }
        }
        debug_assert_eq!(setup.south.len() + setup.north.len(), 2 * n);
        let to_move = setup.to_move;
        Ok(Position {
            rules,
            board,
            closed,
            stores: [setup.stores[0] as u8, setup.stores[1] as u8],
            to_move,
            south_dir: setup.south_dir,
            round: setup.round,
            // Only matches have a starter to alternate; elsewhere it stays
            // South's, as in `Position::new`, so positions compare equal.
            round_starter: if rules.game().has_rounds() {
                setup.round_starter.unwrap_or(to_move)
            } else {
                Side::South
            },
        })
    }

    /// The set-up that describes this position.
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        let row = |side| {
            (0..self.rules.holes())
                .map(|i| self.seeds(Hole::new(side, i as u8)).map(u32::from))
                .collect()
        };
        Setup {
            south: row(Side::South),
            north: row(Side::North),
            stores: [u32::from(self.stores[0]), u32::from(self.stores[1])],
            to_move: self.to_move,
            south_dir: self.south_dir,
            round: self.round,
            round_starter: (self.rules.game().has_rounds() && self.round_starter != self.to_move)
                .then_some(self.round_starter),
        }
    }

    #[must_use]
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    #[must_use]
    pub const fn to_move(&self) -> Side {
        self.to_move
    }

    #[must_use]
    pub const fn round(&self) -> u32 {
        self.round
    }

    #[must_use]
    pub const fn round_starter(&self) -> Side {
        self.round_starter
    }

    /// Olinda Keliya: South's direction, once chosen.
    #[must_use]
    pub const fn south_dir(&self) -> Option<Dir> {
        self.south_dir
    }

    /// The direction `side` sows in, or `None` while it is still to be chosen.
    #[must_use]
    #[inline(always)]
    pub fn dir_of(&self, side: Side) -> Option<Dir> {
        if !self.rules.chooses_direction() {
            return Some(self.rules.fixed_dir());
        }
        self.south_dir
            .map(|d| if side == Side::South { d } else { d.reverse() })
    }

    /// Whether the move to be played now must name a direction.
    #[must_use]
    #[inline]
    pub fn direction_due(&self) -> bool {
        self.rules.chooses_direction() && self.south_dir.is_none()
    }

    #[inline]
    fn index(&self, hole: Hole) -> usize {
        match hole.side {
            Side::South => hole.index as usize,
            Side::North => self.rules.holes() + hole.index as usize,
        }
    }

    /// Seeds in a hole; `None` when the hole is closed or off the board.
    #[must_use]
    #[inline]
    pub fn seeds(&self, hole: Hole) -> Option<u8> {
        if hole.index as usize >= self.rules.holes() {
            return None;
        }
        let i = self.index(hole);
        (self.closed & (1 << i) == 0).then_some(self.board[i])
    }

    #[must_use]
    pub fn is_closed(&self, hole: Hole) -> bool {
        (hole.index as usize) < self.rules.holes() && self.closed & (1 << self.index(hole)) != 0
    }

    /// A side's store, captured seeds or winnings.
    #[must_use]
    pub const fn store(&self, side: Side) -> u8 {
        self.stores[side.index()]
    }

    /// Both stores, South's first.
    #[must_use]
    pub const fn stores(&self) -> [u8; 2] {
        self.stores
    }

    /// Seeds each side gains with a move from here that leaves `stores`.
    /// Seeds leave the board only into the stores, so a move is
    /// irreversible exactly when something is gained.
    #[inline]
    #[must_use]
    pub fn gains_to(&self, stores: [u8; 2]) -> [u32; 2] {
        gains(self.stores, stores)
    }

    /// Olowuka's end at 25: whether the captures here end the game (see
    /// [`Rules::ends_at_twenty_five`]).
    #[must_use]
    pub fn reaches_twenty_five(&self) -> bool {
        self.rules.ends_at_twenty_five(self.stores)
    }

    /// Seeds in a side's row.
    #[must_use]
    #[inline]
    pub fn row_seeds(&self, side: Side) -> u32 {
        row_sum(&self.board, self.rules.holes(), side)
    }

    /// Each side's holdings, South's first: its store plus the seeds in its
    /// own row, which is what it scores if the game, or round, ends here
    /// (the rows are swept to their owners).
    #[must_use]
    pub fn holdings(&self) -> [u32; 2] {
        Side::BOTH.map(|s| u32::from(self.store(s)) + self.row_seeds(s))
    }

    /// Seeds on the board, both rows.
    #[must_use]
    pub fn board_seeds(&self) -> u32 {
        byte_sum(u128::from_le_bytes(self.board))
    }

    /// Board, closed holes and side to move: what threefold repetition compares.
    #[must_use]
    pub fn repetition_key(&self) -> u128 {
        u128::from_le_bytes(self.board)
            | (u128::from(self.closed) << 112)
            | (u128::from(self.to_move as u8) << 127)
    }

    /// The moves worth trying: every non-empty open hole of the side to move
    /// (in both directions when a direction is due). Legality needs sowing:
    /// see [`Position::legal_moves`].
    #[must_use]
    #[inline]
    pub fn candidates(&self) -> MoveList {
        let side = self.to_move;
        let mut list = MoveList::of(side);
        let mut holes = self.candidate_holes();
        if self.direction_due() {
            while holes != 0 {
                let i = holes.trailing_zeros() as u8;
                holes &= holes - 1;
                list.push_code(i | 16);
                list.push_code(i | 32);
            }
        } else {
            // The holes' indices, lowest first, then their number (past
            // the list's end): a side's candidates in one load.
            let set = set_bits7(holes);
            list.codes[..8].copy_from_slice(&set);
            list.len = set[7];
        }
        list
    }

    /// Bit `i` for each non-empty open hole `i` of the side to move: the
    /// holes of [`Position::candidates`].
    #[inline(always)]
    fn candidate_holes(&self) -> u8 {
        let base = self.row_start(self.to_move);
        let holes = self.filled_holes(base);
        if self.closed != 0 {
            holes & !((self.closed >> base) as u8)
        } else {
            holes
        }
    }

    /// The candidate that `draw` picks (given their number, it returns the
    /// index of one below it in [`Position::candidates`]), and that index,
    /// with no list made; `None`, `draw` not called, when the side to move
    /// has none. With no direction due: a due direction doubles the list.
    #[inline(always)]
    pub(crate) fn drawn_candidate(
        &self,
        draw: impl FnOnce(usize) -> usize,
    ) -> Option<(Move, usize)> {
        debug_assert!(!self.direction_due());
        let holes = set_bits7(self.candidate_holes());
        if holes[7] == 0 {
            return None;
        }
        let index = draw(usize::from(holes[7]));
        Some((Move::new(Hole::new(self.to_move, holes[index & 7])), index))
    }

    /// The track index of `side`'s first hole.
    #[inline(always)]
    fn row_start(&self, side: Side) -> usize {
        match side {
            Side::South => 0,
            Side::North => self.rules.holes(),
        }
    }

    /// The row starting at track index `base` (a side's: [`Position::row_start`]),
    /// a byte a hole, read as a little-endian `u64` (at most 7 holes: 56 bits),
    /// the other bytes 0: one read of half the board, where the board as a
    /// `u128` takes two.
    #[inline(always)]
    fn row_word(&self, base: usize) -> u64 {
        let n = self.rules.holes();
        u64::from_le_bytes(
            self.board[base % 8..base % 8 + 8]
                .try_into()
                .unwrap_or([0; 8]),
        ) & ((1 << (8 * n)) - 1)
    }

    /// Bit `i` for each non-empty hole `i` of the row starting at track
    /// index `base` (a side's: [`Position::row_start`]), closed holes
    /// included.
    #[inline(always)]
    fn filled_holes(&self, base: usize) -> u8 {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let row = self.row_word(base);
        // The top bit of every non-empty hole's byte (no byte carries into
        // the next, as 0x7f + 0x7f < 0x100), gathered into bit i for hole
        // i: the multiplier's bytes move bit 8i + 7 to bit 56 + i, and no
        // two of its partial products meet.
        let tops = (((row & LOW7) + LOW7) | row) & HIGH;
        ((tops >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
    }

    /// Checks everything about `mv` that needs no sowing.
    #[inline]
    fn check_shape(&self, mv: Move) -> Result<Dir, PlayErrorKind> {
        let hole = mv.hole;
        if hole.index as usize >= self.rules.holes() {
            return Err(PlayErrorKind::NoSuchHole {
                hole,
                holes: self.rules.holes(),
            });
        }
        if hole.side != self.to_move {
            return Err(PlayErrorKind::NotYourHole {
                hole,
                to_move: self.to_move,
            });
        }
        match self.seeds(hole) {
            None => return Err(PlayErrorKind::ClosedHole { hole }),
            Some(0) => return Err(PlayErrorKind::EmptyHole { hole }),
            Some(_) => {}
        }
        if self.direction_due() {
            return mv.dir.ok_or(PlayErrorKind::DirectionRequired { hole });
        }
        let sows = self.dir_of(self.to_move).unwrap_or(Dir::Ccw);
        match mv.dir {
            // A careful recorder may write the direction a move cannot
            // choose: right, it is accepted (and left out canonically).
            None => Ok(sows),
            Some(given) if given == sows => Ok(sows),
            Some(given) => Err(PlayErrorKind::DirectionNotAllowed {
                hole,
                given,
                sows,
                game: self.rules.game(),
                chosen_already: self.rules.chooses_direction(),
            }),
        }
    }

    /// `mv` as the canonical notation writes it here: with a direction only
    /// where the move chooses one.
    #[must_use]
    pub fn canonical_move(&self, mv: Move) -> Move {
        if self.direction_due() {
            mv
        } else {
            Move::new(mv.hole)
        }
    }

    /// Sows `mv` and rules it finite, endless or undecided, ignoring the
    /// feeding rule. Errors only for moves that cannot be sown at all.
    #[inline]
    pub fn verdict_traced<O: Observer>(&self, mv: Move, obs: &mut O) -> Result<Verdict, PlayError> {
        let dir = self.check_shape(mv).map_err(|kind| PlayError {
            kind,
            position: *self,
        })?;
        let again = self.earns_another_turn(mv);
        Ok(match self.sow(mv, dir, obs) {
            Ok(sown) => Verdict::Finite {
                position: self.after(dir, &sown, again),
                laps: sown.laps,
            },
            Err(Unending::Endless {
                first_repeat,
                cycle,
            }) => Verdict::Endless {
                first_repeat,
                cycle,
            },
            Err(Unending::Undecided) => Verdict::Undecided {
                budget: self.rules.lap_budget(),
            },
        })
    }

    #[inline(always)]
    fn sow<O: Observer>(&self, mv: Move, dir: Dir, obs: &mut O) -> Result<Sown, Unending> {
        let sower = Sower::new(&self.rules, self.closed, dir, self.to_move);
        sower.sow(self.board, self.stores, self.index(mv.hole) as u8, obs)
    }

    /// [`Position::sow`] from track index `start` with nothing recorded,
    /// in place (see [`Sower::sow_in_place`]), `closed` the position's
    /// closed holes (a constant where known): the laps of a finite move,
    /// or `None`, the position as it was.
    #[inline(always)]
    fn sow_in_place(&mut self, closed: u16, dir: Dir, start: u8) -> Option<u64> {
        Sower::new(&self.rules, closed, dir, self.to_move).sow_in_place(
            &mut self.board,
            &mut self.stores,
            start,
        )
    }

    /// The position after a move sown in `dir` that ended as `sown`
    /// (`again`: the mover moves again).
    #[inline]
    fn after(&self, dir: Dir, sown: &Sown, again: bool) -> Position {
        let mut next = *self;
        next.apply(dir, sown, again);
        next
    }

    /// Makes this position the one after a move sown in `dir` that ended
    /// as `sown` (`again`: it earned the mover another turn).
    #[inline(always)]
    fn apply(&mut self, dir: Dir, sown: &Sown, again: bool) {
        if self.direction_due() {
            self.south_dir = Some(if self.to_move == Side::South {
                dir
            } else {
                dir.reverse()
            });
        }
        self.board = sown.board;
        self.stores = sown.stores;
        if !again {
            self.to_move = self.to_move.opposite();
        }
    }

    /// Plays `mv` in place when it is legal and finite: [`crate::Game`]'s
    /// fast lane. Its laps, or `None`, with the position as it was, for
    /// anything else, which [`Position::play`] rules on and explains.
    #[inline]
    pub(crate) fn play_finite(&mut self, mv: Move) -> Option<u64> {
        let dir = self.check_shape(mv).ok()?;
        let again = self.earns_another_turn(mv);
        let sown = self.sow(mv, dir, &mut NoTrace).ok()?;
        self.feeding_allows(mv, &sown.board)?;
        self.apply(dir, &sown, again);
        Some(sown.laps)
    }

    /// The feeding rule: a move that left `board` and starves the opponent
    /// is legal only when no other move feeds. `None` when it refuses the
    /// move (or cannot tell within the lap budget).
    #[inline(always)]
    fn feeding_allows(&self, mv: Move, board: &Board) -> Option<()> {
        if self.starves(board)
            && (self.rules.feeds_or_ends() || self.a_feeding_move(mv).ok()?.is_some())
        {
            return None;
        }
        Some(())
    }

    /// What [`Position::play_lean`] needs, worked out once: `None` while a
    /// direction is due (it is fixed once chosen; holes closed in a round
    /// stay closed all round, and `play_lean` reads them from the position).
    #[must_use]
    ///
    /// `None` too where a move may earn another turn (Kalah): the lane
    /// passes the turn after every move, and the games it serves pay
    /// nothing for a rule they do not have.
    pub fn lean(&self) -> Option<Lean> {
        if self.direction_due() || self.rules.extra_turn() {
            return None;
        }
        let holes = self.rules.holes() as u8;
        let dirs = Side::BOTH.map(|side| self.dir_of(side).unwrap_or(Dir::Ccw));
        Some(Lean {
            holes,
            dirs,
            fed_rows: Side::BOTH.map(|side| {
                if self.feeding_applies() {
                    row_mask(self.rules.holes(), side.opposite())
                } else {
                    0
                }
            }),
        })
    }

    /// [`Position::play_finite`] for a position `lean` was worked out for
    /// (or one it led to): with no direction due, `mv` has the shape of a
    /// move exactly when it names a non-empty hole of the side to move and
    /// no direction, so that is all it checks. (A closed hole is empty: no
    /// seed is ever sown into it, and a round closes only emptied holes.)
    /// Its laps, or `None`, the position as it was, for anything else: a
    /// move [`Position::play`] refuses or plays as endless, and one naming
    /// the direction the side sows in anyway (`play` accepts it).
    #[inline(always)]
    pub fn play_lean(&mut self, lean: &Lean, mv: Move) -> Option<u64> {
        let side = self.to_move;
        let hole = mv.hole;
        if hole.side != side || hole.index >= lean.holes || mv.dir.is_some() {
            return None;
        }
        // Below 16, as a track index is: the mask spares a bounds check.
        let start = self.index(hole) % 16;
        if self.board[start] == 0 {
            return None;
        }
        let dir = lean.dirs[side.index()];
        // Most positions have no hole closed (no game but a match's later
        // rounds closes any): said as a constant there, so that the
        // sower's laps need no check of closed holes.
        let before = (self.board, self.stores);
        let laps = if self.closed == 0 {
            self.sow_in_place(0, dir, start as u8)
        } else {
            self.sow_in_place(self.closed, dir, start as u8)
        }?;
        // [`Position::starves`], the row read from `lean`.
        let fed = lean.fed_rows[side.index()];
        if u128::from_le_bytes(self.board) & fed == 0 && fed != 0 {
            // The feeding rule looks for another move from the position
            // before this one.
            let after = (self.board, self.stores);
            (self.board, self.stores) = before;
            self.feeding_allows(mv, &after.0)?;
            (self.board, self.stores) = after;
        }
        self.to_move = side.opposite();
        Some(laps)
    }

    /// [`Position::play_lean`] for a game whose stores lie on the track
    /// ([`Rules::never_repeats`]; Kalah), which has no lean: `mv` has the
    /// shape of a move exactly when it names a non-empty hole of the side
    /// to move and no direction (it sows counter-clockwise, has no closed
    /// hole and no feeding rule, and every move is finite). Whether it
    /// played; the position as it was when not.
    #[inline(always)]
    pub(crate) fn play_store_track(&mut self, mv: Move) -> bool {
        debug_assert!(self.rules.never_repeats() && self.closed == 0);
        let side = self.to_move;
        let hole = mv.hole;
        if hole.side != side || usize::from(hole.index) >= self.rules.holes() || mv.dir.is_some() {
            return false;
        }
        // Below 16, as a track index is: the mask spares a bounds check.
        let start = self.index(hole) % 16;
        if self.board[start] == 0 {
            return false;
        }
        self.sow_store_track(start as u8);
        true
    }

    /// [`Position::play_store_track`] for the candidate that `draw` picks
    /// (given their number, it returns the index of one below it, as in
    /// [`Position::candidates`]): the candidates are not listed, and the
    /// move drawn needs no check. Whether a move was played: `draw` is
    /// not called, and the position stays as it was, when the side to move
    /// has none.
    #[inline(always)]
    pub(crate) fn play_drawn_store_track(&mut self, draw: impl FnOnce(usize) -> usize) -> bool {
        debug_assert!(self.rules.never_repeats() && self.closed == 0 && !self.direction_due());
        let base = self.row_start(self.to_move);
        let holes = set_bits7(self.filled_holes(base));
        if holes[7] == 0 {
            return false;
        }
        let index = holes[draw(usize::from(holes[7])) & 7];
        self.sow_store_track(((base + usize::from(index)) % 16) as u8);
        true
    }

    /// Sows the move from track index `start`, a non-empty hole of the
    /// side to move, for [`Position::play_store_track`]: the side to move
    /// next worked out as a value, not a branch (another turn follows a
    /// random move's lap now and then, unpredictably).
    #[inline(always)]
    fn sow_store_track(&mut self, start: u8) {
        let side = self.to_move;
        let into_store = Sower::new(&self.rules, 0, Dir::Ccw, side).sow_store_track_in_place(
            &mut self.board,
            &mut self.stores,
            start,
        );
        let again = into_store & self.rules.extra_turn();
        self.to_move = if again { side } else { side.opposite() };
    }

    /// Whether a move lifting `seeds` from track index `start` (a hole of
    /// the side to move) drops its last seed into the mover's own store,
    /// on a track that passes the stores ([`crate::Descriptor::store_on_track`]):
    /// the rest of the row and the store are the first spots, then every
    /// turn of the track passes the same spots again.
    #[inline(always)]
    fn ends_in_own_store(&self, start: u8, seeds: u8) -> bool {
        let n = self.rules.holes() as u8;
        let to_store = n - start % n;
        seeds >= to_store && (seeds - to_store).is_multiple_of(self.rules.sowing().store_cycle())
    }

    /// Whether `mv` (a candidate of the side to move) earns another turn.
    #[inline]
    fn earns_another_turn(&self, mv: Move) -> bool {
        if !self.rules.extra_turn() {
            return false;
        }
        let start = self.index(mv.hole) as u8;
        self.ends_in_own_store(start, self.board[usize::from(start % 16)])
    }

    /// Whether either row is empty, open holes and all.
    #[must_use]
    #[inline]
    pub fn a_row_is_empty(&self) -> bool {
        // Not `||`: both read, no branch between them.
        (self.row_word(0) == 0) | (self.row_word(self.rules.holes()) == 0)
    }

    /// Whether the game is over here by the rule that ends it when either
    /// row is empty ([`Rules::ends_on_empty_row`]).
    #[inline]
    fn over_by_empty_row(&self) -> bool {
        self.rules.ends_on_empty_row() && self.a_row_is_empty()
    }

    /// [`EndReason::NoMoves`] where [`Position::over_by_empty_row`]: how
    /// a game starting here has ended before its first move.
    pub(crate) fn ended_by_empty_row(&self) -> Option<crate::EndReason> {
        self.over_by_empty_row()
            .then_some(crate::EndReason::NoMoves)
    }

    /// Whether the feeding rule may refuse a move that left `board`: it
    /// leaves the opponent no seeds (the rule then looks for a feeding
    /// move). Under [`Rules::feeds_or_ends`] only a move from a position
    /// where the opponent has no seeds can starve them (a capture that
    /// empties their row, where a grand slam takes all, is no starving).
    #[inline]
    fn starves(&self, board: &Board) -> bool {
        self.feeding_applies()
            && !self.feeds(board)
            && !(self.rules.feeds_or_ends() && self.feeds(&self.board))
    }

    #[inline]
    pub fn verdict(&self, mv: Move) -> Result<Verdict, PlayError> {
        self.verdict_traced(mv, &mut NoTrace)
    }

    /// Olowuka's feeding rule: whether a move that left `board` leaves the
    /// mover's opponent seeds.
    #[inline]
    fn feeds(&self, board: &Board) -> bool {
        row_has_seeds(board, self.rules.holes(), self.to_move.opposite())
    }

    #[inline]
    fn feeding_applies(&self) -> bool {
        self.rules.feeding()
    }

    /// Plays `mv`, recording its steps into `obs`. An endless move is an
    /// error unless the rules have `endless-ends-game`; then it is returned as
    /// [`Played::Endless`]: the board stays as it was, the turn passes.
    pub fn play_traced<O: Observer>(&self, mv: Move, obs: &mut O) -> Result<Played, PlayError> {
        let verdict = self.verdict_traced(mv, obs)?;
        let err = |kind| PlayError {
            kind,
            position: *self,
        };
        match verdict {
            Verdict::Finite { position, laps } => {
                if self.starves(&position.board) {
                    if self.rules.feeds_or_ends() {
                        return Err(err(PlayErrorKind::MustFeed { hole: mv.hole }));
                    }
                    if let Some(feeding) = self.a_feeding_move(mv)? {
                        return Err(err(PlayErrorKind::StarvesOpponent {
                            hole: mv.hole,
                            feeding,
                        }));
                    }
                }
                Ok(Played::Finite { position, laps })
            }
            Verdict::Endless {
                first_repeat,
                cycle,
            } => {
                if self.rules.has(Opt::EndlessEndsGame) {
                    // The board stays as it was; the turn passes as after
                    // any move.
                    let mut position = *self;
                    position.to_move = self.to_move.opposite();
                    Ok(Played::Endless {
                        position,
                        first_repeat,
                        cycle,
                    })
                } else {
                    Err(err(PlayErrorKind::Endless {
                        hole: mv.hole,
                        first_repeat,
                        cycle,
                    }))
                }
            }
            Verdict::Undecided { budget } => Err(err(PlayErrorKind::Undecided {
                hole: mv.hole,
                budget,
            })),
        }
    }

    /// [`Position::play_traced`] with nothing recorded. The common move,
    /// legal and finite, takes [`crate::Game`]'s fast lane (sown once, no
    /// verdict built); anything else is ruled on, and explained, by
    /// `play_traced`.
    #[inline]
    pub fn play(&self, mv: Move) -> Result<Played, PlayError> {
        let mut position = *self;
        match position.play_finite(mv) {
            Some(laps) => Ok(Played::Finite { position, laps }),
            None => self.play_traced(mv, &mut NoTrace),
        }
    }

    /// Another move than `except` that is finite and feeds the opponent.
    fn a_feeding_move(&self, except: Move) -> Result<Option<Move>, PlayError> {
        for mv in self.candidates().iter().filter(|m| *m != except) {
            match self.verdict(mv)? {
                Verdict::Finite { position, .. } if self.feeds(&position.board) => {
                    return Ok(Some(mv));
                }
                Verdict::Undecided { budget } => {
                    return Err(PlayError {
                        kind: PlayErrorKind::Undecided {
                            hole: mv.hole,
                            budget,
                        },
                        position: *self,
                    });
                }
                _ => {}
            }
        }
        Ok(None)
    }

    /// Every legal move, in hole order. Fails only when a candidate's verdict
    /// cannot be reached within the lap budget: then legality is unknown.
    pub fn legal_moves(&self) -> Result<MoveList, PlayError> {
        if self.over_by_empty_row() {
            return Ok(MoveList::of(self.to_move));
        }
        let mut list = self.candidates();
        let mut starving = MoveList::default();
        let mut any_feeding = false;
        let endless_legal = self.rules.has(Opt::EndlessEndsGame);
        let mut undecided = None;
        list.retain(|mv| match self.verdict(mv) {
            Ok(Verdict::Finite { position, .. }) => {
                if self.starves(&position.board) {
                    starving.push(mv);
                } else {
                    any_feeding = true;
                }
                true
            }
            Ok(Verdict::Endless { .. }) => endless_legal,
            Ok(Verdict::Undecided { budget }) => {
                undecided.get_or_insert(PlayErrorKind::Undecided {
                    hole: mv.hole,
                    budget,
                });
                false
            }
            Err(_) => false,
        });
        if let Some(kind) = undecided {
            return Err(PlayError {
                kind,
                position: *self,
            });
        }
        if (any_feeding || self.rules.feeds_or_ends()) && !starving.is_empty() {
            list.retain(|mv| !starving.contains(mv));
        }
        Ok(list)
    }

    /// Whether the side to move has a legal move. Cheaper than
    /// [`Position::legal_moves`]: one finite move settles it, since a finite
    /// move is legal unless a feeding move exists, which is then legal itself.
    ///
    /// [`Position::first_playable`]'s answer (and error) without its move:
    /// a candidate is only sown, no position built, which is what
    /// [`crate::Game`] asks after every move.
    pub fn has_legal_move(&self) -> Result<bool, PlayError> {
        if self.over_by_empty_row() {
            return Ok(false);
        }
        let endless_legal = self.rules.has(Opt::EndlessEndsGame);
        // Under `feeds_or_ends`, with the opponent's row empty, only a
        // move that feeds them is legal.
        let must_feed = self.rules.feeds_or_ends() && !self.feeds(&self.board);
        let mut undecided = None;
        for mv in self.candidates().iter() {
            // Candidates have the shape of a move.
            let Ok(dir) = self.check_shape(mv) else {
                continue;
            };
            match self.sow(mv, dir, &mut NoTrace) {
                Ok(sown) if must_feed && !self.feeds(&sown.board) => {}
                Ok(_) => return Ok(true),
                Err(Unending::Endless { .. }) if endless_legal => return Ok(true),
                Err(Unending::Endless { .. }) => {}
                Err(Unending::Undecided) => {
                    undecided.get_or_insert(PlayErrorKind::Undecided {
                        hole: mv.hole,
                        budget: self.rules.lap_budget(),
                    });
                }
            }
        }
        match undecided {
            Some(kind) => Err(PlayError {
                kind,
                position: *self,
            }),
            None => Ok(false),
        }
    }

    /// The first candidate that keeps the game going — a finite move, or an
    /// endless one under `endless-ends-game` — trying `first` before the
    /// others, with its verdict (so that playing it needs no second sowing).
    /// `None` when the side to move cannot move; an error when that cannot
    /// be decided within the lap budget.
    pub fn first_playable(
        &self,
        first: Option<Move>,
    ) -> Result<Option<(Move, Verdict)>, PlayError> {
        if self.over_by_empty_row() {
            return Ok(None);
        }
        let endless_legal = self.rules.has(Opt::EndlessEndsGame);
        let must_feed = self.rules.feeds_or_ends() && !self.feeds(&self.board);
        let candidates = self.candidates();
        let first = first.filter(|mv| candidates.contains(*mv));
        let mut undecided = None;
        for mv in first
            .into_iter()
            .chain(candidates.iter().filter(|mv| Some(*mv) != first))
        {
            match self.verdict(mv)? {
                Verdict::Finite { position, .. } if must_feed && !self.feeds(&position.board) => {}
                verdict @ Verdict::Finite { .. } => return Ok(Some((mv, verdict))),
                verdict @ Verdict::Endless { .. } if endless_legal => {
                    return Ok(Some((mv, verdict)));
                }
                Verdict::Endless { .. } => {}
                Verdict::Undecided { budget } => {
                    undecided.get_or_insert(PlayErrorKind::Undecided {
                        hole: mv.hole,
                        budget,
                    });
                }
            }
        }
        match undecided {
            Some(kind) => Err(PlayError {
                kind,
                position: *self,
            }),
            None => Ok(None),
        }
    }

    // --- used by `Game` between rounds -------------------------------------

    /// Every player takes the seeds left in their own row.
    pub(crate) fn sweep_rows(&mut self) {
        let n = self.rules.holes();
        for side in Side::BOTH {
            let row = self.row_seeds(side) as u8;
            self.stores[side.index()] += row;
        }
        // The rows' bytes cleared in one step (a slice's `fill` would call
        // `memset`; rounds end often in a match). Rows hold at most 7
        // holes: the shift stays below 128.
        let rows = (1u128 << (16 * n)) - 1;
        self.board = (u128::from_le_bytes(self.board) & !rows).to_le_bytes();
    }

    /// Refills for the next round, once [`Rules::match_end`] has said that
    /// the match goes on (each player can fill a hole).
    /// The rows are empty (swept): each player fills as many holes as
    /// their store pays for, one after another from the refill's end of
    /// their row, and the holes left over are closed for the round.
    pub(crate) fn refill(&mut self) {
        let n = self.rules.holes();
        let per = self.rules.seeds_per_hole();
        let from_right = self.rules.game().descriptor().refill == Some(RefillFrom::Right);

        self.closed = 0;
        for side in Side::BOTH {
            let base = if side == Side::South { 0 } else { n };
            let store = &mut self.stores[side.index()];
            let filled = usize::from(*store / per).min(n);
            // At most `store` seeds: the product fits a store's `u8`.
            *store -= filled as u8 * per;
            // The filled holes, `from..to` in the row.
            let (from, to) = if from_right {
                (n - filled, n)
            } else {
                (0, filled)
            };
            self.board[base + from..base + to].fill(per);
            let row = (1u16 << n) - 1;
            let kept = ((1u16 << to) - 1) & !((1u16 << from) - 1);
            self.closed |= (row & !kept) << base;
        }
        // Game::end_round refuses the move that gets here from round
        // u32::MAX of a match; saturating keeps this step from overflowing.
        self.round = self.round.saturating_add(1);
        self.round_starter = self.round_starter.opposite();
        self.to_move = self.round_starter;
    }
}

/// Seeds each side gained from stores `before` to `after` (see
/// [`Position::gains_to`]): for [`crate::Game`], which keeps only the
/// stores of the position before a move.
#[inline(always)]
pub(crate) fn gains(before: [u8; 2], after: [u8; 2]) -> [u32; 2] {
    Side::BOTH.map(|s| u32::from(after[s.index()]) - u32::from(before[s.index()]))
}

/// The result of [`Position::play`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    Finite {
        position: Position,
        laps: u64,
    },
    /// An endless move under `endless-ends-game`: the game (or round) ends
    /// in `position`, the board as it was with the other player to move.
    Endless {
        position: Position,
        first_repeat: u64,
        cycle: u64,
    },
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayErrorKind {
    GameOver,
    NoSuchHole {
        hole: Hole,
        holes: usize,
    },
    NotYourHole {
        hole: Hole,
        to_move: Side,
    },
    ClosedHole {
        hole: Hole,
    },
    EmptyHole {
        hole: Hole,
    },
    DirectionRequired {
        hole: Hole,
    },
    /// The move names a direction other than the one it sows in.
    DirectionNotAllowed {
        hole: Hole,
        given: Dir,
        sows: Dir,
        game: GameId,
        /// The game has a direction choice, made already by the first move.
        chosen_already: bool,
    },
    Endless {
        hole: Hole,
        first_repeat: u64,
        cycle: u64,
    },
    Undecided {
        hole: Hole,
        budget: u32,
    },
    StarvesOpponent {
        hole: Hole,
        feeding: Move,
    },
    /// The opponent's row is empty and the move gives them no seed (where
    /// no move that does is the game's end).
    MustFeed {
        hole: Hole,
    },
    /// The move ends round `u32::MAX` of a match (a set-up may start there),
    /// and the next round would have no number.
    RoundsExhausted,
}

impl fmt::Display for PlayErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayErrorKind::GameOver => f.write_str("the game is over"),
            PlayErrorKind::NoSuchHole { hole, holes } => {
                write!(f, "there is no hole {hole}: rows have {holes} holes")
            }
            PlayErrorKind::NotYourHole { hole, to_move } => {
                write!(
                    f,
                    "hole {hole} is not {to_move}'s, and {to_move} is to move"
                )
            }
            PlayErrorKind::ClosedHole { hole } => write!(f, "hole {hole} is closed this round"),
            PlayErrorKind::EmptyHole { hole } => write!(f, "hole {hole} is empty"),
            PlayErrorKind::DirectionRequired { hole } => {
                write!(
                    f,
                    "the first move must choose a direction, e.g. {hole}:ccw or {hole}:cw"
                )
            }
            PlayErrorKind::DirectionNotAllowed {
                hole,
                given,
                sows,
                game,
                chosen_already,
            } => {
                if *chosen_already {
                    write!(
                        f,
                        "{hole} sows {sows}, not {given} (only the first move of {game} chooses a direction)"
                    )
                } else if game.descriptor().direction == Direction::ChosenByFirstMove {
                    write!(f, "with same-direction both sides sow {sows}, not {given}")
                } else {
                    write!(f, "{game} sows {sows} here, not {given}")
                }
            }
            PlayErrorKind::Endless {
                hole,
                first_repeat,
                cycle,
            } => write!(
                f,
                "move {hole} is endless: lap {first_repeat} starts as an earlier lap did (a cycle of {})",
                mancala_prose::plural(*cycle, "lap")
            ),
            PlayErrorKind::Undecided { hole, budget } => write!(
                f,
                "move {hole} is undecided: it neither ends nor repeats within the lap budget of {}",
                mancala_prose::plural(u64::from(*budget), "lap")
            ),
            PlayErrorKind::RoundsExhausted => write!(
                f,
                "this move ends round {}, and rounds are numbered no further",
                u32::MAX
            ),
            PlayErrorKind::MustFeed { hole } => write!(
                f,
                "move {hole} gives the opponent, whose row is empty, no seed"
            ),
            PlayErrorKind::StarvesOpponent { hole, feeding } => write!(
                f,
                "move {hole} leaves the opponent without seeds while a feeding move ({feeding}) exists"
            ),
        }
    }
}

/// A move that cannot be played, with the position it was tried in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayError {
    pub kind: PlayErrorKind,
    pub position: Position,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl std::error::Error for PlayError {}
