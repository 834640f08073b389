//! mancala-analyze as users run it: annotated records of every game
//! (snapshots), the same bytes when analysed again or on more threads,
//! JSON records and summaries, invalid games reported while the others go
//! on, solves, and the pipeline play → validate → analyze → validate →
//! render.

use crate::common;

use common::{fixtures, run, stem};

/// Records of every game: single games, matches of rounds (ended by
/// rounds=N, and one cut at a round's start), options and set-ups, and
/// Kalah's turns that go on.
const RECORDS: [&str; 10] = [
    "fixtures/validate/valid-olinda-keliya.mgn",
    "fixtures/validate/valid-olinda-keliya-options.mgn",
    "fixtures/validate/valid-olowuka.mgn",
    "fixtures/validate/valid-pallankuzhi-rounds.mgn",
    "fixtures/validate/valid-pallankuzhi-cut-at-a-round-start.mgn",
    "fixtures/validate/valid-rio-kadalis.mgn",
    "fixtures/validate/valid-rio-kadalis-rounds.mgn",
    "fixtures/validate/valid-single-round-closed-holes.mgn",
    "fixtures/validate/valid-kalah.mgn",
    "fixtures/validate/valid-oware.mgn",
];

/// Shallow enough for a debug build, deep enough to find better moves.
const DEPTH: &str = "5";

#[test]
fn annotated_records_of_every_game() {
    for path in RECORDS {
        let out = run("mancala-analyze", &["--depth", DEPTH, path], b"");
        assert_eq!(out.code, 0, "{path}: {}", out.stderr);
        insta::assert_snapshot!(format!("analyze-{}", stem(path)), out.snapshot());
    }
}

#[test]
fn analysing_an_analysed_record_changes_nothing() {
    for path in RECORDS {
        let once = run("mancala-analyze", &["--depth", DEPTH, path], b"");
        let twice = run(
            "mancala-analyze",
            &["--depth", DEPTH],
            once.stdout.as_bytes(),
        );
        assert_eq!(twice.code, 0, "{path}: {}", twice.stderr);
        assert_eq!(once.stdout, twice.stdout, "{path}");
    }
}

