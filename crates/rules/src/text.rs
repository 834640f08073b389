//! Input shown to a reader with its control characters escaped. These stay
//! in rules, not mancala-prose: they are a safety table, not wording.

/// Whether `c` must not reach a reader as itself: a control character
/// (C0, DEL, C1: an escape sequence in a corrupt file drives a terminal)
/// or a bidirectional control, which reorders the text around it (the
/// embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069,
/// and the marks U+061C, U+200E, U+200F): a comment or a tag must not
/// turn the line it stands in around. So are the line and paragraph
/// separators U+2028 and U+2029, which break a line where the text has
/// none (a page's script, a terminal, an editor), and U+FEFF, a byte
/// order mark inside the text, invisible and of no use there. Zero-width
/// spaces and joiners stay text: Thai, Khmer and Burmese mark word
/// breaks with U+200B, Persian and Indic scripts join with U+200C/U+200D.
#[must_use]
pub fn is_unsafe_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{61c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{feff}'
        )
}

/// Input shown to a reader (a terminal, a page) with each character of
/// [`is_unsafe_control`] written as its escape, `\u{1b}` or `\u{202e}`:
/// seen, and inert.
#[must_use]
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_escaped_controls(&mut out, text);
    out
}

/// [`escape_controls`] appending to `out`.
pub fn push_escaped_controls(out: &mut String, text: &str) {
    for c in text.chars() {
        if is_unsafe_control(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_controls_are_escaped() {
        assert_eq!(
            escape_controls("a\u{0}b\u{1b}[31m\u{9b}c\u{202e}d\u{2066}e\u{200f}"),
            "a\\u{0}b\\u{1b}[31m\\u{9b}c\\u{202e}d\\u{2066}e\\u{200f}"
        );
        // Right-to-left letters are text, not controls.
        assert_eq!(escape_controls("שלום عربي"), "שלום عربي");
        // Separators that break a line, and a byte order mark inside.
        assert_eq!(
            escape_controls("a\u{2028}b\u{2029}c\u{feff}d"),
            "a\\u{2028}b\\u{2029}c\\u{feff}d"
        );
        // Word breaks and joiners of other scripts are text.
        assert_eq!(escape_controls("ก\u{200b}ข\u{200d}"), "ก\u{200b}ข\u{200d}");
    }
}
