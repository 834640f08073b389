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
