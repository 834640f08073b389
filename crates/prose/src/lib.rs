//! The English wording shared by the mancala libraries' error `Display`
//! impls and by the tools: a count with its noun made plural, input
//! quoted short, and the word a typo meant. One place for these, so that
//! every message words them alike; no dependencies, so that every crate
//! may use it.

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

/// What a message adds after naming an unknown `word`: ` (did you mean
/// `near`?)` when one of `known` is [`closest`] to it, else ` (expected a,
/// b or c)`.
#[must_use]
pub fn did_you_mean<'a>(word: &str, known: impl IntoIterator<Item = &'a str> + Clone) -> String {
    match closest(word, known.clone()) {
        Some(near) => format!(" (did you mean `{near}`?)"),
        None => format!(" (expected {})", one_of(known)),
    }
}

/// `a`, `a or b`, `a, b or c`: the words as a choice.
#[must_use]
pub fn one_of<'a>(words: impl IntoIterator<Item = &'a str>) -> String {
    let words: Vec<&str> = words.into_iter().collect();
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Edit distance in characters, a swap of two neighbours counting as one
/// edit (optimal string alignment): `gmae` is one edit from `game`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the table: two back, the last, and this one.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (last[j] + 1).min(row[j - 1] + 1).min(last[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut last);
        std::mem::swap(&mut last, &mut row);
    }
    last[b.len()]
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
        assert_eq!(closest("gmae", ["game", "name"]), Some("game"));
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("gmae", "game"), 1);
        assert_eq!(edit_distance("humna", "human"), 1);
        assert_eq!(edit_distance("ca", "abc"), 3);
    }

    #[test]
    fn suggests_the_near_word_or_lists_them_all() {
        let names = ["random", "greedy", "mcts"];
        assert_eq!(did_you_mean("greddy", names), " (did you mean `greedy`?)");
        assert_eq!(
            did_you_mean("minimax", names),
            " (expected random, greedy or mcts)"
        );
        assert_eq!(one_of(["a"]), "a");
        assert_eq!(one_of(["a", "b"]), "a or b");
    }
}
