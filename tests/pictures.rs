//! `mancala-render --format svg` and `--format html`: every SVG parses as
//! XML and has the structure the writer emits, the numbers drawn are the
//! positions of the JSON frames, snapshots of a few pictures per game, the
//! one-document rule of stdout, the page's self-containment, and the
//! README's picture.

use crate::common;

use std::path::{Path, PathBuf};

use common::{fixtures, json_frames, root, run, scratch};
use serde_json::Value;

/// The games of every kind: a greedy game of each (the two match games
/// with `rounds=2`, so across a round's end), one with comments.
fn games() -> Vec<String> {
    fixtures("fixtures/pictures")
}

fn render_ok(args: &[&str]) -> String {
    let out = run("mancala-render", args, b"");
    assert_eq!(out.code, 0, "{args:?}\n{}", out.snapshot());
    out.stdout
}

/// The SVG files `args` writes under a fresh folder, in order.
fn svg_files(dir: &Path, args: &[&str]) -> Vec<PathBuf> {
    let dir_text = dir.to_str().unwrap();
    let mut all = vec!["--format", "svg", "--output-dir", dir_text];
    all.extend_from_slice(args);
    let listed = render_ok(&all);
    listed.lines().map(PathBuf::from).collect()
}

/// The selections checked for each game: the final position, every ply,
/// and the first and a later move lap by lap.
fn selections(game: &str) -> Vec<Vec<String>> {
    let strings = |args: &[&str]| args.iter().map(|s| (*s).to_owned()).collect();
    vec![
        strings(&[game]),
        strings(&["--plies", "..", game]),
        strings(&["--laps", "1", game]),
        strings(&["--laps", "6", game]),
        strings(&["--ply", "0", game]),
    ]
}

fn element<'a, 'i>(
    node: roxmltree::Node<'a, 'i>,
    name: &str,
    class: &str,
) -> Option<roxmltree::Node<'a, 'i>> {
    node.descendants().find(|n| {
        n.has_tag_name(name)
            && n.attribute("class")
                .is_some_and(|c| c.split(' ').any(|w| w == class))
    })
}

