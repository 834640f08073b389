//! The tools chained the way users chain them, with real pipes between real
//! processes: `mancala-play … | mancala-validate | mancala-render`, NDJSON
//! verdicts of played games, a record made illegal in the middle of a
//! stream, readers that go away early (`| head -3`), and the end rules —
//! endless moves and repetition — seen the same way by all three tools.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use common::{command, root, run};
use serde_json::Value;

fn read_all(mut from: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = from.read_to_string(&mut text);
        text
    })
}

/// Waits for a child, failing the test if it takes more than a minute.
fn wait(child: &mut Child, what: &str) -> ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("{what} did not finish within a minute");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// What a pipeline produced: each stage's exit code and stderr, and the
/// last stage's stdout.
struct Piped {
    codes: Vec<i32>,
    stderr: Vec<String>,
    stdout: String,
}

/// Runs `stage | stage | …` with OS pipes between the processes, the first
/// stage reading `stdin`.
fn pipeline(stages: &[(&str, &[&str])], stdin: &[u8]) -> Piped {
    let mut children: Vec<Child> = Vec::new();
    let mut stderrs = Vec::new();
    for (i, (name, args)) in stages.iter().enumerate() {
        let input = match children.last_mut() {
            Some(previous) => Stdio::from(previous.stdout.take().unwrap()),
            None => Stdio::piped(),
        };
        let mut child = command(name, args)
            .stdin(input)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {name}: {e}"));
        stderrs.push(read_all(child.stderr.take().unwrap()));
        if i == 0 {
            let mut first = child.stdin.take().unwrap();
            let data = stdin.to_vec();
            std::thread::spawn(move || {
                let _ = first.write_all(&data);
            });
        }
        children.push(child);
    }
    let stdout = read_all(children.last_mut().unwrap().stdout.take().unwrap());
    let codes = children
        .iter_mut()
        .zip(stages)
        .map(|(child, (name, _))| wait(child, name).code().unwrap_or(-1))
        .collect();
    Piped {
        codes,
        stderr: stderrs.into_iter().map(|h| h.join().unwrap()).collect(),
        stdout: stdout.join().unwrap(),
    }
}

fn verdicts(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// `=== <stdin>: game N…` headings of mancala-render's text output.
fn drawn_games(text: &str) -> Vec<usize> {
    text.lines()
        .filter_map(|l| l.strip_prefix("=== <stdin>: game "))
        .map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().unwrap()
        })
        .collect()
}

#[test]
fn play_validate_render_as_in_the_readme() {
    let out = pipeline(
        &[
            (
                "mancala-play",
                &["--games", "3", "--south", "alphabeta", "--north", "greedy"],
            ),
            ("mancala-validate", &[]),
            ("mancala-render", &[]),
        ],
        b"",
    );
    assert_eq!(out.codes, [0, 0, 0], "{:?}", out.stderr);
    assert_eq!(drawn_games(&out.stdout), [1, 2, 3]);
    assert_eq!(out.stdout.matches("game over (").count(), 3);
    assert!(
        out.stderr[0].starts_with("3 games: south (alphabeta"),
        "{}",
        out.stderr[0]
    );
    assert!(out.stderr[1].starts_with("checked 3 games: 3 valid, 0 invalid ("));
    assert!(out.stderr[2].is_empty(), "{}", out.stderr[2]);
}

/// Analysis slots into the pipeline: its records validate again (the
/// evaluation comments included) and render as the played ones do.
#[test]
fn play_validate_analyze_validate_render() {
    for game in ["olowuka", "olinda-keliya", "rio-kadalis", "pallankuzhi"] {
        let play: &[&str] = &[
            "--game",
            game,
            "--games",
            "2",
            "--south",
            "greedy",
            "--north",
            "random",
            "-o",
            if game == "pallankuzhi" || game == "rio-kadalis" {
                "rounds=1"
            } else {
                ""
            },
        ];
        let play: Vec<&str> = play.iter().copied().filter(|a| !a.is_empty()).collect();
        let play = if play.last() == Some(&"-o") {
            &play[..play.len() - 1]
        } else {
            &play[..]
        };
        let out = pipeline(
            &[
                ("mancala-play", play),
                ("mancala-validate", &[]),
                ("mancala-analyze", &["--depth", "3"]),
                ("mancala-validate", &[]),
                ("mancala-render", &[]),
            ],
            b"",
        );
        assert_eq!(out.codes, [0, 0, 0, 0, 0], "{game}: {:?}", out.stderr);
        assert_eq!(drawn_games(&out.stdout), [1, 2], "{game}");
        assert_eq!(
            out.stderr[2].lines().count(),
            3,
            "{game}: {}",
            out.stderr[2]
        );
        assert!(
            out.stderr[3].starts_with("checked 2 games: 2 valid, 0 invalid ("),
            "{game}: {}",
            out.stderr[3]
        );
    }
}

