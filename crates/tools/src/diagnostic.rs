//! Compiler-style error reports: `file:line:col: error: message`, the source
//! line, and a caret under the span.

use std::fmt::Write as _;
use std::ops::Range;

use mancala_notation::{GameText, Locator};

use mancala_check::Problem;

/// Columns of source shown around the error on a line too long to show
/// whole.
const WINDOW: usize = 60;
/// The width a report keeps within: a source line that fits beside its
/// gutter is shown whole.
const TERMINAL: usize = 80;

const RED_BOLD: &str = "\x1b[1;31m";
const BOLD: &str = "\x1b[1m";
const BLUE: &str = "\x1b[34m";
const RESET: &str = "\x1b[0m";

/// Where a problem is, as `file:line:col`.
#[must_use]
pub fn location(file: &str, game: &GameText, span: &Range<usize>) -> (u64, u64, String) {
    located(file, &mut game.locator(), span)
}

fn located(file: &str, locator: &mut Locator<'_>, span: &Range<usize>) -> (u64, u64, String) {
    let (line, col) = locator.line_col(span.start);
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
    render_located(out, file, &mut game.locator(), span, message, color);
}

/// [`render`] with the game's locator, which goes on from the last problem
/// reported. Only the window of the line that is shown is read, so that
/// each report costs the same on a line of any length.
fn render_located(
    out: &mut String,
    file: &str,
    locator: &mut Locator<'_>,
    span: &Range<usize>,
    message: &str,
    color: bool,
) {
    let (line_no, col, at) = located(file, locator, span);
    let message = escape_controls(message);
    let paint = |code: &'static str| if color { code } else { "" };
    let reset = paint(RESET);
    let _ = writeln!(
        out,
        "{}{at}:{reset} {}error:{reset} {message}",
        paint(BOLD),
        paint(RED_BOLD)
    );
    let gutter = line_no.to_string().len();
    // "N | " before the line.
    let room = TERMINAL.saturating_sub(gutter + 3);
    let excerpt = Excerpt::whole_line(locator.text(), locator.line_start(), span, room)
        .unwrap_or_else(|| {
            Excerpt::around(locator.text(), locator.line_start(), span, col as usize - 1)
        });
    let chars: Vec<char> = String::from_utf8_lossy(excerpt.bytes).chars().collect();
    let caret = excerpt.caret.min(chars.len());
    let caret_end = excerpt.caret_end.clamp(caret, chars.len());
    let mut shown: String = chars.iter().collect();
    let mut caret_at = caret;
    if excerpt.more_before {
        shown.insert(0, '…');
        caret_at += 1;
    }
    if excerpt.more_after {
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
    let blue = paint(BLUE);
    let _ = writeln!(out, "{blue}{:gutter$} |{reset}", "");
    let _ = writeln!(out, "{blue}{line_no} |{reset} {shown}");
    // In terminal columns: a wide character (CJK, emoji) takes two.
    let caret_at = shown.chars().take(caret_at).map(columns).sum::<usize>();
    let width = chars[caret..caret_end]
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

/// The part of an error's line that its report shows: at most [`WINDOW`]
/// characters, starting up to half of that before the error.
struct Excerpt<'a> {
    bytes: &'a [u8],
    /// The error's start and end, in characters of `bytes`.
    caret: usize,
    caret_end: usize,
    /// Whether the line goes on before or after the excerpt.
    more_before: bool,
    more_after: bool,
}

impl<'a> Excerpt<'a> {
    /// The whole line starting at `line_start`, when it fits `room`
    /// terminal columns; `None` for a longer line. Reads no further than a
    /// line of that width could reach.
    fn whole_line(
        text: &'a [u8],
        line_start: usize,
        span: &Range<usize>,
        room: usize,
    ) -> Option<Excerpt<'a>> {
        // No character is wider than 4 bytes: past that many, the line is
        // longer than `room` characters (and so columns).
        let reach = text.len().min(line_start + 4 * (room + 1));
        let slice = &text[line_start..reach];
        let end = match slice.iter().position(|&b| b == b'\n') {
            Some(end) => end,
            None if reach == text.len() => slice.len(),
            None => return None,
        };
        let line = &slice[..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let shown = String::from_utf8_lossy(line);
        if shown.chars().map(columns).sum::<usize>() > room {
            return None;
        }
        let chars_to = |at: usize| {
            let at = at.clamp(line_start, line_start + line.len()) - line_start;
            String::from_utf8_lossy(&line[..at]).chars().count()
        };
        Some(Excerpt {
            bytes: line,
            caret: chars_to(span.start),
            caret_end: chars_to(span.end.max(span.start)),
            more_before: false,
            more_after: false,
        })
    }

    /// The excerpt of the line starting at `line_start` around `span`,
    /// which starts `column` characters into the line. Reads no further
    /// than the excerpt: a line may be megabytes long.
    fn around(
        text: &'a [u8],
        line_start: usize,
        span: &Range<usize>,
        column: usize,
    ) -> Excerpt<'a> {
        let is_char_start = |b: u8| (b as i8) >= -0x40;
        let start = span.start.clamp(line_start, text.len());
        // Back from the error to the window's first character.
        let back = column.min(WINDOW / 2);
        let mut first = start;
        let mut stepped = 0;
        while stepped < back && first > line_start {
            first -= 1;
            if is_char_start(text[first]) {
                stepped += 1;
            }
        }
        // On to the window's end, or the line's.
        let mut last = first;
        let mut taken = 0;
        let mut caret_end = None;
        while last < text.len() && text[last] != b'\n' {
            if is_char_start(text[last]) {
                if taken == WINDOW {
                    break;
                }
                if last >= span.end.max(start) && caret_end.is_none() {
                    caret_end = Some(taken);
                }
                taken += 1;
            }
            last += 1;
        }
        let at_line_end = text.get(last).is_none_or(|&b| b == b'\n');
        let mut bytes = &text[first..last];
        if at_line_end {
            bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        }
        Excerpt {
            bytes,
            caret: stepped,
            caret_end: caret_end.unwrap_or(taken),
            more_before: first > line_start,
            more_after: !at_line_end,
        }
    }
}

