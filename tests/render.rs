//! `mancala-render` end to end: diagrams of every game, the worked examples
//! of rules.md lap by lap, matches across a round boundary, both styles,
//! JSON frames, and errors.

use crate::common;

use common::run;

fn render(args: &[&str]) -> String {
    let out = run("mancala-render", args, b"");
    assert_eq!(out.code, 0, "{}", out.snapshot());
    for line in out.stdout.lines() {
        assert!(line.chars().count() <= 80, "wider than 80 columns: {line}");
    }
    out.snapshot()
}

#[test]
fn start_positions_of_every_variant() {
    let variants: &[(&str, &[&str])] = &[
        ("olinda-keliya", &[]),
        ("olinda-keliya", &["-o", "seeds=7"]),
        ("olowuka", &[]),
        ("pallankuzhi", &[]),
        ("pallankuzhi", &["-o", "seeds=4"]),
        ("rio-kadalis", &[]),
        ("rio-kadalis", &["-o", "five-holes", "-o", "clockwise"]),
    ];
    let mut all = String::new();
    for (game, options) in variants {
        for style in ["ascii", "unicode"] {
            let mut args = vec!["--game", game, "--style", style];
            args.extend_from_slice(options);
            all.push_str(&render(&args));
        }
    }
    insta::assert_snapshot!(all);
}

#[test]
fn example_1_olinda_keliya_opening_lap_by_lap() {
    insta::assert_snapshot!(render(&[
        "--game",
        "olinda-keliya",
        "--moves",
        "E:ccw",
        "--laps",
        "1"
    ]));
}

#[test]
fn example_2_olinda_keliya_mid_game_lap_by_lap() {
    insta::assert_snapshot!(render(&[
        "--game",
        "olinda-keliya",
        "--setup",
        "S 2,3,1,0,0,5,1/4,0,2,1,2,3,0 16-16 dir=ccw",
        "--moves",
        "F",
        "--laps",
        "1",
    ]));
}

#[test]
fn example_3_olowuka_grand_slam_lap_by_lap_in_unicode() {
    insta::assert_snapshot!(render(&[
        "--game",
        "olowuka",
        "--setup",
        "S 3,0,1,2,0,5/1,1,1,1,1,2 16-14",
        "--moves",
        "D",
        "--laps",
        "1",
        "--style",
        "unicode",
    ]));
}