#[test]
fn every_game_and_variant_through_the_pipeline() {
    let cases: [&[&str]; 8] = [
        &["--game", "olowuka"],
        &["--game", "olinda-keliya"],
        &["--game", "olinda-keliya", "-o", "seeds=7 series-capture"],
        &["--game", "pallankuzhi"],
        &["--game", "pallankuzhi", "-o", "seeds=4 capture-opposite"],
        &["--game", "rio-kadalis"],
        &["--game", "rio-kadalis", "-o", "five-holes clockwise"],
        &["--game", "olowuka", "-o", "endless-ends-game skip-origin"],
    ];
    for game in cases {
        let mut play = vec!["--games", "4", "--seed", "11", "-q"];
        play.extend_from_slice(game);
        let out = pipeline(
            &[
                ("mancala-play", &play),
                ("mancala-validate", &[]),
                ("mancala-render", &["--style", "unicode"]),
            ],
            b"",
        );
        assert_eq!(out.codes, [0, 0, 0], "{game:?}: {:?}", out.stderr);
        assert_eq!(drawn_games(&out.stdout), [1, 2, 3, 4], "{game:?}");
        assert!(out.stdout.contains('┌') || out.stdout.contains('╭') || out.stdout.contains('─'));
    }
}

#[test]
fn played_games_get_one_json_verdict_each() {
    const GAMES: usize = 60;
    for game in ["olowuka", "olinda-keliya", "pallankuzhi", "rio-kadalis"] {
        let n = GAMES.to_string();
        let out = pipeline(
            &[
                (
                    "mancala-play",
                    &["--game", game, "--games", &n, "--seed", "5"],
                ),
                ("mancala-validate", &["--format", "json"]),
            ],
            b"",
        );
        assert_eq!(out.codes, [0, 0], "{:?}", out.stderr);
        let verdicts = verdicts(&out.stdout);
        assert_eq!(verdicts.len(), GAMES, "one verdict per game");
        let mut plies = 0;
        for (i, v) in verdicts.iter().enumerate() {
            assert_eq!(v["index"], i + 1);
            assert_eq!(v["valid"], true, "{v}");
            assert_eq!(v["game"], game);
            plies += v["plies"].as_u64().unwrap();
        }
        assert_eq!(
            out.stderr[1],
            format!(
                "{{\"games\":{GAMES},\"valid\":{GAMES},\"invalid\":0,\"plies\":{plies},\"unreadable_inputs\":0}}\n"
            )
        );
    }
}

/// `mancala-play --format json | mancala-validate`: the JSON records read
/// as the MGN of the same games does (the same canonical MGN out), for
/// every game; a jq-like filter between them (keeping some records,
/// pretty-printed) changes nothing but which games come; `mancala-play`
/// continues JSON records and `mancala-render` draws them.
#[test]
fn play_json_into_validate_render_and_play() {
    for game in ["olowuka", "olinda-keliya", "pallankuzhi", "rio-kadalis"] {
        let play = ["--game", game, "--games", "6", "--seed", "4", "-q"];
        let as_text = pipeline(&[("mancala-play", &play), ("mancala-validate", &[])], b"");
        let mut json_play = play.to_vec();
        json_play.extend(["--format", "json"]);
        let as_json = pipeline(
            &[("mancala-play", &json_play), ("mancala-validate", &[])],
            b"",
        );
        assert_eq!(as_json.codes, [0, 0], "{game}: {:?}", as_json.stderr);
        assert_eq!(as_json.stdout, as_text.stdout, "{game}");
        assert!(as_json.stderr[1].starts_with("checked 6 games: 6 valid"));
        // `jq 'select(.result != "*")'`, done here: the odd-numbered
        // records, each printed over many lines as jq prints them.
        let records = run("mancala-play", &json_play, b"").stdout;
        let selected: String = records
            .lines()
            .step_by(2)
            .map(|line| {
                let value: Value = serde_json::from_str(line).unwrap();
                serde_json::to_string_pretty(&value).unwrap() + "\n"
            })
            .collect();
        let checked = run(
            "mancala-validate",
            &["--format", "json"],
            selected.as_bytes(),
        );
        assert_eq!(checked.code, 0, "{}", checked.stderr);
        let rounds: Vec<Value> = verdicts(&checked.stdout)
            .iter()
            .map(|v| v["tags"]["round"].clone())
            .collect();
        assert_eq!(rounds, ["1", "3", "5"], "{game}");
    }
    // Continued and drawn from JSON as from MGN.
    let cut = ["--games", "2", "--plies", "6", "--seed", "8", "-q"];
    let mut cut_json = cut.to_vec();
    cut_json.extend(["--format", "json"]);
    for (next, args) in [
        ("mancala-play", &["--plies", "4", "-q", "-"][..]),
        ("mancala-render", &[][..]),
    ] {
        let from_text = pipeline(&[("mancala-play", &cut), (next, args)], b"");
        let from_json = pipeline(&[("mancala-play", &cut_json), (next, args)], b"");
        assert_eq!(from_json.codes, [0, 0], "{next}: {:?}", from_json.stderr);
        assert_eq!(from_json.stdout, from_text.stdout, "{next}");
        assert!(!from_json.stdout.is_empty());
    }
}

