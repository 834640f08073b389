//! Frames: boards with a heading, for following a move lap by lap or a game
//! ply by ply.

use std::fmt::{self, Write};

use mancala_prose::plural;
use mancala_rules::{
    Capture, CaptureKind, Dir, Event, GameId, Hole, LapEnd, Move, NoTrace, Observer, Options,
    PlayError, PlayErrorKind, Played, Position, Relay, Rules, Side, Trace,
};
use serde::Serialize;

use super::draw::{Board, Highlights, Style, draw_board, side_name, write_wrapped};

/// How many laps of one move [`lap_frames`] draws, and [`ply_frame`] keeps
/// events of, unless told otherwise. Natural games stay far below it (the
/// longest cycle seen is 1,197 laps); it bounds what a pathological move
/// writes (lap frames are made one at a time, so their memory is bounded
/// whatever the limit) and the events a ply frame keeps.
pub const DEFAULT_MAX_LAPS: usize = 10_000;

/// What a frame shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum FrameKind {
    /// A position on its own: the final one, or the one after ply N.
    Position,
    /// The position a move starts from, before its first lap.
    Before {
        #[serde(rename = "move")]
        mv: Move,
    },
    /// The board after lap `lap` (counted from 1) of a move.
    Lap { lap: u64 },
    /// The position after a whole move, ply `number` of a game.
    Ply {
        number: usize,
        #[serde(rename = "move")]
        mv: Move,
    },
}

/// One diagram with its heading, and the rules-crate events it shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Frame {
    #[serde(flatten)]
    pub kind: FrameKind,
    /// Lines printed above the board (wrapped to 80 columns when drawn).
    pub heading: Vec<String>,
    pub board: Board,
    pub highlights: Highlights,
    /// The steps shown: one lap's for a lap frame, the move's for a ply.
    pub events: Vec<Event>,
}

/// Frames as `--format json` writes them. The shape (copied to spec/json.md):
///
/// ```text
/// {
///   "game": "olowuka",                 // game id
///   "options": "",                     // canonical option words, "" for none
///   "frames": [
///     {
///       "kind": "lap",                 // "position" | "before" | "lap" | "ply"
///       "lap": 2,                      // "lap" frames: lap number from 1
///                                      // "ply" frames: "number": 12
///                                      // "before" and "ply": "move": "E:ccw" (the move as written)
///       "heading": ["lap 2: F(6) sown a b c d e f, ends in f, now 3", "…"],
///       "board": {
///         "south": [3, 0, 1, 0, 1, 0],  // from South's left (A first); null = closed
///         "north": [2, 0, 0, 0, 0, 0],  // from North's left (a first); null = closed
///         "stores": [27, 14],           // South, North: store, captured or winnings
///         "to_move": "south",           // the side to move, or sowing when "sowing"
///         "sowing": true,               // in the middle of a move
///         "directions": ["ccw", "ccw"], // South's, North's; null = not yet chosen
///         "round": 1
///       },
///       "highlights": {
///         "lifted": "F",      // a hole label, or null
///         "last": "f",        // or null
///         "captured": ["f", …]
///       },
///       "events": [                    // the rules crate's trace events, in order
///         {"event": "lap-start", "hole": "F", "seeds": 6},
///         {"event": "sow", "hole": "a"},
///         {"event": "lap-end", "last": "f", "end": {"kind": "landed-small", "hole": "f"},
///          "board": [3, 0, …], "stores": [16, 14]},   // board: South then North, closed = 0
///         {"event": "capture", "hole": "f", "seeds": 3, "taker": "south", "kind": "chain"},
///         {"event": "grand-slam-left", "hole": "a", "seeds": 2}
///       ]
///     }
///   ]
/// }
/// ```
///
/// A hole is its label: `"A"`… for South, `"a"`… for North, each counted
/// from its owner's left. `end.kind` is `relay`, `next-empty`, `landed-empty`,
/// `landed-small` or `binikh`; capture kinds are `two-ahead`, `series`,
/// `chain`, `pasu`, `pussa`, `opposite`, `binikh` and `four-to-owner`. A lap
/// frame's board is the board after the lap, its captures taken.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct FramesJson<'a> {
    pub game: GameId,
    pub options: Options,
    pub frames: &'a [Frame],
}

