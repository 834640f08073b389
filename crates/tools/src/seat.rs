//! What the person at mancala-play's human seat types, and the signals
//! that stop them. Lines are read on a thread of their own, so that Ctrl-C
//! (SIGINT) or SIGTERM can end a game while the seat waits for a line: the
//! game then ends as `quit` ends it, its record written unfinished.

use std::io::{self, BufRead};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};

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

    #[test]
    fn no_one_types_a_megabyte_without_a_line_break() {
        let zeros = vec![0u8; (MAX_RUN + 10) as usize];
        let got = lines(&zeros);
        assert_eq!(got.len(), 1);
        assert!(got[0].contains("no one is typing"), "{got:?}");
    }
}
