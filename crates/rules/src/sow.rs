//! The one sowing engine shared by the four games: a lap loop configured by
//! [`Sower`], and exact endless-move detection over lap-start states.

use crate::descriptor::{Descriptor, EndCapture, Fours, GrandSlam, Relay};
use crate::options::{Opt, Options, Rules};
use crate::side::{Dir, Hole, Side};
use crate::trace::{Capture, CaptureKind, LapEnd, NoTrace, Observer};

/// The default lap budget B (spec/rules/common.md §4).
pub const DEFAULT_LAP_BUDGET: u32 = 1_000_000;

/// Holes on the track: South's row (indices `0..n`) then North's (`n..2n`),
/// so that counter-clockwise is `+1`. Two spare bytes keep it 16 bytes long,
/// so comparing two boards is one 128-bit comparison.
pub(crate) type Board = [u8; 16];

/// The sum of the bytes of `v`, whose bytes add up to at most 255 (as the
/// holes of any board do): multiplying by `0x0101…01` gathers every byte
/// into the top one, and no partial sum can carry into the next byte.
#[inline]
pub(crate) fn byte_sum(v: u128) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let top = |half: u64| u32::from((half.wrapping_mul(ONES) >> 56) as u8);
    top(v as u64) + top((v >> 64) as u64)
}

/// `ROW_MASKS[n][side]`: the bytes of `side`'s row on a board of `n` holes
/// a row, read as a little-endian `u128`.
static ROW_MASKS: [[u128; 2]; 8] = {
    let mut table = [[0u128; 2]; 8];
    let mut n = 1;
    while n < 8 {
        let row = (1u128 << (8 * n)) - 1;
        table[n] = [row, row << (8 * n)];
        n += 1;
    }
    table
};

/// The bytes of `side`'s row of `board`, a board of `n` holes a row, the
/// others zero, as a little-endian `u128`.
#[inline]
fn row_bytes(board: &Board, n: usize, side: Side) -> u128 {
    u128::from_le_bytes(*board) & ROW_MASKS[n % ROW_MASKS.len()][side.index()]
}

/// The bytes of `v` that hold exactly 4, as a 1 in each (the others 0):
/// the exact zero-byte test of `v ^ 0x0404…04`, no carry from one byte
/// into the next.
#[inline(always)]
fn bytes_equal_to_four(v: u128) -> u128 {
    const LOW7: u128 = u128::from_le_bytes([0x7F; 16]);
    const FOURS: u128 = u128::from_le_bytes([4; 16]);
    let x = v ^ FOURS;
    let zero = !(((x & LOW7) + LOW7) | x | LOW7);
    zero >> 7
}

/// Seeds in `side`'s row of `board`, a board of `n` holes a row.
#[inline]
pub(crate) fn row_sum(board: &Board, n: usize, side: Side) -> u32 {
    byte_sum(row_bytes(board, n, side))
}

/// The bytes of `side`'s row on a board of `n` holes a row, as a
/// little-endian `u128` (see [`crate::position::Lean`]).
#[inline]
pub(crate) fn row_mask(n: usize, side: Side) -> u128 {
    ROW_MASKS[n % ROW_MASKS.len()][side.index()]
}

/// Whether `side`'s row of `board` holds any seed ([`row_sum`] above 0,
/// without the sum).
#[inline]
pub(crate) fn row_has_seeds(board: &Board, n: usize, side: Side) -> bool {
    row_bytes(board, n, side) != 0
}

/// The descriptor's [`Fours`] with the options that change it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum FourRule {
    None,
    /// [`Fours::TakenBySower`]: `to_owner` (`pasu-to-owner`), `on_last`
    /// (not `no-pasu-on-last-seed`).
    Pasu {
        to_owner: bool,
        on_last: bool,
    },
    /// [`Fours::OwnerMidLapMoverLast`].
    OwnerMidLapMoverLast,
}

/// The descriptor's [`EndCapture`] with the options that change it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum CaptureRule {
    None,
    /// [`EndCapture::BeyondEmpty`]; `series`: `series-capture`.
    BeyondEmpty {
        series: bool,
    },
    /// [`EndCapture::Pussa`]; `opposite`: `capture-opposite`.
    Pussa {
        opposite: bool,
    },
    /// [`EndCapture::ChainOfTwosAndThrees`], with what a grand slam does.
    Chain {
        grand_slam: GrandSlamRule,
    },
    /// [`EndCapture::OppositeOfEmptyOwn`]; `empty`: `empty-capture`.
    OppositeOfEmptyOwn {
        empty: bool,
    },
}

/// The descriptor's [`GrandSlam`] with the options that change it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum GrandSlamRule {
    /// The chain's furthest hole stays.
    LeavesOne,
    /// Nothing is captured.
    CapturesNothing,
    /// The whole chain is captured (`grand-slam-takes-all`).
    TakesAll,
}

/// How a move failed to end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unending {
    /// Lap-start state `s_j` equals an earlier `s_i`, `j = first_repeat ≤ B`.
    Endless { first_repeat: u64, cycle: u64 },
    /// Neither ended nor repeated within the lap budget.
    Undecided,
}

/// A finished move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sown {
    pub board: Board,
    pub stores: [u8; 2],
    pub laps: u64,
}

enum Step {
    Relay(u8),
    End,
}

/// The open hole after track index `i` in direction `dir`, on a track of
/// `n2` holes whose closed ones are the bits of `closed`; some hole must be
/// open (the one a move is sown from always is).
#[inline(always)]
pub(crate) fn next_open(mut i: u8, n2: u8, dir: Dir, closed: u16) -> u8 {
    loop {
        i = match dir {
            Dir::Ccw if i + 1 == n2 => 0,
            Dir::Ccw => i + 1,
            Dir::Cw if i == 0 => n2 - 1,
            Dir::Cw => i - 1,
        };
        if closed & (1 << i) == 0 {
            return i;
        }
    }
}

/// What sowing needs from a game and its options, worked out once when the
/// [`Rules`] are made rather than for every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct SowRules {
    n: u8,
    n2: u8,
    relay: Relay,
    four: FourRule,
    capture: CaptureRule,
    /// [`SowRules::SKIP_ORIGIN`], [`SowRules::STORE_TRACK`]: one byte, so
    /// that the rules, and a [`crate::Position`], stay as small as they
    /// were before the store track (a search copies positions all the
    /// time).
    track: u8,
    /// Laps may drop their seeds all at once (see [`Sower::plain_lap`]) when
    /// no hole is skipped: fours made on the way are then found among the
    /// holes the lap filled (see [`Sower::take_fours`]), and closed holes
    /// are passed over (see [`Sower::drop_run_past_closed`]).
    bulk_laps: bool,
    /// For bulk sowers that take no four, whose laps are
    /// [`Sower::plain_lap`] alone where no hole is closed, the relay rule
    /// as [`Sower::plain_laps`] reads it: a lap relays from the hole
    /// `plain_after` steps on from its last seed's (0 or 1) when that
    /// holds at least `plain_least` seeds. `plain_least` is 0 for every
    /// other sower.
    plain_after: u8,
    plain_least: u8,
}

impl SowRules {
    /// Every lap skips the hole it started from.
    const SKIP_ORIGIN: u8 = 1;
    /// Each side's store lies on the track after its own row (see
    /// [`Sower::sow_store_track`]).
    const STORE_TRACK: u8 = 2;
    /// Moves are single laps (no relay, no store on the track: Oware) on
    /// rows of 5 to 7 holes, so that a lap shorter than a turn of the
    /// track drops its seeds at once (see [`Sower::sow_in_place`]).
    const SHORT_SINGLE: u8 = 4;

