//! Running the real binaries for snapshot tests: exit code, stdout and
//! stderr together.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The workspace root: paths in snapshots are relative to it. These tests
/// belong to the package in `crates/tools`, two folders down.
pub fn root() -> PathBuf {
    let package = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    package.ancestors().nth(2).unwrap_or(package).to_path_buf()
}

pub fn bin(name: &str) -> PathBuf {
    match name {
        "mancala-play" => PathBuf::from(env!("CARGO_BIN_EXE_mancala-play")),
        "mancala-validate" => PathBuf::from(env!("CARGO_BIN_EXE_mancala-validate")),
        "mancala-render" => PathBuf::from(env!("CARGO_BIN_EXE_mancala-render")),
        "mancala-analyze" => PathBuf::from(env!("CARGO_BIN_EXE_mancala-analyze")),
        "mancala-filter" => PathBuf::from(env!("CARGO_BIN_EXE_mancala-filter")),
        "mancala-tablebase" => PathBuf::from(env!("CARGO_BIN_EXE_mancala-tablebase")),
        other => panic!("unknown binary {other}"),
    }
}

/// What a run produced.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The form snapshots take.
    pub fn snapshot(&self) -> String {
        format!(
            "exit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// A tool as a user runs it, from the workspace root, with neither the
/// caller's backtrace setting, nor the colour variables, nor `COLUMNS`
/// (help wraps to it).
pub fn command(name: &str, args: &[&str]) -> Command {
    let mut command = Command::new(bin(name));
    command.args(args).current_dir(root());
    for variable in [
        "RUST_BACKTRACE",
        "NO_COLOR",
        "CLICOLOR",
        "CLICOLOR_FORCE",
        "COLUMNS",
    ] {
        command.env_remove(variable);
    }
    command
}

/// Runs a tool from the workspace root with `args`, feeding `stdin`.
pub fn run(name: &str, args: &[&str], stdin: &[u8]) -> Run {
    let mut child = command(name, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {name}: {e}"));
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The tool may stop reading early; that is not the test's concern.
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The `.mgn` files of a fixtures folder, sorted, relative to the root.
pub fn fixtures(dir: &str) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mgn"))
        .map(|p| format!("{dir}/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    files.sort();
    files
}

pub fn stem(path: &str) -> String {
    path.rsplit('/')
        .next()
        .unwrap()
        .trim_end_matches(".mgn")
        .to_owned()
}

/// A fresh folder for one test's files, under Cargo's folder for them
/// (`target/tmp`).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The frames `mancala-render --format json` gives for `args` (one game).
pub fn json_frames(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let out = run("mancala-render", &all, b"");
    assert_eq!(out.code, 0, "{args:?}\n{}", out.snapshot());
    let game: serde_json::Value = serde_json::from_str(out.stdout.lines().next().unwrap()).unwrap();
    game["frames"].as_array().unwrap().clone()
}

/// A test that needs a program this machine lacks (`missing` says what is
/// missing, `install` how to get it) is skipped with a message on stderr,
/// which cargo test shows: it passes without having looked at anything.
/// Under `CI=true` it fails instead: .ci/run installs what the tests need.
pub fn skip_for_want_of(test: &str, missing: &str, install: &str) {
    let in_ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    assert!(!in_ci, "CI=true and {missing}: {install}");
    let _ = writeln!(
        std::io::stderr().lock(),
        "SKIPPED {test}: {missing} ({install}); CI runs this test"
    );
}
