//! `mancala-play` end to end: seeded records of every game and engine, every
//! option accepted by the validator, continuing records, `--moves`, and a
//! human game driven through stdin.

use crate::common;

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

#[test]
fn continuing_records_ends_with_the_summary_a_fresh_run_gives() {
    let played = run(
        "mancala-play",
        &["--games", "3", "--plies", "6", "--seed", "4"],
        b"",
    );
    assert_eq!(played.code, 0, "{}", played.snapshot());
    let out = run(
        "mancala-play",
        &["-", "--south", "greedy", "--north", "greedy"],
        played.stdout.as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.snapshot());
    let summary = out.stderr.lines().last().unwrap();
    assert!(
        summary.starts_with("3 games: south (greedy) won"),
        "{summary}"
    );
}

/// The statistics of a match against values worked out by hand from the
/// standard formulas (`crates/tools/src/stats.rs`, spec/cli.md).
#[test]
fn match_statistics_give_the_standard_values() {
    use mancala_tools::stats::{Pentanomial, Sprt, Verdict, Wdl, elo, expected_score};
    let close = |got: f64, want: f64| assert!((got - want).abs() < 0.01, "{got} != {want}");
    // 60 won, 20 drawn, 20 lost: s = (60 + 10) / 100 = 0.7; the trinomial
    // variance (60·0.3² + 20·0.2² + 20·0.7²) / 100 = 0.16, so σ = √(0.16 /
    // 100) = 0.04 and s ± 1.96σ = 0.6216 .. 0.7784. E(0.7) = -400
    // log10(3/7) = 147.19; E(0.6216) = 86.23; E(0.7784) = 218.25.
    let wdl = Wdl {
        wins: 60,
        draws: 20,
        losses: 20,
    };
    let e = wdl.estimate().unwrap();
    close(e.score, 0.7);
    close(e.elo, 147.19);
    let (low, high) = e.interval.unwrap();
    close(low, 86.23);
    close(high, 218.25);
    close(wdl.mirrored().estimate().unwrap().elo, -e.elo);
    // Pairs LL 5, LD 10, DD/WL 40, WD 30, WW 15: pair scores 0, ¼, ½, ¾,
    // 1 give s = 0.6 and the pentanomial variance 0.05·0.36 + 0.1·0.1225 +
    // 0.4·0.01 + 0.3·0.0225 + 0.15·0.16 = 0.065, σ = √(0.065 / 100); E(0.6)
    // = 70.44, interval E(0.55) = 34.88 to E(0.65) = 107.51.
    let pairs = Pentanomial([5, 10, 40, 30, 15]);
    let e = pairs.estimate().unwrap();
    close(e.elo, 70.44);
    let (low, high) = e.interval.unwrap();
    close(low, 34.88);
    close(high, 107.51);
    // Pairs all in one bin do not vary: no interval, whatever the score.
    for bin in 0..5 {
        let mut counts = [0; 5];
        counts[bin] = 3;
        let e = Pentanomial(counts).estimate().unwrap();
        assert_eq!(e.interval, None, "{counts:?}");
        close(e.score, bin as f64 / 4.0);
    }
    let all_won = Wdl {
        wins: 4,
        draws: 0,
        losses: 0,
    };
    assert_eq!(all_won.estimate().unwrap().interval, None);
    assert!(
        Pentanomial([0, 0, 1, 1, 0])
            .estimate()
            .unwrap()
            .interval
            .is_some()
    );
    close(elo(expected_score(123.0)), 123.0);
    // The GSPRT of elo0 = 0 against elo1 = 5 on those pairs: 0.8762, the
    // value a brute-force maximisation of each hypothesis' likelihood
    // gives (the normal approximation n (s1 - s0)(2s - s0 - s1) / 2var
    // gives 1.067). Bounds ln(0.05 / 0.95) and ln(0.95 / 0.05), ±2.944.
    let sprt: Sprt = "elo0=0,elo1=5".parse().unwrap();
    close(sprt.llr(&pairs), 0.8762);
    let (lower, upper) = sprt.bounds();
    close(lower, -2.944);
    close(upper, 2.944);
    assert_eq!(sprt.verdict(0.8762), Verdict::Continue);
    assert_eq!(sprt.verdict(3.0), Verdict::H1);
    assert_eq!(sprt.verdict(-3.0), Verdict::H0);
    // Many pairs at that rate cross the upper bound; as many even ones,
    // the lower.
    close(sprt.llr(&Pentanomial([50, 100, 400, 300, 150])), 8.762);
    assert!(sprt.llr(&Pentanomial([0, 0, 400, 0, 0])) < lower);
    for bad in [
        "elo0=5,elo1=0",
        "elo1=5",
        "elo0=0,elo1=5,alpha=0.7",
        "elo0=x,elo1=5",
    ] {
        assert!(bad.parse::<Sprt>().is_err(), "{bad}");
    }
}