impl<'a> FramesJson<'a> {
    #[must_use]
    pub fn new(rules: Rules, frames: &'a [Frame]) -> FramesJson<'a> {
        FramesJson {
            game: rules.game(),
            options: rules.options(),
            frames,
        }
    }
}

/// Draws a frame: its heading, then its board.
pub fn draw_frame(out: &mut impl Write, frame: &Frame, style: Style) -> fmt::Result {
    for line in &frame.heading {
        write_wrapped(out, line)?;
    }
    draw_board(out, &frame.board, &frame.highlights, style)
}

/// Draws frames one after the other, a blank line between two.
pub fn draw_frames(out: &mut impl Write, frames: &[Frame], style: Style) -> fmt::Result {
    for (i, frame) in frames.iter().enumerate() {
        if i > 0 {
            out.write_char('\n')?;
        }
        draw_frame(out, frame, style)?;
    }
    Ok(())
}

/// A position on its own, with no heading (push lines onto `heading` to
/// give it one).
#[must_use]
pub fn position_frame(position: &Position) -> Frame {
    Frame {
        kind: FrameKind::Position,
        heading: Vec::new(),
        board: Board::of(position),
        highlights: Highlights::NONE,
        events: Vec::new(),
    }
}

/// One move lap by lap: a frame of the position it starts from, then one
/// frame per lap with the board after that lap, the lap's lifted and last
/// holes and captures highlighted, and a heading that says what happened:
///
/// ```text
/// lap 3: A(4) sown B C D E, ends in E; F holds 5: relay from F
/// ```
///
/// The last frame also sums the move up and shows the position after it
/// (the other side to move). An endless move — illegal, or ending the game
/// under `endless-ends-game` — is drawn up to the lap where it is seen to
/// repeat, with a note. At most `max_laps` laps are drawn (at least one);
/// a longer finite move gets a last frame with the final position.
///
/// Errors are the moves that cannot be sown at all, or whose verdict is
/// undecided, or (Olowuka) that starve the opponent while a feeding move
/// exists.
pub fn lap_frames(before: &Position, mv: Move, max_laps: usize) -> Result<Vec<Frame>, PlayError> {
    let mut frames = Vec::new();
    for_each_lap_frame(before, mv, max_laps, |frame| frames.push(frame))?;
    Ok(frames)
}

/// [`lap_frames`] one frame at a time: each frame goes to `sink` as soon as
/// the move's sowing has made it, and only the lap being sown (and the
/// frame before it) is held, so that memory stays the same whatever
/// `max_laps` is.
///
/// The move is first played untraced to learn how it ends: an error comes
/// back before any frame reaches `sink`, and the last frame drawn (which
/// sums the move up) is known when its lap is sown.
pub fn for_each_lap_frame(
    before: &Position,
    mv: Move,
    max_laps: usize,
    mut sink: impl FnMut(Frame),
) -> Result<(), PlayError> {
    let max_laps = max_laps.max(1);
    let result = sow(before, mv, &mut NoTrace)?;
    let mut stream = LapStream::new(before, mv, result.laps_to_draw(max_laps), &mut sink);
    sow(before, mv, &mut stream)?;
    let (mut last, drawn, board, last_hole) = stream.finish();
    match result {
        MoveResult::Finite { position, laps } => {
            if laps > drawn as u64 {
                sink(last);
                last = Frame {
                    kind: FrameKind::Lap { lap: laps },
                    heading: vec![format!(
                        "laps {} to {laps} not drawn (at most {max_laps} are)",
                        drawn + 1
                    )],
                    board,
                    highlights: Highlights {
                        last: last_hole,
                        ..Highlights::NONE
                    },
                    events: Vec::new(),
                };
            }
            debug_assert!(
                laps > drawn as u64
                    || (last.board.south == Board::of(&position).south
                        && last.board.north == Board::of(&position).north),
                "the trace's boards add up to the final position"
            );
            // The move is over: the other side is to move, and Olinda
            // Keliya's directions are settled.
            last.board = Board::of(&position);
            last.heading.push(format!(
                "move over after {}: {}",
                plural(laps, "lap"),
                gains(before, &position)
            ));
        }
        MoveResult::Endless {
            first_repeat,
            cycle,
            ends_in,
        } => {
            if first_repeat > drawn as u64 {
                last.heading.push(format!(
                    "laps after {drawn} not drawn (at most {max_laps} are)"
                ));
            }
            last.heading.push(endless_note(first_repeat, cycle));
            last.heading
                .push(endless_verdict(before.rules().game(), ends_in.is_some()));
        }
    }
    sink(last);
    Ok(())
}

/// The observer behind [`for_each_lap_frame`]: it keeps the events of the
/// lap being sown, turns them into that lap's frame when the next lap
/// starts (a lap's captures follow its end), and hands on the frame before,
/// which is then final. Laps past the `to_draw`-th are not drawn.
struct LapStream<'s, F: FnMut(Frame)> {
    game: GameId,
    mover: Side,
    to_draw: u64,
    /// Laps started so far.
    laps: u64,
    /// The events of lap `laps`, while it is one to draw.
    lap: Trace,
    /// The board after the last lap made into a frame.
    board: Board,
    /// The last frame made, held back: the last of all is completed by
    /// the move's result.
    held: Frame,
    drawn: usize,
    /// The last sown hole of the whole move, drawn laps or not.
    last: Option<Hole>,
    sink: &'s mut F,
}