/// Five games played, the third one's first move changed to North's hole
/// (South is to move): one game in the middle of the stream is illegal.
fn stream_with_an_illegal_game() -> String {
    let played = run("mancala-play", &["--games", "5", "--seed", "9", "-q"], b"");
    assert_eq!(played.code, 0);
    let mut games: Vec<String> = played
        .stdout
        .split("\n\n[Game")
        .enumerate()
        .map(|(i, g)| {
            if i == 0 {
                g.to_owned()
            } else {
                format!("[Game{g}")
            }
        })
        .collect();
    assert_eq!(games.len(), 5);
    let at = games[2].find("\n1. ").unwrap() + 4;
    let hole = games[2].as_bytes()[at];
    assert!(hole.is_ascii_uppercase());
    games[2].replace_range(at..=at, &(hole.to_ascii_lowercase() as char).to_string());
    games.join("\n\n")
}

#[test]
fn an_illegal_record_in_the_middle_of_a_stream() {
    let stream = stream_with_an_illegal_game();
    // JSON: five verdicts, the third invalid.
    let json = run("mancala-validate", &["--format", "json"], stream.as_bytes());
    assert_eq!(json.code, 1);
    let verdicts = verdicts(&json.stdout);
    let valid: Vec<bool> = verdicts.iter().map(|v| v["valid"] == true).collect();
    assert_eq!(valid, [true, true, false, true, true]);
    assert_eq!(verdicts[2]["errors"][0]["kind"], "move");
    let message = verdicts[2]["errors"][0]["message"].as_str().unwrap();
    assert!(message.starts_with("illegal move "), "{message}");
    assert!(message.contains("(ply 1, south to move)"), "{message}");
    // Text through the whole pipeline: validate passes four games on and
    // reports the third; render draws the four.
    let out = pipeline(
        &[("mancala-validate", &[]), ("mancala-render", &[])],
        stream.as_bytes(),
    );
    assert_eq!(out.codes, [1, 0], "{:?}", out.stderr);
    assert!(out.stderr[0].contains("<stdin>:"), "{}", out.stderr[0]);
    assert!(
        out.stderr[0].contains(": error: illegal move "),
        "{}",
        out.stderr[0]
    );
    assert!(out.stderr[0].contains("checked 5 games: 4 valid, 1 invalid ("));
    assert_eq!(drawn_games(&out.stdout), [1, 2, 3, 4]);
    // Render and play on the edited stream itself: the others are still
    // drawn and continued.
    let render = run("mancala-render", &[], stream.as_bytes());
    assert_eq!(render.code, 1);
    assert_eq!(drawn_games(&render.stdout), [1, 2, 4, 5]);
    assert_eq!(render.stderr.matches(": error: illegal move ").count(), 1);
    let play = run("mancala-play", &["-", "--plies", "0"], stream.as_bytes());
    assert_eq!(play.code, 1);
    assert_eq!(play.stdout.matches("[Game ").count(), 4);
    assert_eq!(play.stderr.matches(": error: illegal move ").count(), 1);
}

/// Runs a tool with its stdout on a pipe that the test closes after
/// reading `lines` lines, like `| head -3`. Returns the lines, the exit
/// status and everything the tool wrote to stderr.
fn head(
    name: &str,
    args: &[&str],
    stdin: Option<Vec<u8>>,
    lines: usize,
) -> (Vec<String>, i32, String) {
    let mut child = command(name, args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let writer = stdin.map(|data| {
        let mut pipe = child.stdin.take().unwrap();
        // The tool stops reading when its reader goes away.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&data);
        })
    });
    let stderr = read_all(child.stderr.take().unwrap());
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut read = Vec::new();
    for _ in 0..lines {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        read.push(line.trim_end().to_owned());
    }
    drop(reader);
    let status = wait(&mut child, name);
    if let Some(writer) = writer {
        writer.join().unwrap();
    }
    (read, status.code().unwrap_or(-1), stderr.join().unwrap())
}