fn text_of(node: roxmltree::Node<'_, '_>) -> String {
    node.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

/// Checks one picture against the structure the writer emits and against
/// the frame it draws: every hole's count (or closedness), mark class,
/// the stores, the side to move, the lap's arrow.
fn check_picture(path: &Path, frame: &Value) {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text)
        .unwrap_or_else(|e| panic!("{}: not well-formed XML: {e}", path.display()));
    let svg = doc.root_element();
    let what = path.display();
    assert!(
        svg.has_tag_name(("http://www.w3.org/2000/svg", "svg")),
        "{what}"
    );
    assert!(svg.attribute("viewBox").is_some(), "{what}: viewBox");
    assert_eq!(svg.attribute("width"), Some("80mm"), "{what}");
    let title = svg.children().find(|n| n.has_tag_name("title")).unwrap();
    let desc = svg.children().find(|n| n.has_tag_name("desc")).unwrap();
    assert!(
        !text_of(title).is_empty() && !text_of(desc).is_empty(),
        "{what}"
    );
    let headings: Vec<String> = svg
        .descendants()
        .filter(|n| n.attribute("class") == Some("heading"))
        .map(text_of)
        .collect();
    // Wrapped lines, joined again, are the frame's heading.
    let expected: Vec<&str> = frame["heading"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    assert_eq!(
        headings.join(" ").split_whitespace().collect::<Vec<_>>(),
        expected.join(" ").split_whitespace().collect::<Vec<_>>(),
        "{what}: headings"
    );

    let board = &frame["board"];
    let highlights = &frame["highlights"];
    let by_id = |id: &str| {
        svg.descendants()
            .find(|n| n.attribute("id") == Some(id))
            .unwrap_or_else(|| panic!("{what}: no #{id}"))
    };
    for (side, row) in [("south", &board["south"]), ("north", &board["north"])] {
        for (i, seeds) in row.as_array().unwrap().iter().enumerate() {
            let letter = (b'A' + i as u8) as char;
            let label = if side == "south" {
                letter
            } else {
                letter.to_ascii_lowercase()
            };
            let label = label.to_string();
            let group = by_id(&format!("hole-{label}"));
            assert!(group.has_tag_name("g"), "{what}");
            let classes: Vec<&str> = group.attribute("class").unwrap().split(' ').collect();
            assert_eq!(classes[0], "hole", "{what}");
            assert!(element(group, "circle", "pit").is_some(), "{what}");
            assert!(element(group, "g", "dots").is_some(), "{what}");
            assert!(element(group, "path", "cross").is_some(), "{what}");
            let count = element(group, "tspan", "n").map(text_of).unwrap();
            let mark = element(group, "tspan", "mark").map(text_of).unwrap();
            assert_eq!(element(group, "text", "label").map(text_of).unwrap(), label);
            let dots = element(group, "g", "dots")
                .unwrap()
                .children()
                .filter(|n| n.is_element())
                .count();
            match seeds.as_u64() {
                None => {
                    assert!(classes.contains(&"closed"), "{what}: {label} closed");
                    assert_eq!(count, "", "{what}: {label}");
                    assert_eq!(dots, 0);
                }
                Some(n) => {
                    assert_eq!(count, n.to_string(), "{what}: {label}");
                    let expected_dots = if n <= 12 { n as usize } else { 0 };
                    assert_eq!(dots, expected_dots, "{what}: dots of {label}");
                    let is = |key: &str| highlights[key].as_str() == Some(label.as_str());
                    let captured = highlights["captured"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|h| h.as_str() == Some(&label));
                    let (class, symbol) = if captured {
                        ("captured", "x")
                    } else if is("last") {
                        ("last", "*")
                    } else if is("lifted") {
                        ("lifted", "^")
                    } else {
                        ("", "")
                    };
                    assert_eq!(mark, symbol, "{what}: mark of {label}");
                    if !class.is_empty() {
                        assert!(classes.contains(&class), "{what}: {label} {class}");
                    }
                }
            }
        }
    }
    let on_board = svg
        .descendants()
        .any(|n| n.attribute("id") == Some("store-south"));
    for (k, side) in ["south", "north"].into_iter().enumerate() {
        let held = board["stores"][k].as_u64().unwrap().to_string();
        let player = by_id(&format!("player-{side}"));
        let facts = element(player, "tspan", "facts").map(text_of).unwrap();
        assert!(
            facts.split(' ').any(|w| w == held),
            "{what}: {facts} holds {held}"
        );
        if on_board {
            let store = by_id(&format!("store-{side}"));
            let count = store
                .descendants()
                .find(|n| n.has_tag_name("text"))
                .unwrap();
            assert_eq!(text_of(count), held, "{what}: store");
        }
        // A finished game's board marks nobody to move.
        let mover = board["to_move"].as_str() == Some(side) && board["over"] != true;
        let classes = player.attribute("class").unwrap();
        assert_eq!(classes.contains("mover"), mover, "{what}: {side} to move");
        let turn = element(player, "tspan", "turn").map(text_of).unwrap();
        assert_eq!(!turn.is_empty(), mover, "{what}");
    }
    let path = by_id("lap-path").attribute("d").unwrap();
    assert_eq!(
        frame["kind"] == "lap" && frame["events"].as_array().unwrap().len() > 1,
        !path.is_empty(),
        "{what}: lap path {path}"
    );
}

#[test]
fn every_svg_is_well_formed_and_draws_its_frame() {
    let dir = scratch("svg-frames");
    let mut pictures = 0;
    for (g, game) in games().iter().enumerate() {
        for (s, selection) in selections(game).iter().enumerate() {
            let args: Vec<&str> = selection.iter().map(String::as_str).collect();
            let frames = json_frames(&args);
            let files = svg_files(&dir.join(format!("{g}-{s}")), &args);
            assert_eq!(files.len(), frames.len(), "{args:?}");
            for (file, frame) in files.iter().zip(&frames) {
                check_picture(file, frame);
                pictures += 1;
            }
        }
    }
    assert!(pictures > 100, "{pictures} pictures");
}

#[test]
fn pictures_are_the_same_bytes_every_time() {
    let args = [
        "--format",
        "svg",
        "--laps",
        "1",
        "fixtures/pictures/olinda-keliya.mgn",
        "--output-dir",
    ];
    let a = scratch("svg-same-a");
    let b = scratch("svg-same-b");
    let mut first = args.to_vec();
    first.push(a.to_str().unwrap());
    let mut second = args.to_vec();
    second.push(b.to_str().unwrap());
    render_ok(&first);
    render_ok(&second);
    for entry in std::fs::read_dir(&a).unwrap() {
        let name = entry.unwrap().file_name();
        assert_eq!(
            std::fs::read(a.join(&name)).unwrap(),
            std::fs::read(b.join(&name)).unwrap()
        );
    }
}

/// A few pictures per game: a lap with its arrow, a ply with captures
/// and lap ends, and (for the matches) a board with closed holes. Each
/// case names the picture (from 0) among those its command draws.
#[test]
fn snapshots_of_a_few_pictures_per_game() {
    const EXAMPLE_3: &str = "S 3,0,1,2,0,5/1,1,1,1,1,2 16-14";
    const PALLANKUZHI_ROUND_2: &str = "S 2,0,3,1,5,x,x/1,3,0,2,6,x,x 30-31 round=2";
    const RIO_KADALIS_ROUND_2: &str = "N x,x,2,3,1,0/x,1,3,0,2,3 15-18 round=2";
    let cases: &[(&str, usize, &[&str])] = &[
        (
            "olinda_keliya_first_move_lap_2",
            2,
            &["-g", "olinda-keliya", "--moves", "E:ccw", "--laps", "1"],
        ),
        (
            "olinda_keliya_ply_3",
            0,
            &["--ply", "3", "fixtures/pictures/olinda-keliya.mgn"],
        ),
        (
            "olowuka_grand_slam_ply",
            0,
            &[
                "-g", "olowuka", "--setup", EXAMPLE_3, "--moves", "D", "--plies", "1",
            ],
        ),
        (
            "olowuka_grand_slam_lap_2",
            2,
            &[
                "-g", "olowuka", "--setup", EXAMPLE_3, "--moves", "D", "--laps", "1",
            ],
        ),
        (
            "pallankuzhi_round_2_ply",
            0,
            &[
                "-g",
                "pallankuzhi",
                "--setup",
                PALLANKUZHI_ROUND_2,
                "--moves",
                "E",
                "--plies",
                "1",
            ],
        ),
        (
            "pallankuzhi_round_2_lap_1",
            1,
            &[
                "-g",
                "pallankuzhi",
                "--setup",
                PALLANKUZHI_ROUND_2,
                "--moves",
                "E",
                "--laps",
                "1",
            ],
        ),
        (
            "rio_kadalis_fours_ply",
            0,
            &[
                "-g",
                "rio-kadalis",
                "--setup",
                RIO_KADALIS_ROUND_2,
                "--moves",
                "e",
                "--plies",
                "1",
            ],
        ),
        (
            "rio_kadalis_final",
            0,
            &["fixtures/pictures/rio-kadalis.mgn"],
        ),
    ];
    for (name, index, args) in cases {
        let dir = scratch(&format!("svg-snapshot-{name}"));
        let files = svg_files(&dir, args);
        let picture = std::fs::read_to_string(&files[*index]).unwrap();
        roxmltree::Document::parse(&picture).unwrap();
        insta::assert_snapshot!(*name, picture);
    }
}

#[test]
fn several_documents_need_an_output_dir() {
    let out = run(
        "mancala-render",
        &[
            "--format",
            "svg",
            "--laps",
            "1",
            "fixtures/pictures/olowuka.mgn",
        ],
        b"",
    );
    assert_eq!(out.code, 2, "{}", out.snapshot());
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("--output-dir"), "{}", out.stderr);
    let games = games();
    let mut args = vec!["--format", "html"];
    args.extend(games.iter().map(String::as_str));
    let out = run("mancala-render", &args, b"");
    assert_eq!((out.code, out.stdout.as_str()), (2, ""), "{}", out.stderr);
    // One document goes to stdout as it is.
    let one = render_ok(&["--format", "svg", "fixtures/pictures/olowuka.mgn"]);
    assert!(one.starts_with("<?xml") && one.ends_with("</svg>\n"));
    let out = run(
        "mancala-render",
        &["--output-dir", "x", "fixtures/pictures/olowuka.mgn"],
        b"",
    );
    assert_eq!(out.code, 2, "{}", out.snapshot());
    let out = run(
        "mancala-render",
        &[
            "--format",
            "html",
            "--laps",
            "2",
            "fixtures/pictures/olowuka.mgn",
        ],
        b"",
    );
    assert_eq!(out.code, 2, "{}", out.snapshot());
}

