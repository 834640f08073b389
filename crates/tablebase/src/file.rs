//! A layer on disk (spec/tablebase.md): a magic line, a text header, one
//! entry byte per position in index order, and an FNV-1a 64-bit checksum
//! of everything before it, checked on open.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::layout::{Extra, Layout};
use crate::{Corruption, TablebaseError};

const MAGIC: &[u8] = b"mancala-tablebase 1\n";

/// FNV-1a, 64 bits.
fn checksum(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The directory of a game's layers under `dir`: the game id, then its
/// options and a lap budget other than the default, `_` for spaces.
pub(crate) fn game_dir(dir: &Path, layout: &Layout) -> PathBuf {
    dir.join(rules_name(layout))
}

fn rules_name(layout: &Layout) -> String {
    let rules = layout.rules();
    let mut name = rules.game().as_str().to_owned();
    let options = rules.options().to_string();
    if !options.is_empty() {
        name.push('_');
        name.push_str(&options.replace(' ', "_"));
    }
    if rules.lap_budget() != mancala_rules::DEFAULT_LAP_BUDGET {
        name.push_str(&format!("_budget={}", rules.lap_budget()));
    }
    name
}

pub(crate) fn layer_path(dir: &Path, layout: &Layout, k: u32) -> PathBuf {
    game_dir(dir, layout).join(format!("seeds-{k:02}.tb"))
}

fn header(layout: &Layout, k: u32) -> String {
    let rules = layout.rules();
    let extra = match layout.extra() {
        Extra::None => "none".to_owned(),
        Extra::Dir => "direction".to_owned(),
        Extra::Store { goal } => format!("store goal={goal}"),
    };
    format!(
        "game={}\noptions={}\nlap-budget={}\nholes={}\nseeds-on-board={k}\nextra={extra}\nentries={}\n\n",
        rules.game(),
        rules.options(),
        rules.lap_budget(),
        rules.holes(),
        layout.layer_len(k),
    )
}

/// Writes layer `k` (through a temporary file renamed into place, so that
/// a file present is a file finished).
pub(crate) fn write_layer(
    dir: &Path,
    layout: &Layout,
    k: u32,
    entries: &[u8],
) -> Result<(), TablebaseError> {
    let path = layer_path(dir, layout, k);
    let io = |error| TablebaseError::Io {
        path: path.clone(),
        error,
    };
    fs::create_dir_all(game_dir(dir, layout)).map_err(io)?;
    let mut bytes = Vec::with_capacity(entries.len() + 256);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(header(layout, k).as_bytes());
    bytes.extend_from_slice(entries);
    let sum = checksum(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    let tmp = path.with_extension("tb.part");
    let mut file = fs::File::create(&tmp).map_err(io)?;
    file.write_all(&bytes).map_err(io)?;
    file.sync_all().map_err(io)?;
    fs::rename(&tmp, &path).map_err(io)
}

/// Reads layer `k`, its checksum and header checked; `Ok(None)` when the
/// file is absent.
pub(crate) fn read_layer(
    dir: &Path,
    layout: &Layout,
    k: u32,
) -> Result<Option<Vec<u8>>, TablebaseError> {
    let path = layer_path(dir, layout, k);
    let bytes = match fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(TablebaseError::Io { path, error }),
    };
    let corrupt = |problem| TablebaseError::Corrupt {
        path: path.clone(),
        problem,
    };
    if bytes.len() < MAGIC.len() + 8 || !bytes.starts_with(MAGIC) {
        return Err(corrupt(Corruption::NotATablebase));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    let mut stored = [0u8; 8];
    stored.copy_from_slice(sum);
    if checksum(body) != u64::from_le_bytes(stored) {
        return Err(corrupt(Corruption::Checksum));
    }
    let expected = header(layout, k);
    let rest = &body[MAGIC.len()..];
    if !rest.starts_with(expected.as_bytes()) {
        return Err(corrupt(Corruption::OtherRules));
    }
    let entries = &rest[expected.len()..];
    if entries.len() as u64 != layout.layer_len(k) {
        return Err(corrupt(Corruption::Length));
    }
    Ok(Some(entries.to_vec()))
}
