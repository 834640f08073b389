//! `mancala-validate` end to end: insta snapshots of exit code, stdout and
//! stderr for every validation fixture and each output mode.

mod common;

use common::{fixtures, run, stem};

#[test]
fn every_fixture() {
    let files = fixtures("fixtures/validate");
    assert!(files.len() > 20);
    for file in files {
        let out = run("mancala-validate", &[&file], b"");
        let name = stem(&file);
        let expected_code = if name.starts_with("valid-") || name.starts_with("endless-ends-game") {
            0
        } else {
            1
        };
        assert_eq!(out.code, expected_code, "{file}:\n{}", out.snapshot());
        insta::assert_snapshot!(format!("validate-{name}"), out.snapshot());
    }
}

#[test]
fn json_verdicts_of_a_mixed_stream() {
    let out = run(
        "mancala-validate",
        &["--format", "json", "fixtures/validate/mixed-stream.mgn"],
        b"",
    );
    assert_eq!(out.code, 1);
    for line in out.stdout.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(value["valid"].is_boolean());
    }
    insta::assert_snapshot!(out.snapshot());
}

#[test]
fn stdin_and_file_agree() {
    let text = std::fs::read(common::root().join("fixtures/validate/mixed-stream.mgn")).unwrap();
    let from_stdin = run("mancala-validate", &["-"], &text);
    let implicit = run("mancala-validate", &[], &text);
    let from_file = run(
        "mancala-validate",
        &["fixtures/validate/mixed-stream.mgn"],
        b"",
    );
    assert_eq!(from_stdin.stdout, from_file.stdout);
    assert_eq!(from_stdin.stdout, implicit.stdout);
    assert_eq!(from_stdin.code, from_file.code);
    assert_eq!(
        from_stdin
            .stderr
            .replace("<stdin>", "fixtures/validate/mixed-stream.mgn"),
        from_file.stderr
    );
    insta::assert_snapshot!(from_stdin.snapshot());
}

#[test]
fn keep_text_writes_the_games_own_text() {
    let text = b"[Game \"olowuka\"]\n[Event \"kept as written\"]\n1.D  b   *\n";
    let out = run("mancala-validate", &["--keep-text"], text);
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout, String::from_utf8_lossy(text));
    let canonical = run("mancala-validate", &[], text);
    insta::assert_snapshot!(canonical.snapshot());
}

#[test]
fn quiet_writes_only_errors() {
    let out = run(
        "mancala-validate",
        &["--quiet", "fixtures/validate/mixed-stream.mgn"],
        b"",
    );
    assert_eq!(out.code, 1);
    assert!(out.stdout.is_empty());
    insta::assert_snapshot!(out.snapshot());
}

#[test]
fn parallel_output_keeps_input_order() {
    let many: String = (0..200)
        .map(|i| {
            if i % 7 == 3 {
                "[Game \"olowuka\"]\n\n1. D D *\n".to_owned()
            } else {
                format!("[Game \"olowuka\"]\n[Round \"{i}\"]\n\n1. D b *\n")
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let one = run(
        "mancala-validate",
        &["--jobs", "1", "--format", "json"],
        many.as_bytes(),
    );
    let four = run(
        "mancala-validate",
        &["--jobs", "4", "--format", "json"],
        many.as_bytes(),
    );
    assert_eq!(one.code, 1);
    assert_eq!(one.stdout, four.stdout);
    assert_eq!(one.stderr, four.stderr);
    assert_eq!(one.stdout.lines().count(), 200);
}

#[test]
fn io_and_usage_errors_exit_2() {
    let missing = run(
        "mancala-validate",
        &[
            "fixtures/validate/no-such-file.mgn",
            "fixtures/validate/valid-olowuka.mgn",
        ],
        b"",
    );
    assert_eq!(missing.code, 2);
    insta::assert_snapshot!("missing-file", missing.snapshot());
    let usage = run("mancala-validate", &["--format", "yaml"], b"");
    assert_eq!(usage.code, 2);
    assert!(usage.stdout.is_empty());
}

/// A move refused because what follows it cannot be decided within the lap
/// budget is still reported as its mover's (the error's position is the
/// one after the move). The undecided reply named is the first in hole
/// order, as `mancala-play` names it for the same position.
#[test]
fn an_undecided_follow_up_names_the_mover() {
    let record = b"[Game \"pallankuzhi\"]\n[Options \"single-round\"]\n\n1. B+7 a 2. G+6 a+11 *\n";
    let out = run("mancala-validate", &["--lap-budget", "3", "-"], record);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("illegal move a (ply 2, north to move): move A is undecided"),
        "{}",
        out.stderr
    );
}

/// Colour follows `--color`, then the environment's conventions: stderr is
/// a pipe here, so only `CLICOLOR_FORCE` (or `--color always`) colours it,
/// and `NO_COLOR` or `--color never` wins over the force.
#[test]
fn colour_follows_the_flag_and_the_environment() {
    let coloured = |args: &[&str], env: &[(&str, &str)]| {
        let mut cmd = common::command("mancala-validate", args);
        cmd.arg("fixtures/validate/mixed-stream.mgn");
        cmd.envs(env.iter().copied());
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("error:"), "{stderr}");
        stderr.contains('\x1b')
    };
    assert!(!coloured(&[], &[]));
    assert!(!coloured(&[], &[("CLICOLOR", "1")]));
    assert!(coloured(&[], &[("CLICOLOR_FORCE", "1")]));
    assert!(coloured(&[], &[("CLICOLOR_FORCE", "1"), ("TERM", "dumb")]));
    assert!(!coloured(&[], &[("CLICOLOR_FORCE", "0")]));
    assert!(!coloured(
        &[],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    ));
    assert!(!coloured(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]));
    assert!(coloured(&["--color", "always"], &[("NO_COLOR", "1")]));
}

