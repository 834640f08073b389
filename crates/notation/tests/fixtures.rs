//! Every notation fixture, parsed: the record as JSON and its canonical print
//! for valid games, `file:line:col: message` for invalid ones. Printing the
//! canonical form again must change nothing, and the JSON record form
//! (compact, or pretty as jq prints it) must read back as the same record.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use mancala_notation::{JsonReader, Reader, parse_game, parse_json_game};

fn fixtures(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/notation")
        .join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mgn"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    files
}

/// Parses a fixture file game by game, as the tools do.
fn describe(path: &Path) -> (String, usize, usize) {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let reader = Reader::new(BufReader::new(File::open(path).unwrap()));
    let mut out = String::new();
    let (mut valid, mut invalid) = (0, 0);
    for (i, game) in reader.enumerate() {
        let game = game.unwrap();
        out.push_str(&format!("--- game {} (line {})\n", i + 1, game.first_line));
        match game.parse() {
            Ok(parsed) => {
                valid += 1;
                let printed = parsed.record.to_string();
                let again = parse_game(&printed).expect("the canonical print parses");
                assert_eq!(again.record, parsed.record, "{name}: parse(print(r)) != r");
                assert_eq!(
                    again.record.to_string(),
                    printed,
                    "{name}: printing is not stable"
                );
                let json = serde_json::to_string(&parsed.record).unwrap();
                let pretty = serde_json::to_string_pretty(&parsed.record).unwrap();
                for form in [&json, &pretty] {
                    let values: Vec<_> = JsonReader::new(form.as_bytes()).collect();
                    assert_eq!(values.len(), 1, "{name}: one record, one JSON value");
                    let value = values[0].as_ref().unwrap().source().unwrap();
                    let from_json =
                        parse_json_game(value).unwrap_or_else(|e| panic!("{name}: {form}: {e}"));
                    assert_eq!(from_json.record, parsed.record, "{name}: JSON -> record");
                }
                out.push_str(&json);
                out.push_str("\n\n");
                out.push_str(&printed);
            }
            Err(err) => {
                invalid += 1;
                let (line, col) = game.line_col(err.span.start);
                out.push_str(&format!("{name}:{line}:{col}: {err}\n"));
            }
        }
    }
    (out, valid, invalid)
}

#[test]
fn valid_fixtures() {
    for path in fixtures("valid") {
        let (text, valid, invalid) = describe(&path);
        assert!(
            valid > 0 && invalid == 0,
            "{}: expected only valid games:\n{text}",
            path.display()
        );
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        insta::assert_snapshot!(format!("valid-{name}"), text);
    }
}

#[test]
fn invalid_fixtures() {
    for path in fixtures("invalid") {
        let (text, _, invalid) = describe(&path);
        assert!(
            invalid > 0,
            "{}: expected an invalid game:\n{text}",
            path.display()
        );
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        insta::assert_snapshot!(format!("invalid-{name}"), text);
    }
}
