//! `mancala-render`: games and positions as diagrams.

use std::fmt;
use std::io::{self, Write};
use std::ops::RangeInclusive;

use clap::Parser;
use mancala_notation::{Form, GameResult, GameText, Item, ParsedGame, Record, Spans, parse_setup};
use mancala_prose::plural;
use mancala_rules::{EndReason, Move, PlayError, Position, RoundEnd, Rules};
use serde::Serialize;

use crate::diagnostic;
use crate::driver::{Driver, Step, Verdict, Writer};
use crate::flags::{
    DiagramColorFlag, DrawnGameFlags, LapBudgetFlag, MaxErrorsFlag, QuietFlag, RecordFilesFlag,
};
use crate::input::{self, InputName};
use crate::moves_arg;
use crate::output::{self, EXIT_FAILURE, EXIT_INVALID, EXIT_OK};
use crate::page;
use crate::pictures::{DiagramFormat, Pictures, game_facts};
use crate::variation::{
    LineError, VariationPath, after_moves, eval_line, line_evals, line_marks, line_of,
    variation_headings,
};
use mancala_check::{self as check, Build, Ply, ProblemKind};
use mancala_diagram::{
    Charset, DEFAULT_MAX_LAPS, Frame, FramesJson, Style, draw_frame, for_each_lap_frame,
    lap_frames, ply_frame, position_frame,
};

const EXAMPLES: &str = "\
Examples:
  mancala-render games.mgn                      final position of every game
  mancala-render --ply 12 game.mgn              the position after ply 12 (0: the start)
  mancala-render --plies .. game.mgn            every ply in turn
  mancala-render --plies 10..20 --rounds 2 match.mgn
  mancala-render --laps 1 game.mgn              ply 1 lap by lap
  mancala-render --game olowuka --setup 'S 3,0,1,2,0,5/1,1,1,1,1,2 16-14' --moves D --laps 1
  mancala-play | mancala-validate | mancala-render --style unicode
  mancala-render --format svg --laps 3 game.mgn --output-dir pictures
  mancala-render --format html game.mgn > game.html   a page to step through the game
  mancala-render --max-errors 1 records/        the records under records/, up to the first bad one
  mancala-render --variation 12.1 --ply 14 game.mgn   ply 14 of the first variation after ply 12

Ranges: N, A..B, A.., ..B or .. (all); plies count from 1 through the whole game.
Variations: P.V is the V-th variation after ply P (both from 1), P.V/Q.W one inside it;
its plies count on from P, so --ply P-1 is the position it branches from.

Exit status: 0 ok, 1 some game invalid (the others are still drawn), 2 usage or I/O error.";

/// Draw mancala games and positions as ASCII (or Unicode) diagrams.
#[derive(Debug, Parser)]
#[command(
    name = "mancala-render",
    version,
    after_help = EXAMPLES,
)]
pub struct Args {
    #[command(flatten)]
    pub input: RecordFilesFlag,
    /// Draw the position after this ply (0: the starting position).
    #[arg(long, conflicts_with_all = ["plies", "laps"])]
    pub ply: Option<usize>,
    /// Draw inside a variation: P.V is the V-th variation after ply P,
    /// P.V/Q.W the W-th after its ply Q. Its last position, or --ply N
    /// (plies count through the game: P-1 is where it branches).
    #[arg(long, value_name = "P.V[/Q.W…]", conflicts_with_all = ["plies", "laps", "rounds"])]
    pub variation: Option<VariationPath>,
    /// Draw every ply in this range, each headed by its move and captures.
    #[arg(long, value_parser = parse_range, conflicts_with = "laps")]
    pub plies: Option<Span>,
    /// Draw this ply lap by lap: each lap's start hole, seeds, last hole,
    /// relay and captures on a diagram of its own (plies count from 1).
    #[arg(long, value_parser = parse_move_ply)]
    pub laps: Option<usize>,
    /// Only plies of these rounds of a match (with --plies; alone it means
    /// every ply of those rounds).
    #[arg(long, value_parser = parse_range, conflicts_with_all = ["laps", "ply"])]
    pub rounds: Option<Span>,
    /// Draw a single position instead of records (needs --game), as a
    /// record's SetUp tag writes it: `S 3,0,1,2,0,5/1,1,1,1,1,2 16-14`.
    ///
    /// The side to move (`S` or `N`); South's row, `/`, North's row, each
    /// from its owner's left (`x` for a closed hole); South's and North's
    /// store (or captured seeds, or winnings); then, where they apply,
    /// `dir=ccw|cw` (South's direction in Olinda Keliya), `round=N` and
    /// `starter=S|N` (who started the round).
    #[arg(long, requires = "game")]
    pub setup: Option<String>,
    #[command(flatten)]
    pub game: DrawnGameFlags,
    /// Moves to play from the --setup position (or the start of --game).
    #[arg(long, requires = "game")]
    pub moves: Option<String>,
    /// Box-drawing characters or plain ASCII.
    #[arg(long, value_enum, default_value_t)]
    pub style: DrawStyle,
    #[command(flatten)]
    pub color: DiagramColorFlag,
    /// `text`: diagrams; `json`: the same frames as data, one game per
    /// line; `svg`: a picture per diagram; `html`: a page per game to step
    /// through it (--ply N: the ply it opens at).
    #[arg(long, value_enum, default_value_t)]
    pub format: DiagramFormat,
    /// Write svg or html documents here as numbered files
    /// (`game-003-02.svg`, `game-003.html`) and list them on stdout;
    /// without it stdout takes exactly one document.
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<std::path::PathBuf>,
    /// Replace files of the same names under --output-dir (without it an
    /// existing file stops the run, exit 2). A link is never written
    /// through, even so.
    #[arg(long, requires = "output_dir")]
    pub force: bool,
    /// Laps drawn at most for one move with --laps (at least 1).
    #[arg(long, default_value_t = DEFAULT_MAX_LAPS as u32, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_laps: u32,
    #[command(flatten)]
    pub lap_budget: LapBudgetFlag,
    #[command(flatten)]
    pub max_errors: MaxErrorsFlag,
    // Render's only notes are a directory walk's (files skipped).
    #[command(flatten)]
    pub quiet: QuietFlag,
    #[command(flatten)]
    pub meta: crate::meta::MetaArgs,
}

