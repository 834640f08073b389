//! `mancala-render --format html` in a real browser: headless Chromium
//! opens the page of a game of each kind from disk, presses the arrow keys
//! through the page's test hook (`#test=KEYS`: forward through every ply,
//! back, into one ply lap by lap) and the board the page then shows, read
//! back from its drawing, must be the position of the JSON frames at each
//! step. An annotated game is read into its variations and back (`v`,
//! Escape) and through its evaluation graph, each board again checked
//! against `--variation` and `--ply`. Screenshots are left for review in
//! `target/tmp/browser/screenshot/screenshot.png` (a position) and
//! `target/tmp/browser/study/` (a mistake and its best line).
//!
//! The browser is `$MANCALA_CHROMIUM`, or `chromium`, `chromium-browser`
//! or `google-chrome` on the PATH (`.ci/run` installs Debian's
//! `chromium`). Without one the tests say so and pass, except under
//! `CI=true`, where a missing browser fails them.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{fixtures, json_frames, root, run, scratch};
use serde_json::Value;

fn browser() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("MANCALA_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let paths = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&paths).map(move |dir| dir.join(name)))
        .find(|path| path.is_file())
}

/// The browser, or `None` (with a message) when the test is to be skipped.
fn browser_or_skip(test: &str) -> Option<PathBuf> {
    let found = browser();
    if found.is_none() {
        common::skip_for_want_of(
            test,
            "no Chromium found",
            "install Debian's `chromium`, as .ci/run does, or set MANCALA_CHROMIUM",
        );
    }
    found
}

/// Runs headless Chromium with `args` on `url`; its stdout. Gives up
/// after a minute.
fn chromium(browser: &Path, profile: &Path, args: &[&str], url: &str) -> String {
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", browser.display()));
    // Read stdout as it comes: a page's DOM fills a pipe's buffer.
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut text);
        text
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{} did not finish within a minute", browser.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{} failed: {status:?}", browser.display());
    reader.join().unwrap()
}

/// A board as the page's test log writes it: `south 4,4,x north … stores 0,0`.
fn shown(frame: &Value) -> String {
    let row = |side: &str| -> String {
        frame["board"][side]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().map_or("x".to_owned(), |n| n.to_string()))
            .collect::<Vec<_>>()
            .join(",")
    };
    let stores = &frame["board"]["stores"];
    format!(
        "south {} north {} stores {},{}",
        row("south"),
        row("north"),
        stores[0],
        stores[1]
    )
}

#[test]
fn the_page_shows_every_position_of_a_game_of_each_kind() {
    let Some(browser) = browser_or_skip("the_page_shows_every_position_of_a_game_of_each_kind")
    else {
        return;
    };
    for game in fixtures("fixtures/pictures") {
        let dir = scratch(&format!("browser/{}", common::stem(&game)));
        let page = dir.join("page.html");
        let out = run("mancala-render", &["--format", "html", &game], b"");
        assert_eq!(out.code, 0, "{}", out.snapshot());
        std::fs::write(&page, &out.stdout).unwrap();

        // What the page must show: the start and every ply (and round's
        // refilled board), and one move of several laps lap by lap.
        let mut plies = json_frames(&["--ply", "0", &game]);
        plies.extend(json_frames(&["--plies", "..", &game]));
        let (k, index) = plies
            .iter()
            .enumerate()
            .find_map(|(i, f)| {
                let laps = f["heading"][0].as_str()?.rsplit_once('[')?.1;
                (f["kind"] == "ply" && !laps.starts_with("1 lap"))
                    .then(|| (f["number"].as_u64().unwrap(), i))
            })
            .expect("a move of several laps");
        let laps: Vec<Value> = json_frames(&["--laps", &k.to_string(), &game])[1..].to_vec();
        let n = plies.len() - 1;

        let mut keys = String::new();
        let mut expected: Vec<String> = vec![shown(&plies[0])];
        for ply in &plies[1..] {
            keys.push('R');
            expected.push(shown(ply));
        }
        keys.push_str("LL");
        expected.push(shown(&plies[n - 1]));
        expected.push(shown(&plies[n - 2]));
        keys.push('H');
        expected.push(shown(&plies[0]));
        for ply in &plies[1..index] {
            keys.push('R');
            expected.push(shown(ply));
        }
        for lap in &laps {
            keys.push('D');
            expected.push(shown(lap));
        }
        keys.push('D');
        expected.push(shown(&plies[index]));
        keys.push('U');
        expected.push(shown(laps.last().unwrap()));
        keys.push('E');
        expected.push(shown(&plies[n]));

        let url = format!("file://{}#test={keys}", page.display());
        let dom = chromium(&browser, &dir.join("profile"), &["--dump-dom"], &url);
        let log = dom
            .split_once("<pre id=\"test-log\">")
            .and_then(|(_, rest)| rest.split_once("</pre>"))
            .unwrap_or_else(|| panic!("{game}: no test log in the page:\n{dom}"))
            .0;
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines.len(), expected.len(), "{game}: {log}");
        for (step, (line, want)) in lines.iter().zip(&expected).enumerate() {
            assert!(
                line.ends_with(want.as_str()),
                "{game}: after key {step} of {keys}:\n shown {line}\n  want {want}"
            );
        }
        // The lap steps say which lap of which ply they are.
        let first_lap = index + (n + 2 + 1);
        assert!(
            lines[first_lap].contains(&format!("ply {k} lap 1 ")),
            "{game}: {}",
            lines[first_lap]
        );
    }
}