impl<'s, F: FnMut(Frame)> LapStream<'s, F> {
    fn new(before: &Position, mv: Move, to_draw: usize, sink: &'s mut F) -> Self {
        // In the middle of the move the mover is sowing, in the direction
        // the move chose if it is Olinda Keliya's first.
        let mut board = Board::of(before);
        board.sowing = true;
        board.directions = move_directions(before, mv);
        LapStream {
            game: before.rules().game(),
            mover: before.to_move(),
            to_draw: to_draw as u64,
            laps: 0,
            lap: Trace::default(),
            board,
            held: Frame {
                kind: FrameKind::Before { mv },
                heading: vec![before_heading(before, mv)],
                board: Board::of(before),
                highlights: Highlights {
                    lifted: Some(mv.hole),
                    ..Highlights::NONE
                },
                events: Vec::new(),
            },
            drawn: 0,
            last: None,
            sink,
        }
    }

    fn recording(&self) -> bool {
        self.laps <= self.to_draw
    }

    /// Makes the frame of the lap whose events are held, if any.
    fn end_lap(&mut self) {
        if self.lap.events.is_empty() {
            return;
        }
        let events = std::mem::take(&mut self.lap.events);
        self.drawn += 1;
        let number = self.drawn as u64;
        let summary = LapSummary::read(&events);
        summary.apply(&mut self.board);
        let heading = summary.describe(number, self.game, self.mover, &self.board);
        let highlights = summary.highlights();
        let frame = Frame {
            kind: FrameKind::Lap { lap: number },
            heading,
            board: self.board.clone(),
            highlights,
            events,
        };
        (self.sink)(std::mem::replace(&mut self.held, frame));
    }

    /// The last frame (not yet handed on), the number of laps drawn, the
    /// board after them and the move's last sown hole.
    fn finish(mut self) -> (Frame, usize, Board, Option<Hole>) {
        self.end_lap();
        (self.held, self.drawn, self.board, self.last)
    }
}