/// `--style`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum DrawStyle {
    #[default]
    Ascii,
    Unicode,
}

/// An inclusive range of plies or rounds from the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span(pub RangeInclusive<usize>);

/// A ply or a range of plies or rounds that is none.
#[derive(Clone, Debug, PartialEq, Eq)]
enum PlyArgError {
    /// Ply 0 where a move is asked for.
    StartIsNoMove,
    /// 0 in a range.
    Zero,
    /// Not a number.
    NotANumber { text: String },
    /// No range at all.
    Empty,
    /// A range whose end comes before its start.
    EmptyRange { text: String },
}

impl fmt::Display for PlyArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlyArgError::StartIsNoMove => {
                f.write_str("ply 0 is the starting position, not a move: plies count from 1")
            }
            PlyArgError::Zero => f.write_str("plies and rounds count from 1"),
            PlyArgError::NotANumber { text } => write!(f, "`{text}` is not a number"),
            PlyArgError::Empty => f.write_str("expected N, A..B, A.., ..B or .."),
            PlyArgError::EmptyRange { text } => write!(f, "`{text}` is an empty range"),
        }
    }
}

impl std::error::Error for PlyArgError {}

/// A ply that is a move: 1 or more (0 is the starting position).
fn parse_move_ply(text: &str) -> Result<usize, PlyArgError> {
    match text.parse() {
        Ok(0) => Err(PlyArgError::StartIsNoMove),
        Ok(n) => Ok(n),
        Err(_) => Err(PlyArgError::NotANumber {
            text: text.to_owned(),
        }),
    }
}

/// A range of plies or rounds: both count from 1, so 0 and an empty range
/// are usage errors (exit 2), caught before any game is read.
fn parse_range(text: &str) -> Result<Span, PlyArgError> {
    let number = |t: &str, default: usize| -> Result<usize, PlyArgError> {
        match t.parse() {
            _ if t.is_empty() => Ok(default),
            Ok(0) => Err(PlyArgError::Zero),
            Ok(n) => Ok(n),
            Err(_) => Err(PlyArgError::NotANumber { text: t.to_owned() }),
        }
    };
    if text.is_empty() {
        return Err(PlyArgError::Empty);
    }
    let range = match text.split_once("..") {
        Some((a, b)) => number(a, 1)?..=number(b, usize::MAX)?,
        None => {
            let n = number(text, 1)?;
            n..=n
        }
    };
    if range.is_empty() {
        return Err(PlyArgError::EmptyRange {
            text: text.to_owned(),
        });
    }
    Ok(Span(range))
}

/// What to draw of each game.
#[derive(Clone, Debug)]
enum Selection {
    Final,
    AfterPly(usize),
    Plies {
        plies: RangeInclusive<usize>,
        rounds: RangeInclusive<usize>,
    },
    Laps(usize),
    /// A position of a variation's line: after this ply, or its last.
    Variation {
        path: VariationPath,
        ply: Option<usize>,
    },
}

impl Selection {
    fn of(args: &Args) -> Selection {
        let all = 0..=usize::MAX;
        if let Some(ply) = args.laps {
            return Selection::Laps(ply);
        }
        if let Some(path) = &args.variation {
            return Selection::Variation {
                path: path.clone(),
                ply: args.ply,
            };
        }
        if let Some(ply) = args.ply {
            return Selection::AfterPly(ply);
        }
        match (&args.plies, &args.rounds) {
            (None, None) => Selection::Final,
            (plies, rounds) => Selection::Plies {
                plies: plies.as_ref().map_or(all.clone(), |s| s.0.clone()),
                rounds: rounds.as_ref().map_or(all, |s| s.0.clone()),
            },
        }
    }
}

/// One game's frames as `--format json` writes them.
#[derive(Serialize)]
struct GameFrames<'a> {
    file: &'a str,
    index: usize,
    #[serde(flatten)]
    frames: FramesJson<'a>,
}

/// Heading lines for rounds that ended after a ply, and the frame of each
/// round that then began.
fn round_frames(
    ends: &[RoundEnd],
    after: &Position,
    match_over: bool,
) -> (Vec<String>, Vec<Frame>) {
    let mut notes = Vec::new();
    let mut frames = Vec::new();
    for (i, end) in ends.iter().enumerate() {
        let winner = end
            .winner
            .map_or("drawn".to_owned(), |w| format!("{w} wins it"));
        notes.push(format!(
            "round {} over ({}): south {} - north {}, {winner}",
            end.round, end.reason, end.holdings[0], end.holdings[1]
        ));
        let next = end.round.saturating_add(1);
        if i + 1 < ends.len() {
            // Another end follows: the next round could not even start.
            notes.push(format!("round {next} begins and ends without a move"));
        } else if !match_over {
            let mut frame = position_frame(after);
            frame.heading.push(format!(
                "R{next}: round {next} begins, refilled; {} to move",
                after.to_move()
            ));
            frames.push(frame);
        }
    }
    (notes, frames)
}