#[test]
fn example_3_as_json_frames() {
    let out = run(
        "mancala-render",
        &[
            "--game",
            "olowuka",
            "--setup",
            "S 3,0,1,2,0,5/1,1,1,1,1,2 16-14",
            "--moves",
            "D",
            "--laps",
            "1",
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(out.code, 0);
    let value: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(value["frames"].as_array().unwrap().len(), 3);
    insta::assert_snapshot!(serde_json::to_string_pretty(&value).unwrap());
}

#[test]
fn pallankuzhi_match_across_a_round_boundary() {
    insta::assert_snapshot!(render(&[
        "--plies",
        "14..16",
        "fixtures/validate/valid-pallankuzhi.mgn"
    ]));
}

#[test]
fn rio_kadalis_match_round_two_with_closed_holes() {
    insta::assert_snapshot!(render(&[
        "--rounds",
        "3",
        "--plies",
        "..",
        "--style",
        "unicode",
        "fixtures/validate/valid-rio-kadalis.mgn"
    ]));
}

#[test]
fn after_ply_and_final_position() {
    let mut all = render(&["--ply", "0", "fixtures/validate/valid-olowuka.mgn"]);
    all.push_str(&render(&[
        "--ply",
        "5",
        "fixtures/validate/valid-olowuka.mgn",
    ]));
    all.push_str(&render(&["fixtures/validate/valid-olinda-keliya.mgn"]));
    insta::assert_snapshot!(all);
}

/// South to move with an empty row: over before its first move.
const OVER_AT_THE_START: &str = "[Game \"olowuka\"]\n[SetUp \"S 0,0,0,0,0,0/1,1,1,1,1,2 20-21\"]\n[Result \"20-28\"]\n[Termination \"no-moves\"]\n\n20-28\n";

#[test]
fn a_game_over_before_its_first_move_is_drawn_as_set_up() {
    let boards = |args: &[&str]| {
        let out = run("mancala-render", args, OVER_AT_THE_START.as_bytes());
        assert_eq!(out.code, 0, "{}", out.snapshot());
        let value: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
        let mut board = value["frames"][0]["board"].clone();
        let over = board["over"].take();
        (board, over)
    };
    let (shown, over) = boards(&["--format", "json", "-"]);
    let (set_up, _) = boards(&["--ply", "0", "--format", "json", "-"]);
    assert_eq!(shown, set_up, "the final frame is the set-up board");
    assert_eq!(shown["north"], serde_json::json!([1, 1, 1, 1, 1, 2]));
    assert_eq!(over, true);
    // A match whose round ends at once goes on: it is drawn with the next
    // round's refilled board, not its set-up.
    let goes_on = render(&["fixtures/validate/valid-pallankuzhi-cut-at-a-round-start.mgn"]);
    assert!(goes_on.contains("pallankuzhi  round 4"), "{goes_on}");
    let out = run("mancala-render", &["-"], OVER_AT_THE_START.as_bytes());
    assert_eq!(out.code, 0);
    insta::assert_snapshot!(out.snapshot());
}

#[test]
fn an_open_range_of_a_game_of_no_plies_draws_its_set_up() {
    // `..` asks for every ply there is: of a valid game of none, its
    // set-up, headed as the game stands; an explicit range beyond the
    // game is still nothing drawn, exit 1.
    let set_up = {
        let out = run(
            "mancala-render",
            &["--ply", "0", "--format", "json", "-"],
            OVER_AT_THE_START.as_bytes(),
        );
        assert_eq!(out.code, 0, "{}", out.snapshot());
        let value: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
        value["frames"][0]["board"]["north"].clone()
    };
    for range in ["..", "1.."] {
        let out = run(
            "mancala-render",
            &["--plies", range, "--format", "json", "-"],
            OVER_AT_THE_START.as_bytes(),
        );
        assert_eq!(out.code, 0, "{range}: {}", out.snapshot());
        let value: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
        let frames = value["frames"].as_array().unwrap();
        assert_eq!(frames.len(), 1, "{range}");
        assert_eq!(frames[0]["board"]["north"], set_up, "{range}");
        assert_eq!(frames[0]["board"]["over"], true, "{range}");
        let text = run(
            "mancala-render",
            &["--plies", range, "-"],
            OVER_AT_THE_START.as_bytes(),
        );
        assert!(
            text.stdout
                .contains("game over (no-moves): south 20 - north 28"),
            "{}",
            text.snapshot()
        );
    }
    for range in ["2..", "1..3"] {
        let out = run(
            "mancala-render",
            &["--plies", range, "-"],
            OVER_AT_THE_START.as_bytes(),
        );
        assert_eq!(out.code, 1, "{range}: {}", out.snapshot());
        assert!(
            out.stderr.contains("nothing in the plies asked for"),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn an_endless_move_lap_by_lap() {
    // Illegal, so exit 1 with the validator's error; drawn up to --max-laps
    // all the same, since that is how one sees why it never ends.
    let out = run(
        "mancala-render",
        &[
            "--game",
            "rio-kadalis",
            "--setup",
            "S 1,0,1,0,1,2/0,1,0,1,0,2 19-20",
            "--moves",
            "F",
            "--laps",
            "1",
            "--max-laps",
            "4",
        ],
        b"",
    );
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("is endless"));
    insta::assert_snapshot!(out.snapshot());
}

#[test]
fn invalid_games_are_reported_and_the_others_drawn() {
    let out = run(
        "mancala-render",
        &["fixtures/validate/mixed-stream.mgn"],
        b"",
    );
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stdout.matches("=== ").count(),
        3,
        "three valid games drawn"
    );
    insta::assert_snapshot!(out.snapshot());
}

#[test]
fn a_ply_that_does_not_exist() {
    let out = run(
        "mancala-render",
        &["--ply", "999", "fixtures/validate/valid-olowuka.mgn"],
        b"",
    );
    assert_eq!(out.code, 1);
    insta::assert_snapshot!(out.snapshot());
}

#[test]
fn a_page_at_a_ply_that_does_not_exist_is_refused_as_text_is() {
    let game = "fixtures/validate/valid-olowuka.mgn";
    let text = run("mancala-render", &["--ply", "999", game], b"");
    let page = run(
        "mancala-render",
        &["--format", "html", "--ply", "999", game],
        b"",
    );
    assert_eq!(page.code, 1, "{}", page.snapshot());
    assert!(page.stdout.is_empty(), "no page");
    assert_eq!(page.stderr, text.stderr);
    assert!(
        page.stderr
            .contains("there is no ply 999: the game has 25 plies")
    );
    let last = run(
        "mancala-render",
        &["--format", "html", "--ply", "25", game],
        b"",
    );
    assert_eq!(last.code, 0, "{}", last.snapshot());
}

#[test]
fn colour_only_when_asked() {
    let plain = run(
        "mancala-render",
        &["--plies", "1", "fixtures/validate/valid-olowuka.mgn"],
        b"",
    );
    assert!(!plain.stdout.contains('\x1b'));
    let coloured = run(
        "mancala-render",
        &[
            "--plies",
            "1",
            "--color",
            "always",
            "fixtures/validate/valid-olowuka.mgn",
        ],
        b"",
    );
    assert!(coloured.stdout.contains('\x1b'));
}

/// `--laps` names a move: ply 0 (the start) is a usage error, not a
/// complaint about every game.
#[test]
fn laps_of_ply_zero_is_a_usage_error() {
    let out = run(
        "mancala-render",
        &["--laps", "0", "fixtures/validate/valid-olowuka.mgn"],
        b"",
    );
    assert_eq!(out.code, 2);
    assert!(out.stdout.is_empty());
    assert!(out.stderr.contains("plies count from 1"), "{}", out.stderr);
}

/// `--ply N` draws the settled position after ply N: after a round's end
/// the next round's refilled board, after the game's end the rows' seeds
/// taken; the heading says what the ply ended, as `--plies` does.
#[test]
fn after_a_ply_that_ends_a_round_or_the_match() {
    let file = "fixtures/validate/valid-pallankuzhi-rounds.mgn";
    let both = std::fs::read_to_string(common::root().join(file)).unwrap();
    // The first of its games, whose ply 32 ends the match.
    let second = both.match_indices("[Game ").nth(1).unwrap().0;
    let text = &both.as_bytes()[..second];
    let mut all = String::new();
    for ply in ["17", "32"] {
        let out = run("mancala-render", &["--ply", ply, "-"], text);
        assert_eq!(out.code, 0, "{}", out.snapshot());
        all.push_str(&out.snapshot());
    }
    assert!(all.contains("round 1 over (no-moves)"), "{all}");
    assert!(all.contains("round 2 begins, refilled"), "{all}");
    assert!(all.contains("match over after round 2"), "{all}");
    insta::assert_snapshot!(all);
}

#[test]
fn matches_that_rounds_n_ends() {
    // The heading says the match is over after its last round, and the
    // title which round of how many the board is in.
    // From stdin: the files' names and players make headers over 80
    // columns.
    let stdin = |args: &[&str], file: &str| {
        let text = std::fs::read(common::root().join(file)).unwrap();
        let out = run("mancala-render", args, &text);
        assert_eq!(out.code, 0, "{}", out.snapshot());
        assert!(out.stdout.lines().all(|l| l.chars().count() <= 80));
        out.snapshot()
    };
    let pallankuzhi = "fixtures/validate/valid-pallankuzhi-rounds.mgn";
    let mut all = stdin(&["-"], pallankuzhi);
    all.push_str(&stdin(
        &["-"],
        "fixtures/validate/valid-rio-kadalis-rounds.mgn",
    ));
    all.push_str(&stdin(&["--plies", "27..", "-"], pallankuzhi));
    assert_eq!(all.matches("match over after round").count(), 5, "{all}");
    assert!(all.contains("round 2 of 2"), "{all}");
    assert!(all.contains("a drawn match"), "{all}");
    insta::assert_snapshot!(all);
}

/// `--max-errors N` stops the drawing at the Nth invalid game, says so
/// and exits 1; JSON records are drawn as MGN ones are.
#[test]
fn max_errors_stops_the_drawing() {
    let file = "fixtures/validate/mixed-stream.jsonl";
    let out = run("mancala-render", &["--max-errors", "2", file], b"");
    assert_eq!(out.code, 1, "{}", out.snapshot());
    assert_eq!(out.stdout.matches("=== fixtures/validate/").count(), 1);
    assert!(
        out.stderr.trim_end().ends_with(
            "stopped after 2 invalid games (--max-errors 2): 3 games checked; the rest of the input was not checked"
        ),
        "{}",
        out.stderr
    );
    let all = run("mancala-render", &[file], b"");
    assert_eq!(all.code, 1);
    assert_eq!(all.stdout.matches("=== fixtures/validate/").count(), 3);
}

#[test]
fn a_finished_game_marks_nobody_to_move() {
    // The last position of a finished game, in each selection that draws
    // it, and in the JSON frames: `over`, and no side to move.
    let file = "fixtures/validate/valid-olowuka.mgn";
    let final_text = run("mancala-render", &[file], b"");
    assert_eq!(final_text.code, 0, "{}", final_text.snapshot());
    assert!(final_text.stdout.contains("game over"));
    assert!(
        !final_text.stdout.contains("to move"),
        "{}",
        final_text.stdout
    );
    let json = run(
        "mancala-render",
        &["--plies", "..", "--format", "json", file],
        b"",
    );
    assert_eq!(json.code, 0, "{}", json.snapshot());
    let game: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    let frames = game["frames"].as_array().unwrap();
    let (last, earlier) = frames.split_last().unwrap();
    assert_eq!(last["board"]["over"], true, "{last}");
    assert!(earlier.iter().all(|f| f["board"].get("over").is_none()));
    let text = run("mancala-render", &["--plies", "..", file], b"");
    let last_frame = text.stdout.rsplit("ply ").next().unwrap();
    assert!(!last_frame.contains("to move"), "{last_frame}");
    assert!(text.stdout.contains("to move"));
}

#[test]
fn a_ply_lists_the_variations_after_it() {
    // Each game's ply 2 has one variation, whose nested variation is left
    // to --variation; a variation's evaluation, when it has one, follows
    // its name.
    let file = "fixtures/validate/valid-annotated.mgn";
    let out = run("mancala-render", &["--plies", "2", file], b"");
    assert_eq!(out.code, 0, "{}", out.snapshot());
    let lines: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("variation "))
        .collect();
    assert_eq!(
        lines,
        [
            "variation 2.1: a+1 C+2 a+8",
            "variation 2.1: a+2 A+0 a+0",
            "variation 2.1: b+20 A+5 a+31",
            "variation 2.1: a+4 A+0 a+4",
        ]
    );
    let analysed = "[Game \"olowuka\"]\n[Result \"*\"]\n\n1. F? {[%eval -2,4]} ( 1. C {[%eval +1,4]} 1... f 2. F a ) *\n";
    let out = run(
        "mancala-render",
        &["--plies", "1", "-"],
        analysed.as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.snapshot());
    assert!(
        out.stdout
            .contains("\nvariation 1.1 (eval +1,4): C f F a\n"),
        "{}",
        out.stdout
    );
    // The same lines in the JSON frames' headings.
    let json = run(
        "mancala-render",
        &["--plies", "1", "--format", "json", "-"],
        analysed.as_bytes(),
    );
    assert!(
        json.stdout
            .contains("\"variation 1.1 (eval +1,4): C f F a\""),
        "{}",
        json.stdout
    );
}

/// A ply's heading shows its marks as the canonical record writes them
/// (`!` right after the move glued to it, `$14` a token of its own), then
/// its evaluation's line.
#[test]
fn headings_show_marks_and_the_eval_line() {
    let record = "[Game \"olowuka\"]\n\n1. C? c $14 2. A ! {good} $7 {[%eval -1,2]} *\n";
    let out = run("mancala-render", &["--plies", "..", "-"], record.as_bytes());
    assert_eq!(out.code, 0, "{}", out.snapshot());
    let headings: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("ply ") || l.starts_with("eval "))
        .collect();
    assert_eq!(
        headings,
        [
            "ply 1: C?  no capture  [5 laps]",
            "ply 2: c $14  +3: C (3)  [1 lap]",
            "ply 3: A! $7  no capture  [2 laps]",
            "eval -1,2: south 1 seed behind at the end, searched 2 plies deep",
        ]
    );
    let out = run("mancala-render", &["--ply", "1", "-"], record.as_bytes());
    assert!(out.stdout.contains("after ply 1: C?\n"), "{}", out.stdout);
}
