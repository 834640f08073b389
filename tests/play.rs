//! `mancala-play` end to end: seeded records of every game and engine, every
//! option accepted by the validator, continuing records, `--moves`, and a
//! human game driven through stdin.

mod common;

use common::run;

const GAMES: [&str; 4] = ["olinda-keliya", "olowuka", "pallankuzhi", "rio-kadalis"];

#[test]
fn seeded_records_of_every_game_and_engine() {
    for game in GAMES {
        for engine in ["random", "greedy", "alphabeta:depth=2", "mcts:playouts=30"] {
            let out = run(
                "mancala-play",
                &[
                    "--game", game, "--south", engine, "--north", "greedy", "--seed", "11",
                ],
                b"",
            );
            assert_eq!(out.code, 0, "{}", out.snapshot());
            let again = run(
                "mancala-play",
                &[
                    "--game", game, "--south", engine, "--north", "greedy", "--seed", "11",
                ],
                b"",
            );
            assert_eq!(
                out.stdout, again.stdout,
                "{game} {engine}: not reproducible"
            );
            let name = format!("record-{game}-{}", engine.split(':').next().unwrap());
            insta::assert_snapshot!(name, out.snapshot());
        }
    }
}

/// Every option of every game, alone and with the others of its game: what
/// `mancala-play` prints, `mancala-validate` accepts.
#[test]
fn the_validator_accepts_every_game_played_under_every_option() {
    let options: &[(&str, &[&str])] = &[
        (
            "olinda-keliya",
            &[
                "seeds=5",
                "seeds=6",
                "seeds=7",
                "same-direction",
                "series-capture",
                "skip-origin",
                "endless-ends-game",
                "no-repetition-rule",
            ],
        ),
        (
            "olowuka",
            &[
                "play-to-end",
                "skip-origin",
                "endless-ends-game",
                "no-repetition-rule",
            ],
        ),
        (
            "pallankuzhi",
            &[
                "seeds=4",
                "seeds=5",
                "pasu-to-owner",
                "no-pasu-on-last-seed",
                "capture-opposite",
                "single-round",
                "skip-origin",
                "endless-ends-game",
                "no-repetition-rule",
            ],
        ),
        (
            "rio-kadalis",
            &[
                "clockwise",
                "five-holes",
                "single-round",
                "skip-origin",
                "endless-ends-game",
                "no-repetition-rule",
            ],
        ),
    ];
    for (game, opts) in options {
        let mut runs: Vec<Vec<&str>> = opts.iter().map(|o| vec![*o]).collect();
        // All flags of the game at once (one seed count at most).
        runs.push(
            opts.iter()
                .copied()
                .filter(|o| !o.starts_with("seeds="))
                .collect(),
        );
        for run_options in runs {
            let mut args = vec![
                "--game",
                game,
                "--games",
                "3",
                "--seed",
                "5",
                "--quiet",
                "--max-plies",
                "600",
            ];
            for o in &run_options {
                args.extend(["-o", o]);
            }
            let played = run("mancala-play", &args, b"");
            assert_eq!(
                played.code,
                0,
                "{game} {run_options:?}: {}",
                played.snapshot()
            );
            let checked = run("mancala-validate", &["--quiet"], played.stdout.as_bytes());
            assert_eq!(
                checked.code, 0,
                "{game} {run_options:?}:\n{}\n{}",
                checked.stderr, played.stdout
            );
        }
    }
}

#[test]
fn moves_then_stop() {
    let out = run(
        "mancala-play",
        &[
            "--game",
            "olinda-keliya",
            "--moves",
            "1. E:ccw d 2. A",
            "--plies",
            "0",
        ],
        b"",
    );
    assert_eq!(out.code, 0);
    insta::assert_snapshot!(out.snapshot());
}

#[test]
fn an_illegal_move_in_moves_is_reported_like_the_validator() {
    let out = run(
        "mancala-play",
        &["--game", "olinda-keliya", "--moves", "E:ccw c"],
        b"",
    );
    assert_eq!(out.code, 1);
    assert!(out.stdout.is_empty());
    insta::assert_snapshot!(out.snapshot());
}