fn match_summary(stderr: &str) -> serde_json::Value {
    serde_json::from_str(stderr.lines().last().unwrap()).unwrap()
}

/// A deterministic engine against itself, seeded alike: each pair plays
/// one game twice, the engines' seats swapped, so every pair is a win and
/// a loss, or two draws, and the match is even whatever the colours'
/// advantage.
#[test]
fn a_match_of_an_engine_against_itself_is_split_evenly() {
    for game in GAMES {
        let engine = "alphabeta:depth=3,seed=5";
        let mut args = vec![
            "--game",
            game,
            "--pairs",
            "3",
            "--south",
            engine,
            "--north",
            engine,
            "--opening-plies",
            "3",
            "--format",
            "json",
        ];
        // Matches of rounds end by round 2.
        if !game.starts_with('o') {
            args.extend(["-o", "rounds=2"]);
        }
        let out = run("mancala-play", &args, b"");
        assert_eq!(out.code, 0, "{}", out.snapshot());
        let summary = match_summary(&out.stderr);
        assert_eq!(summary["pairs"], 3, "{summary}");
        assert_eq!(
            summary["pentanomial"],
            serde_json::json!([0, 0, 3, 0, 0]),
            "{game}: {summary}"
        );
        let [first, second] = [&summary["engines"][0], &summary["engines"][1]];
        assert_eq!(first["wins"], second["wins"], "{summary}");
        assert_eq!(first["score"], 0.5, "{summary}");
        assert_eq!(summary["elo"]["difference"], 0.0, "{summary}");
    }
}

/// What a match summary cannot know yet it says so: no share before a game
/// is scored, no interval while every pair is in one bin (and no -0.0),
/// and two engines of one name told apart.
#[test]
fn match_summaries_say_what_is_not_known_yet() {
    let unscored = [
        "--pairs",
        "1",
        "--south",
        "random",
        "--north",
        "random",
        "--max-plies",
        "5",
    ];
    let out = run("mancala-play", &unscored, b"");
    assert_eq!(out.code, 0, "{}", out.snapshot());
    for line in [
        "  random (1): won 0, drawn 0, lost 0: 0 of 0 (n/a)\n",
        "  random (2): won 0, drawn 0, lost 0: 0 of 0 (n/a)\n",
    ] {
        assert!(out.stderr.contains(line), "{line}: {}", out.stderr);
    }
    assert!(!out.stderr.contains("Elo"), "{}", out.stderr);
    let json = run(
        "mancala-play",
        &[&unscored[..], &["--format", "json"]].concat(),
        b"",
    );
    let summary = match_summary(&json.stderr);
    assert_eq!(
        summary["engines"][0]["score"],
        serde_json::Value::Null,
        "{summary}"
    );
    assert_eq!(summary["engines"][0]["engine"], "random", "{summary}");
    assert!(summary.get("elo").is_none(), "{summary}");

    // An engine against itself: every pair a win and a loss, or two draws.
    let even = [
        "--pairs",
        "2",
        "--south",
        "alphabeta:depth=3,seed=5",
        "--north",
        "alphabeta:depth=3,seed=5",
        "--opening-plies",
        "3",
    ];
    let out = run("mancala-play", &even, b"");
    assert_eq!(out.code, 0, "{}", out.snapshot());
    let line = "  Elo difference: +0.0 (95% interval n/a, pentanomial)\n";
    assert!(out.stderr.contains(line), "{}", out.stderr);
    assert!(out.stderr.contains("Elo +0.0 [n/a]"), "{}", out.stderr);
    assert!(
        out.stderr.contains("alphabeta depth=3 seed=5 (2): won"),
        "{}",
        out.stderr
    );
    let json = run(
        "mancala-play",
        &[&even[..], &["--format", "json"]].concat(),
        b"",
    );
    assert!(!json.stderr.contains("-0.0"), "{}", json.stderr);
    let summary = match_summary(&json.stderr);
    let elo = serde_json::json!({"difference": 0.0, "low": null, "high": null});
    assert_eq!(summary["elo"], elo, "{summary}");
}

