//! Endgame databases in play and analysis: a small Kalah database (every
//! position with at most 8 seeds on the board) built by
//! `mancala-tablebase build` into a temporary directory, then
//! `--tablebase DIR` in mancala-play (engines play the moves it proves
//! best) and mancala-analyze (exact values where it proves them, under
//! any limit).

use std::path::PathBuf;
use std::sync::OnceLock;

use crate::common;

use common::run;

/// The database's directory, built once for every test here.
fn kalah_database() -> &'static str {
    static DIR: OnceLock<String> = OnceLock::new();
    DIR.get_or_init(|| fresh_database("kalah", 8))
}

/// The directory of `game`'s databases up to `seeds`, built into a fresh
/// one (named after both) by `mancala-tablebase build`.
fn fresh_database(game: &str, seeds: u32) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("endgames-{game}-{seeds}"));
    let _ = std::fs::remove_dir_all(&dir);
    let dir = dir.to_string_lossy().into_owned();
    let seeds_arg = seeds.to_string();
    let args = [
        "build",
        "--game",
        game,
        "--seeds",
        &seeds_arg,
        "--tablebase",
        &dir,
        "-q",
    ];
    let out = run("mancala-tablebase", &args, b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    // One line a layer, 0 to `seeds`, after the heading.
    assert_eq!(
        out.stdout.lines().count(),
        seeds as usize + 2,
        "{}",
        out.stdout
    );
    dir
}

/// A Kalah endgame with 8 seeds on the board, each side 20 in store.
const ENDGAME: &str = "[Game \"kalah\"]\n[SetUp \"S 2,0,1,0,0,1/1,0,2,0,1,0 20-20\"]\n\n*\n\n";

/// The per-game summary lines analyze writes on stderr.
fn summaries(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.contains(" game ")).collect()
}

#[test]
fn engines_play_the_moves_a_database_proves_best() {
    let dir = kalah_database();
    let records = ENDGAME.repeat(6);
    let analyse = |played: &str| {
        let out = run(
            "mancala-analyze",
            &["--depth", "1", "--tablebase", dir],
            played.as_bytes(),
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        out
    };
    // Random players, with the database: no move loses a seed.
    let with = run(
        "mancala-play",
        &[
            "-",
            "--south",
            "random",
            "--north",
            "random",
            "--tablebase",
            dir,
        ],
        records.as_bytes(),
    );
    assert_eq!(with.code, 0, "{}", with.stderr);
    let judged = analyse(&with.stdout);
    let lines = summaries(&judged.stderr);
    assert_eq!(lines.len(), 6, "{}", judged.stderr);
    for line in lines {
        assert!(
            line.contains("south average loss 0.00") && line.contains("north average loss 0.00"),
            "{line}"
        );
    }
    // Without it, they lose some.
    let without = run(
        "mancala-play",
        &["-", "--south", "random", "--north", "random"],
        records.as_bytes(),
    );
    assert_eq!(without.code, 0, "{}", without.stderr);
    let judged = analyse(&without.stdout);
    assert!(
        summaries(&judged.stderr)
            .iter()
            .any(|l| !l.contains("south average loss 0.00")
                || !l.contains("north average loss 0.00")),
        "{}",
        judged.stderr
    );
}

#[test]
fn a_match_plays_from_the_database_too() {
    let dir = kalah_database();
    let openings = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("endgames-opening.mgn");
    std::fs::write(&openings, ENDGAME).unwrap();
    let openings = openings.to_string_lossy().into_owned();
    let args = [
        "--pairs",
        "2",
        "--south",
        "random",
        "--north",
        "greedy",
        "--openings",
        &openings,
        "--tablebase",
        dir,
        "-j",
        "1",
    ];
    let out = run("mancala-play", &args, b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Both sides play perfectly: every game ends as the database says,
    // level (the endgame's value is 0 for South, who moves first in it).
    let results: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("[Result "))
        .collect();
    assert_eq!(results, ["[Result \"24-24\"]"; 4], "{}", out.stdout);
}

#[test]
fn analysis_is_exact_wherever_the_database_holds_the_position() {
    let dir = kalah_database();
    let record = "[Game \"kalah\"]\n[SetUp \"S 2,0,1,0,0,1/1,0,2,0,1,0 20-20\"]\n\n\
                  1. F+1 1. A 1... e 2. B 2... a 3. C *\n";
    let evals = |stdout: &str| -> Vec<String> {
        stdout
            .match_indices("[%eval ")
            .map(|(at, _)| {
                stdout[at..]
                    .split(']')
                    .next()
                    .unwrap_or_default()
                    .to_owned()
            })
            .collect()
    };
    for limit in [
        &["--depth", "1"][..],
        &["--ms", "5"],
        &["--solve", "--nodes", "10"],
    ] {
        let mut args = limit.to_vec();
        args.extend(["--tablebase", dir]);
        let out = run("mancala-analyze", &args, record.as_bytes());
        assert_eq!(out.code, 0, "{}", out.stderr);
        let found = evals(&out.stdout);
        assert!(found.len() >= 6, "{}", out.stdout);
        assert!(
            found.iter().all(|e| e.starts_with("[%eval =")),
            "{limit:?}: {found:?}"
        );
    }
    // One ply deep, without the database, the values are estimates.
    let out = run("mancala-analyze", &["--depth", "1"], record.as_bytes());
    assert!(
        evals(&out.stdout)
            .iter()
            .any(|e| !e.starts_with("[%eval =")),
        "{}",
        out.stdout
    );
}

#[test]
fn a_directory_without_the_game_s_database_is_a_note() {
    let empty = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("endgames-empty");
    std::fs::create_dir_all(&empty).unwrap();
    let empty = empty.to_string_lossy().into_owned();
    let record = "[Game \"kalah\"]\n\n1. A 1... a *\n";
    let plain = run("mancala-analyze", &["--depth", "2"], record.as_bytes());
    let out = run(
        "mancala-analyze",
        &["--depth", "2", "--tablebase", &empty],
        record.as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, plain.stdout);
    assert!(
        out.stderr.contains("note: ") && out.stderr.contains("no tablebase layers"),
        "{}",
        out.stderr
    );
}

/// `mancala-tablebase check` draws different entries, every one when
/// asked for more than the layers hold, and checks those by the
/// convention too (against the reference solver): an Oware database of
/// up to 3 seeds has 1,715 entries, 295 of them by the convention (39 in
/// layer 2, 256 in layer 3).
#[test]
fn check_covers_every_entry_convention_ones_too() {
    let dir = fresh_database("oware", 3);
    let check = |samples: &str| {
        let args = [
            "check",
            "--game",
            "oware",
            "--tablebase",
            &dir,
            "--samples",
            samples,
            "--node-limit",
            "2000",
            "--jobs",
            "2",
        ];
        let out = run("mancala-tablebase", &args, b"");
        assert_eq!(out.code, 0, "{}", out.stderr);
        let line = out.stdout.trim_end().to_owned();
        // Every key but the time.
        line[..line.find(" seconds=").unwrap()].to_owned()
    };
    assert_eq!(
        check("100000"),
        "samples=1715 entries=1715 agreed=1715 exact=1420 convention=295 disagreed=0 \
         unknown=0 proved=1420 unfinished=0"
    );
    let some = check("1000");
    assert!(
        some.starts_with("samples=1000 entries=1715 agreed=1000 "),
        "{some}"
    );
}