#[test]
fn continuing_a_record_from_stdin() {
    let start = run(
        "mancala-play",
        &["--game", "rio-kadalis", "--plies", "4", "--seed", "3"],
        b"",
    );
    assert!(start.stdout.contains("[Result \"*\"]"));
    let more = run(
        "mancala-play",
        &["-", "--plies", "3", "--seed", "3"],
        start.stdout.as_bytes(),
    );
    assert_eq!(more.code, 0);
    let to_the_end = run(
        "mancala-play",
        &["-", "--seed", "3"],
        more.stdout.as_bytes(),
    );
    assert_eq!(to_the_end.code, 0);
    assert!(!to_the_end.stdout.contains("[Result \"*\"]"));
    let checked = run(
        "mancala-validate",
        &["--quiet"],
        to_the_end.stdout.as_bytes(),
    );
    assert_eq!(checked.code, 0, "{}", checked.stderr);
    insta::assert_snapshot!(format!("{}\n{}", more.snapshot(), to_the_end.snapshot()));
}

#[test]
fn an_invalid_record_is_not_continued_and_the_next_one_is() {
    let text = b"[Game \"olowuka\"]\n\n1. D D *\n\n[Game \"olowuka\"]\n\n1. D *\n";
    let out = run("mancala-play", &["-", "--plies", "1", "--seed", "2"], text);
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout.matches("[Game").count(), 1);
    insta::assert_snapshot!(out.snapshot());
}

#[test]
fn a_human_game_through_stdin() {
    let answers = b"help\nhint\nZ\na\nC\nundo\nB\nquit\n";
    let out = run(
        "mancala-play",
        &[
            "--south", "human", "--north", "greedy", "--seed", "4", "--color", "never",
        ],
        answers,
    );
    assert_eq!(out.code, 0);
    // `a` names South's own A; C was taken back and B played instead.
    assert!(out.stdout.contains("1. A f+3 2. B "), "{}", out.stdout);
    assert!(out.stdout.contains("[Result \"*\"]"));
    insta::assert_snapshot!(out.snapshot());
}

#[test]
fn a_match_summary_on_stderr() {
    let out = run(
        "mancala-play",
        &["--games", "4", "--south", "greedy", "--seed", "9"],
        b"",
    );
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout.matches("[Game").count(), 4);
    let summary = out.stderr.lines().last().unwrap();
    assert!(
        summary.starts_with("4 games: south (greedy) won"),
        "{summary}"
    );
    let json = run(
        "mancala-play",
        &[
            "--games", "4", "--south", "greedy", "--seed", "9", "--format", "json",
        ],
        b"",
    );
    let summary: serde_json::Value =
        serde_json::from_str(json.stderr.lines().last().unwrap()).unwrap();
    assert_eq!(summary["games"], 4);
    assert_eq!(json.stdout.lines().count(), 4);
}

#[test]
fn bad_player_or_option_is_a_usage_error() {
    assert_eq!(run("mancala-play", &["--south", "deep-blue"], b"").code, 2);
    assert_eq!(run("mancala-play", &["-o", "series-capture"], b"").code, 2);
    assert_eq!(run("mancala-play", &["--game", "awale"], b"").code, 2);
}

/// A record carries its game, options and count: flags for new games do
/// not go with records (as `mancala-render` refuses `--game` with files).
#[test]
fn options_for_new_games_do_not_go_with_records() {
    let record = run("mancala-play", &["--plies", "2"], b"").stdout;
    for flags in [
        &["--game", "pallankuzhi"][..],
        &["-o", "seeds=5"],
        &["--games", "3"],
    ] {
        let args: Vec<&str> = flags.iter().copied().chain(["-"]).collect();
        let out = run("mancala-play", &args, record.as_bytes());
        assert_eq!(out.code, 2, "{flags:?}");
        assert!(out.stdout.is_empty(), "{flags:?}");
        assert!(out.stderr.contains("cannot be used with"), "{}", out.stderr);
    }
    assert_eq!(
        run("mancala-play", &["--plies", "2", "-"], record.as_bytes()).code,
        0
    );
}

