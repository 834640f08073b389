//! What the documentation shows works: every record in README.md and spec/
//! is valid, README's shell examples and every example command of the
//! tools' help run, and the help itself is output like any other (a failed
//! write is exit 2).

use crate::common;

use std::fs;
use std::process::Stdio;

use common::{command, root, run};

/// The five tools.
const TOOLS: [&str; 5] = [
    "mancala-play",
    "mancala-validate",
    "mancala-render",
    "mancala-analyze",
    "mancala-filter",
];

/// README.md and every page under spec/, with their paths.
fn doc_pages() -> Vec<std::path::PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut dirs = vec![root().join("spec")];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

/// The project stands alone: no page sends a reader to the team's notes
/// outside it (the rules decisions and the source descriptions of the
/// games), which a clone does not have; spec/rules/ states them in full.
#[test]
fn the_docs_stand_alone() {
    let pages = doc_pages();
    assert!(pages.len() >= 10, "{pages:?}");
    for page in pages {
        let text = fs::read_to_string(&page).unwrap();
        for pointer in ["shared/", "rules.md", "seeds/", "the seed's", "Seed:"] {
            assert!(
                !text.contains(pointer),
                "{} points outside the project: `{pointer}`",
                page.display()
            );
        }
    }
}

/// The fenced blocks of a Markdown file that hold a record (they open with
/// a `[Game` tag), with the line each starts on.
fn records(markdown: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut block: Option<(usize, String)> = None;
    for (i, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            match block.take() {
                Some((start, text)) if text.trim_start().starts_with("[Game") => {
                    found.push((start, text));
                }
                Some(_) => {}
                None => block = Some((i + 2, String::new())),
            }
        } else if let Some((_, text)) = &mut block {
            text.push_str(line);
            text.push('\n');
        }
    }
    found
}

#[test]
fn every_record_in_the_docs_is_valid() {
    let mut checked = 0;
    for file in doc_pages() {
        let text = fs::read_to_string(&file).unwrap();
        for (line, record) in records(&text) {
            let out = run("mancala-validate", &["--quiet", "-"], record.as_bytes());
            assert_eq!(
                out.code,
                0,
                "{}:{line}: the record there is not valid:\n{}",
                file.display(),
                out.stderr
            );
            checked += 1;
        }
    }
    // README's record and the opening example of spec/notation.md.
    assert!(checked >= 2, "only {checked} records found");
}

/// The command lines of a Markdown file's `sh` blocks, in order, with the
/// line each is on; a comment after the command (`  # …`) is left out.
fn shell_lines(markdown: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    let mut in_sh = false;
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim();
        if let Some(info) = trimmed.strip_prefix("```") {
            in_sh = !in_sh && info == "sh";
        } else if in_sh && !trimmed.is_empty() {
            let command = trimmed.split("  #").next().unwrap_or(trimmed).trim_end();
            lines.push((i + 1, command.to_owned()));
        }
    }
    lines
}

/// README's shell examples run as written, in order, in one fresh
/// directory (later ones read the files earlier ones wrote), with the tools
/// on the `PATH` as `cargo install` puts them (`./target/release/` read as
/// the test's own build). Left out: the `cargo` commands (this test runs
/// under them) and playing at the terminal (`human`). The one example of
/// 1,000 games plays 20 here: the command line is what is checked.
#[test]
fn the_readme_shell_examples_run() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("readme-examples-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let bin_dir = common::bin("mancala-play").parent().unwrap().to_owned();
    let path = std::env::join_paths(
        std::iter::once(bin_dir).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let mut ran = 0;
    for (line, command) in shell_lines(&readme) {
        if command.starts_with("cargo ") || command.contains("human") {
            continue;
        }
        let command = command
            .replace("./target/release/", "")
            .replace("--games 1000 ", "--games 20 ");
        let out = std::process::Command::new("bash")
            .args(["-o", "pipefail", "-c", &command])
            .current_dir(&dir)
            .env("PATH", &path)
            .env("HOME", &dir)
            .env_remove("NO_COLOR")
            .env_remove("RUST_BACKTRACE")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "README.md:{line}: `{command}` failed ({}):\n{stderr}",
            out.status
        );
        assert!(
            !stderr.contains("error"),
            "README.md:{line}: `{command}`:\n{stderr}"
        );
        ran += 1;
    }
    let _ = fs::remove_dir_all(&dir);
    assert!(ran >= 10, "only {ran} README examples ran");
}

