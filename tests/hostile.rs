//! Issue 15's classes of defect, each caught again: nothing lost of what a
//! user played or gave, output a terminal can trust, errors that are
//! errors. (Time and memory are the benchmarks' business:
//! crates/cli/benches/scaling.py.)

mod common;

use common::run;

/// A short valid record.
const GAME: &str = "[Game \"olowuka\"]\n\n1. D *\n";

fn temp_file(name: &str, text: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mancala-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn play_goes_on_past_an_unreadable_input_and_exits_2() {
    let good = temp_file("good.mgn", GAME.as_bytes());
    let good = good.to_str().unwrap();
    let out = run(
        "mancala-play",
        &["--plies", "0", good, "no/such/file.mgn", good],
        b"",
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(out.stdout.matches("[Game").count(), 2, "{}", out.stdout);
    assert!(
        out.stderr.contains("no/such/file.mgn: error: cannot read"),
        "{}",
        out.stderr
    );
}

#[test]
fn bad_ranges_in_render_are_usage_errors() {
    for (flag, value) in [
        ("--plies", ""),
        ("--plies", "0"),
        ("--plies", "5..3"),
        ("--plies", "x"),
        ("--rounds", "0"),
        ("--rounds", ""),
        ("--laps", "0"),
    ] {
        let out = run("mancala-render", &[flag, value], GAME.as_bytes());
        assert_eq!(out.code, 2, "{flag} {value:?}: {}", out.stderr);
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn counts_of_one_are_singular() {
    let out = run("mancala-validate", &["--lap-budget", "1"], GAME.as_bytes());
    assert!(
        out.stderr.contains("lap budget of 1 lap\n"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("(0 plies)"), "{}", out.stderr);
    let out = run("mancala-validate", &[], GAME.as_bytes());
    assert!(out.stderr.contains("(1 ply)"), "{}", out.stderr);
    let out = run("mancala-render", &[], GAME.as_bytes());
    assert!(
        out.stdout.contains("unfinished after 1 ply\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn an_undecided_start_says_it_is_the_can_the_player_move_check() {
    let out = run("mancala-validate", &["--lap-budget", "1"], GAME.as_bytes());
    assert!(
        out.stderr
            .contains("whether south can move at the start is undecided: move D is undecided"),
        "{}",
        out.stderr
    );
    // play names the game and the ply.
    let out = run("mancala-play", &["--lap-budget", "1"], b"");
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("error: game 1: cannot start: whether south can move at ply 1 is undecided"),
        "{}",
        out.stderr
    );
}

/// Every engine that stops because of the lap budget says so, with the
/// side whose moves are undecided and the ply.
#[test]
fn engine_games_stopped_by_the_lap_budget_say_so() {
    let cases = [
        (
            "random",
            "2",
            "ply 3: after south's A, whether north can move is undecided: move a",
        ),
        ("greedy", "2", "ply 3, south to move: move B is undecided"),
        (
            "alphabeta:depth=2",
            "1",
            "ply 23: after south's A, whether north can move is undecided",
        ),
        (
            "mcts:playouts=20",
            "2",
            "ply 3, south to move: move A is undecided",
        ),
    ];
    for (player, seed, note) in cases {
        let out = run(
            "mancala-play",
            &[
                "--game",
                "pallankuzhi",
                "--lap-budget",
                "2",
                "--south",
                player,
                "--north",
                player,
                "--seed",
                seed,
            ],
            b"",
        );
        assert_eq!(out.code, 0, "{player}: {}", out.stderr);
        assert!(out.stdout.contains("[Result \"*\"]"), "{player}");
        assert!(
            out.stderr
                .contains(&format!("note: game 1 left unfinished at {note}")),
            "{player}: {}",
            out.stderr
        );
    }
}

#[test]
fn render_sends_no_escape_sequence_of_a_tag_to_the_terminal() {
    let game = "[Game \"olowuka\"]\n[South \"\u{1b}[31mred\u{1b}]0;title\u{7}\"]\n[North \"n\"]\n\n1. D *\n";
    let out = run("mancala-render", &["--color", "never"], game.as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stdout.contains('\u{1b}') && !out.stdout.contains('\u{7}'));
    assert!(out.stdout.contains("\\u{1b}[31mred"), "{}", out.stdout);
}

/// A slow producer: render draws the first game before the second comes.
#[test]
fn render_writes_each_game_as_soon_as_it_is_drawn() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    use std::sync::mpsc;
    use std::time::Duration;

    let mut child = common::command("mancala-render", &["--color", "never"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (lines, seen) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if lines.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    // The reader cuts a game at the next game's first line.
    stdin.write_all(GAME.as_bytes()).unwrap();
    stdin.write_all(b"\n[Game \"olowuka\"]\n").unwrap();
    stdin.flush().unwrap();
    let first = seen.recv_timeout(Duration::from_secs(30));
    assert_eq!(first.as_deref(), Ok("=== <stdin>: game 1 ==="));
    stdin.write_all(b"\n1. C *\n").unwrap();
    drop(stdin);
    assert_eq!(child.wait().unwrap().code(), Some(0));
    let rest: Vec<String> = seen.iter().collect();
    assert!(
        rest.iter().any(|l| l == "=== <stdin>: game 2 ==="),
        "{rest:?}"
    );
}
