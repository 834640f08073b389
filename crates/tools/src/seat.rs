//! mancala-play's human seat: what the person there types, the signals
//! that stop them, and what they are told of each move and of the end.
//! Lines are read on a thread of their own, so that Ctrl-C (SIGINT) or
//! SIGTERM can end a game while the seat waits for a line: the game then
//! ends as `quit` ends it, its record written unfinished.

use std::fmt::Write as _;
use std::io::{self, BufRead};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};

use mancala_prose::plural;
use mancala_rules::{Capture, Dir, Hole, LapEnd, Move, Outcome, PlayReport, Position, Side};

/// Bytes of a typed line kept: a move or a command is a few bytes; a
/// longer line is refused whole (and its bytes not kept).
pub const MAX_LINE: usize = 256;

/// A "line" this long without a line break is no one typing (`/dev/zero`
/// on stdin, say): the input is taken to be over.
const MAX_RUN: u64 = 1 << 20;

/// What came from the person at the seat.
#[derive(Debug)]
pub enum Typed {
    /// A line of text, without its line break.
    Line(String),
    /// A line that is not UTF-8 text.
    NotText,
    /// A line over [`MAX_LINE`] bytes (this many).
    TooLong(u64),
    /// The input ended, or cannot be read, or is no one typing: the reason.
    End(Option<String>),
    /// A signal asked the program to stop (its name).
    Stop(&'static str),
}

/// The seat's input: typed lines and stopping signals, in the order they
/// came.
#[derive(Debug)]
pub struct SeatInput {
    events: Receiver<Typed>,
    stopped: Arc<AtomicBool>,
}

impl SeatInput {
    /// Starts reading stdin and, on Unix, catching SIGINT and SIGTERM
    /// (a second one ends the program at once, should a search not stop).
    pub fn start() -> io::Result<SeatInput> {
        let (send, events) = mpsc::channel();
        let stopped = Arc::new(AtomicBool::new(false));
        catch_signals(&send, &stopped)?;
        std::thread::spawn(move || read_lines(&mut io::stdin().lock(), &send));
        Ok(SeatInput { events, stopped })
    }

    /// The next thing typed or signalled (waits for it).
    pub fn next(&self) -> Typed {
        self.events.recv().unwrap_or(Typed::End(None))
    }

    /// Whether a signal asked the program to stop.
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }
}

#[cfg(unix)]
fn catch_signals(send: &Sender<Typed>, stopped: &Arc<AtomicBool>) -> io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    for signal in [SIGINT, SIGTERM] {
        // Registered first, so it sees the flag before the next one sets it.
        signal_hook::flag::register_conditional_shutdown(signal, 130, Arc::clone(stopped))?;
        signal_hook::flag::register(signal, Arc::clone(stopped))?;
    }
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    let send = send.clone();
    std::thread::spawn(move || {
        for signal in signals.forever() {
            let name = if signal == SIGINT {
                "SIGINT"
            } else {
                "SIGTERM"
            };
            if send.send(Typed::Stop(name)).is_err() {
                break;
            }
        }
    });
    Ok(())
}

#[cfg(not(unix))]
fn catch_signals(_: &Sender<Typed>, _: &Arc<AtomicBool>) -> io::Result<()> {
    Ok(())
}

/// Sends each line of `input` until it ends.
fn read_lines(input: &mut impl BufRead, send: &Sender<Typed>) {
    loop {
        let typed = read_line(input);
        let end = matches!(typed, Typed::End(_));
        if send.send(typed).is_err() || end {
            break;
        }
    }
}

/// Reads one line, keeping at most [`MAX_LINE`] bytes of it: memory stays
/// bounded whatever comes.
pub fn read_line(input: &mut impl BufRead) -> Typed {
    let mut kept = Vec::new();
    let mut len = 0u64;
    loop {
        let available = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Typed::End(Some(format!("cannot read stdin: {e}"))),
        };
        if available.is_empty() {
            if len == 0 {
                return Typed::End(None);
            }
            break;
        }
        let (chunk, ends) = match memchr_newline(available) {
            Some(i) => (&available[..i], true),
            None => (available, false),
        };
        let room = MAX_LINE.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        len += chunk.len() as u64;
        let used = chunk.len() + usize::from(ends);
        input.consume(used);
        if ends {
            break;
        }
        if len > MAX_RUN {
            return Typed::End(Some(format!(
                "stdin sent over {MAX_RUN} bytes without a line break: no one is typing"
            )));
        }
    }
    if len > MAX_LINE as u64 {
        return Typed::TooLong(len);
    }
    let line = kept.strip_suffix(b"\r").unwrap_or(&kept);
    match std::str::from_utf8(line) {
        Ok(text) => Typed::Line(text.to_owned()),
        Err(_) => Typed::NotText,
    }
}

fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

/// A typed line without what a terminal sends for keys that are not text:
/// escape sequences (arrow, function and Alt keys, `ESC [ A`, `ESC O P`,
/// and strings such as `ESC ] … BEL`) and other control characters. A tab
/// counts as a space. The line's text, and whether anything was dropped.
/// (A terminal in its usual line mode echoes such keys itself, as `^[[A`;
/// nothing of them reaches the screen from us.)
#[must_use]
pub fn without_controls(line: &str) -> (String, bool) {
    let mut text = String::with_capacity(line.len());
    let mut dropped = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\t' => text.push(' '),
            '\u{1b}' => {
                dropped = true;
                match chars.next() {
                    // CSI: parameters and intermediates, then a final byte.
                    Some('[') => {
                        let _ = chars.by_ref().find(|c| ('\u{40}'..='\u{7e}').contains(c));
                    }
                    // SS3 (arrow keys in application mode): one more.
                    Some('O') => {
                        chars.next();
                    }
                    // OSC, DCS, SOS, PM, APC: up to BEL or `ESC \\`.
                    Some(']' | 'P' | 'X' | '^' | '_') => {
                        while let Some(c) = chars.next() {
                            if c == '\u{7}' || (c == '\u{1b}' && chars.next_if_eq(&'\\').is_some())
                            {
                                break;
                            }
                        }
                    }
                    // Alt and a key, or a lone escape.
                    _ => {}
                }
            }
            c if c.is_control() => dropped = true,
            c => text.push(c),
        }
    }
    (text, dropped)
}

/// What `help` says at the seat: the forms a move may be typed in, and the
/// commands.
#[must_use]
pub fn help(position: &Position) -> String {
    let n = position.rules().holes();
    let last = char::from(b'A' + n as u8 - 1);
    let mut text = format!(
        "Type the hole to sow from: A..{last} for South, a..{} for North (either case names\n  \
         your own hole).\n",
        last.to_ascii_lowercase()
    );
    if position.direction_due() {
        text.push_str(
            "This first move also chooses the direction: E:ccw (counter-clockwise) or E:cw;\n  \
             E ccw and E:CCW are read too, and a hole alone is asked its direction.\n",
        );
    }
    text.push_str(
        "As in a record, a move number may come before the move (1. A, 1... a) and +N\n  \
         after it, the seeds it gains: a wrong count is not played. Arrow keys are ignored.\n\
         hint: an engine's suggestion; undo: take back your last move; quit: stop (the\n  \
         record is written unfinished).\n",
    );
    text
}

/// `mv` on `side`'s own row: at the seat either case names the player's
/// own hole.
#[must_use]
pub fn own_hole(mut mv: Move, side: Side) -> Move {
    mv.hole.side = side;
    mv
}

/// The direction a line gives alone, when a move was typed without it:
/// `ccw` or `cw` in any case, with or without the notation's `:`, or the
/// words.
#[must_use]
pub fn direction_word(word: &str) -> Option<Dir> {
    match word.trim_start_matches(':').to_ascii_lowercase().as_str() {
        "ccw" | "counter-clockwise" | "counterclockwise" | "anticlockwise" => Some(Dir::Ccw),
        "cw" | "clockwise" => Some(Dir::Cw),
        _ => None,
    }
}

/// Holes a note names at most (laps' ends, holes taken from): a move may
/// run to the lap budget.
const SHOWN: usize = 8;

/// What the seat is told of a move's steps, gathered as the rules sow it:
/// where its laps ended and which holes each side took seeds from (the
/// first [`SHOWN`] of each, and the last lap's end), in constant memory.
#[derive(Debug, Default)]
pub struct MoveSteps {
    lap_ends: Vec<Hole>,
    last_end: Option<Hole>,
    /// South's and North's: holes taken from, and whether there were more
    /// than those.
    taken_from: [Vec<Hole>; 2],
    more_taken: [bool; 2],
}