#[test]
fn a_screenshot_of_a_position() {
    let Some(browser) = browser_or_skip("a_screenshot_of_a_position") else {
        return;
    };
    let dir = scratch("browser/screenshot");
    let page = dir.join("page.html");
    let out = run(
        "mancala-render",
        &["--format", "html", "fixtures/pictures/pallankuzhi.mgn"],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.snapshot());
    std::fs::write(&page, &out.stdout).unwrap();
    let shot = dir.join("screenshot.png");
    // Ply 9 lap by lap: lap 2 of it, with its arrow.
    let url = format!("file://{}#ply=8&test=DD", page.display());
    chromium(
        &browser,
        &dir.join("profile"),
        &[
            "--window-size=1280,800",
            &format!("--screenshot={}", shot.display()),
        ],
        &url,
    );
    let png = std::fs::read(&shot).unwrap();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 20_000,
        "{} bytes",
        png.len()
    );
}

/// An annotated game read as a student would, keys only: into a
/// variation (`v`), into the variation inside it, back out (Escape) one
/// line at a time, on to the next variation of a move (`v` again), back
/// past a variation's first ply to where it branches, and a click on the
/// evaluation graph's points. Each board the page shows must be the one
/// `--variation` (or `--ply`) draws there; the move list numbers moves as
/// the record does and carries the marks and the best line.
#[test]
fn a_reader_steps_into_variations_and_jumps_from_the_graph() {
    let Some(browser) = browser_or_skip("a_reader_steps_into_variations_and_jumps_from_the_graph")
    else {
        return;
    };
    let dir = scratch("browser/variations");
    let record = dir.join("game.mgn");
    std::fs::write(
        &record,
        "[Game \"olowuka\"]\n\n1. F e?? {[%eval -3,4] a slip} ( 1... d! {[%eval =+3]} 2. E \
         ( 2. A $14 a ) 2... c ) ( 1... a ) 2. E+5 {[%eval +2,4]} c *\n",
    )
    .unwrap();
    let game = record.to_str().unwrap();
    let out = run("mancala-render", &["--format", "html", game], b"");
    assert_eq!(out.code, 0, "{}", out.snapshot());
    let html = out.stdout;
    for label in [
        ">1. F<",
        ">e<span class=\"mark blunder\">??</span> <span class=\"eval\">-3,4</span>",
        "best line 2.1:</span> <button type=\"button\" data-step=",
        ">1... d<span class=\"mark good\">!</span> <span class=\"eval\">=+3</span>",
        ">2. A<span class=\"mark nag\"> $14</span>",
        ">2... c<",
        "variation 2.2:",
        ">2. E+5 <span class=\"eval\">+2,4</span>",
    ] {
        assert!(
            html.contains(label),
            "{label} not in the move list:\n{html}"
        );
    }
    let page = dir.join("page.html");
    std::fs::write(&page, &html).unwrap();

    let at_ply = |ply: &str| shown(&json_frames(&["--ply", ply, game])[0]);
    let in_variation =
        |path: &str, ply: &str| shown(&json_frames(&["--variation", path, "--ply", ply, game])[0]);
    // (key, the line and ply shown, the board)
    let walk = [
        ("", "main ply 0", at_ply("0")),
        ("R", "main ply 1", at_ply("1")),
        ("R", "main ply 2", at_ply("2")),
        ("V", "2.1 ply 2", in_variation("2.1", "2")),
        ("R", "2.1 ply 3", in_variation("2.1", "3")),
        ("V", "2.1/3.1 ply 3", in_variation("2.1/3.1", "3")),
        ("R", "2.1/3.1 ply 4", in_variation("2.1/3.1", "4")),
        ("X", "2.1 ply 3", in_variation("2.1", "3")),
        ("X", "main ply 2", at_ply("2")),
        ("V", "2.1 ply 2", in_variation("2.1", "2")),
        ("V", "2.2 ply 2", in_variation("2.2", "2")),
        ("L", "main ply 1", at_ply("1")),
        ("E", "main ply 4", at_ply("4")),
        ("C1", "main ply 2", at_ply("2")),
        ("C2", "main ply 3", at_ply("3")),
    ];
    let keys: String = walk.iter().map(|(k, ..)| *k).collect();
    let url = format!("file://{}#test={keys}", page.display());
    let dom = chromium(&browser, &dir.join("profile"), &["--dump-dom"], &url);
    let log = dom
        .split_once("<pre id=\"test-log\">")
        .and_then(|(_, rest)| rest.split_once("</pre>"))
        .unwrap_or_else(|| panic!("no test log in the page:\n{dom}"))
        .0;
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), walk.len(), "{log}");
    for (line, (key, place, board)) in lines.iter().zip(&walk) {
        let (line_name, ply) = place.split_once(' ').unwrap();
        assert!(
            line.contains(&format!(" line {line_name} {ply} lap - "))
                && line.ends_with(board.as_str()),
            "after {key:?}:\n shown {line}\n  want line {line_name} {ply}, {board}"
        );
    }
}