impl<F: FnMut(Frame)> Observer for LapStream<'_, F> {
    fn lap_start(&mut self, hole: Hole, seeds: u8) {
        self.end_lap();
        self.laps += 1;
        if self.recording() {
            self.lap.lap_start(hole, seeds);
        }
    }

    fn sow(&mut self, hole: Hole) {
        if self.recording() {
            self.lap.sow(hole);
        }
    }

    fn capture(&mut self, capture: Capture) {
        if self.recording() {
            self.lap.capture(capture);
        }
    }

    fn grand_slam_left(&mut self, hole: Hole, seeds: u8) {
        if self.recording() {
            self.lap.grand_slam_left(hole, seeds);
        }
    }

    fn sow_store(&mut self, side: Side) {
        if self.recording() {
            self.lap.sow_store(side);
        }
    }

    fn grand_slam_forgone(&mut self, hole: Hole) {
        if self.recording() {
            self.lap.grand_slam_forgone(hole);
        }
    }

    fn lap_end(&mut self, last: Hole, end: LapEnd, board: &[u8], stores: [u8; 2]) {
        self.last = Some(last);
        if self.recording() {
            self.lap.lap_end(last, end, board, stores);
        }
    }
}

/// Ply `number` of a game: the position after `mv`, headed by the move and
/// what it captured, e.g. `ply 12: c  +6: f (6)  [3 laps]`, with the move's
/// hole, its last sown hole and its captures highlighted. An endless move
/// played under `endless-ends-game` leaves the board as it was, with a note.
///
/// Errors as [`lap_frames`]; an endless move without `endless-ends-game` is
/// an error here, since no game record can contain it.
pub fn ply_frame(before: &Position, mv: Move, number: usize) -> Result<Frame, PlayError> {
    let (recorder, result) = record(before, mv, DEFAULT_MAX_LAPS)?;
    let lap_events = split_laps(&recorder.trace.events);
    let drawn = lap_events.len().min(result.laps_to_draw(DEFAULT_MAX_LAPS));
    let events = lap_events[..drawn].concat();
    let title = format!("ply {number}: {mv}");
    let frame = match result {
        MoveResult::Finite { position, laps } => {
            let mut heading = vec![format!(
                "{title}  {}  [{}]",
                capture_list(before.to_move(), &recorder),
                plural(laps, "lap")
            )];
            if laps > drawn as u64 {
                heading.push(format!("events of laps after {drawn} left out"));
            }
            Frame {
                kind: FrameKind::Ply { number, mv },
                heading,
                board: Board::of(&position),
                highlights: Highlights {
                    lifted: Some(mv.hole),
                    last: recorder.last,
                    captured: recorder.captures.iter().map(|c| c.hole).collect(),
                },
                events,
            }
        }
        MoveResult::Endless {
            first_repeat,
            cycle,
            ends_in: Some(position),
        } => Frame {
            kind: FrameKind::Ply { number, mv },
            heading: vec![
                format!("{title}  endless"),
                endless_note(first_repeat, cycle),
                endless_verdict(before.rules().game(), true),
            ],
            board: Board::of(&position),
            highlights: Highlights {
                lifted: Some(mv.hole),
                ..Highlights::NONE
            },
            events,
        },
        MoveResult::Endless {
            first_repeat,
            cycle,
            ends_in: None,
        } => {
            return Err(PlayError {
                kind: PlayErrorKind::Endless {
                    hole: mv.hole,
                    first_repeat,
                    cycle,
                },
                position: *before,
            });
        }
    };
    Ok(frame)
}

/// How a move sowed, endless moves included: the rules crate's
/// [`Played`], plus the endless move its rules refuse, which a diagram
/// still draws lap by lap up to its first repeat (`ends_in: None`).
enum MoveResult {
    Finite {
        position: Position,
        laps: u64,
    },
    Endless {
        first_repeat: u64,
        cycle: u64,
        /// Under `endless-ends-game` the move is legal and ends the game
        /// (or round) in this position: the board as it was, the other
        /// side to move. `None`: the move is illegal.
        ends_in: Option<Position>,
    },
}

impl MoveResult {
    /// Laps worth drawing: all of a finite move, and an endless one up to
    /// the lap after which a lap-start state repeats (the trace goes on
    /// for as long as the cycle detector needed).
    fn laps_to_draw(&self, max_laps: usize) -> usize {
        let laps = match self {
            MoveResult::Finite { laps, .. } => *laps,
            MoveResult::Endless { first_repeat, .. } => *first_repeat,
        };
        usize::try_from(laps).unwrap_or(usize::MAX).min(max_laps)
    }
}