impl mancala_rules::Observer for MoveSteps {
    fn capture(&mut self, capture: Capture) {
        let taker = capture.taker.index();
        let holes = &mut self.taken_from[taker];
        if !holes.contains(&capture.hole) {
            if holes.len() < SHOWN {
                holes.push(capture.hole);
            } else {
                self.more_taken[taker] = true;
            }
        }
    }

    fn lap_end(&mut self, last: Hole, _end: LapEnd, _board: &[u8], _stores: [u8; 2]) {
        if self.lap_ends.len() < SHOWN {
            self.lap_ends.push(last);
        }
        self.last_end = Some(last);
    }
}

fn holes_text(holes: &[Hole]) -> String {
    let labels: Vec<String> = holes.iter().map(ToString::to_string).collect();
    labels.join(", ")
}

/// What `side`'s move `mv` did, in words: the hole it sowed from, where
/// its laps ended, each side's gain as the rules' report gives it (with
/// the counter before and after: `south +4 from C: winnings 0 -> 4`, in
/// Rio Kadalis on North's move too) and the rounds it ended. `before` is
/// the position it was played in.
#[must_use]
pub fn move_note(
    side: Side,
    mv: Move,
    before: &Position,
    report: &PlayReport,
    steps: &MoveSteps,
) -> String {
    let mut note = format!("{side} plays {mv}");
    if report.endless {
        note.push_str(": an endless move (its laps never end)");
    } else if let Some(last) = steps.last_end {
        let laps = report.laps;
        let _ = write!(note, ": {}, ", plural(laps, "lap"));
        let shown = &steps.lap_ends;
        if laps <= shown.len() as u64 {
            let _ = write!(note, "ending in {}", holes_text(shown));
        } else {
            let _ = write!(
                note,
                "ending in {}, ... and {} more, the last in {last}",
                holes_text(shown),
                laps - shown.len() as u64
            );
        }
    }
    note.push('\n');
    let counter = before.rules().game().descriptor().counter.label();
    for gainer in [side, side.opposite()] {
        let gained = report.gained[gainer.index()];
        if gained == 0 {
            continue;
        }
        let held = u32::from(before.store(gainer));
        let _ = write!(note, "  {gainer} +{gained}");
        let holes = &steps.taken_from[gainer.index()];
        if !holes.is_empty() {
            let more = if steps.more_taken[gainer.index()] {
                ", ..."
            } else {
                ""
            };
            let _ = write!(note, " from {}{more}", holes_text(holes));
        }
        let _ = writeln!(note, ": {counter} {held} -> {}", held + gained);
    }
    for end in &report.round_ends {
        let _ = writeln!(
            note,
            "round {} over ({}): south {}, north {}: {}",
            end.round,
            end.reason,
            end.holdings[0],
            end.holdings[1],
            winner_words(end.winner, end.holdings, "the round")
        );
    }
    if report.outcome.is_none()
        && let Some(end) = report.round_ends.last()
    {
        let _ = writeln!(note, "round {} begins", end.round + 1);
    }
    note
}

/// `North wins 35-13` (the winner's count first), or `a draw at 24-24`;
/// `what` names what was won in a match (`the round`, `the match`).
fn winner_words(winner: Option<Side>, score: [u32; 2], what: &str) -> String {
    let what = if what.is_empty() {
        String::new()
    } else {
        format!(" {what}")
    };
    match winner {
        Some(side) => {
            let (won, lost) = (score[side.index()], score[side.opposite().index()]);
            let name = match side {
                Side::South => "South",
                Side::North => "North",
            };
            format!("{name} wins{what} {won}-{lost}")
        }
        None if what.is_empty() => format!("a draw at {}-{}", score[0], score[1]),
        None => format!(
            "{} is drawn at {}-{}",
            what.trim_start(),
            score[0],
            score[1]
        ),
    }
}