#[test]
fn pages_are_self_contained_and_carry_every_step() {
    let dir = scratch("html-pages");
    let dir_text = dir.to_str().unwrap();
    let mut args = vec!["--format", "html", "--output-dir", dir_text];
    let games = games();
    args.extend(games.iter().map(String::as_str));
    let listed = render_ok(&args);
    let pages: Vec<&str> = listed.lines().collect();
    assert_eq!(pages.len(), games.len());
    for (page, game) in pages.iter().zip(&games) {
        let html = std::fs::read_to_string(page).unwrap();
        for outside in [
            "://",
            "<link",
            " src=",
            "@import",
            "url(",
            "fetch(",
            "XMLHttpRequest",
        ] {
            let found = html
                .match_indices(outside)
                .map(|(i, _)| &html[i.saturating_sub(30)..(i + 30).min(html.len())])
                .find(|context| {
                    !context.contains("http://www.w3.org/2000/svg") && !context.contains("url(#")
                });
            assert!(found.is_none(), "{page}: {outside} in {found:?}");
        }
        // The board is one inline SVG, well-formed on its own.
        let start = html.find("<svg").unwrap();
        let end = html.find("</svg>").unwrap() + "</svg>".len();
        roxmltree::Document::parse(&html[start..end]).unwrap();
        // Every step the page carries: the start, each ply's laps, each
        // ply and each round's refilled board.
        let data_start = html.find("id=\"mancala-data\">").unwrap() + "id=\"mancala-data\">".len();
        let data_end = data_start + html[data_start..].find("</script>").unwrap();
        let data: Value = serde_json::from_str(&html[data_start..data_end]).unwrap();
        let steps = data["steps"].as_array().unwrap();
        let plies = json_frames(&["--plies", "..", game]);
        // Ply-level steps of the main line: no lap, no line (0).
        let ply_level: Vec<&Value> = steps
            .iter()
            .filter(|s| s["lap"].is_null() && s["line"].is_null())
            .collect();
        assert_eq!(ply_level.len(), plies.len() + 1, "{game}");
        for (step, frame) in ply_level[1..].iter().zip(&plies) {
            let shown: Vec<String> = step["counts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().map(|n| n.to_string()).unwrap_or_default())
                .collect();
            let expected: Vec<String> = ["south", "north"]
                .iter()
                .flat_map(|side| frame["board"][side].as_array().unwrap().clone())
                .map(|v| v.as_u64().map(|n| n.to_string()).unwrap_or_default())
                .collect();
            assert_eq!(shown, expected, "{game}");
            // Stores are written when they change: the last written.
            let stores = steps[..=steps.iter().position(|s| std::ptr::eq(s, *step)).unwrap()]
                .iter()
                .rev()
                .find_map(|s| s.get("stores"))
                .unwrap();
            assert_eq!(stores, &frame["board"]["stores"], "{game}");
        }
        if game.ends_with("pallankuzhi.mgn") {
            assert!(
                html.contains("{pasu and a capture}"),
                "comments in the move list"
            );
            assert!(html.contains("round 1 over"), "round ends in the move list");
        }
    }
}

/// The picture README shows: `mancala-render --format svg --game
/// olinda-keliya --moves E:ccw --laps 1 --output-dir DIR`, its third
/// diagram (lap 2), committed as spec/example-lap.svg.
#[test]
fn the_readme_picture_is_what_the_documented_command_draws() {
    let dir = scratch("readme-picture");
    let files = svg_files(
        &dir,
        &["--game", "olinda-keliya", "--moves", "E:ccw", "--laps", "1"],
    );
    let drawn = std::fs::read_to_string(&files[2]).unwrap();
    let committed = std::fs::read_to_string(root().join("spec/example-lap.svg")).unwrap();
    assert!(
        drawn == committed,
        "spec/example-lap.svg differs from what the command draws; regenerate it with the command in README"
    );
    assert!(
        std::fs::read_to_string(root().join("README.md"))
            .unwrap()
            .contains("spec/example-lap.svg")
    );
}

/// A ply's evaluation is its heading's eval line on the page and its value
/// beside the move in the list; the comment that gave it keeps only its
/// other words (and goes if it had none). An evaluation the heading does
/// not show (the start's, or an earlier one of two after a ply) stays in
/// its comment.
#[test]
fn a_page_says_an_evaluation_once() {
    let record = "[Game \"olowuka\"]\n\n{[%eval +0,2] the start} 1. C {[%eval +1,3] a sound start} \
                  c {[%eval -2,3]} {just a note} 2. A {[%eval +1,1]} {[%eval +4,4]} *\n";
    let out = run(
        "mancala-render",
        &["--format", "html", "-"],
        record.as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.snapshot());
    let list_start = out.stdout.find("<ol").unwrap();
    let list =
        &out.stdout[list_start..list_start + out.stdout[list_start..].find("</ol>").unwrap()];
    let notes: Vec<&str> = list
        .split("<p class=\"note ")
        .skip(1)
        .map(|p| &p[..p.find("</p>").unwrap()])
        .collect();
    assert_eq!(
        notes,
        [
            "comment\">{[%eval +0,2] the start}",
            "comment\">{a sound start}",
            "comment\">{just a note}",
            "comment\">{[%eval +1,1]}",
        ]
    );
    let evals: Vec<&str> = list
        .split("<span class=\"eval\">")
        .skip(1)
        .map(|e| &e[..e.find('<').unwrap()])
        .collect();
    assert_eq!(evals, ["+1,3", "-2,3", "+4,4"]);
    assert!(
        out.stdout
            .contains("eval -2,3: north 2 seeds behind at the end, searched 3 plies deep"),
        "the heading's eval line"
    );
}

#[test]
fn the_page_of_a_game_over_before_its_first_move_says_so() {
    let record = "[Game \"olowuka\"]\n[SetUp \"S 0,0,0,0,0,0/1,1,1,1,1,1 20-22\"]\n\
                  [Result \"20-28\"]\n\n20-28\n";
    let heading = "game over (no-moves): south 20 - north 28 with the rows' seeds; north wins";
    let text = run("mancala-render", &["-"], record.as_bytes());
    assert_eq!(text.code, 0, "{}", text.snapshot());
    assert!(text.stdout.contains(heading), "{}", text.stdout);
    let page = run(
        "mancala-render",
        &["--format", "html", "-"],
        record.as_bytes(),
    );
    assert_eq!(page.code, 0, "{}", page.snapshot());
    assert!(page.stdout.contains(heading), "the text's heading");
    assert!(!page.stdout.contains("the starting position"));
    assert!(!page.stdout.contains("to move"), "nobody is to move");
}

/// Tags and comments are input: a page or a picture carries none of their
/// control characters (NUL, ESC, C1) or bidi controls raw, only their
/// escapes, as the text diagrams write them.
#[test]
fn pages_and_pictures_escape_control_and_bidi_characters() {
    let record = "[Game \"olowuka\"]\n[South \"Ann\u{1b}[31m\u{202e}red\"]\n[North \"Bo\u{2066}b\u{9b}\"]\n\
                  [Event \"\u{7}bell\u{200f}\"]\n[Site \"line\u{2028}break\u{feff}\"]\n\n{lead \u{1b}]0;title\u{7}} 1. C {x\u{0}y\u{202e}z\u{2069}} \
                  ( 1. D {in\u{202b}side} ) c *\n";
    let unsafe_char = |c: char| {
        c.is_control() && c != '\n'
            || matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}')
    };
    let page = run(
        "mancala-render",
        &["--format", "html", "-"],
        record.as_bytes(),
    );
    assert_eq!(page.code, 0, "{}", page.snapshot());
    let svg = run(
        "mancala-render",
        &["--format", "svg", "--ply", "1", "-"],
        record.as_bytes(),
    );
    assert_eq!(svg.code, 0, "{}", svg.snapshot());
    for (what, text) in [("page", &page.stdout), ("picture", &svg.stdout)] {
        let found: Vec<(usize, char)> = text
            .char_indices()
            .filter(|(_, c)| unsafe_char(*c))
            .collect();
        assert!(found.is_empty(), "{what}: raw {found:?}");
    }
    for escaped in [
        "Ann\\u{1b}[31m\\u{202e}red",
        "Bo\\u{2066}b\\u{9b}",
        "\\u{7}bell\\u{200f}",
        "line\\u{2028}break\\u{feff}",
    ] {
        assert!(page.stdout.contains(escaped), "{escaped} in the header");
    }
    // Each tag value isolated on its own, so that one in a right-to-left
    // script does not reorder its neighbours.
    assert!(
        page.stdout.contains(
            "<p class=\"tags\">South: <bdi>Ann\\u{1b}[31m\\u{202e}red</bdi> · North: <bdi>Bo\\u{2066}b\\u{9b}</bdi></p>"
        ),
        "{}",
        page.stdout
    );
    // Comments in the move list, and in the steps' data (JSON: the
    // backslash doubled).
    assert!(page.stdout.contains("{x\\u{0}y\\u{202e}z\\u{2069}}"));
    assert!(page.stdout.contains("{in\\u{202b}side}"));
    assert!(page.stdout.contains("x\\\\u{0}y\\\\u{202e}z\\\\u{2069}"));
}

