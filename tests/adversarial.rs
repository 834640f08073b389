//! Adversarial inputs through the real binaries: each gets a clear error or
//! is accepted when valid, memory stays bounded, and every other game of the
//! stream is still reported — one game in, exactly one verdict out (counted
//! with `mancala-validate --format json`).
//!
//! Large inputs (a 100 MB line, a million digits, 100,000 games) are made
//! by the tests themselves; the small ones are fixtures under
//! `fixtures/adversarial/`. A test of a bug still open is marked
//! `#[ignore = "bug: …"]` and asserts the correct behaviour.

use crate::common;

use std::io::{Read, Write};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{Run, command, root, run};
use serde_json::Value;

/// The NDJSON verdicts of `mancala-validate --format json`.
fn verdicts(out: &Run) -> Vec<Value> {
    out.stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// Which games are valid, in order.
fn validity(verdicts: &[Value]) -> Vec<bool> {
    verdicts.iter().map(|v| v["valid"] == true).collect()
}

fn first_error(verdict: &Value) -> String {
    verdict["errors"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// A tool must never panic, whatever the input.
fn assert_no_panic(out: &Run) {
    assert_ne!(out.code, 101, "{}", out.snapshot());
    assert!(!out.stderr.contains("panicked"), "{}", out.snapshot());
}

/// Every tool on one file: JSON verdicts, text verdicts, the drawings, and
/// `mancala-play` continuing each record by zero plies (it writes every
/// valid record again and reports the others).
fn all_tools(file: &str) -> String {
    let runs: [(&str, Vec<&str>); 4] = [
        ("mancala-validate", vec!["--format", "json", file]),
        ("mancala-validate", vec![file]),
        ("mancala-render", vec![file]),
        ("mancala-play", vec![file, "--plies", "0"]),
    ];
    let mut text = String::new();
    for (name, args) in runs {
        let out = run(name, &args, b"");
        assert_no_panic(&out);
        text.push_str(&format!(
            "$ {name} {}\n{}\n",
            args.join(" "),
            out.snapshot()
        ));
    }
    text
}

/// Validates a file and checks its verdicts: one per game, valid as given.
fn check_verdicts(file: &str, expected: &[bool]) -> Vec<Value> {
    let out = run("mancala-validate", &["--format", "json", file], b"");
    assert_no_panic(&out);
    let verdicts = verdicts(&out);
    assert_eq!(validity(&verdicts), expected, "{}", out.snapshot());
    for (i, v) in verdicts.iter().enumerate() {
        assert_eq!(v["index"], i + 1);
    }
    let code = if expected.iter().all(|v| *v) { 0 } else { 1 };
    assert_eq!(out.code, code);
    verdicts
}

#[test]
fn empty_input() {
    let mut text = String::new();
    for (name, args) in [
        ("mancala-validate", vec![]),
        ("mancala-validate", vec!["--format", "json"]),
        ("mancala-render", vec![]),
        ("mancala-play", vec!["-"]),
    ] {
        let out = run(name, &args, b"");
        assert_eq!(out.code, 0, "{}", out.snapshot());
        assert!(out.stdout.is_empty(), "{}", out.snapshot());
        text.push_str(&format!(
            "$ {name} {}\n{}\n",
            args.join(" "),
            out.snapshot()
        ));
    }
    insta::assert_snapshot!(text);
}

#[test]
fn a_file_of_only_comments_holds_no_game() {
    let file = "fixtures/adversarial/only-comments.mgn";
    check_verdicts(file, &[]);
    let text = all_tools(file);
    insta::assert_snapshot!(text);
}

#[test]
fn bytes_that_are_not_utf8_spoil_only_their_game() {
    let file = "fixtures/adversarial/invalid-utf8.mgn";
    let verdicts = check_verdicts(file, &[true, false, false, true]);
    for v in &verdicts[1..3] {
        assert_eq!(first_error(v), "invalid UTF-8 (records are UTF-8 text)");
    }
    insta::assert_snapshot!(all_tools(file));
}

#[test]
fn crlf_line_ends_read_like_lf() {
    let file = "fixtures/adversarial/crlf.mgn";
    check_verdicts(file, &[true, true]);
    let crlf = std::fs::read(root().join(file)).unwrap();
    let lf: Vec<u8> = crlf.iter().copied().filter(|b| *b != b'\r').collect();
    for args in [vec![], vec!["--format", "json"]] {
        let a = run("mancala-validate", &args, &crlf);
        let b = run("mancala-validate", &args, &lf);
        assert_eq!(a.snapshot(), b.snapshot());
        assert!(!a.stdout.contains('\r'), "printing writes LF");
    }
    let a = run("mancala-render", &[], &crlf);
    let b = run("mancala-render", &[], &lf);
    assert_eq!(a.snapshot(), b.snapshot());
    insta::assert_snapshot!(all_tools(file));
}

/// The peak resident memory of a running process (Linux), in KiB.
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Collects a child's stdout and stderr on threads, so that it never blocks
/// on a full pipe.
fn collect(child: &mut Child) -> [std::thread::JoinHandle<String>; 2] {
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    [
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stdout.read_to_string(&mut s);
            s
        }),
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        }),
    ]
}