/// What `ply` ended, as [`round_frames`] gives it, the game's end line
/// last.
pub(crate) fn ended_by(ply: &Ply<'_>) -> (Vec<String>, Vec<Frame>) {
    let (mut notes, begun) = round_frames(
        &ply.report.round_ends,
        ply.after,
        ply.report.outcome.is_some(),
    );
    if let Some(outcome) = ply.report.outcome {
        notes.push(game_over_line(&outcome, ply.after.rules()));
    }
    (notes, begun)
}

/// `game over (reason): south S - north N with the rows' seeds; …`; a
/// match that `rounds=N` ended says so: `match over after round N
/// (rounds-played): …; south wins the match`.
fn game_over_line(o: &mancala_rules::Outcome, rules: Rules) -> String {
    let (s, n) = (o.score[0], o.score[1]);
    match rules.last_round() {
        Some(last) if o.reason == EndReason::RoundsPlayed => {
            let winner = o.winner.map_or("a drawn match".to_owned(), |w| {
                format!("{w} wins the match")
            });
            format!(
                "match over after round {last} ({}): south {s} - north {n} with the rows' seeds; {winner}",
                o.reason
            )
        }
        _ => {
            let winner = o
                .winner
                .map_or("a draw".to_owned(), |w| format!("{w} wins"));
            format!(
                "game over ({}): south {s} - north {n} with the rows' seeds; {winner}",
                o.reason
            )
        }
    }
}

fn outcome_line(record_result: GameResult, replay: &check::Replay) -> String {
    match (replay.outcome(), replay.rules) {
        (Some(o), Some(rules)) => game_over_line(&o, rules),
        _ => match record_result {
            GameResult::Unfinished if replay.plies == 0 => "the starting position".to_owned(),
            GameResult::Unfinished => {
                format!("unfinished after {}", plural(replay.plies as u64, "ply"))
            }
            GameResult::Score(..) => String::new(),
        },
    }
}

/// What is drawn of one game.
enum Drawing {
    Frames(Vec<Frame>),
    /// One move lap by lap ([`lap_frames`]), its frames made as they are
    /// written: a move of a million laps is never held whole.
    Laps {
        before: Position,
        mv: Move,
    },
}

impl Drawing {
    fn is_empty(&self) -> bool {
        matches!(self, Drawing::Frames(frames) if frames.is_empty())
    }

    /// Hands each frame to `sink` in order. An error (a move that cannot be
    /// drawn) comes before any frame.
    fn for_each_frame(self, max_laps: usize, sink: impl FnMut(Frame)) -> Result<(), PlayError> {
        match self {
            Drawing::Frames(frames) => {
                frames.into_iter().for_each(sink);
                Ok(())
            }
            Drawing::Laps { before, mv } => for_each_lap_frame(&before, mv, max_laps, sink),
        }
    }

    fn into_frames(self, max_laps: usize) -> Result<Vec<Frame>, PlayError> {
        match self {
            Drawing::Frames(frames) => Ok(frames),
            Drawing::Laps { before, mv } => lap_frames(&before, mv, max_laps),
        }
    }
}

/// What the replay of a game leaves for its drawing, ply by ply.
#[derive(Default)]
struct Gathered {
    frames: Vec<Frame>,
    /// A ply asked for that cannot be drawn.
    error: Option<PlayError>,
    /// The position the first ply was played in.
    start: Option<Position>,
    /// `--laps N`: the position before ply N, and its move.
    before_selected: Option<(Position, Move)>,
    /// The last ply: the position before it, its move, and whether it
    /// ended the game.
    last_ply: Option<(Position, Move, bool)>,
    /// The frames of plies, by index: the ply and its move, whose marks
    /// and evaluation go in the heading.
    frames_of_plies: Vec<(usize, usize, Move)>,
}

impl Gathered {
    /// Takes what `selection` wants of one ply.
    fn see(&mut self, selection: &Selection, ply: &Ply<'_>) {
        if self.start.is_none() {
            self.start = Some(*ply.before);
        }
        match selection {
            Selection::Final => {
                self.last_ply = Some((*ply.before, ply.mv, ply.report.outcome.is_some()))
            }
            Selection::AfterPly(n) => {
                if ply.number == *n {
                    let mut frame = position_frame(ply.after);
                    frame.board.over = ply.report.outcome.is_some();
                    frame.heading.push(format!("after ply {n}: {}", ply.mv));
                    // The position after a ply is settled: after a round's
                    // end, the next round's refilled board; after the
                    // game's, the rows' seeds taken. The heading says so.
                    let (notes, begun) = ended_by(ply);
                    frame.heading.extend(notes);
                    frame
                        .heading
                        .extend(begun.into_iter().flat_map(|f| f.heading));
                    self.frames_of_plies
                        .push((self.frames.len(), ply.number, ply.mv));
                    self.frames.push(frame);
                }
            }
            Selection::Laps(n) => {
                if ply.number == *n {
                    self.before_selected = Some((*ply.before, ply.mv));
                }
            }
            // Drawn from the record once it is checked.
            Selection::Variation { .. } => {}
            Selection::Plies { plies, rounds } => {
                let round = ply.before.round() as usize;
                let (notes, begun) = ended_by(ply);
                if plies.contains(&ply.number) && rounds.contains(&round) {
                    match ply_frame(ply.before, ply.mv, ply.number) {
                        Ok(mut frame) => {
                            frame.board.over = ply.report.outcome.is_some();
                            frame.heading.extend(notes);
                            self.frames_of_plies
                                .push((self.frames.len(), ply.number, ply.mv));
                            self.frames.push(frame);
                        }
                        Err(e) => self.error = Some(e),
                    }
                }
                // A new round's refilled board belongs to that round, shown
                // with the plies around it.
                let next_round = ply.after.round() as usize;
                let near = plies.contains(&ply.number) || plies.contains(&(ply.number + 1));
                if near && rounds.contains(&next_round) {
                    self.frames.extend(begun);
                }
            }
        }
    }

