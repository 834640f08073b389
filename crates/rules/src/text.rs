//! Helpers for messages about bad input: quoting a long token short, and
//! suggesting the word a typo meant.

/// Input quoted in a message, cut to its first 24 characters when longer
/// (`NNNN… (5000 characters)`), so that a huge token yields a short message.
#[must_use]
pub fn shorten(text: &str) -> String {
    const KEEP: usize = 24;
    let count = text.chars().count();
    if count <= KEEP {
        text.to_owned()
    } else {
        let head: String = text.chars().take(KEEP).collect();
        format!("{head}… ({count} characters)")
    }
}

/// `1 lap`, `2 laps`, `1 ply`, `2 plies`: a count and its noun, made
/// plural when the count is not 1.
#[must_use]
pub fn plural(count: u64, noun: &str) -> String {
    match (count, noun.strip_suffix('y')) {
        (1, _) => format!("1 {noun}"),
        (_, Some(stem)) if !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{count} {stem}ies"),
        _ => format!("{count} {noun}s"),
    }
}

/// The candidate closest to `word` by edit distance, if it is close enough to
/// be a likely typo (at most a third of the word's length, at least 1).
#[must_use]
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortens_long_input_only() {
        assert_eq!(shorten("series-capture"), "series-capture");
        assert_eq!(
            shorten(&"N".repeat(5000)),
            format!("{}… (5000 characters)", "N".repeat(24))
        );
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "lap"), "1 lap");
        assert_eq!(plural(0, "lap"), "0 laps");
        assert_eq!(plural(1, "ply"), "1 ply");
        assert_eq!(plural(2, "ply"), "2 plies");
        assert_eq!(plural(3, "day"), "3 days");
    }

    #[test]
    fn suggests_near_misses_only() {
        let names = ["series-capture", "skip-origin", "single-round"];
        assert_eq!(closest("series-captur", names), Some("series-capture"));
        assert_eq!(closest("singel-round", names), Some("single-round"));
        assert_eq!(closest("sow-backwards", names), None);
    }
}