/// Enough short games that no tool's output fits in a pipe's buffer.
fn many_games(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| {
            format!(
                "[Game \"olowuka\"]\n[Round \"{}\"]\n\n1. D b 2. C c *\n\n",
                i + 1
            )
        })
        .collect::<String>()
        .into_bytes()
}

#[test]
fn play_into_a_closed_pipe_exits_quietly() {
    for format in ["text", "json"] {
        let (lines, code, stderr) = head(
            "mancala-play",
            &["--games", "1000", "--format", format],
            None,
            3,
        );
        assert_eq!(code, 0, "{format}: {stderr}");
        assert_eq!(stderr, "", "{format}: no panic, no message");
        if format == "text" {
            assert_eq!(
                lines,
                [
                    "[Game \"olowuka\"]",
                    "[Event \"mancala-play\"]",
                    "[Round \"1\"]"
                ]
            );
        }
    }
    // Continuing records (from stdin) into a closed pipe.
    let (_, code, stderr) = head(
        "mancala-play",
        &["-", "--plies", "2"],
        Some(many_games(20_000)),
        3,
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
}

#[test]
fn validate_into_a_closed_pipe_exits_quietly() {
    let input = many_games(20_000);
    for args in [
        vec![],
        vec!["--format", "json"],
        vec!["--jobs", "1"],
        vec!["--jobs", "2", "--format", "json"],
    ] {
        let (lines, code, stderr) = head("mancala-validate", &args, Some(input.clone()), 3);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}: no panic, no summary");
        if args.is_empty() {
            assert_eq!(
                lines,
                ["[Game \"olowuka\"]", "[Round \"1\"]", "[Result \"*\"]"]
            );
        }
    }
}

#[test]
fn render_into_a_closed_pipe_exits_quietly() {
    let input = many_games(5_000);
    for args in [vec![], vec!["--format", "json"], vec!["--plies", ".."]] {
        let (lines, code, stderr) = head("mancala-render", &args, Some(input.clone()), 3);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
        if args.is_empty() {
            assert_eq!(lines[0], "=== <stdin>: game 1 ===");
        }
    }
}

/// A record's last move taken off, so that a tool must find the end itself.
fn without_last_move(record: &str, last: &str, result: &str) -> String {
    let cut = record.rfind(last).unwrap();
    let head = &record[..cut];
    let head = head.replace(&format!("[Result \"{result}\"]"), "[Result \"*\"]");
    let head: String = head
        .lines()
        .filter(|l| !l.starts_with("[Termination"))
        .map(|l| format!("{l}\n"))
        .collect();
    format!("{} *\n", head.trim_end())
}

/// Runs each command, checks its exit code (and that nothing panicked),
/// and writes them all one after the other: command line, exit code,
/// stdout and stderr, for one snapshot.
fn transcript(runs: &[(&str, Vec<&str>, i32)]) -> String {
    let mut snapshot = String::new();
    for (name, args, code) in runs {
        let out = run(name, args, b"");
        assert_eq!(out.code, *code, "{}", out.snapshot());
        assert!(!out.stderr.contains("panicked"));
        snapshot.push_str(&format!(
            "$ {name} {}\n{}\n",
            args.join(" "),
            out.snapshot()
        ));
    }
    snapshot
}

