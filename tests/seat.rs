//! mancala-play's human seat: what it reads (the forms people type, keys
//! that are not text) and what it tells (each move's laps and gains, round
//! ends, the winner in words). Through piped stdin, and in a real terminal:
//! tmux runs the seat, keys are sent to it and the screen is read back.
//!
//! The terminal test leaves the screen it saw in
//! `target/tmp/seat-terminal/screen.txt` for review. It needs `tmux` on the PATH (`.ci/run` installs Debian's
//! `tmux`). Without it the test says so and passes, except under
//! `CI=true`, where a missing tmux fails it.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::{bin, run, scratch};

/// Lines that try every South hole in turn, over and over: the seat refuses
/// those it cannot play and asks again, so a game is played to its end.
fn every_hole_in_turn() -> Vec<u8> {
    "A\nB\nC\nD\nE\nF\nG\n".repeat(400).into_bytes()
}

fn human_south(extra: &[&str], answers: &[u8]) -> common::Run {
    let mut args = vec!["--south", "human", "--north", "greedy", "--color", "never"];
    args.extend(extra);
    run("mancala-play", &args, answers)
}

#[test]
fn the_end_is_told_in_words() {
    let out = human_south(&["--seed", "4"], &every_hole_in_turn());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("[Result \"20-28\"]"), "{}", out.stdout);
    // The winner's count first.
    assert!(
        out.stderr
            .contains("game over (twenty-five): North wins 28-20\n"),
        "{}",
        out.stderr
    );
}