    /// The marks, evaluations and variations of the record's plies, in
    /// the headings of their frames.
    fn annotate(&mut self, items: &[Item]) {
        let evals = line_evals(items);
        let after = after_moves(items);
        let marks = line_marks(items);
        for &(index, ply, mv) in &self.frames_of_plies {
            let Some(frame) = self.frames.get_mut(index) else {
                continue;
            };
            if let (Some(marks), Some(first)) = (marks.get(ply), frame.heading.first_mut()) {
                insert_marks(first, mv, marks);
            }
            if let Some(Some(eval)) = evals.get(ply) {
                frame.heading.push(eval_line(*eval, mv.hole.side));
            }
            frame.heading.extend(variation_headings(&after, ply));
        }
    }
}

/// Why a valid game has nothing to draw for the selection.
#[derive(Debug)]
enum NotDrawn {
    /// A part of the check's result that a valid game has, missing (what
    /// the check promises: a bug if said).
    Missing(&'static str),
    /// A ply's frame could not be made.
    Ply(PlayError),
    /// The game's set-up is no position (the check's problem).
    Start(check::Problem),
    /// No ply `ply` in a game of `plies`.
    NoPly { ply: usize, plies: usize },
    /// No ply in the range; `rounds` when the game plays rounds.
    NothingInPlies { plies: usize, rounds: Option<usize> },
    /// No line at the variation path.
    Line(LineError),
    /// The variation at `path` has no ply `ply`: it runs from `first` to
    /// `last`.
    NoPlyInVariation {
        path: VariationPath,
        ply: usize,
        first: usize,
        last: usize,
    },
}

impl fmt::Display for NotDrawn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotDrawn::Missing(what) => write!(f, "no {what}"),
            NotDrawn::Ply(e) => e.fmt(f),
            NotDrawn::Start(problem) => problem.fmt(f),
            NotDrawn::NoPly { ply, plies } => write!(
                f,
                "there is no ply {ply}: the game has {}",
                plural(*plies as u64, "ply")
            ),
            NotDrawn::NothingInPlies {
                plies,
                rounds: Some(rounds),
            } => write!(
                f,
                "nothing in the plies and rounds asked for: the game has {} in {}",
                plural(*plies as u64, "ply"),
                plural(*rounds as u64, "round")
            ),
            NotDrawn::NothingInPlies {
                plies,
                rounds: None,
            } => write!(
                f,
                "nothing in the plies asked for: the game has {} and no rounds",
                plural(*plies as u64, "ply")
            ),
            NotDrawn::Line(e) => e.fmt(f),
            NotDrawn::NoPlyInVariation {
                path,
                ply,
                first,
                last,
            } => write!(
                f,
                "there is no ply {ply} in variation {path}: it runs from ply {first} (from the position after ply {}) to ply {last}",
                first - 1
            ),
        }
    }
}

impl std::error::Error for NotDrawn {}