/// Colours reverse within a pair, both games from one opening; every record
/// is valid, names the engines with their settings, and the order of the
/// records does not depend on the threads.
#[test]
fn match_pairs_reverse_colours_and_keep_their_order_whatever_the_jobs() {
    let args = |jobs: &'static str| {
        vec![
            "--game",
            "olinda-keliya",
            "--pairs",
            "4",
            "--south",
            "alphabeta:depth=2",
            "--north",
            "greedy",
            "--opening-plies",
            "4",
            "--balanced",
            "4",
            "--seed",
            "3",
            "--jobs",
            jobs,
        ]
    };
    let one = run("mancala-play", &args("1"), b"");
    assert_eq!(one.code, 0, "{}", one.snapshot());
    let two = run("mancala-play", &args("2"), b"");
    assert_eq!(one.stdout, two.stdout, "--jobs 2 wrote other records");
    let summary = one
        .stderr
        .lines()
        .rev()
        .take(7)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(summary.contains("alphabeta depth=2: won"), "{summary}");
    assert!(summary.contains("pairs (LL LD DD/WL WD WW):"), "{summary}");
    assert!(one.stderr.contains("pair 4/4: "), "{}", one.stderr);
    let records: Vec<&str> = one.stdout.split("\n\n[Game").collect();
    assert_eq!(records.len(), 8);
    for (i, record) in records.iter().enumerate() {
        let (south, north) = if i % 2 == 0 {
            ("alphabeta depth=2", "greedy")
        } else {
            ("greedy", "alphabeta depth=2")
        };
        assert!(record.contains(&format!("[South \"{south}\"]")), "{record}");
        assert!(record.contains(&format!("[North \"{north}\"]")), "{record}");
        assert!(
            record.contains(&format!("[Round \"{}\"]", i + 1)),
            "{record}"
        );
    }
    // Both games of a pair open with the same four plies.
    let opening = |record: &str| -> String {
        let moves = record.split("\n\n").nth(1).unwrap();
        moves
            .split_whitespace()
            .take(6)
            .collect::<Vec<_>>()
            .join(" ")
    };
    for pair in records.chunks(2) {
        assert_eq!(opening(pair[0]), opening(pair[1]));
    }
    assert_ne!(opening(records[0]), opening(records[2]));
    let checked = run("mancala-validate", &["-q"], one.stdout.as_bytes());
    assert_eq!(checked.code, 0, "{}", checked.snapshot());
}

