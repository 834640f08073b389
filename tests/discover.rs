//! What a newcomer can ask the tools: the values `--game`, `-o`, `--south`
//! and `--north` take (in help, man pages and completions), the listings
//! of games and players, and "did you mean" for near misses.

use crate::common;

use common::run;

/// The entry of a flag in long help: the line containing `start` and those
/// after it up to the next flag's (flag lines are indented less than the
/// text under them).
fn block(text: &str, start: &str) -> String {
    let mut lines = text.lines().skip_while(|l| !l.contains(start));
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("no `{start}` in:\n{text}"));
    let mut out = format!("{first}\n");
    for line in lines {
        let indent = line.len() - line.trim_start().len();
        if line.trim_start().starts_with('-') && indent < 10 {
            break;
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[test]
fn help_lists_the_players_and_games() {
    let help = run("mancala-play", &["--help"], b"").stdout;
    insta::assert_snapshot!(
        "help_of_the_seats_and_game",
        format!(
            "{}{}",
            block(&help, "-g, --game <GAME>"),
            block(&help, "--south <PLAYER>")
        )
    );
    // Short help lists the names (wrapped anywhere).
    let short = run("mancala-play", &["-h"], b"").stdout;
    let words = short.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("[possible values: random, greedy, alphabeta, mcts, human]"),
        "{short}"
    );
}

#[test]
fn completions_complete_games_options_and_players() {
    let script = run("mancala-play", &["--completions", "bash"], b"").stdout;
    let lines: String = script
        .lines()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| ["--game)", "--option)", "--south)", "--north)", "-o)"].contains(&w[0].trim()))
        .map(|w| format!("{}\n{}\n", w[0].trim(), w[1].trim()))
        .collect();
    insta::assert_snapshot!("bash_completions_of_values", lines);
    // Render takes games and options too; fish gives each value's meaning.
    let render = run("mancala-render", &["--completions", "bash"], b"").stdout;
    assert!(
        render.contains("seeds=9 seeds=10 holes=1 holes=2 holes=3 holes=4 holes=5 holes=6 holes=7 same-direction"),
        "{render}"
    );
    let fish = run("mancala-play", &["--completions", "fish"], b"").stdout;
    assert!(
        fish.contains("alphabeta\\t'alpha-beta search with iterative deepening; settings: depth=N (default 9, at most 64), ms=N, seed=N'"),
        "{fish}"
    );
}

#[test]
fn man_pages_list_the_players() {
    let page = run("mancala-play", &["--man"], b"").stdout;
    for line in [
        "mcts: Monte Carlo tree search; settings: playouts=N (default 1000), ms=N, seed=N",
        "human: a person, typing moves at the terminal",
        "\\fIPossible values:\\fR\n.RS 14\n.IP \\(bu 2\nolinda\\-keliya\n",
    ] {
        assert!(page.contains(line), "{line}\n{page}");
    }
}

#[test]
fn listings_of_games_and_players() {
    for what in ["games", "players"] {
        let text = run("mancala-play", &["--list", what], b"");
        assert_eq!((text.code, text.stderr.as_str()), (0, ""), "{what}");
        insta::assert_snapshot!(format!("list_{what}"), text.stdout);
        let json = run("mancala-play", &["--list", what, "--format", "json"], b"");
        assert_eq!(json.code, 0);
        insta::assert_snapshot!(format!("list_{what}_json"), json.stdout);
        for line in json.stdout.lines() {
            serde_json::from_str::<serde_json::Value>(line).unwrap();
        }
    }
}

/// Every game id, option word and engine of the tables is in the listing
/// (so the listing cannot fall behind them).
#[test]
fn the_listing_names_everything_the_tables_hold() {
    let games = run(
        "mancala-play",
        &["--list", "games", "--format", "json"],
        b"",
    )
    .stdout;
    for game in mancala_rules::GameId::ALL {
        assert!(games.contains(&format!("{{\"game\":\"{game}\"")), "{game}");
    }
    for opt in mancala_rules::Opt::ALL {
        assert!(games.contains(&format!("\"option\":\"{opt}\"")), "{opt}");
    }
    let players = run("mancala-play", &["--list", "players"], b"").stdout;
    for engine in mancala_engine::ENGINES {
        assert!(
            players
                .lines()
                .any(|l| l.starts_with(engine.name) && l.ends_with(engine.about)),
            "{players}"
        );
    }
}