/// Waits for `child`, whose stdout and stderr [`collect`] took, and gives
/// what it produced.
fn finish(child: &mut Child, [stdout, stderr]: [std::thread::JoinHandle<String>; 2]) -> Run {
    let status = child.wait().unwrap();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

#[test]
fn a_100_mb_line_is_skipped_in_bounded_memory_and_the_next_games_are_read() {
    const MIB: usize = 1 << 20;
    let started = Instant::now();
    let mut child = command("mancala-validate", &["--format", "json", "--jobs", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let output = collect(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    let mut peak = 0;
    // Game 1: one movetext line of 100 MB (never stored: streamed).
    stdin.write_all(b"[Game \"olowuka\"]\n\n").unwrap();
    let chunk = b"D b ".repeat(MIB / 4);
    for _ in 0..100 {
        stdin.write_all(&chunk).unwrap();
        peak = peak.max(peak_rss_kib(pid).unwrap_or(0));
    }
    // Game 2 is complete once game 3 begins; game 3 is held open while the
    // validator has read (and, with --jobs 1, checked) games 1 and 2.
    stdin
        .write_all(b"*\n[Game \"olowuka\"]\n\n1. D b *\n[Game \"olowuka\"]\n")
        .unwrap();
    stdin.flush().unwrap();
    for _ in 0..10 {
        std::thread::sleep(Duration::from_millis(50));
        peak = peak.max(peak_rss_kib(pid).unwrap_or(0));
    }
    stdin.write_all(b"\n1. C c *\n").unwrap();
    drop(stdin);
    let out = finish(&mut child, output);
    assert_no_panic(&out);
    assert_eq!(out.code, 1, "{}", out.snapshot());
    let verdicts = verdicts(&out);
    assert_eq!(validity(&verdicts), [false, true, true]);
    assert_eq!(
        first_error(&verdicts[0]),
        "this game is 104857620 bytes long, over the limit of 4194304 bytes; it was skipped"
    );
    assert_eq!(
        (&verdicts[1]["line"], &verdicts[2]["line"]),
        (&4.into(), &7.into())
    );
    // The validator keeps at most 4 MiB of a game: its peak memory stays far
    // below the line's 100 MB whatever the build.
    if cfg!(target_os = "linux") {
        assert!(peak > 0, "VmHWM was read");
        assert!(peak < 48 * 1024, "peak RSS {peak} KiB for a 100 MB line");
    }
    assert!(started.elapsed() < Duration::from_secs(60));
    assert!(out.stderr.len() < 2000, "a short report: {}", out.stderr);
}

#[test]
fn a_million_digit_number_in_a_set_up() {
    let mut text = String::from("[Game \"olowuka\"]\n[SetUp \"S 1");
    text.push_str(&"0".repeat(1_000_000));
    text.push_str(",4,4,4,4,4/4,4,4,4,4,4 0-0\"]\n\n*\n[Game \"olowuka\"]\n\n1. D b *\n");
    let started = Instant::now();
    let out = run("mancala-validate", &["--format", "json"], text.as_bytes());
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_no_panic(&out);
    let verdicts = verdicts(&out);
    assert_eq!(validity(&verdicts), [false, true]);
    assert_eq!(
        first_error(&verdicts[0]),
        "seed count `100000000000000000000000… (1000001 characters)` is too large (at most 4294967295)"
    );
    // The report shows a window of the line, not the line.
    assert!(out.stderr.len() < 1000, "{}", out.stderr);
    insta::assert_snapshot!(out.snapshot());
    let render = run("mancala-render", &[], text.as_bytes());
    assert_no_panic(&render);
    assert_eq!(render.code, 1);
    assert_eq!(render.stdout.matches("=== <stdin>: game").count(), 1);
}

#[test]
fn seed_counts_that_overflow_integer_types() {
    let file = "fixtures/adversarial/overflow.mgn";
    // Rounds are counted in u32: a set-up at round 65536 is a position like
    // any other (game 8).
    let mut expected = vec![false; 10];
    expected[7] = true;
    expected.push(true);
    let verdicts = check_verdicts(file, &expected);
    for (i, v) in verdicts[..10].iter().enumerate() {
        assert_eq!(first_error(v).is_empty(), i == 7);
    }
    insta::assert_snapshot!(all_tools(file));
}

#[test]
fn a_set_up_with_thousands_of_holes() {
    let row = |n: usize, hole: &str| vec![hole; n].join(",");
    let text = format!(
        "[Game \"olowuka\"]\n[SetUp \"S {}/{} 0-0\"]\n\n*\n[Game \"rio-kadalis\"]\n[SetUp \"N {}/{} 0-0 round=2\"]\n\n*\n[Game \"olowuka\"]\n\n1. D b *\n",
        row(5000, "4"),
        row(3000, "0"),
        row(4000, "x"),
        row(6, "4"),
    );
    let out = run("mancala-validate", &["--format", "json"], text.as_bytes());
    assert_no_panic(&out);
    let verdicts = verdicts(&out);
    assert_eq!(validity(&verdicts), [false, false, true]);
    assert_eq!(
        first_error(&verdicts[0]),
        "invalid set-up: south's row has 5000 holes, expected 6; north's row has 3000 holes, expected 6; the set-up holds 20000 seeds, more than the 255 supported"
    );
    assert_eq!(
        first_error(&verdicts[1]),
        "invalid set-up: south's row has 4000 holes, expected 6; south has no open hole; seeds not conserved: the set-up holds 24 seeds in all, the game has 48"
    );
    assert!(out.stderr.len() < 2000, "{}", out.stderr);
}

#[test]
fn unterminated_comments_and_tags() {
    let file = "fixtures/adversarial/unterminated.mgn";
    let verdicts = check_verdicts(file, &[false, false, false, false, false, true]);
    let errors: Vec<String> = verdicts[..5].iter().map(first_error).collect();
    assert_eq!(
        errors,
        [
            "unterminated comment (missing `}`)",
            "unterminated comment (missing `}`)",
            "unterminated value of tag `Site` (missing closing `\"`)",
            "tag `Event` is not closed with `]`",
            "unterminated comment (missing `}`)",
        ]
    );
    insta::assert_snapshot!(all_tools(file));
}

/// A short valid game, and an invalid one (South plays twice).
const VALID: &str = "[Game \"olowuka\"]\n\n1. D b *\n";
const ILLEGAL: &str = "[Game \"olowuka\"]\n\n1. D D *\n";

#[test]
fn a_hundred_thousand_games_get_one_verdict_each() {
    const GAMES: usize = 100_000;
    let bad = |i: usize| i % 997 == 500;
    let text: String = (0..GAMES)
        .map(|i| if bad(i) { ILLEGAL } else { VALID })
        .collect();
    let started = Instant::now();
    let out = run("mancala-validate", &["--format", "json"], text.as_bytes());
    let elapsed = started.elapsed();
    assert_no_panic(&out);
    assert_eq!(out.code, 1);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), GAMES, "one verdict per game");
    for (i, line) in lines.iter().enumerate() {
        // Cheap checks on the text; a few lines in full.
        let index = format!("\"index\":{},", i + 1);
        assert!(line.contains(&index), "{line}");
        assert_eq!(line.contains("\"valid\":false"), bad(i), "{line}");
        if i % 10_000 == 0 {
            let v: Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["line"], 3 * i + 1);
        }
    }
    let invalid = (0..GAMES).filter(|i| bad(*i)).count();
    // With JSON verdicts the summary on stderr is JSON too.
    assert!(out.stderr.ends_with(&format!(
        "{{\"games\":{GAMES},\"valid\":{},\"invalid\":{invalid},\"plies\":{},\"unreadable_inputs\":0}}\n",
        GAMES - invalid,
        2 * (GAMES - invalid) + invalid
    )));
    // Bounded time, even for a debug build on a busy machine.
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
}

#[test]
fn a_truncated_last_game() {
    let file = "fixtures/adversarial/truncated-last-game.mgn";
    let verdicts = check_verdicts(file, &[true, true, false]);
    assert!(first_error(&verdicts[2]).starts_with("missing result at the end of the game"));
    insta::assert_snapshot!(all_tools(file));
}

/// A stream cut at any byte: every game that ended before the cut is still
/// valid, the cut game (if any of it is left) gets one error, and nothing
/// else changes. Checked in-process at every byte of a three-game stream.
#[test]
fn a_stream_cut_at_any_byte() {
    use mancala_check::{Build, check_text};
    use mancala_notation::Reader;
    use mancala_rules::DEFAULT_LAP_BUDGET;

    let text = std::fs::read_to_string(root().join("fixtures/adversarial/truncated-last-game.mgn"))
        .unwrap();
    // The two complete games (the remark before them left out), then a
    // short third one.
    let first = text.find("[Game").unwrap();
    let third = text.rfind("[Game").unwrap();
    let whole = format!("{}{VALID}", &text[first..third]);
    let starts: Vec<usize> = whole.match_indices("[Game").map(|(i, _)| i).collect();
    let ends: Vec<usize> = starts
        .iter()
        .skip(1)
        .copied()
        .chain([whole.len()])
        .map(|next| whole[..next].trim_end().len())
        .collect();
    for cut in 0..=whole.len() {
        let bytes = &whole.as_bytes()[..cut];
        let checked: Vec<bool> = Reader::new(bytes)
            .map(|g| {
                check_text(&g.unwrap(), Some(DEFAULT_LAP_BUDGET), Build::Nothing, None).is_valid()
            })
            .collect();
        let begun = starts.iter().filter(|s| **s < cut).count();
        let finished = ends.iter().filter(|e| **e <= cut).count();
        assert_eq!(
            checked.len(),
            begun,
            "cut at {cut}: one verdict per game begun"
        );
        for (i, valid) in checked.iter().enumerate() {
            assert_eq!(*valid, i < finished, "cut at {cut}: game {}", i + 1);
        }
    }
}

#[test]
fn a_repetition_draw_record_is_valid() {
    let file = "fixtures/adversarial/repetition-draw.mgn";
    let verdicts = check_verdicts(file, &[true]);
    assert_eq!(verdicts[0]["end"], "repetition");
    assert_eq!(verdicts[0]["winner"], "draw");
    assert_eq!(verdicts[0]["plies"], 15);
}

// ---------------------------------------------------------------------------
// Bugs these tests found (fixed since): each asserts the correct behaviour.

#[test]
fn a_match_at_round_65535_does_not_overflow() {
    let out = run(
        "mancala-validate",
        &["--format", "json", "fixtures/adversarial/round-65535.mgn"],
        b"",
    );
    assert_no_panic(&out);
    let verdicts = verdicts(&out);
    assert_eq!(verdicts.len(), 2, "{}", out.snapshot());
    assert_eq!(verdicts[1]["valid"], true);
    // Rounds are counted in u32: round 65536 simply begins (not round 0).
    assert_eq!(verdicts[0]["valid"], true, "{}", out.snapshot());
    assert!(out.stdout.contains("round=65536"), "{}", out.snapshot());
    assert!(!out.stdout.contains("round=0"), "{}", out.snapshot());
}

#[test]
fn an_oversized_remark_before_a_game_is_not_a_game() {
    let mut text = format!("{{{}}}\n", "r".repeat(5 << 20));
    text.push_str(VALID);
    let out = run("mancala-validate", &["--format", "json"], text.as_bytes());
    assert_no_panic(&out);
    let verdicts = verdicts(&out);
    // Spec §1.1: a text of only whitespace and complete comments is not a game.
    assert_eq!(validity(&verdicts), [true], "{}", out.snapshot());
    assert_eq!(out.code, 0);
}

#[test]
fn blank_lines_before_a_game_do_not_make_it_too_long() {
    let mut text = "\n".repeat(5 << 20);
    text.push_str(VALID);
    let out = run("mancala-validate", &["--format", "json"], text.as_bytes());
    assert_no_panic(&out);
    let verdicts = verdicts(&out);
    assert_eq!(validity(&verdicts), [true], "{}", out.snapshot());
    assert_eq!(verdicts[0]["line"], (5 << 20) + 1);
}

#[test]
fn a_game_tag_across_a_read_buffer_boundary_still_starts_a_game() {
    // A game with tags and no movetext, then a game whose `[Game` line
    // starts 3 bytes before the 64 KiB boundary of the tools' read buffer.
    let first = "[Game \"olowuka\"]\n[Event \"";
    let pad = 65533 - first.len() - "\"]\n".len();
    let text = format!("{first}{}\"]\n{VALID}", "x".repeat(pad));
    assert_eq!(text.rfind("[Game"), Some(65533));
    let dir = std::env::temp_dir().join(format!("mancala-adversarial-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("straddle.mgn");
    std::fs::write(&path, &text).unwrap();
    let out = run(
        "mancala-validate",
        &["--format", "json", path.to_str().unwrap()],
        b"",
    );
    let _ = std::fs::remove_dir_all(&dir);
    let verdicts = verdicts(&out);
    // As when the line does not straddle the boundary: the first game lacks
    // its result, the second is valid.
    assert_eq!(validity(&verdicts), [false, true], "{}", out.snapshot());
}

#[test]
fn error_messages_quote_long_input_shortened() {
    let n = "N".repeat(5000);
    let games = [
        format!("[Game \"olowuka\"]\n[{n} \"a\"]\n[{n} \"b\"]\n\n*\n"),
        format!("[Game \"{n}\"]\n\n*\n"),
        format!("[Game \"olowuka\"]\n[Options \"{n}\"]\n\n*\n"),
        format!("[Game \"olowuka\"]\n[Options \"seeds={n}\"]\n\n*\n"),
        format!("[Game \"olowuka\"]\n[SetUp \"S 4,4,4,4,4,4/4,4,4,4,4,4 0-0 {n}=1\"]\n\n*\n"),
        format!("[Game \"olowuka\"]\n[Termination \"{n}\"]\n\n*\n"),
        format!("[Game \"olowuka\"]\n[Result \"{n}\"]\n\n*\n"),
    ];
    let out = run(
        "mancala-validate",
        &["--format", "json"],
        games.concat().as_bytes(),
    );
    let verdicts = verdicts(&out);
    assert_eq!(verdicts.len(), games.len());
    for v in &verdicts {
        let message = first_error(v);
        // Like `unexpected …` and `seed count …`: 24 characters, then
        // `… (N characters)`; the rest of a message is fixed text (an
        // unknown option lists the option names).
        assert!(
            message.len() < 400,
            "{} characters: {}…",
            message.len(),
            message.chars().take(80).collect::<String>()
        );
    }
}

#[test]
fn a_byte_order_mark_split_across_reads_is_skipped() {
    use mancala_notation::Reader;

    // Found by tests/fuzz.rs reading every small input one byte at a time.
    let text = b"\xEF\xBB\xBF[Game \"olowuka\"]\n\n1. D b *\n";
    for capacity in [1, 2, 64] {
        let games: Vec<_> = Reader::new(std::io::BufReader::with_capacity(capacity, &text[..]))
            .map(Result::unwrap)
            .collect();
        assert_eq!(games.len(), 1, "capacity {capacity}");
        assert_eq!(
            games[0].offset, 3,
            "capacity {capacity}: the mark is not text"
        );
        assert!(games[0].parse().is_ok(), "capacity {capacity}");
    }
    let only_mark: Vec<_> = Reader::new(std::io::BufReader::with_capacity(1, &text[..3])).collect();
    assert!(only_mark.is_empty(), "a mark alone holds no game");
    // The same through a pipe that delivers the mark's first byte alone.
    let mut child = command("mancala-validate", &["--format", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let output = collect(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&text[..1]).unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    stdin.write_all(&text[1..]).unwrap();
    drop(stdin);
    let out = finish(&mut child, output);
    assert_eq!(validity(&verdicts(&out)), [true], "{}", out.snapshot());
}

#[test]
fn a_comment_over_crlf_lines_prints_with_lf() {
    let text = b"[Game \"olowuka\"]\r\n\r\n1. D {a comment\r\nover two lines} b *\r\n";
    let out = run("mancala-validate", &[], text);
    assert_eq!(out.code, 0, "{}", out.snapshot());
    assert!(!out.stdout.contains('\r'), "{:?}", out.stdout);
}

#[test]
fn render_keeps_the_title_line_of_many_options_in_80_columns() {
    let out = run(
        "mancala-render",
        &[
            "--game",
            "pallankuzhi",
            "-o",
            "skip-origin endless-ends-game no-repetition-rule pasu-to-owner",
            "-o",
            "no-pasu-on-last-seed capture-opposite single-round",
            "--moves",
            "A",
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.snapshot());
    for line in out.stdout.lines() {
        assert!(
            line.chars().count() <= 80,
            "{} columns: {line}",
            line.chars().count()
        );
    }
}

#[test]
fn a_move_refused_as_undecided_leaves_the_game_unchanged() {
    use mancala_notation::parse_setup;
    use mancala_rules::{Game, GameId, Move, Opt, Options, Position, Rules};

    // Found by tests/fuzz.rs: after 1. A+25, North's b ends round 7, and the
    // next round's start cannot be decided within 4 laps.
    let rules = Rules::new(GameId::Pallankuzhi, Options::new().with(Opt::SkipOrigin))
        .and_then(|r| r.with_lap_budget(4))
        .unwrap();
    let setup = parse_setup("S 10,x,x,x,x,x,x/20,26,x,x,x,x,x 14-14 round=7 starter=N").unwrap();
    let (mut game, _) = Game::new(Position::from_setup(rules, &setup).unwrap()).unwrap();
    game.play("A".parse::<Move>().unwrap()).unwrap();
    let before = game.clone();
    let result = game.play("b".parse::<Move>().unwrap());
    assert!(result.is_err(), "{result:?}");
    assert_eq!(
        game.position(),
        before.position(),
        "a refused move changes nothing"
    );
    assert_eq!(game.status(), before.status());
}

#[test]
fn play_with_a_small_lap_budget_reports_an_undecided_position() {
    let out = run(
        "mancala-play",
        &[
            "--game",
            "pallankuzhi",
            "--lap-budget",
            "2",
            "--seed",
            "1",
            "-q",
        ],
        b"",
    );
    assert_no_panic(&out);
    // rules.md: undecided is an error that names the budget; the move the
    // engine chose was legal.
    assert!(
        out.stderr.contains("lap budget of 2 laps"),
        "{}",
        out.snapshot()
    );
    assert!(!out.stderr.contains("illegal move"), "{}", out.snapshot());
}

/// A valid game whose text (with the blank line after it) is `short` bytes
/// under the readers' limit, made long by one comment of `fill`, then a
/// short game.
fn near_the_limit(short: usize, fill: char) -> String {
    let limit = mancala_notation::DEFAULT_MAX_GAME_BYTES;
    let (head, tail) = ("[Game \"olowuka\"]\n\n1. D {", "} b *\n");
    let room = limit - short - 1 - head.len() - tail.len();
    let comment: String = std::iter::repeat_n(fill, room / fill.len_utf8()).collect();
    format!("{head}{comment}{tail}\n[Game \"olowuka\"]\n\n1. C *\n")
}

/// No tool writes a record the readers would skip: a record just under
/// the limit that canonical text, an analysis or JSON escaping makes
/// longer is refused with an error naming its game (exit 1), and the next
/// game is still written.
#[test]
fn no_tool_writes_a_record_over_the_limit() {
    let near = near_the_limit(8, 'x');
    let quotes = near_the_limit(1000, '"');
    let cases: [(&str, &[&str], &String); 6] = [
        ("mancala-validate", &[], &near),
        ("mancala-validate", &["--jobs", "2"], &near),
        ("mancala-analyze", &["--depth", "1"], &near),
        (
            "mancala-analyze",
            &["--depth", "1", "--format", "json"],
            &near,
        ),
        ("mancala-play", &["-", "--plies", "0"], &near),
        (
            "mancala-play",
            &["-", "--plies", "0", "--format", "json"],
            &quotes,
        ),
    ];
    for (tool, args, input) in cases {
        let out = run(tool, args, input.as_bytes());
        let what = format!("{tool} {args:?}");
        assert_eq!(out.code, 1, "{what}: {}", out.stderr);
        assert!(
            out.stderr
                .contains("<stdin>:1:1: error: its record would take ")
                && out.stderr.contains(
                    " bytes with the blank line after it, over the 4194304 bytes the tools read of one game; not written"
                ),
            "{what}: {}",
            out.stderr
        );
        // Only the second game is written, and it reads back.
        assert!(
            out.stdout.len() < 1000,
            "{what}: {} bytes",
            out.stdout.len()
        );
        let back = run(
            "mancala-validate",
            &["--format", "json"],
            out.stdout.as_bytes(),
        );
        assert_eq!(back.code, 0, "{what}: {}", back.stderr);
        assert_eq!(back.stdout.lines().count(), 1, "{what}");
        assert!(back.stdout.contains("\"index\":1"), "{what}");
    }
    // Written as MGN, the quotes take a byte each: that record fits.
    let out = run("mancala-play", &["-", "--plies", "0"], quotes.as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.matches("[Game ").count(), 2);
}