#[test]
fn a_repetition_draw_in_all_three_tools() {
    let file = "fixtures/adversarial/repetition-draw.mgn";
    let snapshot = transcript(&[
        ("mancala-validate", vec!["--format", "json", file], 0),
        ("mancala-render", vec![file], 0),
        ("mancala-render", vec!["--ply", "14", file], 0),
        ("mancala-play", vec![file], 0),
        ("mancala-play", vec![file, "--format", "json"], 0),
    ]);
    let render = run("mancala-render", &[file], b"");
    assert!(
        render
            .stdout
            .contains("game over (repetition): south 28 - north 28")
    );
    assert!(render.stdout.contains("a draw"));
    // mancala-play continuing the finished game writes it as it is.
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let record = &text[text.find("[Game").unwrap()..];
    let play = run("mancala-play", &[file], b"");
    assert_eq!(play.stdout, record);
    // Without its last move the game is unfinished; playing that move,
    // mancala-play finds the repetition itself and ends the game.
    let cut = without_last_move(record, "C\n28-28", "28-28");
    let unfinished = run("mancala-validate", &["--format", "json"], cut.as_bytes());
    assert_eq!(unfinished.code, 0, "{}", unfinished.snapshot());
    assert!(!unfinished.stdout.contains("\"end\""));
    let played = run(
        "mancala-play",
        &["-", "--moves", "C", "--plies", "0"],
        cut.as_bytes(),
    );
    assert_eq!(played.code, 0, "{}", played.snapshot());
    // (mancala-play may note in a tag of its own how it continued the game.)
    let own_tags = |text: &str| -> String {
        text.lines()
            .filter(|l| !l.starts_with("[Continued "))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    assert_eq!(own_tags(&played.stdout), record);
    // With no-repetition-rule the same moves do not end the game.
    let no_rule = record.replacen("[Event", "[Options \"no-repetition-rule\"]\n[Event", 1);
    let out = run(
        "mancala-validate",
        &["--format", "json"],
        no_rule.as_bytes(),
    );
    assert_eq!(out.code, 1);
    let v = &verdicts(&out.stdout)[0];
    assert_eq!(v["errors"][0]["kind"], "result");
    assert_eq!(
        v["errors"][0]["message"],
        "the record claims the result 28-28, but the game is not over"
    );
    insta::assert_snapshot!(snapshot);
}

#[test]
fn endless_moves_in_all_three_tools() {
    let illegal = "fixtures/validate/illegal-endless-move.mgn";
    let ends = "fixtures/validate/endless-ends-game.mgn";
    let snapshot = transcript(&[
        ("mancala-validate", vec!["--format", "json", illegal], 1),
        ("mancala-render", vec![illegal], 1),
        ("mancala-play", vec![illegal], 1),
        ("mancala-validate", vec!["--format", "json", ends], 0),
        ("mancala-render", vec![ends], 0),
        (
            "mancala-render",
            vec!["--laps", "1", "--max-laps", "3", ends],
            0,
        ),
        ("mancala-render", vec!["--plies", "..", ends], 0),
        ("mancala-play", vec![ends], 0),
    ]);
    // The endless move refused by all three tools…
    let validate = run("mancala-validate", &[illegal], b"");
    let render = run("mancala-render", &[illegal], b"");
    let play = run("mancala-play", &[illegal], b"");
    for out in [&validate, &render, &play] {
        assert!(
            out.stderr
                .contains("illegal move F (ply 1, south to move): move F is endless"),
            "{}",
            out.stderr
        );
    }
    // …and, under endless-ends-game, played by mancala-play to the end.
    let text = std::fs::read_to_string(root().join(ends)).unwrap();
    let cut = without_last_move(&text, "1. F", "41-43");
    let played = run(
        "mancala-play",
        &["-", "--moves", "F", "--plies", "0", "--format", "json"],
        cut.as_bytes(),
    );
    assert_eq!(played.code, 0, "{}", played.snapshot());
    let record: Value = serde_json::from_str(&played.stdout).unwrap();
    assert_eq!(record["result"], "41-43");
    assert_eq!(record["termination"], "endless-move");
    // Without the option, --moves F is refused.
    let plain = cut.replace("endless-ends-game ", "");
    let refused = run("mancala-play", &["-", "--moves", "F"], plain.as_bytes());
    assert_eq!(refused.code, 1, "{}", refused.snapshot());
    assert!(refused.stderr.contains("is endless"), "{}", refused.stderr);
    insta::assert_snapshot!(snapshot);
}

#[test]
fn render_plies_says_when_a_game_ends() {
    let record = std::fs::read(root().join("fixtures/adversarial/repetition-draw.mgn")).unwrap();
    let out = run("mancala-render", &["--plies", "15"], &record);
    assert_eq!(out.code, 0, "{}", out.snapshot());
    // As `mancala-render` without --plies says, and as matches do per round.
    assert!(
        out.stdout.contains("game over (repetition)"),
        "{}",
        out.stdout
    );
}

/// With one worker or two, a verdict leaves as soon as its game is known
/// to be whole (here the next game's first line has come too), not when
/// the input ends: a pipeline from a slow player shows each game as it is
/// played.
#[test]
fn verdicts_follow_a_slow_input() {
    for jobs in ["1", "2"] {
        verdicts_follow_a_slow_input_with(jobs);
    }
}

fn verdicts_follow_a_slow_input_with(jobs: &str) {
    let games = run("mancala-play", &["--games", "3", "--seed", "5"], b"").stdout;
    let starts: Vec<usize> = games.match_indices("[Game ").map(|(i, _)| i).collect();
    assert_eq!(starts.len(), 3);
    let mut child = command("mancala-validate", &["--format", "json", "--jobs", jobs])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (line_tx, line_rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let _ = line_tx.send(line.unwrap());
        }
    });
    // Each game and the next one's first line (which ends it); the input
    // stays open.
    let line_end = |at: usize| at + games[at..].find('\n').unwrap() + 1;
    let mut written = 0;
    for i in 0..starts.len() {
        let end = starts
            .get(i + 1)
            .map_or(games.len(), |&next| line_end(next));
        stdin.write_all(&games.as_bytes()[written..end]).unwrap();
        written = end;
        stdin.flush().unwrap();
        if i + 1 < starts.len() {
            let line = line_rx
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| {
                    panic!(
                        "--jobs {jobs}: no verdict for game {} while the input is open",
                        i + 1
                    )
                });
            let verdict: Value = serde_json::from_str(&line).unwrap();
            assert_eq!(verdict["index"], i + 1);
        }
    }
    drop(stdin);
    let last = line_rx.recv_timeout(Duration::from_secs(20)).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&last).unwrap()["index"], 3);
    assert!(wait(&mut child, "mancala-validate").success());
}

