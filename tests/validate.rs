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
