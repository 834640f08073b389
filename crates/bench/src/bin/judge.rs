//! The referee of `benches/ab_judge.py`: rates two moves played in the same
//! position by one search much deeper than either player's.
//!
//! ```sh
//! judge [--ms MS] BEFORE A B
//! ```
//!
//! BEFORE is a record; A and B are that record continued by one move each
//! (`mancala-play --plies 1` of two builds, say). The position after BEFORE
//! is analysed for MS milliseconds (default 2000) by this build's
//! alpha-beta with margin scoring (`mancala-analyze`'s search), then each of
//! the two moves is searched to the depth that analysis reached, with the
//! same table. One line out:
//!
//! ```text
//! depth D best V a VA b VB
//! ```
//!
//! values in hundredths of a seed for the side to move (the seed margin it
//! can reach with best play, as far as the search saw), or `same` when the
//! two are one move written two ways (nothing searched). Exit status 0, or 2
//! with a message on stderr when a record is invalid or A and B do not
//! continue BEFORE by exactly one move.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

use mancala_check::{Build, check_text};
use mancala_engine::analysis::{Analyser, Limit};
use mancala_notation::GameText;
use mancala_rules::{Game, Move};

/// The game at the end of the record in `path`, and its moves.
fn replay(path: &str) -> Result<(Game, Vec<Move>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let checked = check_text(&GameText::whole(&text), None, Build::Record, None);
    if let Some(problem) = checked.problems.first() {
        return Err(format!("{path}: {}", problem));
    }
    let moves = checked
        .parsed
        .map(|p| p.record.moves().collect())
        .unwrap_or_default();
    let game = checked
        .replay
        .and_then(|r| r.game)
        .ok_or_else(|| format!("{path}: no game to replay"))?;
    Ok((game, moves))
}

/// The move by which the record in `path` continues `before`.
fn next_move(path: &str, before: &[Move]) -> Result<Move, String> {
    let (_, moves) = replay(path)?;
    match moves.split_last() {
        Some((&last, rest)) if rest == before => Ok(last),
        _ => Err(format!(
            "{path}: not the first record continued by one move"
        )),
    }
}

fn run(args: &[String]) -> Result<String, String> {
    let (ms, paths) = match args {
        [flag, ms, rest @ ..] if flag == "--ms" => (
            ms.parse::<u64>().map_err(|e| format!("--ms {ms}: {e}"))?,
            rest,
        ),
        rest => (2000, rest),
    };
    let [before, a, b] = paths else {
        return Err("usage: judge [--ms MS] BEFORE A B".to_owned());
    };
    let (game, moves) = replay(before)?;
    let (a, b) = (next_move(a, &moves)?, next_move(b, &moves)?);
    let canonical = |mv| game.position().canonical_move(mv);
    if canonical(a) == canonical(b) {
        return Ok("same\n".to_owned());
    }
    let mut analyser = Analyser::new(Limit::Time(Duration::from_millis(ms)));
    let analysis = analyser
        .analyse(&game)
        .ok_or_else(|| format!("{before}: no move to play"))?;
    let depth = analysis.depth.max(1);
    let mut value = |mv: Move| {
        analyser
            .move_value(&game, mv, depth)
            .map(|v| v.centiseeds)
            .ok_or_else(|| format!("{before}: the move {mv} is not accepted"))
    };
    let (va, vb) = (value(a)?, value(b)?);
    Ok(format!(
        "depth {depth} best {} a {va} b {vb}\n",
        analysis.value.centiseeds
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(line) => {
            // A closed pipe ends the run quietly, like the tools.
            let _ = io::stdout().lock().write_all(line.as_bytes());
            ExitCode::SUCCESS
        }
        Err(message) => {
            let _ = writeln!(io::stderr().lock(), "judge: {message}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::run;

    /// Writes each text to a file of its own; returns their paths.
    fn files(dir: &std::path::Path, texts: &[&str]) -> Vec<String> {
        texts
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let path = dir.join(format!("{i}.mgn"));
                std::fs::write(&path, text).unwrap();
                path.to_string_lossy().into_owned()
            })
            .collect()
    }

    fn judge(texts: &[&str]) -> Result<String, String> {
        static CALLS: AtomicUsize = AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("judge-test-{}-{call}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut args = vec!["--ms".to_owned(), "50".to_owned()];
        args.extend(files(&dir, texts));
        let out = run(&args);
        std::fs::remove_dir_all(&dir).unwrap();
        out
    }

    const TAGS: &str = "[Game \"olinda-keliya\"]\n[Result \"*\"]\n\n";

    fn record(moves: &str) -> String {
        format!("{TAGS}1. E:cw+6 b 2. B+2 d 3. G+1 g+2 {moves}*\n")
    }

    /// The values `a` and `b` of a judge's line.
    fn values(line: &str) -> (i32, i32) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], "depth", "{line}");
        let value = |name: &str| -> i32 {
            let at = words.iter().position(|w| *w == name).unwrap();
            words[at + 1].parse().unwrap()
        };
        (value("a"), value("b"))
    }

    #[test]
    fn the_move_that_captures_fifteen_is_rated_above_the_one_that_captures_none() {
        let (before, take, give) = (record(""), record("4. G+15 "), record("4. E "));
        let (a, b) = values(&judge(&[&before, &take, &give]).unwrap());
        assert!(a > b, "{a} {b}");
        let (a, b) = values(&judge(&[&before, &give, &take]).unwrap());
        assert!(a < b, "{a} {b}");
    }

    #[test]
    fn one_move_written_two_ways_is_the_same_move() {
        let (before, a, b) = (record(""), record("4. G+15 "), record("4. G "));
        assert_eq!(judge(&[&before, &a, &b]).unwrap(), "same\n");
    }

    #[test]
    fn a_record_that_does_not_continue_the_first_by_one_move_is_refused() {
        let (before, a) = (record(""), record("4. G+15 "));
        // No move added, then one taken away.
        let err = judge(&[&before, &a, &before]).unwrap_err();
        assert!(
            err.contains("not the first record continued by one move"),
            "{err}"
        );
        let err = judge(&[&a, &before, &a]).unwrap_err();
        assert!(
            err.contains("not the first record continued by one move"),
            "{err}"
        );
    }
}
