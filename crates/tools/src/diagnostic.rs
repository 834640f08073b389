//! Compiler-style error reports: `file:line:col: error: message`, the source
//! line, and a caret under the span.

use std::fmt::Write as _;
use std::ops::Range;

use mancala_notation::GameText;

use mancala_check::Problem;

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
    // In terminal columns: a wide character (CJK, emoji) takes two.
    let caret_at = shown.chars().take(caret_at).map(columns).sum::<usize>();
    let width = chars[col.min(last)..end_col.min(last)]
        .iter()
        .map(|&c| columns(c))
        .sum::<usize>()
        .max(1);
    let _ = writeln!(
        out,
        "{blue}{:gutter$} |{reset} {:caret_at$}{}{}{reset}",
        "",
        "",
        paint(RED_BOLD),
        "^".repeat(width)
    );
}

/// The terminal columns a character takes: two for the wide ones (East
/// Asian wide and full-width characters, most emoji), none for combining
/// marks, zero-width characters and variation selectors, else one. The
/// common blocks of Unicode's East Asian Width and general categories; no
/// table of every code point is worth a dependency here.
fn columns(c: char) -> usize {
    match u32::from(c) {
        0x0300..=0x036F | 0x200B..=0x200F | 0xFE00..=0xFE0F => 0,
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x1F300..=0x1F64F
        | 0x1F900..=0x1F9FF
        | 0x20000..=0x3FFFD => 2,
        _ => 1,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn caret_line(line: &str, at: &str) -> String {
        let text = format!("[Game \"olowuka\"]\n\n{line}\n");
        let game = GameText {
            len: text.len() as u64,
            bytes: text.into_bytes(),
            first_line: 1,
            offset: 0,
        };
        let start = game.bytes.len() - 1 - line.len() + line.find(at).unwrap();
        let mut out = String::new();
        render(&mut out, "x", &game, &(start..start + at.len()), "m", false);
        out.lines().last().unwrap().to_owned()
    }

    /// The caret stands under its token in a terminal: wide characters
    /// take two columns, combining marks none.
    #[test]
    fn the_caret_counts_terminal_columns() {
        // "3 | " then the line: the caret line is "  | " then the padding.
        let cases = [
            ("1. D {ab} Q *", "Q", 10),
            ("1. D {日本} Q *", "Q", 12),
            ("1. D {e\u{301}} Q *", "Q", 9),
            ("{日本} 1. QQ *", "QQ", 10),
        ];
        for (line, token, padding) in cases {
            let expected = format!("  | {}{}", " ".repeat(padding), "^".repeat(token.len()));
            assert_eq!(caret_line(line, token), expected, "{line}");
        }
    }
}
