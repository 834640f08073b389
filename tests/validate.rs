//! `mancala-validate` end to end: insta snapshots of exit code, stdout and
//! stderr for every validation fixture and each output mode.

use crate::common;

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
        &[
            "--no-output",
            "--quiet",
            "fixtures/validate/mixed-stream.mgn",
        ],
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

/// `LapBudget` in other case, in MGN or as a JSON extra tag, is refused
/// naming the tag meant, not read as an unknown tag under the default
/// budget; the other games of the stream are still checked.
#[test]
fn the_lap_budget_tag_in_other_case_is_refused() {
    let game = |tag: &str| format!("[Game \"olowuka\"]\n[{tag} \"5\"]\n\n1. A *\n\n");
    let mgn = format!(
        "{}{}{}",
        game("lapbudget"),
        game("LAPBUDGET"),
        game("LapBudget")
    );
    let out = run("mancala-validate", &["--quiet", "-"], mgn.as_bytes());
    assert_eq!(out.code, 1, "{}", out.stderr);
    for (line, name) in [(2, "lapbudget"), (7, "LAPBUDGET")] {
        let message = format!(
            "<stdin>:{line}:2: error: unknown tag `{name}` (did you mean `LapBudget`? tag names are case-sensitive)"
        );
        assert!(out.stderr.contains(&message), "{message}: {}", out.stderr);
    }
    assert_eq!(out.stderr.matches("error:").count(), 2, "{}", out.stderr);
    let json = br#"{"game":"olowuka","extra":[{"name":"Lapbudget","value":"5"}],"items":[{"move":"A"}],"result":"*"}"#;
    let out = run("mancala-validate", &["--quiet", "-"], json);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("`Lapbudget` is `LapBudget` in other case"),
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

/// `--no-output` keeps its word: nothing on stdout, the verdict in the
/// exit status; with `--format json`, whose verdicts are stdout's, it is a
/// usage error instead of either promise broken. `-q` means what it means
/// in every tool: the data as usual, nothing on stderr but errors.
#[test]
fn no_output_writes_nothing_to_stdout_and_refuses_json() {
    let file = "fixtures/validate/mixed-stream.mgn";
    let checked = run("mancala-validate", &["--no-output", file], b"");
    assert_eq!(checked.code, 1);
    assert_eq!(checked.stdout, "");
    assert!(
        checked.stderr.contains("error: illegal move"),
        "{}",
        checked.stderr
    );
    assert!(
        checked.stderr.contains("checked 5 games"),
        "{}",
        checked.stderr
    );
    let quiet = run("mancala-validate", &["-q", file], b"");
    let loud = run("mancala-validate", &[file], b"");
    assert_eq!(quiet.stdout, loud.stdout);
    assert!(quiet.stdout.contains("[Game "));
    let summary = "checked 5 games: 3 valid, 2 invalid (329 plies)\n";
    assert_eq!(format!("{}{summary}", quiet.stderr), loud.stderr);
    for args in [
        ["--no-output", "--format", "json"],
        ["--format", "json", "--no-output"],
    ] {
        let out = run("mancala-validate", &[&args[..], &[file]].concat(), b"");
        assert_eq!(out.code, 2, "{args:?}");
        assert_eq!(out.stdout, "", "{args:?}");
        assert!(
            out.stderr.contains("--no-output") && out.stderr.contains("--format json"),
            "{args:?}: {}",
            out.stderr
        );
    }
    let json_quiet = run("mancala-validate", &["-q", "--format", "json", file], b"");
    let json = run("mancala-validate", &["--format", "json", file], b"");
    assert_eq!(json_quiet.stdout, json.stdout);
    assert!(json.stderr.ends_with("}\n") && !json_quiet.stderr.contains("\"games\""));
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
        // As a FAT volume names it: read too.
        ("C.MGN", game("1. D")),
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
    assert_eq!(
        read,
        [
            "/C.MGN",
            "/a/sub/y.json",
            "/a/z.jsonl",
            "/a-c.mgn",
            "/b.mgn"
        ]
    );
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

/// `mancala-filter`: what it selects is what the validator's verdicts say
/// should be selected, written byte for byte as read.
mod filter {
    use super::common::run;
    use serde_json::Value;

    /// A stream of JSON records, one a line, of every game (Pallankuzhi
    /// as a match of two rounds), some played twice over: the lines and
    /// their verdicts.
    fn corpus() -> (Vec<String>, Vec<Value>) {
        let mut lines = Vec::new();
        for (game, extra) in [
            ("olowuka", &["--north", "greedy"][..]),
            ("olinda-keliya", &[][..]),
            ("pallankuzhi", &["-o", "rounds=2"][..]),
            ("rio-kadalis", &["--south", "greedy"][..]),
        ] {
            let mut args = vec!["--game", game, "--games", "5", "--seed", "7", "-q"];
            args.extend_from_slice(extra);
            args.extend(["--format", "json", "--max-plies", "120"]);
            let out = run("mancala-play", &args, b"");
            assert_eq!(out.code, 0, "{}", out.snapshot());
            lines.extend(out.stdout.lines().map(str::to_owned));
        }
        // Games 3 and 4 again, at the end: duplicates.
        let again = [lines[2].clone(), lines[3].clone()];
        lines.extend(again);
        let verdicts = run(
            "mancala-validate",
            &["--format", "json"],
            joined(&lines).as_bytes(),
        );
        assert_eq!(verdicts.code, 0, "{}", verdicts.stderr);
        let verdicts = verdicts
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (lines, verdicts)
    }

    /// Which verdicts a selection should select.
    type Wanted = dyn Fn(&Value) -> bool;

    fn joined(lines: &[String]) -> String {
        lines.iter().map(|l| format!("{l}\n")).collect()
    }

    /// Filters `lines` with `args`: what it writes must be the lines the
    /// verdicts select by `wanted`, in order; returns how many.
    fn agrees(
        lines: &[String],
        verdicts: &[Value],
        args: &[&str],
        wanted: impl Fn(&Value) -> bool,
    ) -> usize {
        let out = run("mancala-filter", args, joined(lines).as_bytes());
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        let expected: Vec<&String> = lines
            .iter()
            .zip(verdicts)
            .filter(|(_, v)| wanted(v))
            .map(|(l, _)| l)
            .collect();
        assert_eq!(
            out.stdout,
            expected
                .iter()
                .map(|l| format!("{l}\n"))
                .collect::<String>(),
            "{args:?}"
        );
        assert_eq!(
            out.stderr,
            format!(
                "read {} games: {} selected, 0 duplicates, 0 invalid\n",
                lines.len(),
                expected.len()
            ),
            "{args:?}"
        );
        expected.len()
    }

    #[test]
    fn selections_agree_with_the_verdicts() {
        let (lines, verdicts) = corpus();
        let tag = |v: &Value, name: &str| v["tags"][name].as_str().unwrap_or_default().to_owned();
        let cases: Vec<(Vec<&str>, Box<Wanted>)> = vec![
            (vec![], Box::new(|_| true)),
            (
                vec!["--game", "pallankuzhi"],
                Box::new(|v| v["game"] == "pallankuzhi"),
            ),
            (
                vec!["-o", "rounds=2"],
                Box::new(|v| v["options"] == "rounds=2"),
            ),
            (
                vec!["--south", "GREEDY"],
                Box::new(move |v| tag(v, "south").contains("greedy")),
            ),
            (
                vec!["--player", "greedy", "--game", "olowuka"],
                Box::new(move |v| {
                    v["game"] == "olowuka"
                        && (tag(v, "south") + &tag(v, "north")).contains("greedy")
                }),
            ),
            (
                vec!["--result", "south"],
                Box::new(|v| v["winner"] == "south"),
            ),
            (
                vec!["--result", "north", "--result", "draw"],
                Box::new(|v| v["winner"] == "north" || v["winner"] == "draw"),
            ),
            (
                vec!["--result", "unfinished"],
                Box::new(|v| v["winner"].is_null()),
            ),
            (
                vec!["--termination", "twenty-five"],
                Box::new(|v| v["end"] == "twenty-five"),
            ),
            (
                vec!["--min-plies", "30", "--max-plies", "60"],
                Box::new(|v| (30..=60).contains(&v["plies"].as_u64().unwrap())),
            ),
            (vec!["--event", "no such event"], Box::new(|_| false)),
        ];
        for (args, wanted) in &cases {
            agrees(&lines, &verdicts, args, wanted);
        }
        // Each selection finds something (but the last), and not everything.
        for (args, wanted) in &cases[1..cases.len() - 1] {
            let n = verdicts.iter().filter(|v| wanted(v)).count();
            assert!(n > 0 && n < lines.len(), "{args:?} selects {n}");
        }
        // A score, as a Result tag writes it.
        let first: Value = serde_json::from_str(&lines[0]).unwrap();
        let score = first["result"].as_str().unwrap().to_owned();
        agrees(&lines, &verdicts, &["--result", &score], |v| {
            v["score"]
                .as_array()
                .is_some_and(|s| format!("{}-{}", s[0], s[1]) == score)
        });
    }

    #[test]
    fn a_position_selects_the_games_that_pass_through_it() {
        let (lines, verdicts) = corpus();
        // Each game's last position selects it (and any other that ends
        // there); the start of a game selects every game of that game.
        for (i, verdict) in verdicts.iter().enumerate() {
            let position = verdict["position"].as_str().unwrap();
            let n = agrees(&lines, &verdicts, &["--position", position], |v| {
                v["position"] == position || v == verdict
            });
            assert!(n >= 1, "game {i}");
        }
        let start = run(
            "mancala-render",
            &["--game", "olowuka", "--ply", "0", "--format", "json"],
            b"",
        );
        let board = &serde_json::from_str::<Value>(start.stdout.lines().next().unwrap()).unwrap()["frames"]
            [0]["board"];
        let row = |side: &str| {
            board[side]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let setup = format!("S {}/{} 0-0", row("south"), row("north"));
        // A set-up names no game: Rio Kadalis starts from the same board.
        agrees(&lines, &verdicts, &["--position", &setup], |v| {
            v["game"] == "olowuka" || v["game"] == "rio-kadalis"
        });
        agrees(
            &lines,
            &verdicts,
            &["--position", &setup, "--game", "olowuka"],
            |v| v["game"] == "olowuka",
        );
        // A position in the middle of a game: the one after its first ply.
        let one_ply = run(
            "mancala-render",
            &["--game", "olowuka", "--moves", "C", "--format", "json"],
            b"",
        );
        let board = &serde_json::from_str::<Value>(one_ply.stdout.lines().next().unwrap()).unwrap()
            ["frames"][0]["board"];
        let row = |side: &str| {
            board[side]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let after_c = format!("N {}/{} 0-0", row("south"), row("north"));
        let out = run(
            "mancala-filter",
            &["--position", &after_c, "--game", "olowuka"],
            joined(&lines).as_bytes(),
        );
        for line in out.stdout.lines() {
            let record: Value = serde_json::from_str(line).unwrap();
            assert_eq!(record["game"], "olowuka");
            assert_eq!(record["items"][0]["move"], "C", "{line}");
        }
        let opening_c = lines
            .iter()
            .filter(|l| l.contains(r#""game":"olowuka""#) && l.contains(r#""items":[{"move":"C""#))
            .count();
        assert_eq!(out.stdout.lines().count(), opening_c);
    }

    #[test]
    fn dedupe_keeps_the_first_of_each_game() {
        let (lines, _) = corpus();
        let out = run("mancala-filter", &["--dedupe"], joined(&lines).as_bytes());
        assert_eq!(out.code, 0);
        let n = lines.len();
        assert_eq!(out.stdout, joined(&lines[..n - 2]));
        assert_eq!(
            out.stderr,
            format!(
                "read {n} games: {} selected, 2 duplicates, 0 invalid\n",
                n - 2
            )
        );
        // The same game in MGN, annotated, is the same game: its moves.
        let mgn = run("mancala-validate", &[], lines[2].as_bytes()).stdout;
        let analysed = run("mancala-analyze", &["--depth", "1"], mgn.as_bytes()).stdout;
        assert!(analysed.contains("[%eval "), "{analysed}");
        // An input is MGN or JSON: two files, one of each.
        let dir = super::common::scratch("filter-dedupe");
        std::fs::write(dir.join("1-played.jsonl"), format!("{}\n", lines[2])).unwrap();
        std::fs::write(dir.join("2-analysed.mgn"), &analysed).unwrap();
        let dir = dir.to_str().unwrap();
        let out = run("mancala-filter", &["--dedupe", "-q", dir], b"");
        assert_eq!(
            (out.stdout, out.stderr),
            (format!("{}\n", lines[2]), String::new())
        );
    }

    /// MGN comes out as it went in, to the byte: remarks, spacing and the
    /// blank lines after each game; an invalid game is reported as the
    /// validator reports it, and not written.
    #[test]
    fn records_are_written_as_read_and_invalid_ones_reported() {
        let file = "fixtures/validate/mixed-stream.mgn";
        let text = std::fs::read_to_string(super::common::root().join(file)).unwrap();
        let out = run("mancala-filter", &[file], b"");
        let validate = run("mancala-validate", &["--keep-text", file], b"");
        assert_eq!(out.code, 1);
        // The same diagnostics, then filter's count instead of validate's.
        let diagnostics = |stderr: &str| {
            stderr
                .lines()
                .filter(|l| !l.starts_with("read ") && !l.starts_with("checked "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(diagnostics(&out.stderr), diagnostics(&validate.stderr));
        assert!(
            validate
                .stderr
                .ends_with("checked 5 games: 3 valid, 2 invalid (329 plies)\n")
        );
        assert!(
            out.stderr
                .ends_with("read 5 games: 3 selected, 0 duplicates, 2 invalid\n"),
            "{}",
            out.stderr
        );
        let valid = run("mancala-filter", &[], validate.stdout.as_bytes());
        assert_eq!(valid.stdout, validate.stdout);
        // Every selected byte is the input's, in order.
        let mut rest = text.as_str();
        for game in out.stdout.split_inclusive("\n\n") {
            let at = rest
                .find(game.trim_end())
                .unwrap_or_else(|| panic!("not in the input: {game}"));
            rest = &rest[at + game.trim_end().len()..];
        }
        let spaced = "{a remark}\n[Game \"olowuka\"]\n[South  \"Nimali\"]\n\n1.C   c {kept}  *\n\n\n[Game \"olowuka\"]\n\nD *";
        let out = run("mancala-filter", &["--player", "nimali"], spaced.as_bytes());
        assert_eq!(
            out.stdout,
            "[Game \"olowuka\"]\n[South  \"Nimali\"]\n\n1.C   c {kept}  *\n\n\n"
        );
        let last = run(
            "mancala-filter",
            &["--min-plies", "1", "--max-plies", "1"],
            spaced.as_bytes(),
        );
        assert_eq!(last.stdout, "[Game \"olowuka\"]\n\nD *\n");
    }
}