/// The move list numbers moves as the record does (spec/notation.md
/// §6.3): `N.` before South's, `N...` before a North move that opens a
/// round or follows a comment or a variation, from 1 again in each round;
/// each round's refilled board has an entry of its own.
#[test]
fn the_move_list_numbers_moves_as_the_record() {
    let dir = scratch("html-numbering");
    let listed = render_ok(&[
        "--format",
        "html",
        "--output-dir",
        dir.to_str().unwrap(),
        "fixtures/validate/valid-annotated.mgn",
    ]);
    let pallankuzhi = std::fs::read_to_string(listed.lines().nth(2).unwrap()).unwrap();
    let labels: Vec<&str> = pallankuzhi
        .split("<li><button type=\"button\" data-step=\"")
        .skip(1)
        .map(|item| {
            let label = &item[item.find('>').unwrap() + 1..];
            &label[..label.find('<').unwrap()]
        })
        .collect();
    assert_eq!(
        labels[..8],
        [
            "start", "1. G+7", "c+25", "2. A+11", "e+14", "3. A+14", "3... g+3", "4. A"
        ]
    );
    let round_2 = labels
        .iter()
        .position(|l| l.starts_with("R2: round 2 begins"))
        .expect("the refilled board's entry");
    assert_eq!(labels[round_2 - 1], "9. A");
    assert_eq!(labels[round_2 + 1], "1... b+8");
    assert_eq!(labels[round_2 + 2], "2. C+20");
}