    #[inline(always)]
    const fn skip_origin(&self) -> bool {
        self.track & SowRules::SKIP_ORIGIN != 0
    }

    #[inline(always)]
    pub(crate) const fn store_track(&self) -> bool {
        self.track & SowRules::STORE_TRACK != 0
    }

    #[inline(always)]
    const fn short_single(&self) -> bool {
        self.track & SowRules::SHORT_SINGLE != 0
    }

    /// Holes per row.
    pub(crate) const fn holes(&self) -> u8 {
        self.n
    }

    /// On a track that passes the stores, the spots a lap passes between
    /// two visits of the mover's store: every hole and that store, less
    /// the origin where laps skip it.
    #[inline(always)]
    pub(crate) const fn store_cycle(&self) -> u8 {
        if self.skip_origin() {
            self.n2
        } else {
            self.n2 + 1
        }
    }

    pub(crate) const fn new(game: &Descriptor, options: Options, n: u8) -> SowRules {
        let four = match game.fours {
            Fours::Kept => FourRule::None,
            Fours::TakenBySower => FourRule::Pasu {
                to_owner: options.has(Opt::PasuToOwner),
                on_last: !options.has(Opt::NoPasuOnLastSeed),
            },
            Fours::OwnerMidLapMoverLast => FourRule::OwnerMidLapMoverLast,
        };
        let capture = match game.capture {
            EndCapture::Nothing => CaptureRule::None,
            EndCapture::BeyondEmpty => CaptureRule::BeyondEmpty {
                series: options.has(Opt::SeriesCapture),
            },
            EndCapture::Pussa => CaptureRule::Pussa {
                opposite: options.has(Opt::CaptureOpposite),
            },
            EndCapture::ChainOfTwosAndThrees => CaptureRule::Chain {
                grand_slam: if options.has(Opt::GrandSlamTakesAll) {
                    GrandSlamRule::TakesAll
                } else if options.has(Opt::GrandSlamLeavesOne) {
                    GrandSlamRule::LeavesOne
                } else {
                    match game.grand_slam {
                        GrandSlam::LeavesOne => GrandSlamRule::LeavesOne,
                        GrandSlam::CapturesNothing => GrandSlamRule::CapturesNothing,
                    }
                },
            },
            EndCapture::OppositeOfEmptyOwn => CaptureRule::OppositeOfEmptyOwn {
                empty: options.has(Opt::EmptyCapture),
            },
        };
        let skip_origin = game.skip_origin || options.has(Opt::SkipOrigin);
        let store_track = game.store_on_track;
        let bulk_laps = !skip_origin && !store_track && runs_tabled(n);
        // With no hole closed and no four taken, the hole after the last
        // is the one a seed after it falls in, and the landing hole holds
        // at least the last seed: "unless it was empty" is "at least 2",
        // and "at least 0" is "at least 1".
        let (plain_after, least) = match game.relay {
            Relay::NextHole => (1, 1),
            Relay::LandingHoleAtLeast(least) if least > 1 => (0, least),
            Relay::LandingHoleAtLeast(_) => (0, 1),
            Relay::LandingHoleUnlessEmpty => (0, 2),
            Relay::Never => (0, 0),
        };
        let plain = bulk_laps && matches!(four, FourRule::None) && least != 0;
        SowRules {
            n,
            n2: 2 * n,
            relay: game.relay,
            four,
            capture,
            track: if skip_origin {
                SowRules::SKIP_ORIGIN
            } else {
                0
            } | if store_track {
                SowRules::STORE_TRACK
            } else {
                0
            } | if matches!(game.relay, Relay::Never) && !store_track && runs_tabled(n) {
                SowRules::SHORT_SINGLE
            } else {
                0
            },
            bulk_laps,
            plain_after,
            plain_least: if plain { least } else { 0 },
        }
    }
}

/// Everything one move's sowing needs, fixed for the whole move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sower<'r> {
    how: &'r SowRules,
    closed: u16,
    dir: Dir,
    mover: Side,
    budget: u64,
    /// Laps may drop their seeds all at once (see [`Sower::plain_lap`]).
    bulk: bool,
    /// A bulk sower with no hole closed and no four taken: laps are
    /// [`Sower::plain_lap`] alone.
    plain: bool,
}

/// One seed in each of `r` holes from hole `first` on, around a track of
/// `n2` holes, as a board read as a little-endian `u128`.
const fn run_mask(n2: usize, first: usize, r: usize) -> u128 {
    let mut mask = 0u128;
    let mut k = 0;
    while k < r {
        mask |= 1 << (8 * ((first + k) % n2));
        k += 1;
    }
    mask
}

/// Where hole `i` (below 16, as every track index is) sits in a [`Board`]
/// or a 16-entry table: the mask changes nothing but spares a bounds check.
#[inline(always)]
fn slot(i: u8) -> usize {
    usize::from(i % 16)
}

/// `KEEP_ALL_BUT[i]` keeps every byte of a board read as a little-endian
/// `u128` but byte `i`: one load instead of a 128-bit shift.
static KEEP_ALL_BUT: [u128; 16] = {
    let mut table = [0u128; 16];
    let mut i = 0;
    while i < 16 {
        table[i] = !(0xFF << (8 * i));
        i += 1;
    }
    table
};

/// Whether rows of `n` holes have [`RUNS`]'s laps, the lengths the
/// games use (5 to 7): the fast lanes sow only those.
const fn runs_tabled(n: u8) -> bool {
    5 <= n && n <= 7
}

/// `RUNS[n][first][r]` is [`run_mask`]`(2 * n, first, r)` for every row
/// length the games use (5 to 7, as [`Sower::bulk`] checks): one load
/// instead of a loop. (Indexed by the holes of a row, below 8, so that the
/// index needs no bounds check: see [`Sower::runs`].)
static RUNS: [[[u128; 16]; 16]; 8] = {
    let mut table = [[[0u128; 16]; 16]; 8];
    let mut n = 5;
    while n <= 7 {
        let mut first = 0;
        while first < 2 * n {
            let mut r = 0;
            while r <= 2 * n {
                table[n][first][r] = run_mask(2 * n, first, r);
                r += 1;
            }
            first += 1;
        }
        n += 1;
    }
    table
};

/// The laps of a bulk sower on one track, in one direction: the seeds of
/// a lap lifting hole `start` fall one in each of the `r` holes after it
/// (`r` at most the track's holes), `runs[`[`lap_at`]`(start, r)]` as a
/// board read as a little-endian `u128`, the last in hole
/// `lasts[lap_at(start, r)]` (`start` itself for none or a whole turn;
/// with `r` 1, the hole after `start`). A lap's drop is two loads: the
/// direction and the wrap round the track are worked out when the tables
/// are made, not lap after lap. `lifts[at]` is `runs[at]` less the `r`
/// seeds of hole `start` (wrapping), for `r` below the track's holes: a
/// plain lap lifts and drops its seeds in one addition.
struct Laps {
    runs: [u128; 256],
    lifts: [u128; 256],
    lasts: [u8; 256],
}