/// Openings from a file: each record continued from its end by both
/// engines, cycled; the SPRT stops the match at its bound, and says so.
#[test]
fn match_openings_from_records_and_the_sprt_stop() {
    let openings = run(
        "mancala-play",
        &["--games", "2", "--plies", "2", "--seed", "8"],
        b"",
    );
    let file = common::scratch("match-openings").join("openings.mgn");
    std::fs::write(&file, &openings.stdout).unwrap();
    let file = file.to_str().unwrap();
    let out = run(
        "mancala-play",
        &[
            "--pairs",
            "40",
            "--openings",
            file,
            "--south",
            "alphabeta:depth=3",
            "--north",
            "random",
            "--sprt",
            "elo0=0,elo1=200",
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.snapshot());
    assert!(out.stderr.contains("H1 accepted after"), "{}", out.stderr);
    let games = out.stdout.matches("[Game").count();
    assert!(games < 80 && games.is_multiple_of(2), "{games} games");
    // The first pair opens with the first record's two plies, the second
    // with the second's, the third with the first's again.
    let first_moves = |record: &str| -> String {
        let moves = record.split("\n\n").nth(1).unwrap();
        moves
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let given: Vec<&str> = openings.stdout.split("\n\n[Game").collect();
    let played: Vec<&str> = out.stdout.split("\n\n[Game").collect();
    assert_eq!(first_moves(played[0]), first_moves(given[0]));
    assert_eq!(first_moves(played[3]), first_moves(given[1]));
    assert_eq!(first_moves(played[4]), first_moves(given[0]));
    let checked = run("mancala-validate", &["-q"], out.stdout.as_bytes());
    assert_eq!(checked.code, 0, "{}", checked.snapshot());
    // An invalid opening is reported as the validator reports it and left
    // out; the match is played from the others, and exits 1.
    let mixed = common::scratch("match-openings").join("mixed.mgn");
    std::fs::write(
        &mixed,
        format!("[Game \"olowuka\"]\n\n1. A a a *\n\n{}", openings.stdout),
    )
    .unwrap();
    let out = run(
        "mancala-play",
        &[
            "--pairs",
            "2",
            "--openings",
            mixed.to_str().unwrap(),
            "--south",
            "greedy",
        ],
        b"",
    );
    assert_eq!(out.code, 1, "{}", out.snapshot());
    assert!(out.stderr.contains(":3:"), "{}", out.stderr);
    assert_eq!(out.stdout.matches("[Game").count(), 4);
}

/// A clock too short for the game: a move past it loses on time, the
/// record stays valid (unfinished, with the TimeForfeit tag), and the
/// summary counts it.
#[test]
fn match_losses_on_time_are_reported() {
    let out = run(
        "mancala-play",
        &[
            "--pairs",
            "2",
            "--south",
            "alphabeta:depth=12",
            "--north",
            "mcts:playouts=100000",
            "--tc",
            "0.002",
            "--time-margin",
            "0",
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.snapshot());
    let summary = match_summary(&out.stderr);
    let lost = summary["engines"][0]["time_losses"].as_u64().unwrap()
        + summary["engines"][1]["time_losses"].as_u64().unwrap();
    assert!(lost >= 1, "{summary}");
    assert!(out.stdout.contains("\"TimeForfeit\""), "{}", out.stdout);
    let checked = run("mancala-validate", &["-q"], out.stdout.as_bytes());
    assert_eq!(checked.code, 0, "{}", checked.snapshot());
    // A time control bounds every move: a deep search is not warned of.
    let deep = [
        "--pairs",
        "1",
        "--south",
        "alphabeta:depth=20",
        "--north",
        "greedy",
    ];
    let timed = run(
        "mancala-play",
        &[&deep[..], &["--tc", "st=0.01", "-q"]].concat(),
        b"",
    );
    assert_eq!(timed.code, 0, "{}", timed.snapshot());
    assert!(!timed.stderr.contains("may take hours"), "{}", timed.stderr);
    let bad = run("mancala-play", &["--pairs", "1", "--tc", "ten"], b"");
    assert_eq!(bad.code, 2, "{}", bad.snapshot());
    assert!(
        bad.stderr.contains("`ten` is not a number of seconds"),
        "{}",
        bad.stderr
    );
    for (tc, said) in [
        ("1e300", "`1e300`"),
        ("1e15+1e15", "`1e15`"),
        ("10+inf", "`inf`"),
    ] {
        let large = run("mancala-play", &["--pairs", "1", "--tc", tc], b"");
        assert_eq!(large.code, 2, "{}", large.snapshot());
        let message =
            format!("{said} seconds is too large (a time control is below 1000000000 seconds)");
        assert!(large.stderr.contains(&message), "{tc}: {}", large.stderr);
    }
    let human = run("mancala-play", &["--pairs", "1", "--south", "human"], b"");
    assert_eq!(human.code, 2, "{}", human.snapshot());
}
