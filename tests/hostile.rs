//! Issue 15's classes of defect, each caught again: nothing lost of what a
//! user played or gave, output a terminal can trust, errors that are
//! errors. (Time and memory are the benchmarks' business:
//! crates/cli/benches/scaling.py.)

use crate::common;

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
            .contains("whether south can move at the start is undecided: move "),
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
    // The next game's first line comes with the first game (its result
    // alone would release it too: tests/pipeline.rs).
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

/// The human seat, fed as a person (or a careless pipe) would.
fn human(answers: &[u8], extra: &[&str]) -> common::Run {
    let mut args = vec!["--south", "human", "--north", "greedy", "--color", "never"];
    args.extend(if extra.is_empty() {
        &["--seed", "4"]
    } else {
        extra
    });
    run("mancala-play", &args, answers)
}

#[test]
fn a_bad_line_at_the_human_seat_is_asked_again() {
    let long = "Z".repeat(100_000);
    let answers = format!("\u{1b}]0;x\u{7}\n{long}\nA\nquit\n");
    let mut answers = answers.into_bytes();
    answers.splice(0..0, b"\xff\xfe\n".iter().copied());
    let out = human(&answers, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("1. A f+3 *"), "{}", out.stdout);
    assert!(
        out.stderr.contains("that line is not UTF-8 text"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("that line is 100000 bytes long"),
        "{}",
        out.stderr
    );
    // What was typed is quoted escaped and short.
    assert!(!out.stderr.contains('\u{1b}'), "{}", out.stderr);
    assert!(
        out.stderr.len() < 5_000,
        "{} bytes of stderr",
        out.stderr.len()
    );
}

#[test]
fn no_line_break_in_a_megabyte_ends_the_game_with_its_record() {
    let out = human(&vec![0u8; 3 << 20], &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("no one is typing"), "{}", out.stderr);
    assert!(out.stdout.contains("[Result \"*\"]"), "{}", out.stdout);
}

#[test]
fn the_human_seat_is_offered_only_decided_moves() {
    let out = human(
        b"A\nA\nE\nquit\n",
        &["--game", "pallankuzhi", "--lap-budget", "2", "--seed", "2"],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("not offered: A is undecided under the lap budget (so are B C D F G)"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("south to move [E]"), "{}", out.stderr);
    assert!(out.stdout.contains("1. A+7 g+7 2. E"), "{}", out.stdout);
}

/// SIGTERM (and SIGINT, the same handler) while the seat waits: the game
/// ends as with `quit`, its record written.
#[cfg(unix)]
#[test]
fn a_signal_at_the_human_seat_writes_the_record() {
    use std::io::{Read, Write};
    use std::process::Stdio;

    for signal in ["-TERM", "-INT"] {
        let mut child = common::command(
            "mancala-play",
            &[
                "--south", "human", "--north", "greedy", "--seed", "4", "--color", "never",
            ],
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"A\n").unwrap();
        stdin.flush().unwrap();
        // Wait for the second prompt: the seat then waits for a line.
        let mut stderr = child.stderr.take().unwrap();
        let mut seen = Vec::new();
        let mut byte = [0u8];
        while String::from_utf8_lossy(&seen).matches("to move [").count() < 2 {
            assert_eq!(stderr.read(&mut byte).unwrap(), 1, "stderr ended");
            seen.push(byte[0]);
        }
        let killed = std::process::Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let mut rest = String::new();
        stderr.read_to_string(&mut rest).unwrap();
        let out = child.wait_with_output().unwrap();
        drop(stdin);
        assert_eq!(out.status.code(), Some(0), "{rest}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("1. A f+3 *"), "{signal}: {stdout}");
        assert!(rest.contains("the game stops as with quit"), "{rest}");
    }
}

/// A file name need not be UTF-8: it is read, and named lossily (and with
/// its control characters escaped) in messages; a JSON line's `file` is
/// the name as given (lossily), its control characters left to JSON's own
/// escapes, so that `jq -r .file` gives the name back.
#[cfg(unix)]
#[test]
fn file_names_that_are_not_utf8_are_read() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let dir = temp_file("x", b"").parent().unwrap().to_owned();
    let name = dir.join(OsStr::from_bytes(b"bad\xffname\x1b.mgn"));
    std::fs::write(&name, "[Game \"olowuka\"]\n\n1. D D *\n").unwrap();
    for tool in ["mancala-validate", "mancala-render", "mancala-play"] {
        let out = common::command(tool, &[]).arg(&name).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{tool}: {stderr}");
        assert!(
            stderr.contains("bad\u{fffd}name\\u{1b}.mgn:3:6: error"),
            "{tool}: {stderr}"
        );
    }
    let valid = dir.join(OsStr::from_bytes(b"good\xffname\x1b.mgn"));
    std::fs::write(&valid, "[Game \"olowuka\"]\n\n1. D *\n").unwrap();
    let file_of = |line: &str| {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        v["file"].as_str().unwrap().to_owned()
    };
    let lossy = valid.to_string_lossy().into_owned();
    for (tool, args) in [
        ("mancala-validate", &["--format", "json"][..]),
        ("mancala-render", &["--format", "json"]),
        ("mancala-analyze", &["--format", "json", "--depth", "1"]),
    ] {
        let out = common::command(tool, args).arg(&valid).output().unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(0), "{tool}: {stderr}");
        // analyze's JSON summary goes to stderr; the others' lines to stdout.
        let line = if tool == "mancala-analyze" {
            &stderr
        } else {
            &stdout
        };
        let line = line.lines().find(|l| l.contains("\"file\"")).unwrap();
        assert!(line.contains("name\\u001b.mgn"), "{tool}: {line}");
        assert_eq!(file_of(line), lossy, "{tool}");
    }
}

/// A match set up at round 4294967295: the move that ends that round
/// would begin a round with no number, and is an error.
#[test]
fn the_round_after_round_4294967295_is_an_error() {
    let record = |round: u32, end: &str| {
        format!(
            "[Game \"pallankuzhi\"]\n[SetUp \"S 6,6,6,6,6,6,6/6,6,6,6,6,6,6 0-0 round={round} starter=S\"]\n\n1. E+7 b+2 2. A+10 c+17 3. G+17 f+15 4. B+1 e+5 5. E+2 a 6. G c 7. F+1 e+3 8. G f 9. B a 10. C d+1 11. D e 12. E f 13. F+1 g 14. A{end}\n"
        )
    };
    let out = run(
        "mancala-validate",
        &[],
        record(4_294_967_294, " R4294967295 *").as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    for end in [" *", " R4294967295 *"] {
        let out = run("mancala-validate", &[], record(u32::MAX, end).as_bytes());
        assert_eq!(out.code, 1, "{end}: {}", out.stderr);
        assert!(
            out.stderr.contains("illegal move A (ply 27, south to move): this move ends round 4294967295, and rounds are numbered no further"),
            "{}",
            out.stderr
        );
    }
}

/// The lap budget a game was played under is in its record (`LapBudget`),
/// and every tool reads the record under it unless `--lap-budget` says
/// otherwise.
#[test]
fn the_lap_budget_tag_is_honoured_by_every_tool() {
    let tagged = "[Game \"olowuka\"]\n[LapBudget \"1\"]\n\n1. D *\n";
    for tool in ["mancala-validate", "mancala-render", "mancala-play"] {
        let out = run(tool, &["-"], tagged.as_bytes());
        assert_eq!(out.code, 1, "{tool}: {}", out.stderr);
        assert!(
            out.stderr.contains("lap budget of 1 lap"),
            "{tool}: {}",
            out.stderr
        );
        let out = run(tool, &["-", "--lap-budget", "1000000"], tagged.as_bytes());
        assert_eq!(out.code, 0, "{tool}: {}", out.stderr);
    }
    let bad = "[Game \"olowuka\"]\n[LapBudget \"0\"]\n\n1. D *\n";
    let out = run("mancala-validate", &[], bad.as_bytes());
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("<stdin>:2:1: error: the LapBudget tag must be a number of laps from 1 to 4294967295, not `0`"),
        "{}",
        out.stderr
    );
}

/// What play writes under a lap budget, new or continued, the readers
/// read back with no flag at all.
#[test]
fn records_played_under_a_lap_budget_read_back() {
    let new = run(
        "mancala-play",
        &[
            "--game",
            "pallankuzhi",
            "--lap-budget",
            "2",
            "--south",
            "random",
            "--north",
            "random",
            "--seed",
            "2",
        ],
        b"",
    );
    assert!(new.stdout.contains("[LapBudget \"2\"]"), "{}", new.stdout);
    let checked = run("mancala-validate", &["--quiet"], new.stdout.as_bytes());
    assert_eq!(checked.code, 0, "{}", checked.stderr);
    let drawn = run("mancala-render", &[], new.stdout.as_bytes());
    assert_eq!(drawn.code, 0, "{}", drawn.stderr);
    // Continued with no flag: still under 2 laps, so it stops at once.
    let again = run("mancala-play", &["-", "--seed", "2"], new.stdout.as_bytes());
    assert!(
        again.stderr.contains("lap budget of 2 laps"),
        "{}",
        again.stderr
    );
    // Continued under another budget: the record says so.
    let start = run("mancala-play", &["--plies", "4"], b"");
    let more = run(
        "mancala-play",
        &["-", "--lap-budget", "500"],
        start.stdout.as_bytes(),
    );
    assert_eq!(more.code, 0, "{}", more.stderr);
    assert!(
        more.stdout.contains("[LapBudget \"500\"]"),
        "{}",
        more.stdout
    );
    let checked = run("mancala-validate", &["--quiet"], more.stdout.as_bytes());
    assert_eq!(checked.code, 0, "{}", checked.stderr);
}

/// A game that goes on for ever stops before its record passes the size
/// the other tools read, and says so; the record reads back.
/// In MGN and in JSON, which takes more bytes a ply.
#[test]
fn play_writes_no_record_the_readers_would_skip() {
    for format in ["text", "json"] {
        let out = run(
            "mancala-play",
            &[
                "--game",
                "olinda-keliya",
                "-o",
                "no-repetition-rule",
                "--max-plies",
                "10000000",
                "--format",
                format,
            ],
            b"",
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        let limit = mancala_notation::DEFAULT_MAX_GAME_BYTES;
        assert!(
            out.stdout.len() <= limit,
            "{format}: {} bytes",
            out.stdout.len()
        );
        assert!(
            out.stdout.len() > limit / 2,
            "{format}: {} bytes",
            out.stdout.len()
        );
        assert!(
            out.stderr
                .contains("its record would pass the 4194304 bytes the tools read"),
            "{}",
            out.stderr
        );
        let checked = run("mancala-validate", &["--quiet"], out.stdout.as_bytes());
        assert_eq!(checked.code, 0, "{format}: {}", checked.stderr);
    }
}

/// cargo-fuzz looks for `fuzz/Cargo.toml` under the current folder: the
/// commands in spec/fuzzing.md run from the root and name the crate.
#[test]
fn the_cargo_fuzz_commands_name_the_fuzz_crate() {
    let spec = std::fs::read_to_string(common::root().join("spec/fuzzing.md")).unwrap();
    let commands: Vec<&str> = spec
        .lines()
        .filter(|l| l.trim_start().starts_with("cargo fuzz"))
        .collect();
    assert!(commands.len() >= 3, "{commands:?}");
    for command in commands {
        assert!(command.contains("--fuzz-dir crates/fuzz "), "{command}");
    }
    assert!(common::root().join("crates/fuzz/Cargo.toml").exists());
    assert!(!spec.contains("cd crates/fuzz"));
}

/// Runs a tool with `args` and no stdin, failing the test (and killing the
/// tool) if it has not ended within `seconds`: a tool that hangs is a
/// failure, not a test that never ends.
fn run_bounded(name: &str, args: &[&str], seconds: u64) -> common::Run {
    use std::io::Read;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let mut child = common::command(name, args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = pipe.read_to_end(&mut text);
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{name} {args:?} still running after {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    common::Run {
        code: status.code().unwrap_or(-1),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

/// A FIFO, a socket and a link to a device named like records in a
/// directory are skipped with a note by every tool that walks one; the
/// regular file beside them is read, and the run ends.
#[cfg(unix)]
#[test]
fn a_directory_walk_reads_regular_files_only() {
    let dir = common::scratch("walk-special-files");
    std::fs::write(dir.join("a.mgn"), GAME).unwrap();
    let fifo = dir.join("b-fifo.mgn");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    std::os::unix::fs::symlink("/dev/zero", dir.join("c-zero.mgn")).unwrap();
    std::os::unix::fs::symlink("a.mgn", dir.join("d-link.mgn")).unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(dir.join("e-socket.mgn")).unwrap();
    let dir = dir.to_str().unwrap();
    let runs: [(&str, &[&str]); 4] = [
        ("mancala-validate", &["--jobs", "2"]),
        ("mancala-render", &["--color", "never"]),
        ("mancala-play", &["--plies", "0"]),
        ("mancala-analyze", &["--depth", "1", "--jobs", "2"]),
    ];
    for (tool, flags) in runs {
        let mut args = flags.to_vec();
        args.push(dir);
        let out = run_bounded(tool, &args, 60);
        assert_eq!(out.code, 0, "{tool}\n{}", out.snapshot());
        for note in [
            format!("note: skipping {dir}/b-fifo.mgn: not a regular file (a FIFO)"),
            format!("note: skipping {dir}/c-zero.mgn: a symbolic link"),
            format!("note: skipping {dir}/d-link.mgn: a symbolic link"),
            format!("note: skipping {dir}/e-socket.mgn: not a regular file (a socket)"),
        ] {
            assert!(out.stderr.contains(&note), "{tool}: {note}\n{}", out.stderr);
        }
        let games = if tool == "mancala-render" {
            out.stdout.matches("=== ").count()
        } else {
            out.stdout.matches("[Game ").count()
        };
        assert_eq!(games, 1, "{tool}\n{}", out.snapshot());
    }
    // --quiet: no notes.
    let out = run_bounded("mancala-validate", &["--quiet", dir], 60);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (0, ""),
        "{}",
        out.snapshot()
    );
}

/// A FIFO named on the command line is read, as `-` is.
#[cfg(unix)]
#[test]
fn a_fifo_named_on_the_command_line_is_read() {
    let dir = common::scratch("named-fifo");
    let fifo = dir.join("game.mgn");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let writer = {
        let fifo = fifo.clone();
        // Opening blocks until the tool opens the other end.
        std::thread::spawn(move || std::fs::write(fifo, GAME))
    };
    let out = run_bounded("mancala-validate", &[fifo.to_str().unwrap()], 60);
    assert_eq!(out.code, 0, "{}", out.snapshot());
    assert_eq!(out.stdout.matches("[Game ").count(), 1, "{}", out.stdout);
    writer.join().unwrap().unwrap();
}

/// A record whose capture count is wrong: invalid input.
const BAD_CAPTURE: &str = "[Game \"olowuka\"]\n[Result \"*\"]\n\n1. E e+9 *\n";

#[test]
fn a_closed_stderr_loses_diagnostics_but_neither_games_nor_the_status() {
    // Enough bad games that their diagnostics overrun any pipe buffer, then
    // a good one: it must still be written, and the status still say 1.
    let mut input = BAD_CAPTURE.repeat(300);
    input.push_str(GAME);
    let file = temp_file("bad-then-good.mgn", input.as_bytes());
    let file = file.to_str().unwrap();
    for (tool, args, written) in [
        ("mancala-validate", &[][..], "1. D *"),
        ("mancala-validate", &["-q"][..], "1. D *"),
        ("mancala-render", &[][..], "\n"),
        ("mancala-analyze", &["--depth", "1"][..], "1. D"),
        ("mancala-filter", &[][..], "1. D *"),
        ("mancala-play", &["--plies", "0"][..], "1. D *"),
    ] {
        let mut child = common::command(tool, &[args, &[file]].concat())
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The reader of stderr goes away before the tool writes anything.
        drop(child.stderr.take());
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{tool} {args:?}: {stdout}");
        assert!(stdout.contains(written), "{tool} {args:?}: {stdout}");
    }
}

/// Runs a tool under `ulimit -f 10` (10 KiB) from the workspace root,
/// its stdout into `stdout`.
#[cfg(unix)]
fn run_under_file_size_limit(tool: &str, args: &[&str], stdout: &std::path::Path) -> common::Run {
    let bin = common::bin(tool);
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 10 && exec \"$0\" \"$@\"")
        .arg(&bin)
        .args(args)
        .current_dir(common::root())
        .stdin(std::process::Stdio::null())
        .stdout(std::fs::File::create(stdout).unwrap())
        .output()
        .unwrap();
    common::Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::new(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[cfg(unix)]
#[test]
fn a_write_past_the_file_size_limit_is_an_error_not_a_kill() {
    let game =
        std::fs::read_to_string(common::root().join("fixtures/pictures/olowuka.mgn")).unwrap();
    let two = temp_file("two-games.mgn", format!("{game}\n{game}").as_bytes());
    let dir = common::scratch("file-size-limit");
    let out = run_under_file_size_limit(
        "mancala-render",
        &[
            "--format",
            "html",
            "--output-dir",
            dir.to_str().unwrap(),
            two.to_str().unwrap(),
        ],
        &dir.with_extension("stdout"),
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("error: cannot write"), "{}", out.stderr);
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");

    let many = temp_file("many-games.mgn", format!("{game}\n").repeat(200).as_bytes());
    let out = run_under_file_size_limit(
        "mancala-validate",
        &[many.to_str().unwrap()],
        &dir.with_extension("validated"),
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("error: cannot write to stdout"),
        "{}",
        out.stderr
    );
}
