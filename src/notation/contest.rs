//! The game record of the Chinese computer-games contests (CCGC and the university contests):
//!
//! ```text
//! {[C6][先手参赛队 B][后手参赛队 W][先手胜][2017.07.29 14:00 重庆][2017 CCGC];B(J,10);W(K,11);W(L,10)MARK[1];B(I,9)}
//! ```
//!
//! A header of bracketed fields — the game (`C6`), black's team, white's team, the result
//! (`先手胜` black won, `后手胜` white won), date and place, event — then one token per stone
//! in play order: colour, then column letter and row number (row 1 at the bottom) in
//! parentheses. Annotations after a stone (`MARK[1]`, any `NAME[…]`) are ignored; whitespace
//! and line breaks may stand between tokens. Contest software writes these files in GB2312,
//! which [`super::decode`] reads.

use super::cursor::Cursor;
use super::{check_turn, ParseError};
use crate::game::Game;
use crate::geom::{Color, Point};
use crate::record::{Info, Record};
use crate::text::excerpt;

fn contest_error(offset: usize, reason: String) -> ParseError {
    ParseError::Contest { offset, reason }
}

impl Cursor<'_> {
    /// A bracketed field `[…]` (the `[` already seen by the caller's peek).
    fn field(&mut self) -> Result<String, ParseError> {
        self.expect('[', "'['")?;
        let rest = self.rest();
        let Some(end) = rest.find(']') else {
            return Err(self.err("a bracketed field has no closing ']'"));
        };
        self.pos += end + 1;
        Ok(rest[..end].trim().to_string())
    }

    /// One stone: `B(J,10)` with its annotations; returns colour, point and token.
    fn stone(&mut self, game: Game) -> Result<(Color, Point, String), ParseError> {
        let start = self.pos;
        let color = match self.bump() {
            Some('B' | 'b') => Color::Black,
            Some('W' | 'w') => Color::White,
            Some(c) => {
                self.pos = start;
                return Err(self.err(format!("expected a stone like B(J,10) but found {c:?}")));
            }
            None => return Err(self.err("the record ends inside a stone")),
        };
        self.expect('(', "'(' after the colour")?;
        let column = self.run(char::is_ascii_alphabetic).to_string();
        self.expect(',', "',' between column and row")?;
        let row = self.run(char::is_ascii_digit).to_string();
        self.expect(')', "')' closing the stone")?;
        let token = self.text[start..self.pos].trim().to_string();
        let point: Point = game.parse_point(&format!("{column}{row}"))?;
        // Annotations: NAME[…] after the stone.
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.run(char::is_ascii_alphabetic);
            if self.peek() != Some('[') {
                return Err(self.err("an annotation after a stone needs a value in brackets"));
            }
            self.field()?;
        }
        Ok((color, point, token))
    }
}

/// Read a contest record. The `[C6]` records are Connect6 games: `game` must be Connect6.
pub fn parse_contest(text: &str, game: Game) -> Result<Record, ParseError> {
    let mut c = Cursor::new(text, contest_error);
    if !game.is_connect6() {
        return Err(c.err(format!(
            "contest records ([C6]) are Connect6 games, and the game is {game}"
        )));
    }
    c.peek();
    if c.rest().starts_with('\u{feff}') {
        c.pos += '\u{feff}'.len_utf8();
    }
    c.expect('{', "'{' opening the record")?;
    let mut fields = Vec::new();
    while c.peek() == Some('[') {
        fields.push(c.field()?);
    }
    match fields.first() {
        Some(game) if game.eq_ignore_ascii_case("C6") => {}
        Some(game) => {
            return Err(c.err(format!(
                "game {:?}: only Connect6 records ([C6]) are read",
                excerpt(game)
            )))
        }
        None => return Err(c.err("the header must start with [C6]")),
    }
    let field = |i: usize| fields.get(i).filter(|f| !f.is_empty()).cloned();
    let info = Info {
        black: field(1),
        white: field(2),
        result: field(3),
        date: field(4),
        event: field(5),
        ..Info::default()
    };
    let mut stones: Vec<(Point, String)> = Vec::new();
    loop {
        match c.bump() {
            Some(';') => {}
            Some('}') => break,
            Some(ch) => return Err(c.err(format!("expected ';' or '}}' but found {ch:?}"))),
            None => return Err(c.err("the record has no closing '}'")),
        }
        if c.peek() == Some('}') {
            continue;
        }
        let at = c.pos;
        let (color, point, token) = c.stone(game)?;
        check_turn(game, color, stones.len(), &token)
            .map_err(|reason| ParseError::Contest { offset: at, reason })?;
        stones.push((point, token));
    }
    if let Some(ch) = c.peek() {
        return Err(c.err(format!("unexpected {ch:?} after the record")));
    }
    let mut record = Record::from_tokens(game, &stones)?;
    record.info = info;
    Ok(record)
}