/// The manifests say nothing untrue about where the project lives: no
/// placeholder addresses (a `repository` key once held one).
#[test]
fn manifests_hold_no_placeholder_addresses() {
    for manifest in [
        "Cargo.toml",
        "crates/tools/Cargo.toml",
        "crates/rules/Cargo.toml",
        "crates/notation/Cargo.toml",
        "crates/engine/Cargo.toml",
        "crates/fuzz/Cargo.toml",
    ] {
        let text = fs::read_to_string(root().join(manifest)).unwrap();
        for placeholder in ["example.invalid", "example.com", "example.org"] {
            assert!(
                !text.contains(placeholder),
                "{manifest} names {placeholder}"
            );
        }
    }
}

/// The example lines of a tool's `--help` that run the tool itself
/// (interactive ones left out), as arguments.
fn help_examples(tool: &str) -> Vec<Vec<String>> {
    let help = run(tool, &["--help"], b"").stdout;
    help.lines()
        .map(str::trim)
        .filter(|line| line.starts_with(tool) && !line.contains('|') && !line.contains("human"))
        .map(|line| {
            // The example's note follows a wide gap; stdout is the test's.
            let line = line.split("   ").next().unwrap_or(line);
            let line = line.split(" > ").next().unwrap_or(line);
            split_shell_words(&line[tool.len()..])
        })
        .collect()
}

/// Words as a shell splits them, with single quotes only (all the examples
/// need).
fn split_shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                word.get_or_insert_with(String::new);
            }
            c if c.is_whitespace() && !quoted => words.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

#[test]
fn the_play_examples_of_the_help_run() {
    let examples = help_examples("mancala-play");
    let mut ran = 0;
    for args in &examples {
        // Reading a file or stdin: not a stand-alone example.
        if args.iter().any(|a| a == "-" || a.ends_with(".mgn")) {
            continue;
        }
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        // Enough to know the command line is right: few games, short ones.
        if let Some(at) = args.iter().position(|a| *a == "--games") {
            args[at + 1] = "2";
        }
        args.extend(["--max-plies", "40"]);
        let out = run("mancala-play", &args, b"");
        assert_eq!(out.code, 0, "mancala-play {args:?} failed:\n{}", out.stderr);
        ran += 1;
    }
    assert!(ran >= 3, "only {ran} examples ran of {examples:?}");
}

/// What a user of an installed binary reads stands alone: neither help nor
/// man page sends them to a file of the source tree.
#[test]
fn help_and_man_pages_explain_in_place() {
    for tool in TOOLS {
        for flag in ["-h", "--help", "--man"] {
            let out = run(tool, &[flag], b"");
            assert_eq!(out.code, 0, "{tool} {flag}");
            for pointer in [".md", "spec/", "shared", "seeds/"] {
                assert!(
                    !out.stdout.contains(pointer),
                    "{tool} {flag} points at `{pointer}`:\n{}",
                    out.stdout
                );
            }
        }
    }
    // The option words are listed where the flag is.
    let help = run("mancala-play", &["--help"], b"").stdout;
    assert!(help.contains("five-holes [rio-kadalis]"), "{help}");
    let page = run("mancala-render", &["--man"], b"").stdout;
    assert!(
        page.contains("series\\-capture [olinda\\-keliya]"),
        "{page}"
    );
}