/// The end of a game in words: `game over (twenty-five): North wins
/// 35-13`, or a draw; a match's winner wins the match.
#[must_use]
pub fn outcome_words(outcome: &Outcome, rounds: bool) -> String {
    let what = if rounds { "the match" } else { "" };
    format!(
        "game over ({}): {}",
        outcome.reason,
        winner_words(outcome.winner, outcome.score, what)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<String> {
        let mut input = io::BufReader::with_capacity(7, input);
        let mut out = Vec::new();
        loop {
            match read_line(&mut input) {
                Typed::End(reason) => {
                    out.push(format!("end {reason:?}"));
                    return out;
                }
                other => out.push(format!("{other:?}")),
            }
        }
    }

    #[test]
    fn lines_bad_lines_and_long_ones() {
        let long = "x".repeat(MAX_LINE + 1);
        let input = format!("A\r\nhelp\n{long}\n\u{e9}\n");
        let mut bytes = input.into_bytes();
        bytes.extend(b"\xff\xfe\nq");
        assert_eq!(
            lines(&bytes),
            [
                "Line(\"A\")",
                "Line(\"help\")",
                &format!("TooLong({})", MAX_LINE + 1),
                "Line(\"\u{e9}\")",
                "NotText",
                "Line(\"q\")",
                "end None"
            ]
        );
    }

    /// A move of many laps names the first [`SHOWN`] ends and the last;
    /// an endless move says so. (Short moves, gains and round ends are
    /// checked end to end in tests/seat.rs.)
    #[test]
    fn long_and_endless_moves_in_words() {
        use mancala_rules::{CaptureKind, GameId, Observer, Options, Rules};
        let position = Position::new(Rules::new(GameId::Olowuka, Options::new()).unwrap());
        let hole = |label| Hole::from_label(label).unwrap();
        let mut steps = MoveSteps::default();
        for label in "ABCDEFabcdefA".chars() {
            steps.lap_end(hole(label), LapEnd::LandedEmpty(hole(label)), &[], [0, 0]);
        }
        // Nine holes, one twice: eight are named.
        for label in "bcdefabcBCD".chars() {
            steps.capture(Capture {
                hole: hole(label),
                seeds: 2,
                taker: Side::South,
                kind: CaptureKind::Chain,
            });
        }
        let report = PlayReport {
            gained: [18, 0],
            laps: 13,
            ..PlayReport::default()
        };
        let mv = Move::new(hole('A'));
        assert_eq!(
            move_note(Side::South, mv, &position, &report, &steps),
            "south plays A: 13 laps, ending in A, B, C, D, E, F, a, b, ... and 5 more, the last in A\n  \
             south +18 from b, c, d, e, f, a, B, C, ...: captured 0 -> 18\n"
        );
        let endless = PlayReport {
            endless: true,
            ..PlayReport::default()
        };
        assert_eq!(
            move_note(Side::South, mv, &position, &endless, &MoveSteps::default()),
            "south plays A: an endless move (its laps never end)\n"
        );
    }

    #[test]
    fn the_winner_in_words() {
        use mancala_rules::EndReason;
        let words = |score, winner, rounds| {
            let reason = EndReason::Repetition;
            outcome_words(
                &Outcome {
                    score,
                    reason,
                    winner,
                },
                rounds,
            )
        };
        assert_eq!(
            words([13, 35], Some(Side::North), false),
            "game over (repetition): North wins 35-13"
        );
        assert_eq!(
            words([30, 18], Some(Side::South), true),
            "game over (repetition): South wins the match 30-18"
        );
        assert_eq!(
            words([24, 24], None, false),
            "game over (repetition): a draw at 24-24"
        );
        assert_eq!(
            words([24, 24], None, true),
            "game over (repetition): the match is drawn at 24-24"
        );
    }

    #[test]
    fn keys_that_are_not_text_are_dropped() {
        let cases = [
            ("\u{1b}[AA", "A", true),
            ("\u{1b}OB\u{1b}[1;5CE\tccw", "E ccw", true),
            ("\u{1b}]0;title\u{7}b\u{1b}]0;x\u{1b}\\c", "bc", true),
            ("\u{1b}xq\u{7f}\u{8}\u{9b}", "q", true),
            ("E:ccw+3", "E:ccw+3", false),
            ("\u{1b}", "", true),
        ];
        for (typed, text, dropped) in cases {
            assert_eq!(
                without_controls(typed),
                (text.to_owned(), dropped),
                "{typed:?}"
            );
        }
    }

    #[test]
    fn no_one_types_a_megabyte_without_a_line_break() {
        let zeros = vec![0u8; (MAX_RUN + 10) as usize];
        let got = lines(&zeros);
        assert_eq!(got.len(), 1);
        assert!(got[0].contains("no one is typing"), "{got:?}");
    }
}