fn bracketed(value: &str) -> String {
    format!("[{}]", value.replace('[', "(").replace(']', ")"))
}

/// A contest record. Unknown teams are written as the contests' template (`先手参赛队 B`,
/// `后手参赛队 W`); the result of a finished game is `先手胜` or `后手胜`.
pub fn write(record: &Record) -> String {
    let i = &record.info;
    let result = match record.win() {
        Some(w) if w.winner == Color::Black => "先手胜".to_string(),
        Some(_) => "后手胜".to_string(),
        None => i.result.clone().unwrap_or_default(),
    };
    let date = [&i.date, &i.place]
        .iter()
        .filter_map(|f| f.as_deref())
        .collect::<Vec<_>>()
        .join(" ");
    let mut s = String::from("{[C6]");
    s += &bracketed(i.black.as_deref().unwrap_or("先手参赛队 B"));
    s += &bracketed(i.white.as_deref().unwrap_or("后手参赛队 W"));
    s += &bracketed(&result);
    s += &bracketed(&date);
    s += &bracketed(i.event.as_deref().unwrap_or(""));
    let game = record.game();
    for (n, p) in record.stones().iter().enumerate() {
        let color = if game.color_of_stone(n) == Color::Black {
            'B'
        } else {
            'W'
        };
        let name = p.to_string();
        s += &format!(";{color}({},{})", &name[..1], &name[1..]);
    }
    s.push('}');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const C6: Game = Game::CONNECT6;

    const GAME: &str =
        "{[C6][先手参赛队 甲 B][后手参赛队 乙 W][先手胜][2017.07.29 14:00 重庆][2017 CCGC];\
B(J,10);W(K,11)MARK[1];W(L,10);B(I,9) ;B(K,9)\n;W(A,1);W(A,2)}";

    #[test]
    fn reads_header_stones_and_annotations() {
        let r = parse_contest(GAME, C6).unwrap();
        assert_eq!(super::super::list::write(&r), "J10  K11 L10  I9 K9  A1 A2");
        assert_eq!(r.info.black.as_deref(), Some("先手参赛队 甲 B"));
        assert_eq!(r.info.result.as_deref(), Some("先手胜"));
        assert_eq!(r.info.event.as_deref(), Some("2017 CCGC"));
        assert_eq!(parse_contest(&write(&r), C6).unwrap(), r);
    }

    #[test]
    fn errors_name_the_place() {
        let m = |t: &str| parse_contest(t, C6).unwrap_err().to_string();
        assert!(
            m("{[C6];B(J,10);B(K,11)}").contains("white's"),
            "{}",
            m("{[C6];B(J,10);B(K,11)}")
        );
        assert!(m("{[GO];B(J,10)}").contains("only Connect6"));
        assert!(m("{[C6];B(J,10)").contains("closing '}'"));
        assert!(m("{[C6];B(T,10)}").contains("off the board"));
        assert!(m("{[C6];B(J 10)}").contains("','"));
        assert!(m("{[C6];B(J,10)} x").contains("after the record"));
        assert!(m("{[C6];Bé(J,10)}").contains("'('"));
        let e = parse_contest("{[C6];B(H,8)}", Game::GOMOKU)
            .unwrap_err()
            .to_string();
        assert!(e.contains("Connect6 games, and the game is gomoku"), "{e}");
    }
}