fn record(
    before: &Position,
    mv: Move,
    max_laps: usize,
) -> Result<(Recorder, MoveResult), PlayError> {
    let mut recorder = Recorder::new(max_laps);
    let result = sow(before, mv, &mut recorder)?;
    Ok((recorder, result))
}

/// Plays `mv` for `observer`, endless moves included.
fn sow(before: &Position, mv: Move, observer: &mut impl Observer) -> Result<MoveResult, PlayError> {
    Ok(match before.play_traced(mv, observer) {
        Ok(Played::Finite { position, laps }) => MoveResult::Finite { position, laps },
        Ok(Played::Endless {
            position,
            first_repeat,
            cycle,
        }) => MoveResult::Endless {
            first_repeat,
            cycle,
            ends_in: Some(position),
        },
        Err(PlayError {
            kind:
                PlayErrorKind::Endless {
                    first_repeat,
                    cycle,
                    ..
                },
            ..
        }) => MoveResult::Endless {
            first_repeat,
            cycle,
            ends_in: None,
        },
        Err(error) => return Err(error),
    })
}

/// A [`Trace`] of the first `max_laps` laps, plus what a ply needs from the
/// whole move (its captures and last sown hole), so that a move of a
/// million laps costs no more memory than one of `max_laps`.
struct Recorder {
    max_laps: u64,
    laps: u64,
    trace: Trace,
    /// Every capture of the move. Each takes at least one seed off the
    /// board for good, so there are at most 255.
    captures: Vec<Capture>,
    grand_slam: Option<(Hole, u8)>,
    /// Oware's grand slam: nothing captured.
    grand_slam_forgone: bool,
    last: Option<Hole>,
}

impl Recorder {
    fn new(max_laps: usize) -> Recorder {
        Recorder {
            max_laps: max_laps as u64,
            laps: 0,
            trace: Trace::default(),
            captures: Vec::new(),
            grand_slam: None,
            grand_slam_forgone: false,
            last: None,
        }
    }

    fn recording(&self) -> bool {
        self.laps <= self.max_laps
    }
}

impl Observer for Recorder {
    fn lap_start(&mut self, hole: Hole, seeds: u8) {
        self.laps += 1;
        if self.recording() {
            self.trace.lap_start(hole, seeds);
        }
    }

    fn sow(&mut self, hole: Hole) {
        if self.recording() {
            self.trace.sow(hole);
        }
    }

    fn capture(&mut self, capture: Capture) {
        self.captures.push(capture);
        if self.recording() {
            self.trace.capture(capture);
        }
    }

    fn grand_slam_left(&mut self, hole: Hole, seeds: u8) {
        self.grand_slam = Some((hole, seeds));
        if self.recording() {
            self.trace.grand_slam_left(hole, seeds);
        }
    }

    fn sow_store(&mut self, side: Side) {
        if self.recording() {
            self.trace.sow_store(side);
        }
    }

    fn grand_slam_forgone(&mut self, hole: Hole) {
        self.grand_slam_forgone = true;
        if self.recording() {
            self.trace.grand_slam_forgone(hole);
        }
    }

    fn lap_end(&mut self, last: Hole, end: LapEnd, board: &[u8], stores: [u8; 2]) {
        self.last = Some(last);
        if self.recording() {
            self.trace.lap_end(last, end, board, stores);
        }
    }
}

/// The events of each lap: from its `LapStart` up to the next one (so the
/// captures after a lap's end belong to it).
fn split_laps(events: &[Event]) -> Vec<&[Event]> {
    let starts: Vec<usize> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Event::LapStart { .. }))
        .map(|(i, _)| i)
        .collect();
    starts
        .iter()
        .enumerate()
        .map(|(k, &from)| &events[from..starts.get(k + 1).copied().unwrap_or(events.len())])
        .collect()
}

