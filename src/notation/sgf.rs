//! SGF game records, in the two styles Connect6 software writes:
//!
//! * Little Golem's, one node per move holding one or two stones, each a letter `a`–`s` and a
//!   row number: `(;FF[4]…;B[j10];W[j9l11];B[k9l8])`;
//! * one stone per node with two letters `A`–`S`: `;B[JJ];W[LH];W[HH]` (column, then row
//!   counted from the top as in every SGF, so `JJ` is `J10` and `LH` is `L12`).
//!
//! Gomoku and Renju records (`GM[4]`) use the two-letter style, and so does the writer for every
//! game of one stone per move. A move `resign` (or a pass: `pass`, an empty value, or `tt` on
//! boards up to 19×19) ends the game as servers write it: it must be the last move, and a
//! resignation without `RE` sets the result (`B+R` when white resigns). Several game trees in
//! one text are a collection ([`split_collection`]): the command line reads each as a game.
//!
//! The main line is read (variations are skipped). `PB`, `PW`, `RE`, `DT`, `PC`, `EV` are kept
//! as the record's [`Info`](crate::record::Info); `SZ` must be the game's board (`SZ[19]`,
//! `SZ[15]`, `SZ[9:7]` for 9 columns and 7 rows); other properties are ignored; setup
//! properties (`AB`, `AW`, `AE`) are refused.

use super::cursor::Cursor;
use super::{check_turn, ParseError};
use crate::game::Game;
use crate::geom::{Color, Point, PointError};
use crate::record::{Info, Record};
use crate::text::excerpt;

/// One property of an SGF node: identifier and values, with the byte offset of each value.
struct Property {
    ident: String,
    values: Vec<(usize, String)>,
}

/// The properties the reader uses: moves, the setup it refuses, the board size and the
/// game's information.
const KEPT: [&str; 12] = [
    "B", "W", "AB", "AW", "AE", "SZ", "PB", "PW", "RE", "DT", "PC", "EV",
];

fn sgf_error(offset: usize, reason: String) -> ParseError {
    ParseError::Sgf { offset, reason }
}

/// The SGF reader: the main line of the game tree as a list of nodes.
impl Cursor<'_> {
    /// `( node* tree* )`, read without recursion (variations may nest deeply); returns the
    /// nodes of the main line: the first variation at every branch.
    fn game_tree(&mut self) -> Result<Vec<Vec<Property>>, ParseError> {
        match self.peek() {
            Some('(') => self.pos += 1,
            Some(c) => return Err(self.err(format!("expected '(' but found {c:?}"))),
            None => return Err(ParseError::SgfTruncated("expected '('".into())),
        }
        let mut nodes = Vec::new();
        // Per open tree: is it on the main line, and has it had a variation yet?
        let mut open: Vec<(bool, bool)> = vec![(true, false)];
        while let Some(&(main, _)) = open.last() {
            match self.peek() {
                Some(';') => {
                    self.pos += 1;
                    let node = self.node()?;
                    if main {
                        nodes.push(node);
                    }
                }
                Some('(') => {
                    self.pos += 1;
                    let parent = open.last_mut().expect("a tree is open");
                    let child_main = parent.0 && !parent.1;
                    parent.1 = true;
                    open.push((child_main, false));
                }
                Some(')') => {
                    self.pos += 1;
                    open.pop();
                }
                Some(c) => return Err(self.err(format!("unexpected character {c:?}"))),
                None => return Err(ParseError::SgfTruncated("missing ')'".into())),
            }
        }
        Ok(nodes)
    }

    /// The properties of one node that the reader uses ([`KEPT`]); the others are read for
    /// their syntax and dropped, so that a record's memory follows its moves, not its
    /// comments and markup.
    fn node(&mut self) -> Result<Vec<Property>, ParseError> {
        let mut props = Vec::new();
        while let Some(c) = self.peek() {
            if !c.is_ascii_alphabetic() {
                break;
            }
            let ident = self.run(char::is_ascii_alphabetic).to_string();
            let kept = KEPT.contains(&ident.as_str());
            let mut values = Vec::new();
            let mut any = false;
            while self.peek() == Some('[') {
                self.pos += 1;
                let start = self.pos;
                let value = self.value(&ident, start)?;
                any = true;
                if kept {
                    values.push((start, value));
                }
            }
            if !any {
                return Err(self.err(format!("property {} has no value", excerpt(&ident))));
            }
            if kept {
                props.push(Property { ident, values });
            }
        }
        Ok(props)
    }

    /// A property value up to its closing `]`, with `\` escapes resolved.
    fn value(&mut self, ident: &str, start: usize) -> Result<String, ParseError> {
        let mut value = String::new();
        let mut chars = self.rest().chars();
        while let Some(ch) = chars.next() {
            self.pos += ch.len_utf8();
            match ch {
                ']' => return Ok(value),
                '\\' => {
                    if let Some(n) = chars.next() {
                        self.pos += n.len_utf8();
                        value.push(n);
                    }
                }
                _ => value.push(ch),
            }
        }
        Err(ParseError::SgfTruncated(format!(
            "value of {} at byte {start} has no closing ']'",
            excerpt(ident)
        )))
    }
}