/// A game is complete at its result: behind a pipe that pauses right after
/// it, every tool that reads records writes game 1 before game 2 is
/// written (the input stays open, nothing of game 2 has come). The pause
/// lasts until game 1's output is seen, at most 20 s: a tool that waits for
/// the next game fails the test rather than hang it.
#[test]
fn each_game_goes_out_at_its_result_behind_a_pause() {
    const FIRST: &[u8] =
        b"[Game \"olowuka\"]\n[South \"a\"]\n\n1. D b 2. C {a remark} *\n{after}\n";
    const SECOND: &[u8] = b"\n[Game \"olowuka\"]\n\n1. E *\n";
    let runs: [(&str, &[&str], &str, &str); 7] = [
        ("mancala-validate", &["--jobs", "1"], "1. D b 2. C", "1. E"),
        ("mancala-validate", &["--jobs", "2"], "1. D b 2. C", "1. E"),
        (
            "mancala-validate",
            &["--jobs", "1", "--format", "json"],
            "\"index\":1",
            "\"index\":2",
        ),
        (
            "mancala-render",
            &["--color", "never"],
            "=== <stdin>: game 1 ===",
            "=== <stdin>: game 2 ===",
        ),
        (
            "mancala-analyze",
            &["--depth", "1", "--jobs", "1"],
            "1. D",
            "1. E",
        ),
        (
            "mancala-analyze",
            &["--depth", "1", "--jobs", "2"],
            "1. D",
            "1. E",
        ),
        (
            "mancala-play",
            &["-", "--plies", "0"],
            "1. D b 2. C",
            "1. E",
        ),
    ];
    for (tool, args, first, second) in runs {
        let mut child = command(tool, args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let (line_tx, line_rx) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let _ = line_tx.send(line.unwrap());
            }
        });
        stdin.write_all(FIRST).unwrap();
        stdin.flush().unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut seen = Vec::new();
        while !seen.iter().any(|l: &String| l.contains(first)) {
            let left = deadline.saturating_duration_since(Instant::now());
            match line_rx.recv_timeout(left) {
                Ok(line) => seen.push(line),
                Err(_) => {
                    let _ = child.kill();
                    panic!("{tool} {args:?}: game 1 not out while the input pauses: {seen:?}");
                }
            }
        }
        assert!(!seen.iter().any(|l| l.contains(second)), "{tool}: {seen:?}");
        stdin.write_all(SECOND).unwrap();
        drop(stdin);
        assert!(wait(&mut child, tool).success(), "{tool} {args:?}");
        let rest: Vec<String> = line_rx.iter().collect();
        assert!(
            rest.iter().any(|l| l.contains(second)),
            "{tool} {args:?}: {rest:?}"
        );
    }
}