/// The directions of a move's sowing frames: on Olinda Keliya's first move,
/// the one the move chooses.
fn move_directions(before: &Position, mv: Move) -> [Option<Dir>; 2] {
    match mv.dir {
        Some(dir) if before.direction_due() => {
            let south = if before.to_move() == Side::South {
                dir
            } else {
                dir.reverse()
            };
            [Some(south), Some(south.reverse())]
        }
        _ => Side::BOTH.map(|s| before.dir_of(s)),
    }
}

/// `South plays E:ccw: 4 seeds from E, sown ccw`.
fn before_heading(before: &Position, mv: Move) -> String {
    let mover = before.to_move();
    let seeds = before.seeds(mv.hole).unwrap_or(0);
    let dir = move_directions(before, mv)[mover.index()].unwrap_or(Dir::Ccw);
    format!(
        "{} plays {mv}: {} from {}, sown {dir}",
        side_name(mover),
        plural(seeds.into(), "seed"),
        mv.hole
    )
}

/// One lap's events, read.
struct LapSummary<'a> {
    start: Hole,
    seeds: u8,
    sown: Vec<Hole>,
    /// Seeds dropped into a store on the way (Kalah), each as the number of
    /// holes sown before it.
    into_store: Vec<usize>,
    /// Captures made while sowing (pasu, four to the owner, binikh), each
    /// after the drop that made it: (index into `sown`, capture).
    during: Vec<(usize, Capture)>,
    last: Hole,
    end: LapEnd,
    /// The rows right after the lap (South then North, closed as 0), before
    /// any capture that follows its end.
    end_board: &'a [u8],
    end_stores: [u8; 2],
    /// Captures after the lap's end: two ahead, pussa, Olowuka's chain.
    after: Vec<Capture>,
    grand_slam: Option<(Hole, u8)>,
    /// Oware's grand slam: the chain would have taken every seed of the
    /// opponent's row, so nothing was captured.
    grand_slam_forgone: bool,
}