/// `--quiet` keeps its word: nothing on stdout, the verdict in the exit
/// status; with `--format json`, whose verdicts are stdout's, it is a usage
/// error instead of either promise broken.
#[test]
fn quiet_writes_nothing_to_stdout_and_refuses_json() {
    let file = "fixtures/validate/mixed-stream.mgn";
    let quiet = run("mancala-validate", &["-q", file], b"");
    assert_eq!(quiet.code, 1);
    assert_eq!(quiet.stdout, "");
    assert!(
        quiet.stderr.contains("error: illegal move"),
        "{}",
        quiet.stderr
    );
    assert!(!quiet.stderr.contains("checked "), "{}", quiet.stderr);
    for args in [["-q", "--format", "json"], ["--format", "json", "--quiet"]] {
        let out = run("mancala-validate", &[&args[..], &[file]].concat(), b"");
        assert_eq!(out.code, 2, "{args:?}");
        assert_eq!(out.stdout, "", "{args:?}");
        assert!(
            out.stderr.contains("--quiet") && out.stderr.contains("--format json"),
            "{args:?}: {}",
            out.stderr
        );
    }
    let json = run("mancala-validate", &["--format", "json", file], b"");
    assert_eq!(json.code, 1);
    assert!(json.stdout.lines().count() > 1, "{}", json.stdout);
}

/// The verdicts of a `--format json` run: (line, valid) for each game.
fn lines_and_verdicts(stdout: &str) -> Vec<(u64, bool)> {
    stdout
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            (v["line"].as_u64().unwrap(), v["valid"].as_bool().unwrap())
        })
        .collect()
}

/// JSON records, compact and pretty (as jq prints them), among broken
/// ones: each bad record is reported at its file, line and column in the
/// JSON text, and every other record is still checked.
#[test]
fn json_records_among_bad_ones() {
    let file = "fixtures/validate/mixed-stream.jsonl";
    let out = run("mancala-validate", &[file], b"");
    assert_eq!(out.code, 1, "{}", out.snapshot());
    insta::assert_snapshot!(out.snapshot());
    let json = run("mancala-validate", &["--format", "json", file], b"");
    assert_eq!(
        lines_and_verdicts(&json.stdout),
        [
            (1, true),
            (2, false),
            (3, false),
            (4, true),
            (45, true),
            (46, false),
            (47, false),
            (48, false)
        ]
    );
}

/// MGN -> JSON -> MGN gives the same canonical MGN, byte for byte, for
/// every valid game of the fixtures (every game kind among them): the
/// JSON is the record form as `mancala-play --format json` writes it,
/// compact (NDJSON) and pretty-printed (as jq prints it).
#[test]
fn mgn_to_json_to_mgn_is_a_round_trip_on_the_valid_fixtures() {
    // A directory argument: every fixture file; only valid games come out.
    let canonical = run("mancala-validate", &["fixtures"], b"");
    assert_eq!(canonical.code, 1, "the fixtures hold invalid games too");
    for game in mancala_rules::GameId::ALL {
        let tag = format!("[Game \"{}\"]", game.as_str());
        assert!(canonical.stdout.contains(&tag), "no valid {game} fixture");
    }
    let records: Vec<mancala_notation::Record> =
        mancala_notation::Reader::new(canonical.stdout.as_bytes())
            .map(|game| game.unwrap().parse().unwrap().record)
            .collect();
    assert!(records.len() > 40, "{} valid games", records.len());
    let compact: String = records
        .iter()
        .map(|r| serde_json::to_string(r).unwrap() + "\n")
        .collect();
    let pretty: String = records
        .iter()
        .map(|r| serde_json::to_string_pretty(r).unwrap() + "\n")
        .collect();
    for json in [compact, pretty] {
        let back = run("mancala-validate", &[], json.as_bytes());
        assert_eq!(back.code, 0, "{}", back.stderr);
        assert!(
            back.stdout == canonical.stdout,
            "MGN -> JSON -> MGN differs:\n{}",
            back.stdout
        );
        let summary = format!("checked {} games: {0} valid, 0 invalid", records.len());
        assert!(back.stderr.starts_with(&summary), "{}", back.stderr);
    }
}