#[test]
fn near_misses_are_suggested() {
    let record = |tags: &str| format!("{tags}\n\n*\n");
    let cases: Vec<(&str, Vec<&str>, String)> = vec![
        ("mancala-play", vec!["--south", "alphabta"], String::new()),
        (
            "mancala-play",
            vec!["--north", "greedy:sed=3"],
            String::new(),
        ),
        ("mancala-play", vec!["--south", "humna"], String::new()),
        ("mancala-play", vec!["--game", "olowka"], String::new()),
        ("mancala-play", vec!["-o", "series-captures"], String::new()),
        ("mancala-play", vec!["-o", "seedz=5"], String::new()),
        (
            "mancala-render",
            vec!["--game", "rio-kadalis", "-o", "rouns=3"],
            String::new(),
        ),
        ("mancala-play", vec!["-o", "seeds"], String::new()),
        (
            "mancala-validate",
            vec!["-"],
            record("[Game \"pallankuzhi\"]\n[Options \"seedz=5\"]"),
        ),
        (
            "mancala-validate",
            vec!["-"],
            record("[Game \"pallankuzi\"]"),
        ),
        (
            "mancala-validate",
            vec!["-"],
            record("[Game \"olowuka\"]\n[Termination \"twentyfive\"]"),
        ),
        ("mancala-validate", vec!["-"], record("[game \"olowuka\"]")),
    ];
    let mut out = String::new();
    for (tool, args, stdin) in cases {
        let result = run(tool, &args, stdin.as_bytes());
        assert_eq!(result.code, if tool == "mancala-validate" { 1 } else { 2 });
        assert!(
            result.stderr.contains("did you mean") || result.stderr.contains("a similar value"),
            "{}",
            result.stderr
        );
        out.push_str(&format!("$ {tool} {}\n{}\n", args.join(" "), result.stderr));
    }
    insta::assert_snapshot!("near_misses", out);
}

/// The progress bar is for a terminal: piped, stderr gets the summary
/// alone, and `-q` not even that.
#[test]
fn piped_stderr_gets_no_progress() {
    let out = run("mancala-play", &["--games", "40"], b"");
    assert_eq!(out.code, 0);
    assert!(
        out.stderr.starts_with("40 games: south (random) won "),
        "{}",
        out.stderr
    );
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(!out.stderr.contains(['\r', '\x1b']), "{:?}", out.stderr);
    let quiet = run("mancala-play", &["--games", "40", "-q"], b"");
    assert_eq!((quiet.code, quiet.stderr.as_str()), (0, ""));
}

/// What a terminal shows of `line`, a shell command run at a
/// pseudo-terminal (util-linux's `script`, which every Debian has: it is
/// in the essential package bsdutils).
fn at_a_terminal(line: &str) -> String {
    let out = std::process::Command::new("script")
        .args(["-qec", line, "/dev/null"])
        .env("TERM", "xterm")
        .env_remove("NO_COLOR")
        .output()
        .expect("util-linux's script runs");
    let screen = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{screen}");
    screen
}