/// Stones of one SGF move value: `j10`, `j9l11` (letter + row number, Little Golem) or `JJ`
/// (two letters, column then row from the top).
fn move_stones(value: &str, offset: usize, game: Game) -> Result<Vec<(Point, String)>, ParseError> {
    let v = value.trim();
    let bad = |reason: String| ParseError::Sgf { offset, reason };
    let letter_index = |c: char| (c.to_ascii_lowercase() as usize).wrapping_sub('a' as usize);
    let pair: Vec<char> = v.chars().collect();
    if pair.len() == 2 && pair.iter().all(char::is_ascii_alphabetic) {
        let (col, from_top) = (letter_index(pair[0]), letter_index(pair[1]));
        if col >= game.m() || from_top >= game.n() {
            let last = |n: usize| (b'A' + n as u8 - 1) as char;
            return Err(ParseError::Point(PointError::OffBoard {
                token: v.to_string(),
                reason: format!(
                    "SGF letters run from A to {} (columns) and A to {} (rows)",
                    last(game.m()),
                    last(game.n())
                ),
            }));
        }
        let p = Point::new(col, game.n() - 1 - from_top).expect("checked range");
        return Ok(vec![(p, v.to_string())]);
    }
    // A letter and digits, once or twice.
    let mut out = Vec::new();
    let mut rest = v;
    while !rest.is_empty() {
        let letter = rest.starts_with(|c: char| c.is_ascii_alphabetic());
        // The first character is ASCII when `letter` holds, so slicing after it is safe.
        let digits = if letter {
            rest[1..].bytes().take_while(u8::is_ascii_digit).count()
        } else {
            0
        };
        if digits == 0 {
            return Err(bad(format!(
                "move value {:?} is neither stones like j10 or j9l11 nor two letters like JJ",
                excerpt(v)
            )));
        }
        let token = &rest[..1 + digits];
        out.push((game.parse_point(token)?, token.to_string()));
        rest = &rest[1 + digits..];
    }
    if out.is_empty() || out.len() > 2 {
        return Err(bad(format!(
            "move value {:?} must hold one or two stones",
            excerpt(v)
        )));
    }
    Ok(out)
}

/// How a move value that places no stone ends the game.
#[derive(Clone, Copy)]
enum End {
    Resign,
    Pass,
}

impl End {
    fn what(self) -> &'static str {
        match self {
            End::Resign => "a resignation",
            End::Pass => "a pass",
        }
    }
}

/// `resign`, or a pass (`pass`, empty, `tt` where the board has no column or row `t`).
fn end_of_game(value: &str, game: Game) -> Option<End> {
    let v = value.trim().to_ascii_lowercase();
    match v.as_str() {
        "resign" => Some(End::Resign),
        "" | "pass" => Some(End::Pass),
        "tt" if game.m() <= 19 && game.n() <= 19 => Some(End::Pass),
        _ => None,
    }
}

/// The game trees of an SGF collection (`(;…)(;…)`, as servers write several games to one
/// file), each as its slice of `text`. A text that is not a well-formed collection comes back
/// whole, for its parse to say what is wrong.
pub fn split_collection(text: &str) -> Vec<&str> {
    let mut reader = Cursor::new(text, sgf_error);
    let mut trees = Vec::new();
    while reader.peek().is_some() {
        let start = reader.pos;
        if reader.game_tree().is_err() {
            return vec![text];
        }
        trees.push(&text[start..reader.pos]);
    }
    if trees.is_empty() {
        return vec![text];
    }
    trees
}

/// The SGF value of a move of `stones`: two letters (column, row from the top: `hh`) in the
/// games of one stone per move, as Gomoku and Renju software reads them; Little Golem's
/// letter and row number per stone (`j10`, `j9l11`) in the others.
pub fn move_value(game: &Game, stones: &[Point]) -> String {
    if game.p() == 1 && game.m() <= 26 && game.n() <= 26 {
        let letter = |i: usize| (b'a' + i as u8) as char;
        return stones
            .iter()
            .flat_map(|p| [letter(p.col()), letter(game.n() - 1 - p.row())])
            .collect();
    }
    stones
        .iter()
        .map(|p| p.to_string().to_ascii_lowercase())
        .collect()
}