/// The rules fixes of one review, through all three tools: Rio Kadalis's
/// empty hole judged when the last stone drops, the turn passing after an
/// endless move under endless-ends-game (and render drawing that game's
/// board as the move left it), a rightly named direction accepted and left
/// out canonically, closed holes in a game of one round.
#[test]
fn rules_fixes_in_all_three_tools() {
    let empty = "fixtures/validate/valid-rio-kadalis-empty-hole-at-the-drop.mgn";
    let endless = "fixtures/validate/endless-ends-game-turn-passes.mgn";
    let named = "fixtures/validate/valid-direction-named-where-fixed.mgn";
    let closed = "fixtures/validate/valid-single-round-closed-holes.mgn";
    let snapshot = transcript(&[
        (
            "mancala-validate",
            vec!["--format", "json", empty, endless],
            0,
        ),
        (
            "mancala-render",
            vec!["--format", "json", "--ply", "1", empty],
            0,
        ),
        ("mancala-render", vec![endless], 0),
        ("mancala-render", vec!["--plies", "..", endless], 0),
        ("mancala-play", vec!["--plies", "0", empty], 0),
        ("mancala-play", vec!["--plies", "0", endless], 0),
        ("mancala-validate", vec![named], 0),
        ("mancala-play", vec!["--plies", "0", named], 0),
        ("mancala-validate", vec!["--format", "json", closed], 0),
        ("mancala-render", vec!["--plies", "1", closed], 0),
    ]);
    // The positions rules.md's examples give, in the validator's verdicts.
    let verdicts = run(
        "mancala-validate",
        &["--format", "json", empty, endless],
        b"",
    );
    let positions: Vec<String> = verdicts
        .stdout
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            v["position"].as_str().unwrap().to_owned()
        })
        .collect();
    assert!(positions[0].starts_with("N 1,0,1,3,3,0/3,3,0,3,3,0 16-12"));
    assert!(positions[1].starts_with("S 0,0,1,0,1/x,x,x,x,2 32-4 round=2"));
    // Render's final board of the game ended by the endless move: as it
    // was, North to move.
    let drawn = run("mancala-render", &["--format", "json", endless], b"");
    let first: serde_json::Value =
        serde_json::from_str(drawn.stdout.lines().next().unwrap()).unwrap();
    let board = &first["frames"][0]["board"];
    assert_eq!(board["south"], serde_json::json!([1, 3, 1, 0, 1, 0]));
    assert_eq!(board["north"], serde_json::json!([1, 0, 2, 1, 0, 2]));
    assert_eq!(board["to_move"], "north");
    // Canonical text drops the direction named where it is fixed.
    let canonical = run("mancala-validate", &[named], b"");
    assert!(
        canonical.stdout.contains("1. E:ccw+6 b *"),
        "{}",
        canonical.stdout
    );
    assert!(canonical.stdout.contains("1. A *"), "{}", canonical.stdout);
    insta::assert_snapshot!(snapshot);
}

/// The commands of spec/cli.md's GNU parallel recipe, as written there.
fn parallel_recipe() -> Vec<String> {
    let spec = std::fs::read_to_string(root().join("spec/cli.md")).unwrap();
    let section = spec
        .split("### GNU parallel")
        .nth(1)
        .expect("spec/cli.md has a GNU parallel section");
    let block = section
        .split("```sh")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    block
        .lines()
        .filter(|line| line.starts_with("parallel ") || line.starts_with("jq "))
        .map(str::to_owned)
        .collect()
}

/// Whether `program` runs here (else the test is skipped, or under
/// `CI=true` fails).
fn installed_or_skip(program: &str, test: &str) -> bool {
    let found = std::process::Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        common::skip_for_want_of(
            test,
            &format!("`{program}` is not installed"),
            &format!("apt-get install {program}, as .ci/run does"),
        );
    }
    found
}