/// The names under `dir`, sorted (hidden ones too: no temporary file may
/// be left).
#[cfg(unix)]
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `--output-dir` writes through no link, dangling or not, even with
/// `--force`, and refuses before writing any of the game's documents.
#[cfg(unix)]
#[test]
fn output_dir_never_writes_through_a_link() {
    use std::os::unix::fs::symlink;
    let game = "fixtures/pictures/olowuka.mgn";
    let outside = scratch("output-dir-outside");
    let victim = outside.join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    for (link, target, format, force) in [
        ("game-001.html", victim.clone(), "html", false),
        ("game-001.html", victim.clone(), "html", true),
        ("game-001.html", outside.join("created.txt"), "html", false),
        ("game-001-03.svg", victim.clone(), "svg", true),
        ("game-001-03.svg", outside.join("created.txt"), "svg", false),
    ] {
        let dir = scratch("output-dir-link");
        symlink(&target, dir.join(link)).unwrap();
        let dir_text = dir.to_str().unwrap();
        let mut args = vec![
            "--format",
            format,
            "--laps",
            "1",
            game,
            "--output-dir",
            dir_text,
        ];
        if format == "html" {
            args.splice(2..4, []);
        }
        if force {
            args.push("--force");
        }
        let out = run("mancala-render", &args, b"");
        assert_eq!(out.code, 2, "{args:?}\n{}", out.snapshot());
        assert_eq!(out.stdout, "", "{args:?}");
        assert!(
            out.stderr
                .contains(&format!("{dir_text}/{link} is a symbolic link")),
            "{args:?}\n{}",
            out.stderr
        );
        assert_eq!(names_in(&dir), [link], "{args:?}: nothing else written");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        assert!(!outside.join("created.txt").exists(), "{args:?}");
    }
}