/// The terminal columns a character takes, as Unicode's East Asian Width
/// and general categories say: two for wide characters (CJK, most emoji),
/// none for combining marks and zero-width characters, else one (control
/// characters, which reports escape, count one).
pub(crate) fn columns(c: char) -> usize {
    unicode_width::UnicodeWidthChar::width(c).unwrap_or(1)
}

/// `text` in at most `width` terminal columns: cut with `…` at its end
/// (`keep_end`: at its start, as for a path, whose end names the file).
#[must_use]
pub fn fit_columns(text: &str, width: usize, keep_end: bool) -> String {
    if text.chars().map(columns).sum::<usize>() <= width {
        return text.to_owned();
    }
    let mut kept = Vec::new();
    let mut used = 1;
    let mut take = |c: char| {
        used += columns(c);
        (used <= width).then(|| kept.push(c)).is_some()
    };
    if keep_end {
        for c in text.chars().rev() {
            if !take(c) {
                break;
            }
        }
        kept.push('…');
        kept.reverse();
    } else {
        for c in text.chars() {
            if !take(c) {
                break;
            }
        }
        kept.push('…');
    }
    kept.into_iter().collect()
}

/// Control characters of the input (an escape sequence in a corrupt file)
/// must not reach the terminal, nor bidi controls turn a line around:
/// they are shown as `\u{1b}`, `\u{202e}` (one function for every output,
/// text, SVG and HTML).
pub use mancala_rules::escape_controls;

/// Appends a report of every problem of a game.
pub fn render_problems(
    out: &mut String,
    file: &str,
    game: &GameText,
    problems: &[Problem],
    color: bool,
) {
    let mut locator = game.locator();
    for p in problems {
        render_located(out, file, &mut locator, &p.span, &p.to_string(), color);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game whose third line is `line`, ended by `eol`.
    fn game_with(line: &str, eol: &str) -> GameText {
        let text = format!("[Game \"olowuka\"]\n\n{line}{eol}");
        GameText {
            len: text.len() as u64,
            bytes: text.into_bytes(),
            first_line: 1,
            offset: 0,
        }
    }

    /// The report of an error at `at` in `line`, the third line of a game.
    fn report(line: &str, at: &str) -> String {
        let game = game_with(line, "\n");
        let start = game.bytes.len() - 1 - line.len() + line.find(at).unwrap();
        let mut out = String::new();
        render(&mut out, "x", &game, &(start..start + at.len()), "m", false);
        out
    }

    fn caret_line(line: &str, at: &str) -> String {
        report(line, at).lines().last().unwrap().to_owned()
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
            // Emoji past the old hand-written blocks, and a Devanagari
            // vowel sign (a combining mark).
            ("1. D {🚀} Q *", "Q", 10),
            ("1. D {कु} Q *", "Q", 9),
        ];
        for (line, token, padding) in cases {
            let expected = format!("  | {}{}", " ".repeat(padding), "^".repeat(token.len()));
            assert_eq!(caret_line(line, token), expected, "{line}");
        }
    }

    /// A line that fits 80 columns beside its gutter is shown whole; one
    /// column more and only a window around the error is.
    #[test]
    fn a_line_that_fits_80_columns_is_shown_whole() {
        // "3 | " leaves 76 columns.
        for (len, whole) in [(76, true), (77, false)] {
            let line = format!(
                "{}Q *",
                "A ".repeat((len - 3) / 2) + &" ".repeat((len - 3) % 2)
            );
            assert_eq!(line.chars().count(), len);
            let shown = report(&line, "Q").lines().nth(2).unwrap().to_owned();
            assert_eq!(shown == format!("3 | {line}"), whole, "{len}: {shown}");
            assert_eq!(shown.contains('…'), !whole, "{len}: {shown}");
        }
    }

    /// On a long line only a window around the error is shown, with
    /// ellipses where the line goes on.
    #[test]
    fn a_long_line_is_shown_around_the_error() {
        let before = "A ".repeat(40);
        let line = format!("{before}Q {}*", "b ".repeat(40));
        let game = game_with(&line, "\r\n");
        let at = game.bytes.iter().position(|&b| b == b'Q').unwrap();
        let mut out = String::new();
        render(&mut out, "x", &game, &(at..at + 1), "m", false);
        let shown = &line[before.len() - WINDOW / 2..before.len() + WINDOW / 2];
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "x:3:81: error: m");
        assert_eq!(lines[2], format!("3 | …{shown}…"));
        assert_eq!(lines[3], format!("  | {}^", " ".repeat(WINDOW / 2 + 1)));
        // At the end of the line: no ellipsis after, and no CR shown.
        let end = game.bytes.len() - 2;
        let mut out = String::new();
        render(&mut out, "x", &game, &(end - 1..end), "m", false);
        assert!(out.lines().nth(2).unwrap().ends_with(" b *"), "{out}");
    }
}