/// Help wraps to the terminal's width (`COLUMNS` stands in for a terminal
/// here), and to 100 columns when there is none.
#[test]
fn help_wraps_to_the_terminal() {
    for tool in TOOLS {
        for flag in ["-h", "--help"] {
            for (columns, width) in [(None, 100), (Some("60"), 60)] {
                let mut cmd = command(tool, &[flag]);
                if let Some(columns) = columns {
                    cmd.env("COLUMNS", columns);
                }
                let out = cmd.output().unwrap();
                let help = String::from_utf8(out.stdout).unwrap();
                assert!(help.lines().count() > 10, "{tool} {flag}: {help}");
                for line in help.lines() {
                    assert!(
                        line.chars().count() <= width,
                        "{tool} {flag} (COLUMNS={columns:?}): a line wider than {width}:\n{line}"
                    );
                }
            }
        }
    }
}

#[test]
fn help_and_version_that_cannot_be_written_exit_2() {
    let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // Not on this system: nothing to check.
    };
    for tool in TOOLS {
        for flag in ["--help", "--version"] {
            let out = command(tool, &[flag])
                .stdout(full.try_clone().unwrap())
                .stderr(Stdio::piped())
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2), "{tool} {flag}");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains("cannot write to stdout"),
                "{tool} {flag}: {stderr}"
            );
        }
    }
}

/// Each man page has the tool's examples and exit status as sections of
/// their own, one example a line (clap_mangen would run them together).
#[test]
fn man_pages_have_examples_and_exit_status_sections() {
    for tool in TOOLS {
        let out = run(tool, &["--man"], b"");
        assert_eq!(out.code, 0, "{tool}: {}", out.stderr);
        let page = out.stdout;
        let examples = page
            .split(".SH \"EXAMPLES\"\n.nf\n")
            .nth(1)
            .unwrap_or_else(|| panic!("{tool}: no EXAMPLES section"));
        let first = examples.lines().next().unwrap_or_default();
        assert!(first.starts_with("mancala\\-"), "{tool}: {first}");
        assert!(page.contains(".SH \"EXIT STATUS\"\n.nf\n0 "), "{tool}");
        assert!(!page.contains(".SH EXTRA"), "{tool}");
    }
}

/// README's man page command puts the pages where `man` finds them on a
/// stock Debian: in a fresh home whose `~/.cargo/bin` (as `cargo install`
/// fills it) is on the `PATH`, with no `MANPATH`, `man -w` finds each.
#[test]
fn the_man_pages_install_where_man_finds_them() {
    if std::process::Command::new("man")
        .arg("-w")
        .arg("man")
        .output()
        .is_err()
    {
        common::skip_for_want_of(
            "the_man_pages_install_where_man_finds_them",
            "no `man`",
            "apt-get install man-db",
        );
        return;
    }
    let home = common::scratch("man-home");
    let bin = home.join(".cargo/bin");
    fs::create_dir_all(&bin).unwrap();
    for tool in TOOLS {
        std::os::unix::fs::symlink(common::bin(tool), bin.join(tool)).unwrap();
    }
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let install: Vec<String> = shell_lines(&readme)
        .into_iter()
        .map(|(_, line)| line)
        .skip_while(|line| !line.contains("man/man1"))
        .take_while(|line| line.contains("man/man1") || line.contains("--man"))
        .collect();
    assert_eq!(install.len(), 2, "{install:?}");
    let path = format!("{}:/usr/local/bin:/usr/bin:/bin", bin.display());
    let shell = |line: &str| {
        std::process::Command::new("bash")
            .args(["-c", line])
            .env_clear()
            .env("HOME", &home)
            .env("PATH", &path)
            .output()
            .unwrap()
    };
    for line in &install {
        let out = shell(line);
        assert!(
            out.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for tool in TOOLS {
        let found = shell(&format!("man -w {tool}"));
        assert!(
            found.status.success(),
            "man -w {tool}: {}",
            String::from_utf8_lossy(&found.stderr)
        );
        let page = home.join(format!(".cargo/share/man/man1/{tool}.1"));
        assert_eq!(
            String::from_utf8_lossy(&found.stdout).trim(),
            page.to_str().unwrap()
        );
    }
}
