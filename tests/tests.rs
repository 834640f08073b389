//! The root package's integration tests, one module per area, linked into
//! one test binary (as ripgrep's `tests/tests.rs` is): fourteen binaries
//! cost fourteen links of the same dependencies on every change.
//!
//! Run one area with its module's path: `cargo test --test tests validate::`.
//! The fuzz harness (`tests/fuzz.rs`) stays a binary of its own: its
//! 3-second budget, shared with the other tests, reached a quarter of its
//! cases (248 instead of 917 at the fixed seed).
//!
//! Insta names a snapshot after the module, so `tests/snapshots/` holds
//! `tests__<module>__<name>.snap`.

mod common;

mod adversarial;
mod analyze;
mod annotated;
mod browser;
mod discover;
mod docs;
mod endgames;
mod hostile;
mod pictures;
mod pipeline;
mod play;
mod render;
mod replay;
mod seat;
mod validate;

/// With autotests off, a file in a tests/ folder runs only if its tests.rs
/// declares it (or a manifest makes it a target of its own, as fuzz.rs), and insta looks for a snapshot under the module's path: a
/// file added beside the others, or a snapshot named the old way (one
/// binary per file), would be silently left out.
#[test]
fn every_test_file_is_a_module_and_every_snapshot_is_named_for_one() {
    let root = common::root();
    for dir in [
        "tests",
        "crates/rules/tests",
        "crates/notation/tests",
        "crates/engine/tests",
    ] {
        let dir = root.join(dir);
        let declared = std::fs::read_to_string(dir.join("tests.rs")).unwrap();
        // Or a test target of its own, named in a manifest.
        let manifests: String = [
            "Cargo.toml",
            "crates/tools/Cargo.toml",
            "crates/rules/Cargo.toml",
            "crates/notation/Cargo.toml",
            "crates/engine/Cargo.toml",
        ]
        .iter()
        .filter_map(|manifest| std::fs::read_to_string(root.join(manifest)).ok())
        .collect();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            // Modules are files (`validate.rs`) or folders (`common/`).
            let module = match name.strip_suffix(".rs") {
                Some(module) => Some(module),
                None if path.is_dir() && name != "snapshots" => Some(name.as_str()),
                None => None,
            };
            if let Some(module) = module.filter(|m| *m != "tests") {
                assert!(
                    declared.contains(&format!("mod {module};\n"))
                        || manifests.contains(&format!("tests/{module}.rs\"")),
                    "{}: not a module of {}/tests.rs",
                    path.display(),
                    dir.display()
                );
            }
            if name == "snapshots" {
                for snapshot in std::fs::read_dir(&path).unwrap() {
                    let snapshot = snapshot.unwrap().file_name().to_string_lossy().into_owned();
                    assert!(
                        !snapshot.ends_with(".snap") || snapshot.starts_with("tests__"),
                        "{}/{snapshot}: insta names it tests__<module>__<name>.snap",
                        path.display()
                    );
                }
            }
        }
    }
}