/// The frames of one valid game, or why the selection does not exist in
/// it. With `ignore_result`, a record whose only faults are its result or end
/// reason (one built from the command line) is drawn all the same.
fn frames_of(
    check: impl FnOnce(&mut dyn FnMut(&Ply<'_>)) -> check::Checked,
    selection: &Selection,
    ignore_result: bool,
) -> Result<(Drawing, check::Checked), NotDrawn> {
    let mut gathered = Gathered::default();
    let mut checked = check(&mut |ply| gathered.see(selection, ply));
    if ignore_result {
        checked
            .problems
            .retain(|p| !matches!(p.kind(), ProblemKind::Result | ProblemKind::Termination));
    }
    if !checked.is_valid() {
        return Ok((illegal_ply_laps(&checked, selection), checked));
    }
    if let Some(e) = gathered.error.take() {
        return Err(NotDrawn::Ply(e));
    }
    let replay = checked.replay.as_ref().ok_or(NotDrawn::Missing("replay"))?;
    let parsed = checked.parsed.as_ref().ok_or(NotDrawn::Missing("record"))?;
    gathered.annotate(&parsed.record.items);
    let drawing = drawing_of(selection, gathered, replay, parsed)?;
    Ok((drawing, checked))
}

/// The position a game starts from: the one its first ply was played in
/// (`start`), or for a game of no plies, its set-up.
fn start_of(
    start: Option<Position>,
    replay: &check::Replay,
    parsed: &ParsedGame,
) -> Result<Position, NotDrawn> {
    match start {
        Some(position) => Ok(position),
        None => {
            let rules = replay.rules.ok_or(NotDrawn::Missing("rules"))?;
            check::start_position(parsed, rules).map_err(NotDrawn::Start)
        }
    }
}

/// The drawing `selection` asks for, once the game is replayed: the
/// frames gathered, and the frame the selection adds (the final position,
/// a variation's, the start), or why there is nothing to draw.
fn drawing_of(
    selection: &Selection,
    mut g: Gathered,
    replay: &check::Replay,
    parsed: &ParsedGame,
) -> Result<Drawing, NotDrawn> {
    let game = replay.game.as_ref().ok_or(NotDrawn::Missing("game"))?;
    let first = |start| start_of(start, replay, parsed);
    match selection {
        Selection::Final => {
            let frame = final_frame(&g, replay, parsed, first)?;
            g.frames.push(frame);
        }
        Selection::Variation { path, ply } => {
            let frame = variation_frame(path, *ply, g.start, parsed, first)?;
            g.frames.push(frame);
        }
        Selection::AfterPly(0) if g.frames.is_empty() => {
            let mut frame = position_frame(&first(g.start)?);
            frame.heading.push("the starting position".to_owned());
            g.frames.push(frame);
        }
        Selection::AfterPly(n) if g.frames.is_empty() => {
            return Err(NotDrawn::NoPly {
                ply: *n,
                plies: replay.plies,
            });
        }
        Selection::Laps(n) => {
            let Some((before, mv)) = g.before_selected else {
                return Err(NotDrawn::NoPly {
                    ply: *n,
                    plies: replay.plies,
                });
            };
            return Ok(Drawing::Laps { before, mv });
        }
        // An open range asks for every ply there is; of a game of none,
        // that is its set-up, drawn as `--ply 0` draws it and headed as
        // the game stands (over, or the starting position).
        Selection::Plies { plies, rounds }
            if g.frames.is_empty()
                && replay.plies == 0
                && *plies.start() <= 1
                && *plies.end() == usize::MAX
                && rounds.contains(&(game.position().round() as usize)) =>
        {
            let mut frame = position_frame(&first(g.start)?);
            frame.board.over = replay.outcome().is_some();
            frame
                .heading
                .push(outcome_line(parsed.record.result, replay));
            frame.heading.retain(|h| !h.is_empty());
            g.frames.push(frame);
        }
        Selection::Plies { .. } if g.frames.is_empty() => {
            let rounds = game.position().round() as usize;
            return Err(NotDrawn::NothingInPlies {
                plies: replay.plies,
                rounds: replay
                    .rules
                    .is_some_and(|r| r.game().has_rounds())
                    .then_some(rounds),
            });
        }
        _ => {}
    }
    Ok(Drawing::Frames(g.frames))
}

/// The last position of a game, headed by its outcome.
fn final_frame(
    g: &Gathered,
    replay: &check::Replay,
    parsed: &ParsedGame,
    first: impl Fn(Option<Position>) -> Result<Position, NotDrawn>,
) -> Result<Frame, NotDrawn> {
    let game = replay.game.as_ref().ok_or(NotDrawn::Missing("game"))?;
    let evals = line_evals(&parsed.record.items);
    // A game that ended on a move is drawn as that move left the
    // board (an endless one under `endless-ends-game`: as it was),
    // before each side took its row's seeds: the score line says
    // what they came to. A game over before its first move (the
    // side to move could not) is drawn as it was set up, as
    // `--ply 0` draws it; one whose first round ended at once but
    // goes on, with the next round's refilled board.
    let shown = match g.last_ply {
        Some((before, mv, true)) => match before.play(mv) {
            Ok(
                mancala_rules::Played::Finite { position, .. }
                | mancala_rules::Played::Endless { position, .. },
            ) => position,
            _ => *game.position(),
        },
        None if replay.outcome().is_some() => first(g.start)?,
        _ => *game.position(),
    };
    let mut frame = position_frame(&shown);
    frame.board.over = replay.outcome().is_some();
    frame
        .heading
        .push(outcome_line(parsed.record.result, replay));
    if let (Some((before, ..)), Some(Some(eval))) = (g.last_ply, evals.get(replay.plies)) {
        frame.heading.push(eval_line(*eval, before.to_move()));
    }
    frame.heading.retain(|h| !h.is_empty());
    Ok(frame)
}

/// The position at ply `ply` (or the last) of the variation at `path`.
fn variation_frame(
    path: &VariationPath,
    ply: Option<usize>,
    start: Option<Position>,
    parsed: &ParsedGame,
    first: impl Fn(Option<Position>) -> Result<Position, NotDrawn>,
) -> Result<Frame, NotDrawn> {
    let line = line_of(&parsed.record, first(start)?, path).map_err(NotDrawn::Line)?;
    let shown = ply.unwrap_or(line.last_ply());
    let Some((position, mv, eval)) = line.after(shown) else {
        return Err(NotDrawn::NoPlyInVariation {
            path: path.clone(),
            ply: shown,
            first: line.first_ply,
            last: line.last_ply(),
        });
    };
    let mut frame = position_frame(position);
    frame.heading.push(match mv {
        Some(mv) => format!("variation {path}, after ply {shown}: {mv}"),
        None => format!("variation {path} branches from here, after ply {shown}"),
    });
    if let (Some(eval), Some(mover)) = (eval, mv.map(|mv| mv.hole.side)) {
        frame.heading.push(eval_line(eval, mover));
    }
    Ok(frame)
}

/// Writes a move's marks (`?`, `!! $14`) after the move in its heading
/// line, `ply 6: b  no capture` or `after ply 6: b`, as the record writes
/// them: `ply 6: b?  no capture`.
pub(crate) fn insert_marks(line: &mut String, mv: Move, marks: &str) {
    if marks.is_empty() {
        return;
    }
    let mv = mv.to_string();
    if let Some(at) = line.find(": ").map(|i| i + 2)
        && line[at..].starts_with(&mv)
    {
        line.insert_str(at + mv.len(), marks);
    }
}

/// `--laps N` on the very move that makes a record invalid: an endless move
/// is worth seeing lap by lap up to its repeat (the error is reported too).
fn illegal_ply_laps(checked: &check::Checked, selection: &Selection) -> Drawing {
    let (Selection::Laps(n), Some(parsed), Some(replay)) =
        (selection, &checked.parsed, &checked.replay)
    else {
        return Drawing::Frames(Vec::new());
    };
    let stopped_at_it = replay.plies + 1 == *n
        && checked
            .problems
            .iter()
            .any(|p| p.kind() == ProblemKind::Move);
    let (Some(game), Some(mv), true) = (
        &replay.game,
        parsed.record.moves().nth(n - 1),
        stopped_at_it,
    ) else {
        return Drawing::Frames(Vec::new());
    };
    Drawing::Laps {
        before: *game.position(),
        mv,
    }
}

/// The game that `--game`, `-o`, `--setup` and `--moves` describe, and the
/// text its problems point into: the `--moves` text. `Err` carries a report
/// of a bad flag (rendered) and the exit code.
fn game_from_flags(args: &Args, color: bool) -> Result<(GameText, ParsedGame), (String, u8)> {
    let usage = |e: crate::flags::RulesOfError| (format!("error: {e}\n"), EXIT_FAILURE);
    // The lap budget is applied where the record is checked.
    let rules = crate::flags::rules_of(args.game.game, &args.game.options, None).map_err(usage)?;
    let flag_error = |name: &str, text: &str, span: std::ops::Range<usize>, message: &str| {
        let mut report = String::new();
        diagnostic::render(
            &mut report,
            name,
            &moves_arg::text(text),
            &span,
            message,
            color,
        );
        (report, EXIT_INVALID)
    };
    let mut record = Record::new(rules.game());
    record.options = rules.options();
    if let Some(text) = &args.setup {
        let setup = parse_setup(text)
            .map_err(|e| flag_error("--setup", text, e.span.clone(), &e.to_string()))?;
        if let Err(e) = Position::from_setup(rules, &setup) {
            return Err(flag_error("--setup", text, 0..text.len(), &e.to_string()));
        }
        record.setup = Some(setup);
    }
    let moves = args.moves.as_deref().unwrap_or("");
    let parsed_moves = moves_arg::parse(moves)
        .map_err(|e| flag_error(moves_arg::NAME, moves, e.span.clone(), &e.to_string()))?;
    let mut spans = Spans {
        result: moves.len()..moves.len(),
        ..Spans::default()
    };
    for arg in parsed_moves {
        record.items.push(Item::Move {
            mv: arg.mv,
            captured: arg.captured,
        });
        spans.items.push(arg.span);
    }
    Ok((moves_arg::text(moves), ParsedGame { record, spans }))
}

struct Tool<'a> {
    args: &'a Args,
    selection: Selection,
    style: Style,
    err_color: bool,
    out: output::Stdout,
    pictures: Pictures,
    /// Games read so far, drawn or not: the numbers of picture files.
    seen: usize,
    drawn: usize,
    invalid: usize,
}

impl Tool<'_> {
    /// Draws one game: `text` read from an input in its `form`, or
    /// (`from_flags`) a game built from command-line flags, whose problems
    /// point into `text`.
    fn draw_game(
        &mut self,
        input: &InputName,
        index: usize,
        (form, text): (Form, &GameText),
        from_flags: Option<ParsedGame>,
    ) -> io::Result<()> {
        let file = input.display();
        let lap_budget = self.args.lap_budget.lap_budget;
        self.seen += 1;
        let ignore_result = from_flags.is_some();
        let check = |on_ply: &mut dyn FnMut(&Ply<'_>)| match from_flags {
            Some(parsed) => check::check_parsed(parsed, lap_budget, Some(on_ply)),
            None => check::check_text_as(form, text, lap_budget, Build::Record, Some(on_ply)),
        };
        if self.args.format == DiagramFormat::Html {
            return self.draw_page(file, index, text, check, ignore_result);
        }
        let result = frames_of(check, &self.selection, ignore_result);
        let (drawing, checked) = match result {
            Ok(done) => done,
            Err(e) => return self.not_drawn(file, index, &e.to_string()),
        };
        let valid = checked.is_valid();
        if !valid {
            let mut report = String::new();
            diagnostic::render_problems(&mut report, file, text, &checked.problems, self.err_color);
            self.out.flush()?;
            crate::output::diagnostics(&report);
            self.invalid += 1;
            if drawing.is_empty() {
                return Ok(());
            }
        }
        match self.write_frames(input, index, drawing, checked)? {
            Ok(()) => Ok(()),
            // A move that cannot be drawn lap by lap in an invalid record
            // is the error already reported.
            Err(_) if !valid => Ok(()),
            Err(e) => self.not_drawn(file, index, &e.to_string()),
        }
    }

    /// Writes the page of one game (`--format html`), as [`page::page`]
    /// makes it; an invalid game is reported and has none.
    fn draw_page(
        &mut self,
        file: &str,
        index: usize,
        text: &GameText,
        check: impl FnOnce(&mut dyn FnMut(&Ply<'_>)) -> check::Checked,
        ignore_result: bool,
    ) -> io::Result<()> {
        let mut checked = check(&mut |_| {});
        if ignore_result {
            checked
                .problems
                .retain(|p| !matches!(p.kind(), ProblemKind::Result | ProblemKind::Termination));
        }
        if !checked.is_valid() {
            let mut report = String::new();
            diagnostic::render_problems(&mut report, file, text, &checked.problems, self.err_color);
            self.out.flush()?;
            crate::output::diagnostics(&report);
            self.invalid += 1;
            return Ok(());
        }
        let (Some(parsed), Some(rules)) = (
            checked.parsed.as_ref(),
            checked.replay.as_ref().and_then(|r| r.rules),
        ) else {
            return self.not_drawn(file, index, "no record");
        };
        let start = match check::start_position(parsed, rules) {
            Ok(start) => start,
            Err(problem) => return self.not_drawn(file, index, &problem.to_string()),
        };
        let plies = checked.replay.as_ref().map_or(0, |replay| replay.plies);
        if let Some(n) = self.args.ply.filter(|&n| n > plies) {
            let message = format!(
                "there is no ply {n}: the game has {}",
                plural(plies as u64, "ply")
            );
            return self.not_drawn(file, index, &message);
        }
        let source = format!("{}: game {index}", source_name(file));
        let facts = game_facts(source, Some(&parsed.record), self.args.ply.unwrap_or(0));
        let over_at_start = checked
            .replay
            .as_ref()
            .filter(|replay| replay.plies == 0 && replay.outcome().is_some())
            .map(|replay| outcome_line(parsed.record.result, replay));
        match page::page(
            parsed,
            start,
            &facts,
            self.args.max_laps as usize,
            over_at_start,
        ) {
            Ok(document) => {
                self.pictures.html(&mut self.out, self.seen, document)?;
                self.drawn += 1;
                self.out.flush()
            }
            Err(stuck) => self.not_drawn(file, index, &stuck.to_string()),
        }
    }

    /// Says why a game is not drawn.
    fn not_drawn(&mut self, file: &str, index: usize, message: &str) -> io::Result<()> {
        self.out.flush()?;
        output::error_line(&format!("{file}: game {index}: {message}"));
        self.invalid += 1;
        Ok(())
    }

    /// Writes a game's frames, each as soon as it is made (`--laps`
    /// draws a move's laps while it is sown); a move that cannot be drawn
    /// is the inner error, and then nothing is written.
    fn write_frames(
        &mut self,
        input: &InputName,
        index: usize,
        drawing: Drawing,
        checked: check::Checked,
    ) -> io::Result<Result<(), PlayError>> {
        let Some(rules) = checked.replay.as_ref().and_then(|r| r.rules) else {
            return Ok(Ok(()));
        };
        let max_laps = self.args.max_laps as usize;
        match self.args.format {
            // A page is written by `draw_page`, as the game is walked.
            DiagramFormat::Svg | DiagramFormat::Html => {
                let frames = match drawing.into_frames(max_laps) {
                    Ok(frames) => frames,
                    Err(e) => return Ok(Err(e)),
                };
                self.pictures.svg(&mut self.out, self.seen, &frames)?;
            }
            DiagramFormat::Json => {
                // The line `{…,"frames":[…]}` written piece by piece: what
                // comes before the frames, each frame, then `]}`.
                let value = GameFrames {
                    file: input.name(),
                    index,
                    frames: FramesJson::new(rules, &[]),
                };
                let mut prefix = serde_json::to_vec(&value)?;
                prefix.truncate(
                    prefix
                        .strip_suffix(b"]}")
                        .expect("a game's JSON ends with its frames")
                        .len(),
                );
                let out = &mut self.out;
                let mut written = Ok(());
                let mut first = true;
                let drawn = drawing.for_each_frame(max_laps, |frame| {
                    if written.is_ok() {
                        let separator: &[u8] = if first { &prefix } else { b"," };
                        first = false;
                        written = out
                            .write_all(separator)
                            .and_then(|()| Ok(serde_json::to_writer(&mut *out, &frame)?));
                    }
                });
                if let Err(e) = drawn {
                    return Ok(Err(e));
                }
                written?;
                if first {
                    out.write_all(&prefix)?;
                }
                out.write_all(b"]}\n")?;
            }
            DiagramFormat::Text => {
                let mut text = String::new();
                if self.drawn > 0 {
                    text.push('\n');
                }
                let record = checked.parsed.as_ref().map(|p| &p.record);
                let players =
                    record.and_then(|r| Some((r.tags.south.as_deref()?, r.tags.north.as_deref()?)));
                text.push_str(&heading(source_name(input.display()), index, players));
                let (out, style) = (&mut self.out, self.style);
                let mut written = Ok(());
                let mut first = true;
                let drawn = drawing.for_each_frame(max_laps, |frame| {
                    if written.is_ok() {
                        if !first {
                            text.push('\n');
                        }
                        first = false;
                        let _ = draw_frame(&mut text, &frame, style);
                        written = out.write_all(text.as_bytes());
                        text.clear();
                    }
                });
                if let Err(e) = drawn {
                    return Ok(Err(e));
                }
                written?;
                out.write_all(text.as_bytes())?;
            }
        }
        self.drawn += 1;
        // Each game reaches stdout as soon as it is drawn: a slow producer
        // upstream does not hold back the games before.
        self.out.flush()?;
        Ok(Ok(()))
    }
}

/// A game from flags has no file: its diagnostics name `--moves`.
fn source_name(file: &str) -> &str {
    if file == moves_arg::NAME {
        "command line"
    } else {
        file
    }
}

/// Every line render writes fits a terminal this wide.
const COLUMNS: usize = 80;

/// `=== FILE: game N, SOUTH v NORTH ===`, in [`COLUMNS`] terminal columns
/// (long names cut with `…`: a file keeps its end, a player their start),
/// with the control characters of names escaped: tag values and file names
/// are input, and must not drive the terminal.
fn heading(source: &str, index: usize, players: Option<(&str, &str)>) -> String {
    let width = |t: &str| t.chars().map(diagnostic::columns).sum::<usize>();
    let fit = diagnostic::fit_columns;
    let source = diagnostic::escape_controls(source);
    let players = players.map(|(s, n)| {
        (
            diagnostic::escape_controls(s),
            diagnostic::escape_controls(n),
        )
    });
    let fixed =
        format!("=== : game {index} ===").len() + players.as_ref().map_or(0, |_| ",  v ".len());
    let room = COLUMNS.saturating_sub(fixed);
    let (source, players) = match players {
        None => (fit(&source, room, true), String::new()),
        Some((south, north)) => {
            // Each player at least a quarter of the room; the file the rest.
            let quarter = room / 4;
            let south = fit(
                &south,
                quarter.max(room.saturating_sub(width(&source) + width(&north))),
                false,
            );
            let north = fit(
                &north,
                quarter.max(room.saturating_sub(width(&source) + width(&south))),
                false,
            );
            let source = fit(
                &source,
                room.saturating_sub(width(&south) + width(&north)),
                true,
            );
            (source, format!(", {south} v {north}"))
        }
    };
    format!("=== {source}: game {index}{players} ===\n")
}

/// Runs the tool; returns the exit code.
pub fn run(args: &Args) -> io::Result<u8> {
    if crate::meta::handle::<Args>(&args.meta)? {
        return Ok(EXIT_OK);
    }
    let charset = match args.style {
        DrawStyle::Ascii => Charset::Ascii,
        DrawStyle::Unicode => Charset::Unicode,
    };
    let style = Style {
        charset,
        colour: args.format == DiagramFormat::Text && args.color.color.for_stdout(),
    };
    if args.format == DiagramFormat::Html
        && (args.plies.is_some()
            || args.laps.is_some()
            || args.rounds.is_some()
            || args.variation.is_some())
    {
        output::error_line(
            "error: --format html draws the whole game, laps and all; --ply N picks the ply it opens at (no --plies, --laps, --rounds or --variation)",
        );
        return Ok(EXIT_FAILURE);
    }
    if args.output_dir.is_some() && !matches!(args.format, DiagramFormat::Svg | DiagramFormat::Html)
    {
        output::error_line("error: --output-dir is for --format svg or html");
        return Ok(EXIT_FAILURE);
    }
    let mut tool = Tool {
        args,
        selection: Selection::of(args),
        style,
        err_color: args.color.color.for_stderr(),
        out: output::stdout(),
        pictures: Pictures::new(args.output_dir.as_deref(), args.force),
        seen: 0,
        drawn: 0,
        invalid: 0,
    };
    if args.setup.is_some() || args.moves.is_some() || args.game.game.is_some() {
        if !args.input.files.is_empty() {
            output::error_line(
                "error: --game, --setup and --moves draw one game of their own; they take no record files",
            );
            return Ok(EXIT_FAILURE);
        }
        match game_from_flags(args, tool.err_color) {
            Ok((text, parsed)) => {
                let flags = InputName::new(moves_arg::NAME.into());
                tool.draw_game(&flags, 1, (Form::Mgn, &text), Some(parsed))?
            }
            Err((report, code)) => {
                crate::output::diagnostics(&report);
                return Ok(code);
            }
        }
        let status = if tool.invalid > 0 {
            EXIT_INVALID
        } else {
            EXIT_OK
        };
        return tool.finish(status);
    }
    let names: Vec<InputName> = input::inputs(&args.input.files, !args.quiet.quiet);
    let mut driver = Driver::new(&names, Some(args.max_errors));
    driver.each(&mut tool, |_, tool, input, game| {
        let invalid = tool.invalid;
        tool.draw_game(input, game.number, (game.form, &game.text), None)?;
        Ok((Verdict::of(tool.invalid == invalid, false), Step::Next))
    })?;
    tool.finish(driver.tally.exit_status())
}

impl Tool<'_> {
    /// The end of a run whose exit status is `status`: the picture files
    /// closed (a failure there is the tool's), stdout flushed.
    fn finish(&mut self, status: u8) -> io::Result<u8> {
        if let Err(e) = self.pictures.finish(&mut self.out)? {
            self.out.flush()?;
            output::error_line(&format!("error: {e}"));
            return Ok(EXIT_FAILURE);
        }
        self.out.flush()?;
        Ok(status)
    }
}

impl Writer for Tool<'_> {
    fn stdout(&mut self) -> &mut output::Stdout {
        &mut self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(parse_range("7").unwrap().0, 7..=7);
        assert_eq!(parse_range("3..9").unwrap().0, 3..=9);
        assert_eq!(parse_range("3..").unwrap().0, 3..=usize::MAX);
        assert_eq!(parse_range("..").unwrap().0, 1..=usize::MAX);
        assert!(parse_range("9..3").is_err());
        assert!(parse_range("x").is_err());
        for zero in ["", "0", "0..3", "..0"] {
            assert!(parse_range(zero).is_err(), "{zero}");
        }
    }

    #[test]
    fn headings_fit_80_columns_and_escape_controls() {
        let width = |t: &str| t.trim_end().chars().map(diagnostic::columns).sum::<usize>();
        let long = "x".repeat(200);
        let cjk = "名".repeat(100);
        let evil = "\u{1b}[31mred\u{1b}]0;title\u{7}";
        let cases = [
            ("games.mgn", Some(("alice", "bob"))),
            (long.as_str(), Some((cjk.as_str(), long.as_str()))),
            ("a.mgn", Some((cjk.as_str(), cjk.as_str()))),
            (long.as_str(), None),
            (evil, Some((evil, evil))),
            (cjk.as_str(), Some(("s", "n"))),
        ];
        for (source, players) in cases {
            let line = heading(source, 123, players);
            assert!(width(&line) <= COLUMNS, "{} columns: {line}", width(&line));
            assert!(!line.trim_end().chars().any(char::is_control), "{line:?}");
            assert!(
                line.starts_with("=== ") && line.ends_with(" ===\n"),
                "{line}"
            );
        }
        assert_eq!(
            heading("games.mgn", 2, Some(("alice", "bob"))),
            "=== games.mgn: game 2, alice v bob ===\n"
        );
        // A long path keeps its end, the file's name.
        let line = heading(&format!("{long}/end.mgn"), 1, None);
        assert!(
            line.starts_with("=== …x") && line.ends_with("x/end.mgn: game 1 ===\n"),
            "{line}"
        );
        assert_eq!(width(&line), COLUMNS);
    }

    #[test]
    fn round_notes_name_empty_rounds() {
        let position = Position::new(mancala_rules::Rules::standard(
            mancala_rules::GameId::Pallankuzhi,
        ));
        let end = |round| RoundEnd {
            round,
            reason: mancala_rules::EndReason::NoMoves,
            holdings: [50, 34],
            winner: None,
        };
        let (notes, frames) = round_frames(&[end(1), end(2)], &position, false);
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert_eq!(frames.len(), 1);
    }
}