/// A directory reads the record files under it, recursively, in path
/// order (by name at each level, as ripgrep sorts), skipping hidden
/// files and other extensions; each file's diagnostics name it.
#[test]
fn a_directory_reads_the_record_files_under_it() {
    let dir = common::scratch("validate-directory");
    let game = |moves: &str| format!("[Game \"olowuka\"]\n\n{moves} *\n");
    let files = [
        ("b.mgn", game("1. D b")),
        ("a-c.mgn", game("1. D D")),
        (
            "a/z.jsonl",
            r#"{"game":"olowuka","items":[{"move":"C"}],"result":"*"}"#.to_owned(),
        ),
        (
            "a/sub/y.json",
            r#"{"game":"olowuka","result":"*"}"#.to_owned(),
        ),
        (".hidden.mgn", game("1. A")),
        (".git/x.mgn", game("1. A")),
        ("notes.txt", "not a record".to_owned()),
    ];
    for (name, text) in &files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let top = dir.to_str().unwrap();
    let out = run("mancala-validate", &["--format", "json", top], b"");
    assert_eq!(out.code, 1, "{}", out.snapshot());
    let read: Vec<String> = out
        .stdout
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let file = v["file"].as_str().unwrap();
            file.strip_prefix(top).unwrap().to_owned()
        })
        .collect();
    assert_eq!(read, ["/a/sub/y.json", "/a/z.jsonl", "/a-c.mgn", "/b.mgn"]);
    assert!(
        out.stderr
            .contains(&format!("{top}/a-c.mgn:3:6: error: illegal move D")),
        "{}",
        out.stderr
    );
    // A file named on the command line is read whatever its extension.
    let named = dir.join("notes.txt");
    let out = run("mancala-validate", &[named.to_str().unwrap()], b"");
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("notes.txt:1:1: error"),
        "{}",
        out.stderr
    );
}

/// `--max-errors N` stops at the Nth invalid game, in input order
/// whatever `--jobs`, says so, and exits 1.
#[test]
fn max_errors_stops_after_n_invalid_games() {
    let file = "fixtures/validate/mixed-stream.jsonl";
    for jobs in ["1", "3"] {
        let out = run(
            "mancala-validate",
            &["--max-errors", "2", "-j", jobs, file],
            b"",
        );
        assert_eq!(out.code, 1, "{}", out.snapshot());
        assert_eq!(out.stdout.matches("[Game ").count(), 1, "{}", out.stdout);
        let tail: Vec<&str> = out.stderr.lines().rev().take(2).collect();
        assert_eq!(
            tail,
            [
                "checked 3 games: 1 valid, 2 invalid (27 plies)",
                "stopped after 2 invalid games (--max-errors 2): 3 games checked; the rest of the input was not checked",
            ],
            "{}",
            out.stderr
        );
        let json = run(
            "mancala-validate",
            &["--format", "json", "--max-errors", "2", "-j", jobs, file],
            b"",
        );
        assert_eq!(lines_and_verdicts(&json.stdout).len(), 3);
        assert!(json.stderr.trim_end().ends_with(
            r#"{"games":3,"valid":1,"invalid":2,"plies":27,"unreadable_inputs":0,"stopped_at_max_errors":true}"#
        ), "{}", json.stderr);
    }
    // More allowed than there are: every game is checked, no note.
    let out = run("mancala-validate", &["--max-errors", "6", file], b"");
    assert_eq!(out.code, 1);
    assert!(!out.stderr.contains("stopped"), "{}", out.stderr);
    assert!(out.stderr.contains("checked 8 games"), "{}", out.stderr);
    let zero = run("mancala-validate", &["--max-errors", "0", file], b"");
    assert_eq!(zero.code, 2, "{}", zero.snapshot());
}
