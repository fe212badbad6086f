//! Mutated inputs for the fuzz tests: real records of every format, changed by a few random
//! edits (inserting multi-byte characters, bytes that are not UTF-8, brackets, huge numbers;
//! deleting, duplicating, splicing, truncating).

use cpbim::Game;

/// A small deterministic generator (splitmix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Valid inputs of every format the readers know, finished games included.
pub fn corpus() -> Vec<Vec<u8>> {
    let diagram = {
        let pos = cpbim::parse_position("J10 K11 I11 H11 I10", Game::CONNECT6).unwrap();
        pos.to_diagram()
    };
    let finished = "J10 A1 A2 D5 E5 A3 A4 F5 G5 A6 A7 H5 C7 A8 A9 I5";
    let gomoku = cpbim::parse_position("h8 i9 j10", Game::GOMOKU)
        .unwrap()
        .to_diagram();
    [
        "J10 K11 I11 H11 I10",
        "j10, k11 # white\n i11",
        &diagram,
        &gomoku,
        finished,
        "(;FF[4]GM[Connect6]SZ[19]PB[甲]PW[乙]RE[B+];B[j10];W[k11i11];B[h11i10])",
        "(;B[JJ];W[LH];W[HH];B[KK];B[JK])",
        "(;B[j10](;W[j9l11])(;W[a1a2]))",
        "{[C6][先手参赛队 甲 B][后手参赛队 乙 W][先手胜][2017.07.29 14:00 重庆][2017 CCGC];B(J,10);W(K,11)MARK[1];W(L,10);B(I,9);B(K,9)}",
        "game_id,moves,winner,original_winner_label\n1,\"j10,k11,i11,h11,i10\",white,white",
        "84,\"j10,k11,i11\",black,black",
        "h8 i9 j10 k11 h9 i10",
        "(;GM[4]SZ[15];B[h8];W[i9];B[j10])",
        "X-J8",
        "TT-L10",
        "",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect()
}

const SPICE: &[&[u8]] = &[
    "é".as_bytes(),
    "中".as_bytes(),
    "💥".as_bytes(),
    "\u{feff}".as_bytes(),
    b"\0",
    b"\r",
    b"\t",
    b"\n",
    b" ",
    b"(",
    b")",
    b"[",
    b"]",
    b";",
    b",",
    b"{",
    b"}",
    b"#",
    b".",
    b"-",
    b"\\",
    b"\"",
    b"0",
    b"19",
    b"20",
    b"99999999999999999999999",
    b"T",
    b"s",
    b"X",
    b"O",
    b"B",
    b"W",
    b"MARK[1]",
    b"\xFF",
    b"\xE9",
    b"\xC3",
    b"\xE4\xB8",
];

/// `seed` with 1 to 6 random edits; `others` are spliced from.
pub fn mutate(seed: &[u8], others: &[Vec<u8>], rng: &mut Rng) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..1 + rng.below(6) {
        let at = rng.below(v.len() + 1);
        match rng.below(7) {
            0 => {
                let s = SPICE[rng.below(SPICE.len())];
                v.splice(at..at, s.iter().copied());
            }
            1 if !v.is_empty() => {
                let end = (at + 1 + rng.below(8)).min(v.len());
                v.drain(at.min(end)..end);
            }
            2 if at < v.len() => v[at] = rng.next() as u8,
            3 if at < v.len() => {
                let end = (at + 1 + rng.below(16)).min(v.len());
                let piece = v[at..end].to_vec();
                v.splice(at..at, piece);
            }
            4 => v.truncate(at),
            5 => {
                let other = &others[rng.below(others.len())];
                let from = rng.below(other.len() + 1);
                let end = (from + rng.below(24)).min(other.len());
                v.splice(at..at, other[from..end].iter().copied());
            }
            _ if v.len() >= 2 => {
                let (a, b) = (at.min(v.len() - 1), rng.below(v.len()));
                v.swap(a, b);
            }
            _ => {}
        }
    }
    v
}

/// `n` mutated inputs from a fixed seed.
pub fn mutated(n: usize, seed: u64) -> Vec<Vec<u8>> {
    let corpus = corpus();
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| {
            let s = &corpus[rng.below(corpus.len())];
            mutate(s, &corpus, &mut rng)
        })
        .collect()
}