fn info_field(info: &mut Info, ident: &str, value: &str) {
    let field = match ident {
        "PB" => &mut info.black,
        "PW" => &mut info.white,
        "RE" => &mut info.result,
        "DT" => &mut info.date,
        "PC" => &mut info.place,
        "EV" => &mut info.event,
        _ => return,
    };
    *field = Some(value.to_string());
}

/// Does the `SZ` value name `game`'s board (`19`, or `m:n`)?
fn size_fits(value: &str, game: Game) -> bool {
    let v = value.trim();
    let (m, n) = v.split_once(':').unwrap_or((v, v));
    m.trim().parse::<usize>().ok() == Some(game.m())
        && n.trim().parse::<usize>().ok() == Some(game.n())
}

/// Read an SGF game record of `game` (either style) and play its main line.
pub fn parse_sgf(text: &str, game: Game) -> Result<Record, ParseError> {
    let mut reader = Cursor::new(text, sgf_error);
    let nodes = reader.game_tree()?;
    if let Some(c) = reader.peek() {
        return Err(reader.err(format!("unexpected {c:?} after the game tree")));
    }
    let mut info = Info::default();
    let mut stones: Vec<(Point, String)> = Vec::new();
    let mut ended: Option<End> = None;
    for prop in nodes.into_iter().flatten() {
        let (offset, first) = &prop.values[0];
        let color = match prop.ident.as_str() {
            "B" => Color::Black,
            "W" => Color::White,
            "AB" | "AW" | "AE" => {
                return Err(ParseError::Sgf {
                    offset: *offset,
                    reason: format!(
                        "setup property {} is not supported: write the game as moves",
                        prop.ident
                    ),
                })
            }
            "SZ" if !size_fits(first, game) => {
                return Err(ParseError::Sgf {
                    offset: *offset,
                    reason: format!(
                        "board size SZ[{}] is not {game}'s {}×{}: give the game with --game",
                        excerpt(first),
                        game.m(),
                        game.n()
                    ),
                })
            }
            ident => {
                info_field(&mut info, ident, first);
                continue;
            }
        };
        for (offset, value) in &prop.values {
            let at_end = |reason: String| ParseError::Sgf {
                offset: *offset,
                reason,
            };
            if let Some(end) = ended {
                return Err(at_end(format!(
                    "{}[{}] comes after the game ended with {}: a pass or a resignation must be the last move",
                    prop.ident,
                    excerpt(value),
                    end.what()
                )));
            }
            ended = end_of_game(value, game);
            if let Some(End::Resign) = ended {
                if info.result.is_none() {
                    let winner = if color == Color::Black { "W" } else { "B" };
                    info.result = Some(format!("{winner}+R"));
                }
            }
            if ended.is_some() {
                continue;
            }
            for (p, token) in move_stones(value, *offset, game)? {
                check_turn(
                    game,
                    color,
                    stones.len(),
                    &format!("{}[{value}]", prop.ident),
                )
                .map_err(|reason| ParseError::Sgf {
                    offset: *offset,
                    reason,
                })?;
                stones.push((p, token));
            }
        }
    }
    let mut record = Record::from_tokens(game, &stones)?;
    record.info = info;
    Ok(record)
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace(']', "\\]")
}

