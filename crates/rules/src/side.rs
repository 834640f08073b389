//! The players, the sowing directions and the holes as players name them.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One of the two players. South moves first unless a set-up says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    South,
    North,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    #[must_use]
    pub const fn opposite(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North: the index of this side in per-side arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `S` or `N`, as set-ups write it.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }

    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Sowing direction seen from above: counter-clockwise runs South's row from
/// its `A` to its last hole, then North's row from `a` onwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    Ccw,
    Cw,
}

impl Dir {
    #[must_use]
    pub const fn reverse(self) -> Dir {
        match self {
            Dir::Ccw => Dir::Cw,
            Dir::Cw => Dir::Ccw,
        }
    }

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Dir::Ccw => "ccw",
            Dir::Cw => "cw",
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A hole named the way players name it: its owner and its place counted from
/// the owner's left (0 is `A` / `a`). Serializes as its label (`"E"`, `"e"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hole {
    pub side: Side,
    pub index: u8,
}

impl Hole {
    #[must_use]
    pub const fn new(side: Side, index: u8) -> Hole {
        Hole { side, index }
    }

    /// The hole's label: `A`… for South, `a`… for North.
    #[must_use]
    pub const fn label(self) -> char {
        let base = match self.side {
            Side::South => b'A',
            Side::North => b'a',
        };
        (base + self.index) as char
    }

    /// Reads a label (`A`–`Z` South, `a`–`z` North) without knowing the board size.
    #[must_use]
    #[inline]
    pub fn from_label(c: char) -> Option<Hole> {
        // A table: a replay reads a label for every move.
        LABELS.get(c as usize).copied().flatten()
    }
}

/// [`Hole::from_label`] for the ASCII characters.
const LABELS: [Option<Hole>; 128] = {
    let mut table = [None; 128];
    let mut i = 0;
    while i < 26 {
        table[b'A' as usize + i] = Some(Hole::new(Side::South, i as u8));
        table[b'a' as usize + i] = Some(Hole::new(Side::North, i as u8));
        i += 1;
    }
    table
};

impl fmt::Display for Hole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.label())
    }
}

impl Serialize for Hole {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hole {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Hole, D::Error> {
        let text = String::deserialize(d)?;
        let mut chars = text.chars();
        match (chars.next().and_then(Hole::from_label), chars.next()) {
            (Some(hole), None) => Ok(hole),
            _ => Err(serde::de::Error::custom(format!(
                "invalid hole label `{text}`"
            ))),
        }
    }
}
