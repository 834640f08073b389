//! What a move does step by step (laps, relays, captures), for the tools
//! that show or check it: the observer the sower reports to, and a trace
//! that keeps every event.

use serde::{Deserialize, Serialize};

use crate::side::{Hole, Side};

/// Why a capture happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureKind {
    /// Olinda Keliya: the hole two after the lap's last seed, past an empty hole.
    TwoAhead,
    /// Olinda Keliya `series-capture`: a further hole of an empty / non-empty series.
    Series,
    /// Olowuka: a hole of the capture chain (2 or 3 seeds in the opponent's row).
    Chain,
    /// Pallankuzhi: a hole reaching exactly four during sowing.
    Pasu,
    /// Pallankuzhi: the hole after the empty hole that stopped sowing.
    Pussa,
    /// Pallankuzhi `capture-opposite`: the hole facing a pussa capture.
    Opposite,
    /// Rio Kadalis: four made by the lap's last stone, taken by the mover.
    Binikh,
    /// Rio Kadalis: four made during sowing, taken by the row's owner.
    FourToOwner,
    /// Kalah: the last seed, in an empty house of the mover's row.
    LastSeed,
    /// Kalah: the house facing the one the last seed fell in.
    Facing,
}

impl CaptureKind {
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            CaptureKind::TwoAhead => "two-ahead",
            CaptureKind::Series => "series",
            CaptureKind::Chain => "chain",
            CaptureKind::Pasu => "pasu",
            CaptureKind::Pussa => "pussa",
            CaptureKind::Opposite => "opposite",
            CaptureKind::Binikh => "binikh",
            CaptureKind::FourToOwner => "four-to-owner",
            CaptureKind::LastSeed => "last-seed",
            CaptureKind::Facing => "facing",
        }
    }
}

/// Seeds leaving the board during a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Capture {
    pub hole: Hole,
    pub seeds: u8,
    pub taker: Side,
    pub kind: CaptureKind,
}

/// How a lap ended: the relay decision, or why the move stops there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "hole")]
pub enum LapEnd {
    /// Another lap follows, lifting this hole (next-hole or landing-hole relay).
    Relay(Hole),
    /// Next-hole games: the hole after the last one is empty, so sowing stops
    /// (any capture beyond it is reported as a [`Capture`]).
    NextEmpty(Hole),
    /// The last seed fell into a hole that was empty just before it dropped.
    LandedEmpty(Hole),
    /// Olowuka: the last seed made 2 or 3; a capture chain follows when the
    /// hole is the opponent's.
    LandedSmall(Hole),
    /// Rio Kadalis: the last stone made four, which the mover took.
    Binikh(Hole),
    /// A single-lap game (Oware, Kalah): the last seed fell in this hole,
    /// which it did not find empty (Oware's capture chain may follow).
    Landed(Hole),
    /// Kalah: the last seed fell in this side's store (the side moves
    /// again); the lap's `last` hole is the one before the store.
    IntoStore(Side),
}

/// Receives the steps of a move as the engine sows it. Every method has an
/// empty default, so [`NoTrace`] costs nothing in the hot loop.
pub trait Observer {
    /// Whether this observer wants the events. `false` lets [`crate::Game`]
    /// play a move by its fast lane, which reports none.
    const RECORDS: bool = true;

    /// A lap begins: `seeds` lifted from `hole`.
    fn lap_start(&mut self, _hole: Hole, _seeds: u8) {}
    /// One seed dropped into `hole`.
    fn sow(&mut self, _hole: Hole) {}
    /// One seed dropped into `side`'s store, on a track that passes it
    /// (Kalah).
    fn sow_store(&mut self, _side: Side) {}
    fn capture(&mut self, _capture: Capture) {}
    /// Olowuka's grand slam: the chain's furthest hole stays on the board.
    fn grand_slam_left(&mut self, _hole: Hole, _seeds: u8) {}
    /// Oware's grand slam: the chain from `hole` (the last seed's) would
    /// take the opponent's every seed, so nothing is captured.
    fn grand_slam_forgone(&mut self, _hole: Hole) {}
    /// A lap ended with `last` as its last sown hole. `board` lists South's
    /// holes then North's, each from its owner's left (closed holes hold 0),
    /// as the lap's sowing left them: captures made during the lap (pasu,
    /// fours) are taken, while the captures that end a move (two ahead,
    /// pussa, Olowuka's chain and its grand-slam note) follow this call as
    /// their own events. `stores` is South's and North's store or captures.
    fn lap_end(&mut self, _last: Hole, _end: LapEnd, _board: &[u8], _stores: [u8; 2]) {}
}

/// The observer that records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl Observer for NoTrace {
    const RECORDS: bool = false;
}

/// One step of a move's trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum Event {
    LapStart {
        hole: Hole,
        seeds: u8,
    },
    Sow {
        hole: Hole,
    },
    SowStore {
        side: Side,
    },
    Capture(Capture),
    GrandSlamLeft {
        hole: Hole,
        seeds: u8,
    },
    GrandSlamForgone {
        hole: Hole,
    },
    LapEnd {
        last: Hole,
        end: LapEnd,
        board: Vec<u8>,
        stores: [u8; 2],
    },
}

/// An observer that keeps every event, for the render and validate tools.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    pub events: Vec<Event>,
}

impl Trace {
    /// Number of laps sown.
    #[must_use]
    pub fn laps(&self) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, Event::LapStart { .. }))
            .count()
    }

    pub fn captures(&self) -> impl Iterator<Item = &Capture> {
        self.events.iter().filter_map(|e| match e {
            Event::Capture(c) => Some(c),
            _ => None,
        })
    }
}

impl Observer for Trace {
    fn lap_start(&mut self, hole: Hole, seeds: u8) {
        self.events.push(Event::LapStart { hole, seeds });
    }
    fn sow(&mut self, hole: Hole) {
        self.events.push(Event::Sow { hole });
    }
    fn sow_store(&mut self, side: Side) {
        self.events.push(Event::SowStore { side });
    }
    fn capture(&mut self, capture: Capture) {
        self.events.push(Event::Capture(capture));
    }
    fn grand_slam_left(&mut self, hole: Hole, seeds: u8) {
        self.events.push(Event::GrandSlamLeft { hole, seeds });
    }
    fn grand_slam_forgone(&mut self, hole: Hole) {
        self.events.push(Event::GrandSlamForgone { hole });
    }
    fn lap_end(&mut self, last: Hole, end: LapEnd, board: &[u8], stores: [u8; 2]) {
        self.events.push(Event::LapEnd {
            last,
            end,
            board: board.to_vec(),
            stores,
        });
    }
}