/// SGF: `(;FF[4]GM[Connect6]SZ[19]PB[…]…RE[B+];B[j10];W[j9l11])`, one node per move, its
/// value by [`move_value`] (`GM[4]`, the SGF number of Gomoku and Renju, for the games of
/// five: `;B[hh];W[hg]`). The result is `B+` or `W+` for a finished game, else the record's
/// own.
pub fn write(record: &Record) -> String {
    let game = record.game();
    let gm = if game.k() == 6 {
        "Connect6".to_string()
    } else {
        "4".to_string()
    };
    let size = if game.m() == game.n() {
        game.m().to_string()
    } else {
        format!("{}:{}", game.m(), game.n())
    };
    let mut s = format!("(;FF[4]GM[{gm}]SZ[{size}]");
    let i = &record.info;
    let result = record
        .win()
        .map(|w| if w.winner == Color::Black { "B+" } else { "W+" }.to_string())
        .or_else(|| i.result.clone());
    for (ident, value) in [
        ("PB", &i.black),
        ("PW", &i.white),
        ("DT", &i.date),
        ("PC", &i.place),
        ("EV", &i.event),
        ("RE", &result),
    ] {
        if let Some(v) = value {
            s += &format!("{ident}[{}]", escape(v));
        }
    }
    let stones = record.stones();
    let mut at = 0;
    while at < stones.len() {
        let end = game.move_of_stone(at).end.min(stones.len());
        let color = game.color_of_stone(at);
        s.push_str(if color == Color::Black { ";B[" } else { ";W[" });
        s.push_str(&move_value(game, &stones[at..end]));
        s.push(']');
        at = end;
    }
    s.push(')');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const C6: Game = Game::CONNECT6;

    #[test]
    fn sizes_of_other_games() {
        let r = parse_sgf("(;GM[4]SZ[15];B[h8];W[i9];B[j10])", Game::GOMOKU).unwrap();
        assert_eq!(r.stones().len(), 3);
        // Gomoku is written with two letters, column and row from the top.
        assert!(write(&r).starts_with("(;FF[4]GM[4]SZ[15];B[hh];W[ig];B[jf]"));
        assert_eq!(parse_sgf(&write(&r), Game::GOMOKU).unwrap(), r);
        let e = parse_sgf("(;SZ[15];B[h8])", C6).unwrap_err().to_string();
        assert!(e.contains("SZ[15] is not connect6's 19×19"), "{e}");
        let r = parse_sgf("(;SZ[9:7];B[aa])", "connect(9,7,5,1,1)".parse().unwrap()).unwrap();
        assert_eq!(r.stones()[0].to_string(), "A7");
    }

    #[test]
    fn letter_pairs_count_rows_from_the_top() {
        let r = parse_sgf("(;B[JJ];W[LH];W[HH])", C6).unwrap();
        assert_eq!(super::super::list::write(&r), "J10  L12 H12");
    }

    #[test]
    fn multi_byte_values_are_errors_not_panics() {
        for bad in ["(;B[é])", "(;B[jé])", "(;B[j10];W[é10k3])", "(;B[ｊ10])"] {
            assert!(parse_sgf(bad, C6).is_err(), "{bad}");
        }
    }

    #[test]
    fn deep_variations_do_not_overflow_the_stack() {
        let deep = format!(
            "(;B[j10](;W[k11i11]){}{})",
            "(;W[a1a2]".repeat(100_000),
            ")".repeat(100_000)
        );
        let r = parse_sgf(&deep, C6).unwrap();
        assert_eq!(r.stones().len(), 3);
    }

    #[test]
    fn games_end_with_a_resignation_or_a_pass() {
        let r = parse_sgf("(;B[j10];W[k11i11];B[resign])", C6).unwrap();
        assert_eq!(
            (r.stones().len(), r.info.result.as_deref()),
            (3, Some("W+R"))
        );
        let r = parse_sgf("(;RE[B+T];B[j10];W[resign])", C6).unwrap();
        assert_eq!(r.info.result.as_deref(), Some("B+T"));
        for pass in ["W[]", "W[pass]", "W[tt]"] {
            let r = parse_sgf(&format!("(;GM[4]SZ[15];B[hh];{pass})"), Game::GOMOKU).unwrap();
            assert_eq!(r.stones().len(), 1, "{pass}");
        }
        // `tt` is a point of a 20×20 board.
        let g20: Game = "gomoku:20".parse().unwrap();
        assert_eq!(parse_sgf("(;SZ[20];B[tt])", g20).unwrap().stones().len(), 1);
        let e = parse_sgf("(;B[j10];W[];B[k10])", C6)
            .unwrap_err()
            .to_string();
        assert!(e.contains("must be the last move"), "{e}");
    }

    #[test]
    fn collections_split_into_games() {
        let two = "(;B[j10]\n;W[k11i11])\n\n(;B[j10](;W[a1a2])(;W[b1b2]))\n";
        let games = split_collection(two);
        assert_eq!(
            games,
            vec!["(;B[j10]\n;W[k11i11])", "(;B[j10](;W[a1a2])(;W[b1b2]))"]
        );
        assert_eq!(split_collection("(;B[j10]"), vec!["(;B[j10]"]);
        assert_eq!(split_collection("(;B[j10])"), vec!["(;B[j10])"]);
    }

    #[test]
    fn info_is_read_and_written() {
        let r = parse_sgf("(;PB[Alice]PW[Bob \\] Jr]EV[Cup];B[j10];W[k11i11])", C6).unwrap();
        assert_eq!(r.info.black.as_deref(), Some("Alice"));
        assert_eq!(r.info.white.as_deref(), Some("Bob ] Jr"));
        let back = parse_sgf(&write(&r), C6).unwrap();
        assert_eq!(back, r);
    }
}