/// `LAPS[dir][n % 4]`: the [`Laps`] of direction `dir` (0
/// counter-clockwise, 1 clockwise) on a track of `2 * n` holes, for the
/// rows of 5 to 7 holes [`Sower::bulk`] sowers have (whose `n % 4`
/// differ).
static LAPS: [[Laps; 4]; 2] = {
    const NONE: Laps = Laps {
        runs: [0; 256],
        lifts: [0; 256],
        lasts: [0; 256],
    };
    let mut table = [[NONE, NONE, NONE, NONE], [NONE, NONE, NONE, NONE]];
    let mut n = 5;
    while n <= 7 {
        let n2 = 2 * n;
        let mut start = 0;
        while start < n2 {
            let mut r = 0;
            while r <= n2 {
                let at = start << 4 | r;
                let lifted = (r as u128) << (8 * start);
                let ccw = &mut table[0][n % 4];
                ccw.runs[at] = run_mask(n2, (start + 1) % n2, r);
                ccw.lifts[at] = ccw.runs[at].wrapping_sub(lifted);
                ccw.lasts[at] = ((start + r) % n2) as u8;
                let cw = &mut table[1][n % 4];
                cw.runs[at] = run_mask(n2, (start + n2 - r) % n2, r);
                cw.lifts[at] = cw.runs[at].wrapping_sub(lifted);
                cw.lasts[at] = ((start + n2 - r) % n2) as u8;
                r += 1;
            }
            start += 1;
        }
        n += 1;
    }
    table
};

/// Where hole `start` and `r` seeds (both below 16) are in a [`Laps`]:
/// one byte, which indexes its 256 entries with no bounds check and no
/// mask.
#[inline(always)]
fn lap_at(start: u8, r: u8) -> usize {
    usize::from(start << 4 | r)
}

impl Laps {
    /// The `r` seeds (at most the track's holes) dropped after `start` and
    /// the hole of the last one.
    #[inline(always)]
    fn run(&self, start: u8, r: u8) -> (u128, u8) {
        let at = lap_at(start, r);
        (self.runs[at], self.lasts[at])
    }
}

/// `BYTE_OF_BIT[bits]`: a byte 1 for each bit of `bits`, the others 0 (as
/// eight holes of a board read as a little-endian `u64`).
static BYTE_OF_BIT: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut bits = 0;
    while bits < 256 {
        let mut k = 0;
        while k < 8 {
            if bits & (1 << k) != 0 {
                table[bits] |= 1 << (8 * k);
            }
            k += 1;
        }
        bits += 1;
    }
    table
};