/// At a terminal the bar counts the games with rate and time left; the
/// records on stdout are the same as without it. Validate, its output
/// sent elsewhere, counts the games checked.
#[test]
fn a_terminal_gets_a_progress_bar() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        common::skip_for_want_of(
            "a_terminal_gets_a_progress_bar",
            "no `script` to give the tool a terminal",
            "Debian's bsdutils, or util-linux elsewhere",
        );
        return;
    }
    let records = std::env::temp_dir().join(format!("discover-{}.mgn", std::process::id()));
    let screen = at_a_terminal(&format!(
        "{} --games 60 --seed 3 > {}",
        common::bin("mancala-play").display(),
        records.display()
    ));
    assert!(screen.contains("60/60 games, "), "{screen:?}");
    assert!(screen.contains(" left"), "{screen:?}");
    assert!(
        screen.contains("60 games: south (random) won "),
        "{screen:?}"
    );
    let piped = run("mancala-play", &["--games", "60", "--seed", "3"], b"");
    assert_eq!(std::fs::read_to_string(&records).unwrap(), piped.stdout);
    // The records come through a pipe held open a moment: the few
    // milliseconds 60 games take to check can end before the bar's first
    // draw (seen under a loaded test run).
    let screen = at_a_terminal(&format!(
        "{{ cat {}; sleep 0.3; }} | {} - > /dev/null",
        records.display(),
        common::bin("mancala-validate").display()
    ));
    assert!(screen.contains(" games checked"), "{screen:?}");
    assert!(screen.contains("checked 60 games: 60 valid"), "{screen:?}");
    let _ = std::fs::remove_file(records);
}

/// A database build at a terminal shows a bar for each layer's stages;
/// with -q, or stderr not a terminal, nothing. The lines on stdout are the
/// same either way.
#[test]
fn a_tablebase_build_at_a_terminal_shows_its_stages() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        common::skip_for_want_of(
            "a_tablebase_build_at_a_terminal_shows_its_stages",
            "no `script` to give the tool a terminal",
            "Debian's bsdutils, or util-linux elsewhere",
        );
        return;
    }
    let scratch = std::env::temp_dir().join(format!("discover-tb-{}", std::process::id()));
    let build = |name: &str, quiet: &str| {
        format!(
            "{} build --game kalah --seeds 6 {quiet} --tablebase {} > {}",
            common::bin("mancala-tablebase").display(),
            scratch.join(name).display(),
            scratch.join(format!("{name}.out")).display()
        )
    };
    std::fs::create_dir_all(&scratch).unwrap();
    let screen = at_a_terminal(&build("shown", ""));
    // Every layer's moves start from 0 (12,376 positions with 6 seeds).
    assert!(screen.contains("0/12376 layer 6 moves"), "{screen:?}");
    assert!(screen.contains("layer 6 values"), "{screen:?}");
    let quiet = at_a_terminal(&build("quiet", "-q"));
    assert!(!quiet.contains("layer"), "{quiet:?}");
    let piped = run(
        "mancala-tablebase",
        &[
            "build",
            "--game",
            "kalah",
            "--seeds",
            "6",
            "--tablebase",
            scratch.join("piped").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!((piped.code, piped.stderr.as_str()), (0, ""));
    let layers = |text: &str| -> Vec<String> {
        // Seeds, positions, moves, convention, unknown; not the seconds.
        text.lines()
            .map(|l| l.rsplit_once(' ').map_or(l, |(head, _)| head).to_owned())
            .collect()
    };
    let shown = std::fs::read_to_string(scratch.join("shown.out")).unwrap();
    assert_eq!(layers(&shown), layers(&piped.stdout));
    assert_eq!(shown.lines().count(), 8, "{shown}");
    let _ = std::fs::remove_dir_all(scratch);
}

/// A search that may take hours a move says so before it starts, and
/// suggests a time limit; with one, or shallower, it says nothing.
#[test]
fn a_deep_search_without_a_time_limit_warns() {
    let deep = run(
        "mancala-play",
        &["--north", "alphabeta:depth=30", "--plies", "0"],
        b"",
    );
    assert_eq!(deep.code, 0);
    assert_eq!(
        deep.stderr,
        "warning: `alphabeta:depth=30` searches 30 plies deep with no time limit, which may take hours a move; add a time limit, e.g. alphabeta:depth=30,ms=1000\n"
    );
    for calm in ["alphabeta:depth=30,ms=50", "alphabeta:depth=14"] {
        let out = run("mancala-play", &["--north", calm, "--plies", "0"], b"");
        assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{calm}");
    }
}