/// A variation of the move that ends a round branches from the position
/// before that move, and leaving it returns to the move, not to the next
/// round's refilled board.
#[test]
fn a_variation_of_a_round_ending_move() {
    let Some(browser) = browser_or_skip("a_variation_of_a_round_ending_move") else {
        return;
    };
    let dir = scratch("browser/round-variation");
    let out = run(
        "mancala-render",
        &[
            "--format",
            "html",
            "--output-dir",
            dir.join("pages").to_str().unwrap(),
            "fixtures/validate/valid-annotated.mgn",
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.snapshot());
    let game = "fixtures/validate/valid-annotated.mgn";
    // Game 3, Pallankuzhi: ply 17 (`9. A??`) ends round 1 and has a
    // variation, `9. G+0 …`.
    let record = dir.join("game-3.mgn");
    let text = std::fs::read_to_string(root().join(game)).unwrap();
    let third = text.split("\n\n[Game").nth(3).unwrap();
    std::fs::write(&record, format!("[Game{third}")).unwrap();
    let record = record.to_str().unwrap();
    let at_ply = |ply: &str| shown(&json_frames(&["--ply", ply, record])[0]);
    let in_variation = |path: &str, ply: &str| {
        shown(&json_frames(&["--variation", path, "--ply", ply, record])[0])
    };
    let walk = [
        ("", "main ply 17"),
        ("V", "17.1 ply 17"),
        ("L", "main ply 16"),
        ("R", "main ply 17"),
        ("V", "17.1 ply 17"),
        ("X", "main ply 17"),
    ];
    // The board the move left (`--ply 17` is the refilled one).
    let the_move = shown(&json_frames(&["--plies", "17", record])[0]);
    let boards = [
        Some(the_move.clone()),
        Some(in_variation("17.1", "17")),
        Some(at_ply("16")),
        Some(the_move.clone()),
        Some(in_variation("17.1", "17")),
        Some(the_move),
    ];
    let keys: String = walk.iter().map(|(k, _)| *k).collect();
    let page = dir.join("pages/game-003.html");
    let url = format!("file://{}#ply=17&test={keys}", page.display());
    let dom = chromium(&browser, &dir.join("profile"), &["--dump-dom"], &url);
    let log = dom
        .split_once("<pre id=\"test-log\">")
        .and_then(|(_, rest)| rest.split_once("</pre>"))
        .unwrap_or_else(|| panic!("no test log in the page:\n{dom}"))
        .0;
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), walk.len(), "{log}");
    for ((line, (key, place)), board) in lines.iter().zip(&walk).zip(&boards) {
        let (line_name, ply) = place.split_once(' ').unwrap();
        assert!(
            line.contains(&format!(" line {line_name} {ply} lap - ")),
            "after {key:?}:\n shown {line}\n  want line {line_name} {ply}"
        );
        if let Some(board) = board {
            assert!(
                line.ends_with(board.as_str()),
                "after {key:?}: {line}, want {board}"
            );
        }
    }
}

/// Screenshots of the study page for review: an analysed Pallankuzhi match
/// at a mistake with its best line, and inside that line; left in
/// `target/tmp/browser/study/`.
#[test]
fn screenshots_of_the_study_page() {
    let Some(browser) = browser_or_skip("screenshots_of_the_study_page") else {
        return;
    };
    let dir = scratch("browser/study");
    let out = run(
        "mancala-render",
        &[
            "--format",
            "html",
            "--output-dir",
            dir.join("pages").to_str().unwrap(),
            "fixtures/validate/valid-annotated.mgn",
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.snapshot());
    let page = dir.join("pages/game-003.html");
    // Ply 5 (3. A+14?!), then its best line's second ply.
    for (name, hash) in [("mistake", "ply=5"), ("best-line", "ply=5&test=VR")] {
        let shot = dir.join(format!("{name}.png"));
        chromium(
            &browser,
            &dir.join("profile"),
            &[
                "--window-size=1280,900",
                &format!("--screenshot={}", shot.display()),
            ],
            &format!("file://{}#{hash}", page.display()),
        );
        let png = std::fs::read(&shot).unwrap();
        assert!(
            png.starts_with(b"\x89PNG") && png.len() > 20_000,
            "{name}: {} bytes",
            png.len()
        );
    }
}