/// A link named like a later game's page is refused before the first game's
/// page is written: a refusal comes before any write of the run.
#[cfg(unix)]
#[test]
fn output_dir_refuses_a_later_games_link_before_any_write() {
    use std::os::unix::fs::symlink;
    let outside = scratch("output-dir-later-outside");
    let victim = outside.join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    let dir = scratch("output-dir-later-link");
    symlink(&victim, dir.join("game-002.html")).unwrap();
    let dir_text = dir.to_str().unwrap();
    let files = games();
    let out = run(
        "mancala-render",
        &[
            "--format",
            "html",
            &files[0],
            &files[1],
            "--output-dir",
            dir_text,
            "--force",
        ],
        b"",
    );
    assert_eq!(out.code, 2, "{}", out.snapshot());
    assert_eq!(out.stdout, "", "nothing listed");
    assert!(
        out.stderr
            .contains(&format!("{dir_text}/game-002.html is a symbolic link")),
        "{}",
        out.stderr
    );
    assert_eq!(names_in(&dir), ["game-002.html"], "nothing written");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
}

/// An existing file is replaced only with `--force`, through a temporary
/// file that does not stay.
#[cfg(unix)]
#[test]
fn output_dir_replaces_a_file_only_when_forced() {
    let game = "fixtures/pictures/olowuka.mgn";
    let dir = scratch("output-dir-existing");
    let dir_text = dir.to_str().unwrap();
    let args = [
        "--format",
        "svg",
        "--laps",
        "1",
        game,
        "--output-dir",
        dir_text,
    ];
    let listed = render_ok(&args);
    let written = names_in(&dir);
    assert_eq!(listed.lines().count(), written.len(), "{written:?}");
    assert!(
        written.iter().all(|n| n.starts_with("game-001-")),
        "{written:?}"
    );
    let third = dir.join("game-001-03.svg");
    let drawn = std::fs::read(&third).unwrap();
    std::fs::write(&third, "mine").unwrap();
    std::fs::remove_file(dir.join("game-001-01.svg")).unwrap();
    let out = run("mancala-render", &args, b"");
    assert_eq!(out.code, 2, "{}", out.snapshot());
    assert!(
        out.stderr.contains(&format!(
            "{dir_text}/game-001-02.svg exists; not replaced (--force replaces it)"
        )),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, "");
    assert!(
        !dir.join("game-001-01.svg").exists(),
        "refused before any write"
    );
    assert_eq!(std::fs::read(&third).unwrap(), b"mine");
    let mut forced = args.to_vec();
    forced.push("--force");
    assert_eq!(render_ok(&forced), listed);
    assert_eq!(std::fs::read(&third).unwrap(), drawn);
    assert_eq!(names_in(&dir), written, "no temporary file left");
}