/// A record cut where a round began owes the round's marker: continuing it
/// writes the marker before the first new move, so the result validates.
#[test]
fn continuing_a_record_cut_at_a_round_start_writes_the_marker() {
    let record = std::fs::read(
        common::root().join("fixtures/validate/valid-pallankuzhi-cut-at-a-round-start.mgn"),
    )
    .unwrap();
    let out = run("mancala-play", &["--quiet", "--plies", "3", "-"], &record);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("\nR4 1"), "{}", out.stdout);
    let checked = run("mancala-validate", &["--quiet", "-"], out.stdout.as_bytes());
    assert_eq!(checked.code, 0, "{}", checked.stderr);
}

/// The measure: 20 alpha-beta matches with rounds=3 all end within
/// three rounds, validate, and render draws their ends.
#[test]
fn rounds_n_ends_every_match() {
    let out = run(
        "mancala-play",
        &[
            "--game",
            "pallankuzhi",
            "-o",
            "rounds=3",
            "--south",
            "alphabeta",
            "--north",
            "alphabeta",
            "--games",
            "20",
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.matches("[Options \"rounds=3\"]").count(), 20);
    let ended = out
        .stdout
        .matches("[Termination \"rounds-played\"]")
        .count()
        + out
            .stdout
            .matches("[Termination \"cannot-refill\"]")
            .count();
    assert_eq!(ended, 20, "{}", out.stdout);
    assert!(!out.stdout.contains(" R4"), "{}", out.stdout);
    assert!(!out.stdout.contains("\"*\""), "{}", out.stdout);
    let summary = out.stderr.lines().last().unwrap();
    assert!(
        summary.starts_with("20 matches: south (alphabeta depth=9) won"),
        "{summary}"
    );
    assert!(summary.contains(", 0 unfinished;"), "{summary}");
    let validated = run("mancala-validate", &["--quiet"], out.stdout.as_bytes());
    assert_eq!(validated.code, 0, "{}", validated.stderr);
    let rendered = run("mancala-render", &["-"], out.stdout.as_bytes());
    assert_eq!(rendered.code, 0, "{}", rendered.stderr);
    let ends = rendered.stdout.matches("match over after round 3").count()
        + rendered.stdout.matches("game over (cannot-refill)").count();
    assert_eq!(ends, 20, "{}", rendered.stdout);
}

#[test]
fn rounds_option_errors_are_usage_errors() {
    for (args, message) in [
        (
            &["--game", "pallankuzhi", "-o", "rounds=0"][..],
            "error: bad round count in `rounds=0` (expected rounds=N with N from 1 to 4294967295: the match ends after round N)",
        ),
        (
            &[
                "--game",
                "rio-kadalis",
                "-o",
                "rounds=3",
                "-o",
                "single-round",
            ][..],
            "error: options `rounds=3` and `single-round` cannot go together: single-round plays one round and no match, rounds=3 a match of at most 3 rounds",
        ),
        (
            &["--game", "olowuka", "-o", "rounds=3"][..],
            "error: option `rounds=3` does not apply to olowuka",
        ),
    ] {
        let out = run("mancala-play", args, b"");
        assert_eq!(out.code, 2, "{args:?}");
        assert_eq!(out.stderr.trim_end(), message, "{args:?}");
        assert!(out.stdout.is_empty());
    }
}

/// Matches stopped at --max-plies are counted apart, and the summary
/// suggests rounds=N; with rounds=N, or in a game without rounds, it does
/// not.
#[test]
fn matches_stopped_at_max_plies_are_counted_and_rounds_n_suggested() {
    let args = [
        "--game",
        "pallankuzhi",
        "--games",
        "3",
        "--south",
        "greedy",
        "--north",
        "greedy",
        "--max-plies",
        "30",
    ];
    let out = run("mancala-play", &args, b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.matches("[Result \"*\"]").count(), 3);
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert!(
        lines.contains(
            &"note: stopped after 30 plies (--max-plies); `-o rounds=N` ends a match after round N"
        ),
        "{}",
        out.stderr
    );
    let summary = &lines[lines.len() - 2..];
    assert!(
        summary[0].starts_with(
            "3 matches: south (greedy) won 0, north (greedy) won 0, 0 drawn, 3 unfinished;"
        ),
        "{summary:?}"
    );
    assert_eq!(
        summary[1],
        "note: 3 of the 3 matches stopped unfinished at --max-plies (30); `-o rounds=N` ends a match after round N"
    );
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let json = run("mancala-play", &json_args, b"");
    let summary: serde_json::Value =
        serde_json::from_str(json.stderr.lines().last().unwrap()).unwrap();
    assert_eq!(summary["unfinished"], 3);
    assert_eq!(summary["max_plies_reached"], 3);

    let mut limited = args.to_vec();
    limited.extend(["-o", "rounds=1"]);
    let at = limited.len() - 3;
    limited[at] = "5";
    let out = run("mancala-play", &limited, b"");
    assert!(
        out.stderr
            .contains("note: 3 of the 3 matches stopped unfinished at --max-plies (5)\n"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("rounds=N"), "{}", out.stderr);
    let out = run("mancala-play", &["--games", "2", "--max-plies", "4"], b"");
    assert!(
        out.stderr
            .contains("note: 2 of the 2 games stopped unfinished at --max-plies (4)\n"),
        "{}",
        out.stderr
    );
}

/// Every game of a run replays alone: game N of `--games` is the game
/// `--first-game N` plays with the same seed and flags, byte for byte (its
/// Round tag holds N, its Seed tag the seed).
#[test]
fn one_game_of_a_run_replays_alone() {
    let flags = [
        "--game",
        "pallankuzhi",
        "--south",
        "alphabeta:depth=2",
        "--north",
        "mcts:playouts=40",
        "--seed",
        "11",
    ];
    let mut all = flags.to_vec();
    all.extend(["--games", "4", "--quiet"]);
    let run_of_four = run("mancala-play", &all, b"");
    assert_eq!(run_of_four.code, 0, "{}", run_of_four.stderr);
    let games: Vec<&str> = run_of_four.stdout.split("\n\n[Game ").collect();
    assert_eq!(games.len(), 4);
    let mut one = flags.to_vec();
    one.extend(["--first-game", "3"]);
    let alone = run("mancala-play", &one, b"");
    assert_eq!(alone.code, 0, "{}", alone.stderr);
    assert_eq!(
        format!("[Game {}", games[2]).trim_end(),
        alone.stdout.trim_end()
    );
    assert!(alone.stdout.contains("[Round \"3\"]"), "{}", alone.stdout);
    assert!(alone.stdout.contains("[Seed \"11\"]"), "{}", alone.stdout);
}

/// Every setting a player was given is in its record tag, `seed=` too, and
/// a search that may run for hours is named before it starts.
#[test]
fn player_tags_hold_every_setting_and_deep_searches_are_warned_of() {
    let out = run(
        "mancala-play",
        &[
            "--south",
            "random:seed=5",
            "--north",
            "mcts:playouts=10,seed=3",
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("[South \"random seed=5\"]"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("[North \"mcts playouts=10 seed=3\"]"),
        "{}",
        out.stdout
    );
    let deep = run(
        "mancala-play",
        &["--south", "alphabeta:depth=30", "--plies", "0"],
        b"",
    );
    assert_eq!(deep.code, 0, "{}", deep.stderr);
    assert!(
        deep.stderr
            .contains("warning: `alphabeta:depth=30` searches 30 plies deep with no time limit"),
        "{}",
        deep.stderr
    );
    for bounded in ["alphabeta:depth=30,ms=5", "alphabeta:depth=9"] {
        let out = run("mancala-play", &["--south", bounded, "--plies", "0"], b"");
        assert!(!out.stderr.contains("warning"), "{bounded}: {}", out.stderr);
    }
}
