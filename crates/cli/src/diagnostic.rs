//! Compiler-style error reports: `file:line:col: error: message`, the source
//! line, and a caret under the span.

use std::fmt::Write as _;
use std::ops::Range;

use mancala_notation::GameText;

use crate::check::Problem;

/// Columns of source shown around the error on very long lines.
const WINDOW: usize = 60;

const RED_BOLD: &str = "\x1b[1;31m";
const BOLD: &str = "\x1b[1m";
const BLUE: &str = "\x1b[34m";
const RESET: &str = "\x1b[0m";

/// Where a problem is, as `file:line:col`.
#[must_use]
pub fn location(file: &str, game: &GameText, span: &Range<usize>) -> (u64, u64, String) {
    let (line, col) = game.line_col(span.start);
    (line, col, format!("{file}:{line}:{col}"))
}

/// Appends a report of `message` at `span` of `game` to `out`.
pub fn render(
    out: &mut String,
    file: &str,
    game: &GameText,
    span: &Range<usize>,
    message: &str,
    color: bool,
) {
    let (line_no, col, at) = location(file, game, span);
    let message = escape_controls(message);
    let paint = |code: &'static str| if color { code } else { "" };
    let reset = paint(RESET);
    let _ = writeln!(
        out,
        "{}{at}:{reset} {}error:{reset} {message}",
        paint(BOLD),
        paint(RED_BOLD)
    );
    let (line, line_start) = game.line_at(span.start);
    let chars: Vec<char> = line.chars().collect();
    let col = (col as usize - 1).min(chars.len());
    // Width of the caret: the span's characters on this line, at least one.
    let span_end_in_line = span.end.saturating_sub(line_start).min(line.len());
    let end_col = line
        .get(..span_end_in_line)
        .map_or(col, |s| s.chars().count())
        .max(col + 1);
    let first = col.saturating_sub(WINDOW / 2);
    let last = (first + WINDOW)
        .max(end_col.min(first + WINDOW))
        .min(chars.len());
    let mut shown: String = chars[first..last].iter().collect();
    let mut caret_at = col - first;
    if first > 0 {
        shown.insert(0, '…');
        caret_at += 1;
    }
    if last < chars.len() {
        shown.push('…');
    }
    // One column per character, and nothing that a terminal would act on.
    let shown: String = shown
        .chars()
        .map(|c| {
            if c == '\t' {
                ' '
            } else if c.is_control() {
                '?'
            } else {
                c
            }
        })
        .collect();
    let gutter = line_no.to_string().len();
    let blue = paint(BLUE);
    let _ = writeln!(out, "{blue}{:gutter$} |{reset}", "");
    let _ = writeln!(out, "{blue}{line_no} |{reset} {shown}");
    let width = end_col.min(last).saturating_sub(col).max(1);
    let _ = writeln!(
        out,
        "{blue}{:gutter$} |{reset} {:caret_at$}{}{}{reset}",
        "",
        "",
        paint(RED_BOLD),
        "^".repeat(width)
    );
}

/// Control characters of the input (an escape sequence in a corrupt file)
/// must not reach the terminal: they are shown as `\u{1b}`.
fn escape_controls(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Appends a report of every problem of a game.
pub fn render_problems(
    out: &mut String,
    file: &str,
    game: &GameText,
    problems: &[Problem],
    color: bool,
) {
    for p in problems {
        render(out, file, game, &p.span, &p.message, color);
    }
}