impl<'a> LapSummary<'a> {
    fn read(events: &'a [Event]) -> LapSummary<'a> {
        let mut lap = LapSummary {
            start: Hole::new(Side::South, 0),
            seeds: 0,
            sown: Vec::new(),
            into_store: Vec::new(),
            during: Vec::new(),
            last: Hole::new(Side::South, 0),
            end: LapEnd::LandedEmpty(Hole::new(Side::South, 0)),
            end_board: &[],
            end_stores: [0, 0],
            after: Vec::new(),
            grand_slam: None,
            grand_slam_forgone: false,
        };
        let mut ended = false;
        for event in events {
            match event {
                Event::LapStart { hole, seeds } => {
                    lap.start = *hole;
                    lap.seeds = *seeds;
                }
                Event::Sow { hole } => lap.sown.push(*hole),
                Event::SowStore { .. } => lap.into_store.push(lap.sown.len()),
                Event::Capture(capture) if ended => lap.after.push(*capture),
                Event::Capture(capture) => lap.during.push((lap.sown.len() - 1, *capture)),
                Event::GrandSlamLeft { hole, seeds } => lap.grand_slam = Some((*hole, *seeds)),
                Event::GrandSlamForgone { .. } => lap.grand_slam_forgone = true,
                Event::LapEnd {
                    last,
                    end,
                    board,
                    stores,
                } => {
                    lap.last = *last;
                    lap.end = *end;
                    lap.end_board = board;
                    lap.end_stores = *stores;
                    ended = true;
                }
            }
        }
        lap
    }

    /// Seeds in `hole` right after the lap.
    fn end_seeds(&self, hole: Hole) -> u8 {
        let n = self.end_board.len() / 2;
        let i = match hole.side {
            Side::South => usize::from(hole.index),
            Side::North => n + usize::from(hole.index),
        };
        self.end_board[i]
    }

    /// Brings `board` to the state after this lap, captures included.
    fn apply(&self, board: &mut Board) {
        let n = self.end_board.len() / 2;
        for side in Side::BOTH {
            for i in 0..n as u8 {
                let hole = Hole::new(side, i);
                board.set_seeds(hole, self.end_seeds(hole));
            }
        }
        board.stores = self.end_stores;
        for capture in &self.after {
            board.set_seeds(capture.hole, 0);
            board.stores[capture.taker.index()] += capture.seeds;
        }
    }

    fn highlights(&self) -> Highlights {
        Highlights {
            lifted: Some(self.start),
            last: Some(self.last),
            captured: self
                .during
                .iter()
                .map(|(_, c)| c)
                .chain(&self.after)
                .map(|c| c.hole)
                .collect(),
        }
    }

    /// The heading: what the lap sowed and how it ended, then what it
    /// captured after its end.
    fn describe(&self, number: u64, game: GameId, mover: Side, board: &Board) -> Vec<String> {
        let mut line = format!("lap {number}: {}({}) sown", self.start, self.seeds);
        let store_drops = |line: &mut String, at: usize| {
            for _ in self.into_store.iter().filter(|k| **k == at) {
                line.push_str(" store");
            }
        };
        for (i, hole) in self.sown.iter().enumerate() {
            store_drops(&mut line, i);
            let _ = write!(line, " {hole}");
            for (_, capture) in self.during.iter().filter(|(at, _)| *at == i) {
                let what = match capture.kind {
                    CaptureKind::Pasu => "pasu",
                    CaptureKind::FourToOwner => "made 4",
                    // Binikh ends the lap: the ending says so.
                    _ => continue,
                };
                let _ = write!(
                    line,
                    "({what}, {} +{})",
                    side_name(capture.taker),
                    capture.seeds
                );
            }
        }
        store_drops(&mut line, self.sown.len());
        if let LapEnd::IntoStore(side) = self.end {
            let _ = write!(
                line,
                ", ends in {}'s store: {} moves again",
                side_name(side),
                side_name(side)
            );
        } else {
            let _ = write!(line, ", ends in {}", self.last);
        }
        let mut lines = vec![line];
        let line = &mut lines[0];
        let relay_from_next_hole = game.descriptor().relay == Relay::NextHole;
        let _ = match self.end {
            LapEnd::Relay(hole) if relay_from_next_hole => write!(
                line,
                "; {hole} holds {}: relay from {hole}",
                self.end_seeds(hole)
            ),
            LapEnd::Relay(hole) => {
                write!(line, ", now {}: relay from {hole}", self.end_seeds(hole))
            }
            LapEnd::NextEmpty(hole) => write!(line, "; {hole} is empty: sowing stops"),
            LapEnd::LandedEmpty(_) => write!(line, ", which was empty"),
            LapEnd::LandedSmall(hole) if hole.side == mover => write!(
                line,
                ", now {}, in {}'s own row: no capture",
                self.end_seeds(hole),
                side_name(mover)
            ),
            LapEnd::LandedSmall(hole) => write!(line, ", now {}", self.end_seeds(hole)),
            LapEnd::Binikh(_) => {
                write!(line, ", making 4: binikh, {} takes the 4", side_name(mover))
            }
            LapEnd::Landed(hole) => write!(line, ", now {}", self.end_seeds(hole)),
            LapEnd::IntoStore(_) => Ok(()),
        };
        if let Some(captures) = self.after_captures(mover, board) {
            lines.push(captures);
        }
        if self.grand_slam_forgone {
            lines.push(format!(
                "grand slam: nothing captured (the chain would empty {}'s row)",
                side_name(mover.opposite())
            ));
        }
        if let Some((hole, seeds)) = self.grand_slam {
            lines.push(format!(
                "{hole} ({seeds}) kept: grand slam (taking it would empty {}'s row)",
                side_name(mover.opposite())
            ));
        }
        lines
    }

    /// `South captures f (6), two ahead past empty e`, `… nothing to capture`,
    /// `South captures f (3), e (2): 5 in all`.
    fn after_captures(&self, mover: Side, board: &Board) -> Option<String> {
        let mut text = format!("{} captures ", side_name(mover));
        let mut chain_total = 0u32;
        for (i, capture) in self.after.iter().enumerate() {
            let (hole, seeds) = (capture.hole, capture.seeds);
            let _ = match (capture.kind, self.end) {
                (CaptureKind::TwoAhead, LapEnd::NextEmpty(empty)) => {
                    write!(text, "{hole} ({seeds}), two ahead past empty {empty}")
                }
                (CaptureKind::Pussa, LapEnd::NextEmpty(empty)) => {
                    write!(text, "{hole} ({seeds}): pussa, past empty {empty}")
                }
                (CaptureKind::Series, _) => write!(text, ", then {hole} ({seeds}) in series"),
                (CaptureKind::Opposite | CaptureKind::Facing, _) => {
                    write!(text, ", and the facing {hole} ({seeds})")
                }
                (CaptureKind::LastSeed, _) => write!(text, "{hole} ({seeds}), the last seed"),
                _ => {
                    chain_total += u32::from(seeds);
                    let sep = if i > 0 { ", " } else { "" };
                    write!(text, "{sep}{hole} ({seeds})")
                }
            };
        }
        if self.after.len() > 1 && chain_total > 0 {
            let _ = write!(text, ": {chain_total} in all");
        }
        match (self.after.is_empty(), self.end) {
            (false, _) => Some(text),
            (true, LapEnd::NextEmpty(empty)) => {
                let beyond = board.rules.next_open(
                    empty,
                    board.directions[mover.index()].unwrap_or(Dir::Ccw),
                    |hole| board.seeds(hole).is_none(),
                );
                Some(format!("{beyond} is empty too: nothing to capture"))
            }
            (true, _) => None,
        }
    }
}

/// `South +6`, `South +4, North +4`, `nothing captured`.
fn gains(before: &Position, after: &Position) -> String {
    let mover = before.to_move();
    let parts: Vec<String> = [mover, mover.opposite()]
        .into_iter()
        .filter_map(|side| {
            let gain = after.store(side) - before.store(side);
            (gain > 0).then(|| format!("{} +{gain}", side_name(side)))
        })
        .collect();
    if parts.is_empty() {
        "nothing captured".to_owned()
    } else {
        parts.join(", ")
    }
}

/// What a whole move captured, the mover's first and without a name:
/// `+6: f (6)`, `+4: C (4); North +4: a (4)`, `no capture`, and Olowuka's
/// grand slam.
fn capture_list(mover: Side, recorder: &Recorder) -> String {
    let mut parts = Vec::new();
    for side in [mover, mover.opposite()] {
        let taken: Vec<&Capture> = recorder
            .captures
            .iter()
            .filter(|c| c.taker == side)
            .collect();
        if taken.is_empty() {
            continue;
        }
        let total: u32 = taken.iter().map(|c| u32::from(c.seeds)).sum();
        let holes: Vec<String> = taken
            .iter()
            .map(|c| format!("{} ({})", c.hole, c.seeds))
            .collect();
        let who = if side == mover {
            String::new()
        } else {
            format!("{} ", side_name(side))
        };
        parts.push(format!("{who}+{total}: {}", holes.join(", ")));
    }
    if parts.is_empty() {
        parts.push("no capture".to_owned());
    }
    if let Some((hole, seeds)) = recorder.grand_slam {
        parts.push(format!("{hole} ({seeds}) kept: grand slam"));
    }
    if recorder.grand_slam_forgone {
        parts.push("grand slam: nothing captured".to_owned());
    }
    parts.join("; ")
}

/// Which laps repeat, in the terms of spec/rules/common.md §4: lap-start state `s_j`
/// (after `j` laps) equals `s_i`, `i = j - cycle`.
fn endless_note(first_repeat: u64, cycle: u64) -> String {
    let earlier = first_repeat - cycle;
    let like = if earlier == 0 {
        "as at the start of the move".to_owned()
    } else {
        format!("as after lap {earlier}")
    };
    format!(
        "endless: after lap {first_repeat} the board and the hole to lift are {like}, so laps {} to {first_repeat} repeat for ever",
        earlier + 1
    )
}

fn endless_verdict(game: GameId, legal: bool) -> String {
    if legal {
        let what = if game.has_rounds() { "round" } else { "game" };
        format!("endless-ends-game: the {what} ends, the board as it was before the move")
    } else {
        "an endless move is not legal: the position stays as it was".to_owned()
    }
}