/// spec/cli.md's recipe: GNU parallel cuts a stream of MGN (and one of
/// JSON records) between games into blocks of 1 MB, checked on every
/// core; the verdicts are one process's, game for game, and jq's sum of
/// them is one process's summary.
#[test]
fn gnu_parallel_checks_a_stream_cut_between_games() {
    let test = "gnu_parallel_checks_a_stream_cut_between_games";
    if !installed_or_skip("parallel", test) || !installed_or_skip("jq", test) {
        return;
    }
    // With blocks of 100 kB instead of 1 MB, the test's small stream is
    // cut several times.
    let recipe: Vec<String> = parallel_recipe()
        .iter()
        .map(|line| line.replace("--block 1M", "--block 100k"))
        .collect();
    assert_eq!(recipe.len(), 3, "{recipe:?}");
    assert!(recipe[..2].iter().all(|line| line.contains("--block 100k")));
    let dir = common::scratch("gnu-parallel");
    // About 400 kB of each form, a few invalid games among them.
    let played = |format: &str| {
        let args = ["--games", "160", "--seed", "12", "-q", "--format", format];
        let out = run("mancala-play", &args, b"");
        assert_eq!(out.code, 0, "{}", out.stderr);
        out.stdout
    };
    let (mgn, json) = (played("text"), played("json"));
    let (mut games, mut records) = (String::new(), String::new());
    for copy in 0..6 {
        games.push_str(&mgn);
        records.push_str(&json);
        if copy % 2 == 1 {
            games.push_str("\n[Game \"olowuka\"]\n\n1. D D *\n\n");
            records.push_str("{\"game\":\"olowuka\",\"items\":[{\"move\":\"D\"},{\"move\":\"D\"}],\"result\":\"*\"}\n{\"game\":\n");
        }
    }
    std::fs::write(dir.join("games.mgn"), &games).unwrap();
    std::fs::write(dir.join("records.jsonl"), &records).unwrap();
    let tools = common::bin("mancala-validate").parent().unwrap().to_owned();
    let path = format!(
        "{}:{}",
        tools.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let shell = |line: &str| {
        let out = std::process::Command::new("sh")
            .args(["-c", line])
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    // Where a game stands is the block's: its file, index and lines.
    let without_place = |mut v: Value| {
        for key in ["file", "index", "line"] {
            v.as_object_mut().unwrap().remove(key);
        }
        for error in v["errors"].as_array_mut().unwrap() {
            error.as_object_mut().unwrap().remove("line");
        }
        v
    };
    for (input, split) in [("games.mgn", &recipe[0]), ("records.jsonl", &recipe[1])] {
        let one = run(
            "mancala-validate",
            &["--format", "json", &dir.join(input).to_string_lossy()],
            b"",
        );
        assert_eq!(one.code, 1, "{}", one.stderr);
        let (code, _, stderr) = shell(split);
        // parallel's status: the number of blocks with an invalid game.
        assert!((1..100).contains(&code), "{split}: exit {code}\n{stderr}");
        let blocks = stderr
            .lines()
            .filter(|l| l.starts_with("{\"games\":"))
            .count();
        assert!(blocks >= 2, "{split}: {blocks} blocks\n{stderr}");
        let verdicts_file = std::fs::read_to_string(dir.join("verdicts.jsonl")).unwrap();
        let split_verdicts: Vec<Value> = verdicts(&verdicts_file)
            .into_iter()
            .map(without_place)
            .collect();
        let one_verdicts: Vec<Value> = verdicts(&one.stdout)
            .into_iter()
            .map(without_place)
            .collect();
        assert_eq!(
            split_verdicts.len(),
            one_verdicts.len(),
            "{input}: one verdict per game"
        );
        for (split, one) in split_verdicts.iter().zip(&one_verdicts) {
            assert_eq!(split, one, "{input}: the verdicts differ");
        }
        let (code, summary, stderr) = shell(&recipe[2]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(
            summary.trim_end(),
            one.stderr.lines().last().unwrap(),
            "{input}: the summed summary is one process's"
        );
    }
}

/// `-q` means the same in every tool: stdout's data as without it, the
/// same exit status, and on stderr the errors alone: the lines it drops
/// are the notes, summaries and counts, never an error.
#[test]
fn quiet_means_the_same_in_every_tool() {
    let file = "fixtures/validate/mixed-stream.mgn";
    let cases: [(&str, &[&str]); 6] = [
        ("mancala-validate", &[file]),
        ("mancala-render", &[file]),
        ("mancala-analyze", &["--depth", "2", file]),
        (
            "mancala-analyze",
            &["--depth", "2", "--format", "json", file],
        ),
        ("mancala-filter", &[file]),
        ("mancala-play", &["--games", "3", "--max-plies", "10"]),
    ];
    for (tool, args) in cases {
        let loud = run(tool, args, b"");
        let quiet = run(tool, &[&["-q"][..], args].concat(), b"");
        assert_eq!(quiet.stdout, loud.stdout, "{tool} {args:?}");
        assert_eq!(quiet.code, loud.code, "{tool} {args:?}");
        // The quiet lines are the loud ones, in order, less some.
        let mut loud_lines = loud.stderr.lines();
        let mut dropped = Vec::new();
        for line in quiet.stderr.lines() {
            loop {
                let next = loud_lines.next().unwrap_or_else(|| {
                    panic!("{tool} -q {args:?} wrote `{line}`:\n{}", quiet.stderr)
                });
                if next == line {
                    break;
                }
                dropped.push(next);
            }
        }
        dropped.extend(loud_lines);
        // Render's only notes are a directory walk's: none here.
        assert_eq!(
            dropped.is_empty(),
            tool == "mancala-render",
            "{tool} {args:?}: -q dropped {dropped:?}"
        );
        for line in dropped {
            assert!(
                !line.contains("error"),
                "{tool} -q {args:?} dropped `{line}`"
            );
        }
        if loud.code == 1 {
            assert!(quiet.stderr.contains("error: "), "{tool} {args:?}");
        } else {
            assert_eq!(quiet.stderr, "", "{tool} {args:?}");
        }
    }
}