/// `SET_BITS[bits][k]`: the index of the `k + 1`-th lowest set bit of the
/// 7-bit `bits` (0 past the last); `SET_BITS[bits][7]`: how many are set.
/// (The build targets every x86-64, whose `count_ones` is a dozen steps.)
static SET_BITS: [[u8; 8]; 128] = {
    let mut table = [[0u8; 8]; 128];
    let mut bits = 0;
    while bits < 128 {
        let (mut bit, mut k) = (0, 0);
        while bit < 7 {
            if bits & (1 << bit) != 0 {
                table[bits][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        table[bits][7] = k as u8;
        bits += 1;
    }
    table
};

/// The set bits of the low 7 bits of `bits` (a row's holes).
#[inline(always)]
fn ones7(bits: u8) -> u8 {
    set_bits7(bits)[7]
}

/// The indices of the set bits of the low 7 bits of `bits`, lowest first
/// (0 past the last), and in the eighth byte how many are set.
#[inline(always)]
pub(crate) fn set_bits7(bits: u8) -> [u8; 8] {
    SET_BITS[usize::from(bits & 0x7F)]
}

/// The set bits of `bits` (below `1 << 14`, as the bits of a track are).
#[inline(always)]
fn ones(bits: u32) -> u8 {
    ones7(bits as u8) + ones7((bits >> 7) as u8)
}

/// The index of the `k + 1`-th lowest set bit of `bits` (below `1 << 14`,
/// more than `k` of them set): two 7-bit look-ups instead of a loop.
#[inline(always)]
fn nth_set_bit(bits: u32, k: u8) -> u32 {
    let low = SET_BITS[(bits & 0x7F) as usize];
    if k < low[7] {
        u32::from(low[usize::from(k & 7)])
    } else {
        7 + u32::from(SET_BITS[(bits >> 7 & 0x7F) as usize][usize::from((k - low[7]) & 7)])
    }
}

impl Sower<'_> {
    #[inline]
    pub(crate) fn new(rules: &Rules, closed: u16, dir: Dir, mover: Side) -> Sower<'_> {
        let how = rules.sowing();
        Sower {
            how,
            closed,
            dir,
            mover,
            budget: u64::from(rules.lap_budget()),
            bulk: how.bulk_laps,
            plain: how.plain_least != 0 && closed == 0,
        }
    }

    /// [`run_mask`]`(n2, first, r)` on this sower's track, from [`RUNS`]
    /// (`first` below `n2`, `r` at most `n2`).
    #[inline(always)]
    fn runs(&self, first: u8, r: u8) -> u128 {
        RUNS[usize::from(self.how.n % 8)][slot(first)][slot(r)]
    }

    /// The open holes: a 1 in the byte of each, as a board read as a
    /// little-endian `u128` (what a whole turn of the track drops), and
    /// how many: a lap of that many seeds or more goes round the track.
    /// (Worked out where needed, not kept: a larger sower costs every
    /// move.)
    #[inline(always)]
    fn open(&self) -> (u128, u8) {
        let n2 = self.how.n2;
        let track = self.runs(0, n2);
        // Only a match's later rounds close holes: most sowers have none,
        // and `closed` is then often a constant.
        if self.closed == 0 {
            return (track, n2);
        }
        let bits = usize::from(!self.closed);
        let spread =
            u128::from(BYTE_OF_BIT[bits & 0xFF]) | u128::from(BYTE_OF_BIT[bits >> 8 & 0xFF]) << 64;
        (spread & track, n2 - ones(u32::from(self.closed)))
    }

    #[inline]
    pub(crate) fn hole(&self, i: u8) -> Hole {
        if i < self.how.n {
            Hole::new(Side::South, i)
        } else {
            Hole::new(Side::North, i - self.how.n)
        }
    }

    #[inline]
    fn owner(&self, i: u8) -> Side {
        if i < self.how.n {
            Side::South
        } else {
            Side::North
        }
    }

    #[inline]
    fn is_closed(&self, i: u8) -> bool {
        self.closed & (1 << i) != 0
    }

    /// The next open hole in the sowing direction.
    #[inline]
    fn next(&self, i: u8) -> u8 {
        next_open(i, self.how.n2, self.dir, self.closed)
    }

    /// The hole before `i`, against the sowing direction (closed holes are
    /// only ever in round games, where chains do not occur, but skip anyway).
    #[inline]
    fn prev(&self, mut i: u8) -> u8 {
        loop {
            i = self.step_back(i);
            if !self.is_closed(i) {
                return i;
            }
        }
    }

    /// The hole before `i` against the sowing direction, closed or not.
    #[inline(always)]
    fn step_back(&self, i: u8) -> u8 {
        match self.dir {
            Dir::Cw if i + 1 == self.how.n2 => 0,
            Dir::Cw => i + 1,
            Dir::Ccw if i == 0 => self.how.n2 - 1,
            Dir::Ccw => i - 1,
        }
    }

    #[inline]
    fn take<O: Observer>(
        &self,
        b: &mut Board,
        st: &mut [u8; 2],
        i: u8,
        taker: Side,
        kind: CaptureKind,
        obs: &mut O,
    ) {
        let seeds = b[i as usize];
        b[i as usize] = 0;
        st[taker.index()] += seeds;
        obs.capture(Capture {
            hole: self.hole(i),
            seeds,
            taker,
            kind,
        });
    }

    /// Drops `r` seeds (fewer than the track's holes) one to each of the
    /// `r` holes after `start`. Returns the board, the hole of the last seed
    /// and the holes that got a seed (one in each of their bytes).
    #[inline(always)]
    fn drop_run(&self, v: u128, start: u8, r: u8) -> (u128, u8, u128) {
        let (run, last) = self.laps().run(start, r);
        (v + run, last, run)
    }

    /// This sower's [`Laps`] (a [`Sower::bulk`] one's).
    #[inline(always)]
    fn laps(&self) -> &'static Laps {
        let dir = match self.dir {
            Dir::Ccw => 0,
            Dir::Cw => 1,
        };
        &LAPS[dir][usize::from(self.how.n % 4)]
    }

    /// Lifts hole `start` of `b` and drops its seeds all at once (see
    /// [`Sower::plain_lap`]), taking the fours it made as the game says (see
    /// [`Sower::take_fours`]). Returns the hole of the last seed, or `None`
    /// when the lap ended the move on its own (Rio Kadalis's binikh).
    /// `(open, open_holes)`: [`Sower::open`], worked out once a move.
    #[inline(always)]
    fn bulk_lap(
        &self,
        b: &mut Board,
        st: &mut [u8; 2],
        start: u8,
        (open, open_holes): (u128, u8),
    ) -> Option<u8> {
        if self.plain {
            return Some(self.plain_lap(b, start, self.laps()));
        }
        let seeds = b[slot(start)];
        let mut v = u128::from_le_bytes(*b) & KEEP_ALL_BUT[slot(start)];
        let (v, last, run) = if seeds < open_holes {
            self.drop_part(v, start, seeds, open)
        } else {
            // A lap round the whole track: turn by turn, each a seed in
            // every open hole (the lifted one included), so that a hole
            // filled to 4 and taken in one turn fills again in the next,
            // as seed by seed. The lap's last seed falls in its last turn:
            // a whole one when the seeds divide evenly (the last in the
            // lifted hole), else the part turn after the whole ones.
            let (turns, rest) = (seeds / open_holes, seeds % open_holes);
            let whole = if rest == 0 { turns - 1 } else { turns };
            for _ in 0..whole {
                v += open;
                if self.how.four != FourRule::None {
                    let fours = bytes_equal_to_four(v) & open;
                    if fours != 0 {
                        // None of these seeds is the lap's last.
                        (v, _) = self.take_fours(st, v, fours, 0);
                    }
                }
            }
            if rest == 0 {
                (v + open, start, open)
            } else {
                self.drop_part(v, start, rest, open)
            }
        };
        // A hole of `run` holding 4 now held 3 before its seed (and was not
        // passed again): a four the lap made. Most laps make none.
        let fours = match self.how.four {
            FourRule::None => 0,
            _ => bytes_equal_to_four(v) & run,
        };
        if fours == 0 {
            *b = v.to_le_bytes();
            return Some(last);
        }
        let (v, binikh) = self.take_fours(st, v, fours, 1 << (8 * u32::from(slot(last) as u8)));
        *b = v.to_le_bytes();
        (!binikh).then_some(last)
    }

    /// Drops `r` seeds, fewer than the open holes (`open`, see
    /// [`Sower::open`]), one in each of the `r` open holes after `start`
    /// (see [`Sower::drop_run`]). Returns the board, the hole of the last
    /// seed and the holes that got a seed.
    #[inline(always)]
    fn drop_part(&self, v: u128, start: u8, r: u8, open: u128) -> (u128, u8, u128) {
        if self.closed == 0 {
            self.drop_run(v, start, r)
        } else {
            self.drop_run_past_closed(v, start, r, open)
        }
    }

    /// A lap of a [`Sower::plain`] sower (no hole closed, no four taken):
    /// lifts hole `start` and drops its seeds one per hole from the hole
    /// after it on, all at once: a whole turn of the board adds `q` to
    /// every hole, the remaining `r` seeds one to each of the `r` holes
    /// after `start` (`laps`: [`Sower::laps`]). Returns the hole of the
    /// last seed. Only for [`Sower::bulk`] sowers, whose laps depend on
    /// nothing but the counts; the differential tests check it against the
    /// seed-by-seed loop, which tracing observers still get.
    #[inline(always)]
    fn plain_lap(&self, b: &mut Board, start: u8, laps: &Laps) -> u8 {
        let seeds = b[slot(start)];
        let v = u128::from_le_bytes(*b);
        let n2 = self.how.n2;
        // Laps are mostly shorter than a turn: lifted and dropped in one
        // addition then, and no division.
        let (v, last) = if seeds < n2 {
            let at = lap_at(start, seeds);
            (v.wrapping_add(laps.lifts[at]), laps.lasts[at])
        } else {
            let lifted = v & KEEP_ALL_BUT[slot(start)];
            let (whole, _) = laps.run(start, n2);
            let (run, last) = laps.run(start, seeds % n2);
            (lifted + whole * u128::from(seeds / n2) + run, last)
        };
        *b = v.to_le_bytes();
        last
    }

    /// [`Sower::drop_run`] on a track with closed holes: the `r` seeds (at
    /// least one, fewer than the open holes) go to the next `r` open holes
    /// after `start`: the holes from `start` on in the sowing direction,
    /// up to the `r`-th open one, closed ones left out.
    #[inline(always)]
    fn drop_run_past_closed(&self, v: u128, start: u8, r: u8, open: u128) -> (u128, u8, u128) {
        debug_assert!(0 < r && u32::from(r) < open.count_ones());
        let n2 = u32::from(self.how.n2);
        let start = u32::from(start);
        // The open holes as bits, the track twice over (bits `i` and
        // `i + n2` for hole `i`), so that the holes from any hole on are a
        // run of bits without a wrap.
        let track = (1 << n2) - 1;
        let open_bits = u32::from(!self.closed) & track;
        let open_twice = open_bits | open_bits << n2;
        // The run of holes the seeds reach, in track order: `len` holes
        // from `first` on.
        let (first, len, last) = match self.dir {
            Dir::Ccw => {
                // Bit `k`: hole `start + 1 + k`; the last seed falls in the
                // `r`-th open one.
                let after = (open_twice >> (start + 1)) & track;
                let k = nth_set_bit(after, r - 1);
                let first = if start + 1 == n2 { 0 } else { start + 1 };
                let last = if first + k >= n2 {
                    first + k - n2
                } else {
                    first + k
                };
                (first, k + 1, last)
            }
            Dir::Cw => {
                // Bit `k`: hole `start + k`, sown from bit `n2 - 1` down;
                // the last seed falls in the `r`-th highest open one
                // (`start`'s own bit 0 left out).
                let around = (open_twice >> start) & track & !1;
                let k = nth_set_bit(around, ones(around) - r);
                let last = if start + k >= n2 {
                    start + k - n2
                } else {
                    start + k
                };
                (last, n2 - k, last)
            }
        };
        let run = self.runs(first as u8, len as u8) & open;
        (v + run, last as u8, run)
    }

    /// After a turn of a lap (or a lap shorter than a turn) left `v`,
    /// having made `fours` (a 1 in the byte of each hole it filled to 4):
    /// the fours taken as the seed-by-seed loop of [`Sower::drop_each`]
    /// takes them, each as its seed fell (the order of the takings changes
    /// nothing: the rule decides hole by hole who takes). `last_bit`: a 1
    /// in the byte of the hole of the lap's last seed, when the turn holds
    /// it (else 0). Returns the board, and whether the last seed ended the
    /// move (binikh), as `drop_each` says.
    #[inline(always)]
    fn take_fours(&self, st: &mut [u8; 2], v: u128, fours: u128, last_bit: u128) -> (u128, bool) {
        let (mid_lap, on_last) = (fours & !last_bit, fours & last_bit);
        let n = usize::from(self.how.n);
        // Seeds in the fours of `side`'s row among `fours` (a 1 a four).
        let of_row = |fours: u128, side: Side| {
            4 * byte_sum(fours & ROW_MASKS[n % ROW_MASKS.len()][side.index()]) as u8
        };
        let mover = self.mover.index();
        let (taken, binikh) = match self.how.four {
            FourRule::None => (0, false),
            FourRule::Pasu {
                to_owner,
                on_last: last_too,
            } => {
                let taken = if last_too { fours } else { mid_lap };
                if to_owner {
                    st[0] += of_row(taken, Side::South);
                    st[1] += of_row(taken, Side::North);
                } else {
                    st[mover] += 4 * byte_sum(taken) as u8;
                }
                (taken, false)
            }
            FourRule::OwnerMidLapMoverLast => {
                st[0] += of_row(mid_lap, Side::South);
                st[1] += of_row(mid_lap, Side::North);
                st[mover] += if on_last != 0 { 4 } else { 0 };
                (fours, on_last != 0)
            }
        };
        // Each taken byte is 1 in `taken`: spread to 0xFF and cleared.
        (v & !((taken << 8) - taken), binikh)
    }

    /// Sows one lap lifting hole `start`, then decides what follows.
    #[inline(always)]
    fn lap<O: Observer>(&self, b: &mut Board, st: &mut [u8; 2], start: u8, obs: &mut O) -> Step {
        let seeds = b[start as usize];
        obs.lap_start(self.hole(start), seeds);
        let dropped = if self.bulk && !O::RECORDS {
            self.bulk_lap(b, st, start, self.open())
        } else {
            b[start as usize] = 0;
            self.drop_each(b, st, start, seeds, obs)
        };
        let Some(last) = dropped else {
            return Step::End;
        };
        self.decide(b, st, last, obs)
    }

    /// Drops the seeds of a lap one by one, taking fours as they are made.
    /// Returns the hole of the last seed, or `None` when the lap ended the
    /// move on its own (Rio Kadalis's binikh).
    #[inline]
    fn drop_each<O: Observer>(
        &self,
        b: &mut Board,
        st: &mut [u8; 2],
        start: u8,
        mut seeds: u8,
        obs: &mut O,
    ) -> Option<u8> {
        let skip = self.how.skip_origin() && self.next(start) != start;
        let mut pos = start;
        while seeds > 0 {
            pos = self.next(pos);
            if skip && pos == start {
                pos = self.next(pos);
            }
            b[pos as usize] += 1;
            seeds -= 1;
            obs.sow(self.hole(pos));
            if b[pos as usize] == 4 {
                match self.how.four {
                    FourRule::None => {}
                    FourRule::Pasu { to_owner, on_last } => {
                        if seeds > 0 || on_last {
                            let taker = if to_owner {
                                self.owner(pos)
                            } else {
                                self.mover
                            };
                            self.take(b, st, pos, taker, CaptureKind::Pasu, obs);
                        }
                    }
                    FourRule::OwnerMidLapMoverLast => {
                        if seeds == 0 {
                            self.take(b, st, pos, self.mover, CaptureKind::Binikh, obs);
                            self.end(pos, LapEnd::Binikh(self.hole(pos)), b, st, obs);
                            return None;
                        }
                        self.take(b, st, pos, self.owner(pos), CaptureKind::FourToOwner, obs);
                    }
                }
            }
        }
        Some(pos)
    }

    /// The hole the next lap lifts after a lap whose last seed fell in
    /// `last`, or `None` when the move stops there: the relay rule of each
    /// game, read from the counts alone (`count(i)`: seeds in hole `i`).
    #[inline(always)]
    fn relay(&self, count: impl Fn(u8) -> u8, last: u8) -> Option<u8> {
        match self.how.relay {
            Relay::NextHole => {
                let after = self.next(last);
                (count(after) > 0).then_some(after)
            }
            Relay::LandingHoleAtLeast(least) => (count(last) >= least).then_some(last),
            // The hole was empty just before the last stone dropped exactly
            // when that stone is now alone in it, however the hole came to be
            // empty (never filled, lifted by this lap, or a four taken from it
            // earlier in the lap): a hole that has received stones since it was
            // emptied is occupied, as a player's hand finds it.
            Relay::LandingHoleUnlessEmpty => (count(last) != 1).then_some(last),
            Relay::Never => None,
        }
    }

    /// What follows a lap whose last seed fell in `last`.
    #[inline(always)]
    fn decide<O: Observer>(&self, b: &mut Board, st: &mut [u8; 2], last: u8, obs: &mut O) -> Step {
        match self.relay(|i| b[slot(i)], last) {
            Some(next) => {
                self.end(last, LapEnd::Relay(self.hole(next)), b, st, obs);
                Step::Relay(next)
            }
            None => {
                self.stop(b, st, last, obs);
                Step::End
            }
        }
    }

    /// The move stops after a lap whose last seed fell in `last`: the
    /// captures that follow.
    #[inline(always)]
    fn stop<O: Observer>(&self, b: &mut Board, st: &mut [u8; 2], last: u8, obs: &mut O) {
        if self.how.relay == Relay::NextHole {
            self.stop_at_next(b, st, last, obs);
        } else {
            self.stop_landed(b, st, last, obs);
        }
    }

    /// [`Sower::stop`] for a next-hole relay.
    #[inline(always)]
    fn stop_at_next<O: Observer>(&self, b: &mut Board, st: &mut [u8; 2], last: u8, obs: &mut O) {
        let after = self.next(last);
        self.end(last, LapEnd::NextEmpty(self.hole(after)), b, st, obs);
        self.capture_beyond_empty(b, st, after, obs);
    }

    /// [`Sower::stop`] for a landing-hole relay.
    #[inline(always)]
    fn stop_landed<O: Observer>(&self, b: &mut Board, st: &mut [u8; 2], last: u8, obs: &mut O) {
        // A landing-hole relay stopped: the last seed is alone in its hole,
        // or (a relay from at least more) the hole holds too few.
        if b[slot(last)] == 1 {
            self.end(last, LapEnd::LandedEmpty(self.hole(last)), b, st, obs);
            return;
        }
        let end = if self.how.relay == Relay::Never {
            LapEnd::Landed(self.hole(last))
        } else {
            LapEnd::LandedSmall(self.hole(last))
        };
        self.end(last, end, b, st, obs);
        if matches!(self.how.capture, CaptureRule::Chain { .. }) && self.owner(last) != self.mover {
            self.chain_of_twos_and_threes(b, st, last, obs);
        }
    }

    #[inline]
    fn end<O: Observer>(&self, last: u8, end: LapEnd, b: &Board, st: &[u8; 2], obs: &mut O) {
        obs.lap_end(self.hole(last), end, &b[..self.how.n2 as usize], *st);
    }

    /// After a next-hole relay stopped at the empty hole `empty`: the
    /// capture of the hole beyond it.
    #[inline(always)]
    fn capture_beyond_empty<O: Observer>(
        &self,
        b: &mut Board,
        st: &mut [u8; 2],
        empty: u8,
        obs: &mut O,
    ) {
        let target = self.next(empty);
        if b[target as usize] == 0 {
            return;
        }
        match self.how.capture {
            CaptureRule::BeyondEmpty { series } => {
                self.take(b, st, target, self.mover, CaptureKind::TwoAhead, obs);
                if series {
                    self.capture_series(b, st, target, obs);
                }
            }
            CaptureRule::Pussa { opposite } => {
                self.take(b, st, target, self.mover, CaptureKind::Pussa, obs);
                if opposite {
                    let facing = self.how.n2 - 1 - target;
                    if !self.is_closed(facing) && b[facing as usize] > 0 {
                        self.take(b, st, facing, self.mover, CaptureKind::Opposite, obs);
                    }
                }
            }
            CaptureRule::None
            | CaptureRule::Chain { .. }
            | CaptureRule::OppositeOfEmptyOwn { .. } => {}
        }
    }

    /// `series-capture`, after the capture of `target`: on while the holes
    /// alternate empty, non-empty. (Given the sower by value, as
    /// [`Sower::sow_apart`] is: it is rarely called, and not inlined.)
    fn capture_series<O: Observer>(self, b: &mut Board, st: &mut [u8; 2], target: u8, obs: &mut O) {
        let mut at = target;
        loop {
            let gap = self.next(at);
            if b[gap as usize] != 0 {
                break;
            }
            let further = self.next(gap);
            if b[further as usize] == 0 {
                break;
            }
            self.take(b, st, further, self.mover, CaptureKind::Series, obs);
            at = further;
        }
    }

    /// The capture chain from the landing hole backwards through the
    /// opponent's 2s and 3s, with the grand-slam exception (Olowuka).
    #[inline(always)]
    fn chain_of_twos_and_threes<O: Observer>(
        &self,
        b: &mut Board,
        st: &mut [u8; 2],
        last: u8,
        obs: &mut O,
    ) {
        if !O::RECORDS && self.closed == 0 {
            self.chain_untraced(b, st, last);
            return;
        }
        let opp = self.mover.opposite();
        let mut chain = [0u8; 16];
        let mut len = 0;
        let mut sum = 0u32;
        let mut at = last;
        while self.owner(at) == opp && matches!(b[at as usize], 2 | 3) && len < self.how.n as usize
        {
            chain[len] = at;
            len += 1;
            sum += u32::from(b[at as usize]);
            at = self.prev(at);
        }
        let row_total = row_sum(b, usize::from(self.how.n), opp);
        let mut take = len;
        if sum == row_total && len > 0 {
            match self.grand_slam() {
                GrandSlamRule::LeavesOne => {
                    take -= 1;
                    let kept = chain[take];
                    obs.grand_slam_left(self.hole(kept), b[kept as usize]);
                }
                GrandSlamRule::CapturesNothing => {
                    take = 0;
                    obs.grand_slam_forgone(self.hole(last));
                }
                GrandSlamRule::TakesAll => {}
            }
        }
        for &i in &chain[..take] {
            self.take(b, st, i, self.mover, CaptureKind::Chain, obs);
        }
    }

    /// [`Sower::chain_of_twos_and_threes`] with nothing recorded and no
    /// hole closed (every Olowuka move): the chain walked once to find its
    /// length, its seeds and its far end, then taken, with no list of its
    /// holes and no closed hole to step over. (It cannot leave the
    /// opponent's row, whose neighbours across either end are the
    /// mover's.)
    #[inline(always)]
    fn chain_untraced(&self, b: &mut Board, st: &mut [u8; 2], last: u8) {
        let opp = self.mover.opposite();
        // No hole is closed: a step back is the hole before.
        let (mut len, mut sum, mut far, mut at) = (0u8, 0u32, last, last);
        while self.owner(at) == opp && matches!(b[slot(at)], 2 | 3) {
            sum += u32::from(b[slot(at)]);
            len += 1;
            far = at;
            at = self.step_back(at);
        }
        if len == 0 {
            return;
        }
        // The grand slam: a chain that would take every seed of the row
        // leaves its far end (or, as the game says, all of it, or takes
        // all).
        if sum == row_sum(b, usize::from(self.how.n), opp) {
            match self.grand_slam() {
                GrandSlamRule::LeavesOne => {
                    len -= 1;
                    sum -= u32::from(b[slot(far)]);
                }
                GrandSlamRule::CapturesNothing => return,
                GrandSlamRule::TakesAll => {}
            }
        }
        let mut at = last;
        for _ in 0..len {
            b[slot(at)] = 0;
            at = self.step_back(at);
        }
        st[self.mover.index()] += sum as u8;
    }

    /// What a grand slam does, for a chain sower.
    #[inline(always)]
    fn grand_slam(&self) -> GrandSlamRule {
        match self.how.capture {
            CaptureRule::Chain { grand_slam } => grand_slam,
            _ => GrandSlamRule::LeavesOne,
        }
    }

    /// Sows a whole move from `start`, relay after relay, and rules it finite,
    /// endless or undecided exactly as spec/rules/common.md §4 says.
    ///
    /// Brent's cycle detection over lap-start states `s_k = (board, hole to
    /// lift)` needs constant memory. If `s_j = s_i` for some `i < j ≤ B`, the
    /// search finds the cycle by hare index `4B + 4` at the latest (the
    /// tortoise rests at `2^k - 1 ≥ μ` with `2^k ≥ λ`, so `2^k < 2(B + 1)`);
    /// then `μ` is measured so that the verdict is `μ + λ ≤ B`, whatever the
    /// detector. Stores are not part of the state: seeds only ever leave the
    /// board during a move, so equal boards mean equal stores.
    #[inline(always)]
    pub(crate) fn sow<O: Observer>(
        &self,
        board: Board,
        stores: [u8; 2],
        start: u8,
        obs: &mut O,
    ) -> Result<Sown, Unending> {
        if self.plain && !O::RECORDS {
            return self.sow_plain(board, stores, start);
        }
        if self.bulk && !O::RECORDS {
            return self.sow_bulk(board, stores, start);
        }
        self.sow_apart(board, stores, start, obs)
    }

    /// [`Sower::sow_store_track`] with nothing recorded, in place, for
    /// [`crate::Position::play_store_track`]: random playouts of a game
    /// whose stores lie on the track sow here, not out of line. Whether
    /// the last seed fell into the mover's store.
    #[inline(always)]
    pub(crate) fn sow_store_track_in_place(
        self,
        b: &mut Board,
        st: &mut [u8; 2],
        start: u8,
    ) -> bool {
        self.store_track_lap(b, st, start, &mut NoTrace)
    }

    /// [`Sower::sow_laps`] out of line, given the sower by value: for the
    /// moves the fast paths leave (traced ones, non-bulk sowers, and moves
    /// longer than [`Sower::SHORT_MOVE`] laps). A sower whose address a
    /// call takes is built in memory, field by field, for every move; one
    /// handed over by value is copied there only when the call is made.
    #[inline(never)]
    fn sow_apart<O: Observer>(
        self,
        board: Board,
        stores: [u8; 2],
        start: u8,
        obs: &mut O,
    ) -> Result<Sown, Unending> {
        if self.how.store_track() {
            return Ok(self.sow_store_track(board, stores, start, obs));
        }
        // A single lap (Oware) shorter than a turn of the track never
        // reaches the hole it started from, skipped or not: dropped at
        // once, as a bulk sower's lap is.
        if self.how.relay == Relay::Never
            && !O::RECORDS
            && self.closed == 0
            && runs_tabled(self.how.n)
            && board[slot(start)] < self.how.n2
        {
            let (mut b, mut st) = (board, stores);
            let last = self.plain_lap(&mut b, start, self.laps());
            self.stop_landed(&mut b, &mut st, last, &mut NoTrace);
            return self.ended(b, st, 1);
        }
        self.sow_laps(board, stores, start, obs)
    }

    /// A single lap on a track whose stores lie on it, each after its own
    /// row (Kalah): the mover drops a seed into their own store as they
    /// pass it and passes the opponent's by. A last seed in the mover's
    /// store ends the lap there (the mover moves again: see
    /// [`crate::Position`]); one in an empty house of the mover's own row
    /// captures as [`CaptureRule::OppositeOfEmptyOwn`] says. Counter-
    /// clockwise only (no such game sows clockwise). Never endless.
    fn sow_store_track<O: Observer>(
        self,
        board: Board,
        stores: [u8; 2],
        start: u8,
        obs: &mut O,
    ) -> Sown {
        let (mut b, mut st) = (board, stores);
        self.store_track_lap(&mut b, &mut st, start, obs);
        Sown {
            board: b,
            stores: st,
            laps: 1,
        }
    }

    /// [`Sower::sow_store_track`] on `(b, st)` in place: whether the last
    /// seed fell into the mover's store.
    #[inline(always)]
    fn store_track_lap<O: Observer>(
        self,
        b: &mut Board,
        st: &mut [u8; 2],
        start: u8,
        obs: &mut O,
    ) -> bool {
        debug_assert_eq!(self.dir, Dir::Ccw);
        let n2 = self.how.n2;
        let mover = self.mover;
        // The mover's last hole: their store comes after it.
        let row_end = match mover {
            Side::South => self.how.n - 1,
            Side::North => n2 - 1,
        };
        let mut seeds = b[slot(start)];
        if !O::RECORDS && runs_tabled(self.how.n) && seeds <= n2 {
            return self.short_store_lap(b, st, start, row_end, seeds);
        }
        obs.lap_start(self.hole(start), seeds);
        b[slot(start)] = 0;
        let (mut pos, mut in_store) = (start, false);
        while seeds > 0 {
            if !in_store && pos == row_end {
                in_store = true;
                st[mover.index()] += 1;
                obs.sow_store(mover);
            } else {
                in_store = false;
                pos = if pos + 1 == n2 { 0 } else { pos + 1 };
                if self.how.skip_origin() && pos == start {
                    continue;
                }
                b[slot(pos)] += 1;
                obs.sow(self.hole(pos));
            }
            seeds -= 1;
        }
        if in_store {
            self.end(pos, LapEnd::IntoStore(mover), b, st, obs);
        } else if b[slot(pos)] == 1 && self.owner(pos) == mover {
            self.end(pos, LapEnd::LandedEmpty(self.hole(pos)), b, st, obs);
            let facing = n2 - 1 - pos;
            let empty = matches!(
                self.how.capture,
                CaptureRule::OppositeOfEmptyOwn { empty: true }
            );
            if b[slot(facing)] > 0 || empty {
                self.take(b, st, pos, mover, CaptureKind::LastSeed, obs);
                if b[slot(facing)] > 0 {
                    self.take(b, st, facing, mover, CaptureKind::Facing, obs);
                }
            }
        } else {
            self.end(pos, LapEnd::Landed(self.hole(pos)), b, st, obs);
        }
        in_store
    }

    /// [`Sower::store_track_lap`] for a lap shorter than a turn (the holes
    /// and the mover's store: `seeds` at most the track's holes), nothing
    /// recorded, for rows of 5 to 7 holes ([`Sower::laps`]). Such a lap
    /// passes the store at most once and never comes back to the hole it
    /// started from: its holes are the run of holes after it, less the
    /// one seed the store takes when the lap gets there, dropped at once
    /// (as a bulk sower's lap is), with no test of where the track wraps.
    /// Random playouts sow most Kalah moves here, so it is written for
    /// the processor's branch predictor: the one branch that depends on
    /// the move is whether it captures (a few plies in a hundred), the
    /// rest is worked out as values. Whether the last seed fell into the
    /// mover's store.
    #[inline(always)]
    fn short_store_lap(
        self,
        b: &mut Board,
        st: &mut [u8; 2],
        start: u8,
        row_end: u8,
        seeds: u8,
    ) -> bool {
        let before_store = row_end - start;
        let into_store = seeds > before_store;
        let in_store = seeds == before_store + 1;
        let (run, last) = self.laps().run(start, seeds - u8::from(into_store));
        let v = (u128::from_le_bytes(*b) & KEEP_ALL_BUT[slot(start)]) + run;
        *b = v.to_le_bytes();
        let mut gained = u8::from(into_store);
        // The last seed in a hole of the mover's own row (`row_end` and
        // the `n - 1` before it) that was empty: a capture, of the facing
        // hole's seeds with it, or of it alone under `empty-capture`. The
        // three tests are folded into one byte, 1 exactly when all hold,
        // so that the compiler makes them one branch, not three.
        let elsewhere = row_end.wrapping_sub(last) >= self.how.n;
        let landed = b[slot(last)] | u8::from(elsewhere) << 1 | u8::from(in_store) << 2;
        if landed == 1 {
            let facing = self.how.n2 - 1 - last;
            let facing_seeds = b[slot(facing)];
            let empty = matches!(
                self.how.capture,
                CaptureRule::OppositeOfEmptyOwn { empty: true }
            );
            if facing_seeds > 0 || empty {
                gained += 1 + facing_seeds;
                b[slot(last)] = 0;
                b[slot(facing)] = 0;
            }
        }
        st[self.mover.index()] += gained;
        in_store
    }

    /// [`Sower::sow`] lap by lap, with cycle detection from the second lap.
    #[inline(always)]
    fn sow_laps<O: Observer>(
        &self,
        board: Board,
        stores: [u8; 2],
        start: u8,
        obs: &mut O,
    ) -> Result<Sown, Unending> {
        let mut b = board;
        let mut st = stores;
        // Most moves end with their first lap: no cycle bookkeeping for them.
        match self.lap(&mut b, &mut st, start, obs) {
            Step::End => self.ended(b, st, 1),
            Step::Relay(h) => self.relays(board, stores, start, b, st, h, obs),
        }
    }

    /// [`Sower::sow`] for a bulk sower with no observer. Most moves take a
    /// lap or two (1.4 on average in generated Olowuka games): up to
    /// [`Sower::SHORT_MOVE`] laps are sown without cycle bookkeeping (a move
    /// that ends repeats no state). A longer move starts again on the
    /// general loop, which detects cycles.
    #[inline(always)]
    fn sow_bulk(&self, board: Board, stores: [u8; 2], start: u8) -> Result<Sown, Unending> {
        let mut b = board;
        let mut st = stores;
        let mut h = start;
        let open = self.open();
        // Counted by hand: a range's iterator costs twice the steps.
        let mut laps = 1;
        loop {
            let Some(last) = self.bulk_lap(&mut b, &mut st, h, open) else {
                return self.ended(b, st, laps);
            };
            match self.relay(|i| b[slot(i)], last) {
                Some(next) => h = next,
                None => {
                    self.stop(&mut b, &mut st, last, &mut NoTrace);
                    return self.ended(b, st, laps);
                }
            }
            if laps == Sower::SHORT_MOVE {
                return self.sow_apart(board, stores, start, &mut NoTrace);
            }
            laps += 1;
        }
    }

    /// [`Sower::sow_bulk`] for a sower with no hole closed and no four
    /// taken (Olowuka, Olinda Keliya): see [`Sower::plain_laps`].
    #[inline(always)]
    fn sow_plain(&self, board: Board, stores: [u8; 2], start: u8) -> Result<Sown, Unending> {
        let (mut b, mut st) = (board, stores);
        match self.plain_laps(&mut b, &mut st, start) {
            Some(laps) => self.ended(b, st, laps),
            None => self.sow_apart(board, stores, start, &mut NoTrace),
        }
    }

    /// The laps of a [`Sower::plain`] sower's move from `start`, sown on
    /// `(b, st)` in place: kept to [`Sower::plain_lap`], the relay rule
    /// read from [`SowRules`] once a move (see `plain_after`), the stores
    /// left alone until the move stops. The number of laps, or `None` for
    /// a move longer than [`Sower::SHORT_MOVE`] laps, `(b, st)` then left
    /// part-way (the general loop, which detects cycles, starts again from
    /// the caller's copy).
    #[inline(always)]
    fn plain_laps(&self, b: &mut Board, st: &mut [u8; 2], start: u8) -> Option<u64> {
        // A loop for each relay hole, chosen once a move: a landing-hole
        // relay (Olowuka's) reads the landing hole itself, with no look-up.
        // (`plain_after` is 0 exactly for landing-hole relays.)
        if self.how.plain_after == 0 {
            let (laps, last) = self.plain_relays(b, start, |last| last)?;
            self.stop_landed(b, st, last, &mut NoTrace);
            Some(laps)
        } else {
            let track = self.laps();
            let (laps, last) = self.plain_relays(b, start, |last| track.lasts[lap_at(last, 1)])?;
            self.stop_at_next(b, st, last, &mut NoTrace);
            Some(laps)
        }
    }

    /// The laps of [`Sower::plain_laps`] up to the one that stops the
    /// move: its number and the hole of its last seed, or `None` past
    /// [`Sower::SHORT_MOVE`] laps. `relay_hole(last)`: the hole the relay
    /// rule reads after a lap whose last seed fell in `last`, and lifts
    /// next when it holds `plain_least` seeds or more.
    #[inline(always)]
    fn plain_relays(
        &self,
        b: &mut Board,
        start: u8,
        relay_hole: impl Fn(u8) -> u8,
    ) -> Option<(u64, u8)> {
        let track = self.laps();
        let least = self.how.plain_least;
        let mut h = start;
        // Counted by hand: a range's iterator costs twice the steps.
        let mut laps = 1;
        loop {
            let last = self.plain_lap(b, h, track);
            let from = relay_hole(last);
            if b[slot(from)] < least {
                return Some((laps, last));
            }
            if laps == Sower::SHORT_MOVE {
                return None;
            }
            laps += 1;
            h = from;
        }
    }

    /// [`Sower::sow`] with nothing recorded, in place: the move's laps with
    /// `(b, st)` the board and stores it left, when it is finite within the
    /// lap budget; else `None`, `(b, st)` as they were. What
    /// [`crate::Position::play_lean`] needs: a plain sower's move is sown
    /// straight into the position, never copied out of a [`Sown`].
    #[inline(always)]
    pub(crate) fn sow_in_place(&self, b: &mut Board, st: &mut [u8; 2], start: u8) -> Option<u64> {
        let sown = if self.plain {
            // Kept to put back: the laps are sown on `(b, st)` itself.
            let (board, stores) = (*b, *st);
            match self.plain_laps(b, st, start) {
                Some(laps) if self.within_budget(laps) => return Some(laps),
                Some(_) => {
                    (*b, *st) = (board, stores);
                    return None;
                }
                None => {
                    (*b, *st) = (board, stores);
                    self.sow_apart(board, stores, start, &mut NoTrace)
                }
            }
        } else if self.how.short_single() && self.closed == 0 && b[slot(start)] < self.how.n2 {
            // Oware's common move, sown here rather than out of line (as
            // `sow_apart` sows it for a move to rule on): one lap, which
            // never reaches the hole it started from, so skipped or not,
            // and is within any lap budget (at least 1).
            let last = self.plain_lap(b, start, self.laps());
            self.stop_landed(b, st, last, &mut NoTrace);
            return Some(1);
        } else {
            self.sow(*b, *st, start, &mut NoTrace)
        };
        let sown = sown.ok()?;
        (*b, *st) = (sown.board, sown.stores);
        Some(sown.laps)
    }

    /// Laps [`Sower::sow_bulk`] sows before it hands a move to the loop
    /// that detects cycles. Olinda Keliya's relays run long: at 16, its
    /// finite moves of 17 to 64 laps were sown twice (3% of the
    /// instructions of its depth-9 searches, 2% of its MCTS playouts);
    /// endless moves, which sow these laps before the loop finds their
    /// cycle, are rare.
    const SHORT_MOVE: u64 = 64;

    /// Whether lap number `laps` (a move's last, or the lap-start state
    /// that repeats an earlier one) is within the lap budget: the one
    /// bound on a move, past which it is undecided.
    #[inline(always)]
    fn within_budget(&self, laps: u64) -> bool {
        laps <= self.budget
    }

    /// A move whose last lap, number `laps`, left `(b, st)`: finite within
    /// the lap budget, else undecided.
    #[inline]
    fn ended(&self, b: Board, st: [u8; 2], laps: u64) -> Result<Sown, Unending> {
        if self.within_budget(laps) {
            Ok(Sown {
                board: b,
                stores: st,
                laps,
            })
        } else {
            Err(Unending::Undecided)
        }
    }

    /// [`Sower::sow`] from its second lap: the first lap from `(board,
    /// start)` left `(b, st)` with hole `h` to lift.
    #[allow(clippy::too_many_arguments)]
    fn relays<O: Observer>(
        &self,
        board: Board,
        stores: [u8; 2],
        start: u8,
        mut b: Board,
        mut st: [u8; 2],
        mut h: u8,
        obs: &mut O,
    ) -> Result<Sown, Unending> {
        // Brent: the hare `(b, h)` is `lam` laps past the tortoise.
        let mut tortoise = (board, start);
        let mut power: u64 = 1;
        let mut lam: u64 = 1;
        let mut laps: u64 = 1;
        let give_up = 4 * self.budget + 4;
        loop {
            if h == tortoise.1 && b == tortoise.0 {
                let mu = self.tail_length(board, stores, start, lam);
                let first_repeat = mu + lam;
                return Err(if self.within_budget(first_repeat) {
                    Unending::Endless {
                        first_repeat,
                        cycle: lam,
                    }
                } else {
                    Unending::Undecided
                });
            }
            if lam == power {
                tortoise = (b, h);
                power *= 2;
                lam = 0;
            }
            if laps >= give_up {
                return Err(Unending::Undecided);
            }
            let step = self.lap(&mut b, &mut st, h, obs);
            laps += 1;
            match step {
                Step::End => return self.ended(b, st, laps),
                Step::Relay(next) => h = next,
            }
            lam += 1;
        }
    }

    /// Index of the first state on the cycle of length `lam`.
    fn tail_length(&self, board: Board, stores: [u8; 2], start: u8, lam: u64) -> u64 {
        let (mut tb, mut ts, mut th) = (board, stores, start);
        let (mut hb, mut hs, mut hh) = (board, stores, start);
        for _ in 0..lam {
            hh = self.relay_target(&mut hb, &mut hs, hh);
        }
        let mut mu = 0;
        while !(tb == hb && th == hh) {
            th = self.relay_target(&mut tb, &mut ts, th);
            hh = self.relay_target(&mut hb, &mut hs, hh);
            mu += 1;
        }
        mu
    }

    fn relay_target(&self, b: &mut Board, st: &mut [u8; 2], h: u8) -> u8 {
        match self.lap(b, st, h, &mut NoTrace) {
            Step::Relay(next) => next,
            Step::End => unreachable!("a state on a detected cycle always relays"),
        }
    }
}