#[test]
fn what_others_wrote_is_kept_and_every_move_gets_an_evaluation() {
    let record = "[Game \"olowuka\"]\n\n{before} 1. E! {mine} ( 1. A {theirs} ) 1... a?? \
                  {[%eval +40,1] stale} ( 1... b {[%eval +41,1]} ) 2. B $14 *\n";
    let out = run("mancala-analyze", &["--depth", "3"], record.as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = &out.stdout;
    // 1. E is a blunder at depth 3: its verdict replaces the `!`.
    for kept in ["{before} 1. E?? {", " {mine} ( 1. A", "{theirs} )", " $14"] {
        assert!(text.contains(kept), "{kept}: {text}");
    }
    for replaced in ["stale", "+41,1"] {
        assert!(!text.contains(replaced), "{replaced}: {text}");
    }
    // Three moves, an evaluation each, and one more per best line.
    let evaluations = text.matches("{[%eval ").count();
    let lines = text.matches('(').count() - 1;
    assert_eq!(evaluations, 3 + lines, "{text}");
    let again = run("mancala-analyze", &["--depth", "3"], text.as_bytes());
    assert_eq!(&again.stdout, text);
}

#[test]
fn a_verdict_replaces_every_quality_mark_of_its_move() {
    // At depth 3, 1. E and 1... e are blunders and 2. A the best found:
    // the verdicts replace the recorder's `!!` and `?!`; `!?` on a move
    // judged good stays, and so do the other NAGs.
    let record = "[Game \"olowuka\"]\n\n1. E!! $14 {c1} 1... e?! $7 2. A!? *\n";
    let out = run("mancala-analyze", &["--depth", "3"], record.as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = &out.stdout;
    assert!(text.contains("1. E?? {"), "{text}");
    assert!(text.contains("1... e??\n{"), "{text}");
    assert!(!text.contains("!!") && !text.contains("?!"), "{text}");
    for kept in [" $14 {c1}", " $7 ", " !? *"] {
        assert!(text.contains(kept), "{kept}: {text}");
    }
    let again = run("mancala-analyze", &["--depth", "3"], text.as_bytes());
    assert_eq!(&again.stdout, text);
}

#[test]
fn more_threads_give_the_same_bytes() {
    let args = |jobs: &'static str| {
        let mut args = vec!["--depth", DEPTH, "--jobs", jobs];
        args.extend(RECORDS);
        args
    };
    let one = run("mancala-analyze", &args("1"), b"");
    let four = run("mancala-analyze", &args("4"), b"");
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert_eq!(one.stdout, four.stdout);
    assert_eq!(one.stderr, four.stderr);
}

#[test]
fn json_records_and_summaries() {
    let out = run(
        "mancala-analyze",
        &[
            "--depth",
            "3",
            "--format",
            "json",
            "fixtures/validate/valid-pallankuzhi-rounds.mgn",
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let records: Vec<mancala_notation::Record> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    let summaries: Vec<serde_json::Value> = out
        .stderr
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(summaries.len(), 2, "{}", out.stderr);
    for (record, summary) in records.iter().zip(&summaries) {
        let moves = record.moves().count() as u64;
        let counted = summary["south"]["moves"].as_u64().unwrap()
            + summary["north"]["moves"].as_u64().unwrap();
        assert_eq!(counted, moves, "{summary}");
        assert_eq!(summary["plies"].as_u64(), Some(moves));
        assert!(summary["south"]["average_loss"].is_number(), "{summary}");
    }
}

#[test]
fn json_records_are_read_as_mgn_is() {
    let path = "fixtures/validate/valid-olowuka.mgn";
    let from_mgn = run("mancala-analyze", &["--depth", "3", path], b"");
    let records = run(
        "mancala-analyze",
        &["--depth", "1", "--format", "json", path],
        b"",
    );
    // The record as JSON (analysed at depth 1, whose comments the second
    // analysis replaces) reads back and gives the same analysis.
    let from_json = run(
        "mancala-analyze",
        &["--depth", "3"],
        records.stdout.as_bytes(),
    );
    assert_eq!(from_json.code, 0, "{}", from_json.stderr);
    assert_eq!(from_mgn.stdout, from_json.stdout);
}

#[test]
fn an_invalid_game_is_reported_and_the_others_analysed() {
    let out = run(
        "mancala-analyze",
        &["--depth", "3", "fixtures/validate/mixed-stream.mgn"],
        b"",
    );
    assert_eq!(out.code, 1);
    insta::assert_snapshot!(out.snapshot());
}

#[test]
fn a_solve_is_exact_or_says_where_it_ran_out() {
    // Eight seeds left on the board.
    let record = "[Game \"olowuka\"]\n[SetUp \"S 0,0,0,2,2,2/0,2,0,0,0,0 18-22\"]\n\n1. F *\n";
    let solved = run("mancala-analyze", &["--solve"], record.as_bytes());
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    assert!(solved.stdout.contains("{[%eval ="), "{}", solved.stdout);
    assert!(!solved.stderr.contains("not solved"), "{}", solved.stderr);
    let starved = run(
        "mancala-analyze",
        &[
            "--solve",
            "--nodes",
            "1",
            "fixtures/validate/valid-olowuka.mgn",
        ],
        b"",
    );
    assert_eq!(starved.code, 0, "{}", starved.stderr);
    assert!(
        starved
            .stderr
            .contains("not solved, the first at ply 1 (depth "),
        "{}",
        starved.stderr
    );
}

#[test]
fn thresholds_must_grow() {
    let out = run(
        "mancala-analyze",
        &["--mistake", "5", "--blunder", "2", "-"],
        b"",
    );
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("thresholds"), "{}", out.stderr);
    // Equal is not growing: no loss could be an inaccuracy and not a mistake.
    let equal = run(
        "mancala-analyze",
        &["--inaccuracy", "1", "--mistake", "1", "-"],
        b"",
    );
    assert_eq!(equal.code, 2);
    assert_eq!(
        equal.stderr,
        "error: the thresholds must grow: --inaccuracy < --mistake < --blunder, not 1 1 6\n"
    );
    let bad = run("mancala-analyze", &["--blunder", "lots"], b"");
    assert_eq!(bad.code, 2);
}

#[test]
fn every_analysed_fixture_validates() {
    // Each valid record of the validator's fixtures, annotated, is still
    // valid, and says the same result.
    for path in fixtures("fixtures/validate") {
        if !stem(&path).starts_with("valid-") {
            continue;
        }
        let out = run("mancala-analyze", &["--depth", "2", &path], b"");
        assert_eq!(out.code, 0, "{path}: {}", out.stderr);
        let check = run("mancala-validate", &["--quiet"], out.stdout.as_bytes());
        assert_eq!(check.code, 0, "{path}: {}", check.stderr);
    }
}

#[test]
fn max_errors_stops_the_analysis() {
    // mixed-stream: games 2 and 4 are invalid, 1, 3 and 5 valid.
    let file = "fixtures/validate/mixed-stream.mgn";
    for jobs in ["1", "2"] {
        let args = ["--depth", "2", "--jobs", jobs, "--max-errors", "2", file];
        let out = run("mancala-analyze", &args, b"");
        assert_eq!(out.code, 1, "{}", out.snapshot());
        assert_eq!(out.stdout.matches("[Game ").count(), 2, "{}", out.stdout);
        assert!(
            out.stderr.contains(
                "stopped after 2 invalid games (--max-errors 2): 4 games checked; the rest of the input was not checked"
            ),
            "{}",
            out.stderr
        );
        assert!(
            out.stderr
                .trim_end()
                .ends_with("analysed 2 games, 2 invalid")
        );
    }
    let all = run("mancala-analyze", &["--depth", "2", file], b"");
    assert_eq!(all.code, 1);
    assert_eq!(all.stdout.matches("[Game ").count(), 3, "{}", all.stdout);
}

/// `--summary players` sums each player's games up across everything read,
/// by the South and North tags: the per-game summaries' moves and marks
/// added up, their losses averaged over the moves, and a player in both
/// seats of a game playing one game.
#[test]
fn players_are_summed_up_across_the_games() {
    let mut stream = String::new();
    for (south, north) in [
        ("greedy", "random"),
        ("random", "greedy"),
        ("random", "random"),
    ] {
        let args = [
            "--games", "2", "--seed", "5", "--south", south, "--north", north, "-q",
        ];
        stream.push_str(&run("mancala-play", &args, b"").stdout);
    }
    stream.push_str(&std::fs::read_to_string(common::root().join(RECORDS[7])).unwrap());
    let lines = |text: &str| -> Vec<serde_json::Value> {
        text.lines()
            .filter(|l| l.starts_with('{'))
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let games = run(
        "mancala-analyze",
        &["--depth", "2", "--format", "json"],
        stream.as_bytes(),
    );
    assert_eq!(games.code, 0, "{}", games.stderr);
    let verdicts = run("mancala-validate", &["--format", "json"], stream.as_bytes());
    let verdicts = lines(&verdicts.stdout);
    let per_game = lines(&games.stderr);
    assert_eq!(per_game.len(), 8);
    // The sums the players' summaries must give, in order of appearance.
    let mut expected: Vec<(String, u64, [u64; 4], f64)> = Vec::new();
    for (verdict, game) in verdicts.iter().zip(&per_game) {
        let mut seen = Vec::new();
        for seat in ["south", "north"] {
            let name = verdict["tags"][seat].as_str().unwrap_or("?").to_owned();
            let side = &game[seat];
            let at = match expected.iter().position(|(n, ..)| *n == name) {
                Some(at) => at,
                None => {
                    expected.push((name.clone(), 0, [0; 4], 0.0));
                    expected.len() - 1
                }
            };
            let entry = &mut expected[at];
            entry.1 += u64::from(!seen.contains(&name));
            for (i, key) in ["moves", "inaccuracies", "mistakes", "blunders"]
                .iter()
                .enumerate()
            {
                entry.2[i] += side[key].as_u64().unwrap();
            }
            entry.3 += side["average_loss"].as_f64().unwrap() * side["moves"].as_f64().unwrap();
            seen.push(name);
        }
    }
    assert_eq!(
        expected.len(),
        3,
        "greedy, random and the fixture's unnamed ones: {expected:?}"
    );
    let args = ["--depth", "2", "--format", "json", "--summary", "players"];
    let players = run("mancala-analyze", &args, stream.as_bytes());
    assert_eq!(players.code, 0, "{}", players.stderr);
    assert_eq!(players.stdout, games.stdout, "the records are the same");
    let players = lines(&players.stderr);
    assert_eq!(players.len(), expected.len(), "{players:?}");
    for (player, (name, games, counts, lost)) in players.iter().zip(&expected) {
        assert_eq!(player["player"], name.as_str());
        assert_eq!(player["games"], *games, "{player}");
        for (i, key) in ["moves", "inaccuracies", "mistakes", "blunders"]
            .iter()
            .enumerate()
        {
            assert_eq!(player[key], counts[i], "{player} {key}");
        }
        // Each game's average is rounded to hundredths, and so is the
        // player's: within a hundredth of the sum of the rounded ones.
        let average = player["average_loss"].as_f64().unwrap();
        assert!(
            (average - lost / counts[0] as f64).abs() <= 0.0101,
            "{player}"
        );
    }
    let text = run(
        "mancala-analyze",
        &["--depth", "2", "--summary", "players"],
        stream.as_bytes(),
    );
    let text: Vec<&str> = text.stderr.lines().collect();
    assert_eq!(text.len(), 4, "{text:?}");
    assert!(
        text[0].starts_with("greedy: 4 games, average loss "),
        "{}",
        text[0]
    );
    assert!(
        text[1].starts_with("random: 6 games, average loss "),
        "{}",
        text[1]
    );
    assert!(
        text[2].starts_with("?: 2 games, average loss "),
        "{}",
        text[2]
    );
    assert_eq!(text[3], "analysed 8 games, 0 invalid");
}