/// Rio Kadalis: a four made in a row during sowing goes to the row's owner,
/// so a side gains on its opponent's move; the note says so, with the
/// winnings before and after. Round ends and the match's winner are told.
#[test]
fn every_gain_and_round_end_is_told() {
    let out = human_south(
        &["--game", "rio-kadalis", "-o", "rounds=2", "--seed", "3"],
        &every_hole_in_turn(),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    // North's move makes fours in both rows: North takes c and d, South A.
    assert!(
        out.stderr.contains(
            "north plays e: 7 laps, ending in a, D, B, E, b, e, B\n  north +8 from c, d: winnings 4 -> 12\n  south +4 from A: winnings 0 -> 4\n"
        ),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains(
            "round 1 over (no-moves): south 16, north 32: North wins the round 32-16\nround 2 begins\n"
        ),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("game over (rounds-played): North wins the match 36-12\n"),
        "{}",
        out.stderr
    );
}

#[test]
fn moves_are_read_as_people_type_them() {
    // Olinda Keliya's first move chooses a direction: `E ccw` and `E:CCW`
    // are E:ccw; a bare E is asked its direction.
    for (typed, record) in [
        ("E ccw\n", "1. E:ccw"),
        ("E:CCW\n", "1. E:ccw"),
        ("1. e Cw\n", "1. E:cw"),
        ("E\ncw\n", "1. E:cw"),
        ("E\n:CCW\n", "1. E:ccw"),
    ] {
        let answers = format!("{typed}quit\n");
        let out = human_south(
            &["--game", "olinda-keliya", "--seed", "4"],
            answers.as_bytes(),
        );
        assert_eq!(out.code, 0, "{typed:?}: {}", out.stderr);
        assert!(out.stdout.contains(record), "{typed:?}: {}", out.stdout);
    }
    let out = human_south(
        &["--game", "olinda-keliya", "--seed", "4"],
        b"E\nF:cw\nquit\n",
    );
    assert!(
        out.stderr
            .contains("E sows which way? ccw (counter-clockwise) or cw (clockwise)> "),
        "{}",
        out.stderr
    );
    // Another move instead of a direction is read as that move.
    assert!(out.stdout.contains("1. F:cw"), "{}", out.stdout);

    // A move number, `1...` for North, and `+N`, checked as a record's: a
    // wrong count is refused and asked again.
    let out = human_south(&["--seed", "4"], b"1. A+2\n1. A+3\n1... a+0\nquit\n");
    assert!(
        out.stderr
            .contains("move A is annotated +2, but south gains 0 seeds with it; not played"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("move A is annotated +3, but south gains 0 seeds with it; not played"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.contains("1. A f+3 *"), "{}", out.stdout);
    let out = human_south(&["--seed", "4"], b"1. A b\nhello\n24-24\nquit\n");
    for said in [
        "`1. A b` holds 2 moves: type one move at a time",
        "`hello` is not a move: type a hole such as E",
        "a typed move holds moves only, not a result",
    ] {
        assert!(out.stderr.contains(said), "{said}: {}", out.stderr);
    }
}

/// Keys that are not text, through a pipe: an arrow key alone is ignored
/// with a word, one before a move is dropped, and none of it is written
/// back.
#[test]
fn arrow_keys_are_ignored() {
    let out = human_south(&["--seed", "4"], b"\x1b[A\n\x1b[B\x1bOCA\nquit\n");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("arrow and other control keys are ignored: type a move, or help"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.contains("1. A f+3 *"), "{}", out.stdout);
    assert!(!out.stderr.contains('\x1b'), "{}", out.stderr);
}

/// The tmux on the PATH, or `None` (with a message) when the test is to be
/// skipped.
fn tmux_or_skip(test: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&paths)
        .map(|dir| dir.join("tmux"))
        .find(|path| path.is_file());
    if found.is_none() {
        common::skip_for_want_of(
            test,
            "no tmux found",
            "install Debian's `tmux`, as .ci/run does",
        );
    }
    found
}

/// A tmux server of the test's own (its own socket, named after the test's
/// process, in tmux's directory for sockets: a path under the checkout could
/// pass the 108 bytes a socket's path may have; no configuration read),
/// running one command in one pane; killed when dropped.
struct Terminal {
    tmux: PathBuf,
    socket: String,
}

impl Terminal {
    const SESSION: &str = "seat";

    /// Starts `command` (a shell command line) in a 120 x 50 terminal; the
    /// pane stays when it ends, so its screen and exit status can be read.
    fn start(tmux: PathBuf, command: &str) -> Terminal {
        let terminal = Terminal {
            tmux,
            socket: format!("mancala-seat-test-{}", std::process::id()),
        };
        let out = terminal.tmux(&[
            "new-session",
            "-d",
            "-s",
            Terminal::SESSION,
            "-x",
            "120",
            "-y",
            "50",
            command,
            ";",
            "set-option",
            "-t",
            Terminal::SESSION,
            "remain-on-exit",
            "on",
        ]);
        assert!(out.status.success(), "tmux: {out:?}");
        terminal
    }

    fn tmux(&self, args: &[&str]) -> Output {
        Command::new(&self.tmux)
            .args(["-L", &self.socket])
            .args(["-f", "/dev/null"])
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("cannot run tmux")
    }

    /// Types `text` and presses Enter.
    fn type_line(&self, text: &str) {
        self.keys(&["-l", text]);
        self.keys(&["Enter"]);
    }

    /// Presses keys by tmux's names (`Up`, `Enter`), or sends `-l` text.
    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", Terminal::SESSION];
        args.extend(keys);
        let out = self.tmux(&args);
        assert!(out.status.success(), "send-keys {keys:?}: {out:?}");
    }

    /// The screen and its scrollback, wrapped lines joined.
    fn screen(&self) -> String {
        let out = self.tmux(&[
            "capture-pane",
            "-p",
            "-J",
            "-S",
            "-",
            "-t",
            Terminal::SESSION,
        ]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits (up to a minute) until the screen shows `text` `count` times;
    /// the screen then.
    fn wait_for(&self, text: &str, count: usize) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.matches(text).count() >= count {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no {text:?} (x{count}) on the screen after a minute:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Waits (up to a minute) until the file `path` holds a line: the exit
/// status the command line writes there. (tmux can mark a pane dead before
/// it has its command's exit status: the file does not depend on that.)
fn wait_for_status(path: &Path, terminal: &Terminal) -> String {
    let start = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && let Some(line) = text.strip_suffix('\n')
        {
            return line.to_owned();
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "still running after a minute:\n{}",
            terminal.screen()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

/// A person at a terminal: the seat's prompts and notes on the screen, a
/// hole that does not exist, an arrow key, a move typed without its
/// direction, a wrong `+N`, a move number and a hole in the other case;
/// then quit, and the record written.
#[test]
fn the_seat_in_a_real_terminal() {
    let Some(tmux) = tmux_or_skip("the_seat_in_a_real_terminal") else {
        return;
    };
    let dir = scratch("seat-terminal");
    let record = dir.join("record.mgn");
    let _ = std::fs::remove_file(&record);
    let status = dir.join("status");
    let _ = std::fs::remove_file(&status);
    let command = format!(
        "'{}' --game olinda-keliya --south human --north greedy --seed 4 > '{}'; echo $? > '{}'",
        bin("mancala-play").display(),
        record.display(),
        status.display()
    );
    let terminal = Terminal::start(tmux, &command);
    let prompt = "south to move [";
    terminal.wait_for(prompt, 1);

    terminal.type_line("Z");
    terminal.wait_for("illegal: there is no hole Z: rows have 7 holes", 1);

    terminal.keys(&["Up"]);
    terminal.keys(&["Enter"]);
    terminal.wait_for(
        "arrow and other control keys are ignored: type a move, or help",
        1,
    );

    terminal.type_line("E");
    terminal.wait_for(
        "E sows which way? ccw (counter-clockwise) or cw (clockwise)>",
        1,
    );
    terminal.type_line("CW");
    let screen = terminal.wait_for("north plays f", 1);
    for said in [
        "south plays E:cw: 7 laps, ending in A, c, E, f, G, A, f",
        "  south +6 from d: store 0 -> 6",
        "north plays f: 7 laps, ending in F, f, A, c, e, g, c",
        "  north +2 from e: store 0 -> 2",
    ] {
        assert!(
            screen.contains(said),
            "{said:?} not on the screen:\n{screen}"
        );
    }

    terminal.type_line("B+99");
    terminal.wait_for("move B is annotated +99, but south gains", 1);
    terminal.type_line("2. b");
    terminal.wait_for("south plays B", 1);
    terminal.wait_for(prompt, 6);
    terminal.type_line("quit");
    assert_eq!(wait_for_status(&status, &terminal), "0");
    let screen = terminal.wait_for("game left unfinished", 1);
    // Left for review, as the browser test leaves its screenshot.
    std::fs::write(dir.join("screen.txt"), &screen).unwrap();
    assert!(screen.contains("game left unfinished"), "{screen}");
    // Nothing the seat wrote moved the cursor or changed the screen's
    // state: every prompt starts its own line.
    for line in screen.lines().filter(|l| l.contains(prompt)) {
        assert!(line.starts_with(prompt), "{line:?} in:\n{screen}");
    }
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains("1. E:cw+6 f+2 2. B"), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");
}
