//! Composite types of empty points (§5.2).
//!
//! An empty point has, for one colour, a type in each of the four directions. The unordered
//! multiset of those four types (1,365 of them) is mapped to one of five classes used to order
//! moves. The paper's own mapping is empirical and not printed; ours counts the direct threats a
//! stone on the point would create:
//!
//! * `Win`: some direction becomes `WIN` (the stone completes six);
//! * `Good`: the stone creates two or more threats in all (`DW` counts 3, `L5`/`L4` count 2,
//!   `D5`/`S4`/`D4` count 1);
//! * `Normal`: it creates one threat, or raises two directions to `L3`/`S3`;
//! * `Bad`: it improves at least one direction;
//! * `Useless`: it improves nothing.

use crate::ConnType;

/// Class of a composite type, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Composite {
    /// Improves no connection.
    Useless = 0,
    /// Improves something, without threat.
    Bad = 1,
    /// One threat, or two threes.
    Normal = 2,
    /// Two or more threats.
    Good = 3,
    /// Completes six.
    Win = 4,
}

impl Composite {
    /// Every class, worst first.
    pub const ALL: [Composite; 5] = [
        Composite::Useless,
        Composite::Bad,
        Composite::Normal,
        Composite::Good,
        Composite::Win,
    ];

    /// Upper-case name: `USELESS`, `BAD`, `NORMAL`, `GOOD`, `WIN`.
    pub const fn name(self) -> &'static str {
        match self {
            Composite::Useless => "USELESS",
            Composite::Bad => "BAD",
            Composite::Normal => "NORMAL",
            Composite::Good => "GOOD",
            Composite::Win => "WIN",
        }
    }
}

/// Threats a direction of type `t` contributes once the stone is on the point, in a game of
/// `p` stones per move: `DW` p + 1, the live types p, the other direct threats 1.
fn threat_weight(t: ConnType, p: u32) -> u32 {
    use ConnType::*;
    match t {
        DW => p + 1,
        L5 | L4 => p,
        D5 | S4 | D4 => 1,
        _ => 0,
    }
}

/// Class of the Connect6 composite type made of the four directional point types `types`.
pub fn composite_class(types: [ConnType; 4]) -> Composite {
    composite_class_for(2, types)
}

/// Class of the composite type made of the four directional point types `types`, in a game of
/// `p` stones per move.
pub fn composite_class_for(p: u32, types: [ConnType; 4]) -> Composite {
    if types.contains(&ConnType::WIN) {
        return Composite::Win;
    }
    let threats: u32 = types.iter().map(|&t| threat_weight(t, p)).sum();
    let threes = types
        .iter()
        .filter(|&&t| matches!(t, ConnType::L3 | ConnType::S3))
        .count();
    if threats >= 2 {
        Composite::Good
    } else if threats == 1 || threes >= 2 {
        Composite::Normal
    } else if types.iter().any(|&t| t != ConnType::O) {
        Composite::Bad
    } else {
        Composite::Useless
    }
}

/// Entries of the composite table: 12^4, indexed `t0 + 12·t1 + 144·t2 + 1728·t3`.
pub const COMPOSITE_TABLE_LEN: usize = 12 * 12 * 12 * 12;

/// The Connect6 composite table (the paper's `MultiTbl[T1][T2][T3][T4]`): class code per
/// ordered 4-tuple of type codes.
pub fn composite_table() -> Vec<u8> {
    composite_table_for(2)
}

/// The composite table of a game of `p` stones per move.
pub fn composite_table_for(p: u32) -> Vec<u8> {
    (0..COMPOSITE_TABLE_LEN)
        .map(|i| {
            let t = |d: usize| ConnType::ALL[i / 12usize.pow(d as u32) % 12];
            composite_class_for(p, [t(0), t(1), t(2), t(3)]) as u8
        })
        .collect()
}