#[test]
fn an_output_dir_that_is_a_file_or_a_dangling_link_is_not_a_directory() {
    let dir = scratch("output-dir-not-a-directory");
    let file = dir.join("a-file");
    std::fs::write(&file, b"mine").unwrap();
    let mut places = vec![file.clone()];
    #[cfg(unix)]
    {
        let link = dir.join("a-dangling-link");
        std::os::unix::fs::symlink(dir.join("nothing-here"), &link).unwrap();
        places.push(link);
    }
    for place in places {
        let place_text = place.to_str().unwrap();
        let out = run(
            "mancala-render",
            &[
                "--format",
                "html",
                "--output-dir",
                place_text,
                "fixtures/pictures/olowuka.mgn",
            ],
            b"",
        );
        assert_eq!(out.code, 2, "{}", out.snapshot());
        assert!(
            out.stderr
                .contains(&format!("error: {place_text} is not a directory")),
            "{}",
            out.stderr
        );
    }
    assert_eq!(std::fs::read(&file).unwrap(), b"mine");
}

/// A write that fails (here a file size limit, as a full disk would)
/// leaves neither a partial document nor the temporary file, and exits 2.
#[cfg(unix)]
#[test]
fn a_failed_write_leaves_no_partial_document() {
    let dir = scratch("output-dir-failed-write");
    let render = common::bin("mancala-render");
    // SIGXFSZ ignored, a file of more than 4 KiB fails with EFBIG.
    let script = format!(
        "trap '' XFSZ; ulimit -f 8; exec '{}' --format html --output-dir '{}' fixtures/pictures/olowuka.mgn",
        render.display(),
        dir.display()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .current_dir(root())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("cannot write {}/game-001.html", dir.display())),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    assert_eq!(names_in(&dir), Vec::<String>::new(), "nothing left behind");
}
