//! Diagrams: one line of m cells per row, n lines, the top line being the last row; `.`
//! empty, `X`/`B`/`x` black, `O`/`W`/`o` white. Cells may be separated by spaces; a header or
//! footer line of the column letters and row numbers before and after the cells are optional
//! (checked when present); `#` starts a comment. A diagram has no play order: the side to move
//! follows from the stone counts, or from a comment line `# black to move` (`# white to move`)
//! that a puzzle's diagram is written with, or from `--to-move` over both; a diagram with a
//! winning row is a finished game.

use super::ParseError;
use crate::board::Board;
use crate::game::Game;
use crate::geom::{Color, Point, MAX_SIDE};
use crate::record::Record;

const CELLS: &str = "a diagram cell is '.', 'X'/'B'/'x' (black) or 'O'/'W'/'o' (white)";

fn cell(ch: char) -> Option<Option<Color>> {
    match ch {
        '.' => Some(None),
        'X' | 'B' | 'x' => Some(Some(Color::Black)),
        'O' | 'W' | 'o' => Some(Some(Color::White)),
        _ => None,
    }
}

/// Is `line` the column letters `A B C …` of some board (5 to 20 columns)?
fn is_column_header(line: &str) -> bool {
    let letters: Vec<u8> = line
        .bytes()
        .filter(|c| !c.is_ascii_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    (5..=MAX_SIDE).contains(&letters.len())
        && letters
            .iter()
            .enumerate()
            .all(|(i, &c)| c == b'A' + i as u8)
}

/// A row of a diagram split into its optional labels and its cells, as `(char index, char)`
/// of the cells (whitespace dropped).
struct Row {
    lead: String,
    trail: String,
    cells: Vec<(usize, char)>,
}

fn split_row(line: &str) -> Row {
    let chars: Vec<char> = line.chars().collect();
    let first = chars.iter().position(|c| !c.is_whitespace()).unwrap_or(0);
    let last = chars
        .iter()
        .rposition(|c| !c.is_whitespace())
        .map_or(0, |i| i + 1);
    let body = &chars[first..last.max(first)];
    let lead_len = body.iter().take_while(|c| c.is_ascii_digit()).count();
    let trail_len = body[lead_len..]
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .count();
    let cells = (first + lead_len..first + body.len() - trail_len)
        .map(|i| (i, chars[i]))
        .filter(|(_, c)| !c.is_whitespace())
        .collect();
    Row {
        lead: body[..lead_len].iter().collect(),
        trail: body[body.len() - trail_len..].iter().collect(),
        cells,
    }
}

/// Is `line` (without its comment) a line of a diagram: the column letters, or a row of cells
/// with optional row numbers? At least two cells: a lone `X14` or `B7` is a stone.
pub fn is_diagram_line(line: &str) -> bool {
    if is_column_header(line) {
        return true;
    }
    let row = split_row(line);
    row.cells.len() >= 2 && row.cells.iter().all(|&(_, c)| cell(c).is_some())
}

/// Read a diagram of `game`'s board; `to_move` sets the side to move of a puzzle whose stone
/// counts do not tell it.
pub fn parse_diagram(text: &str, game: Game, to_move: Option<Color>) -> Result<Record, ParseError> {
    let to_move = to_move.or_else(|| text.lines().find_map(side_comment));
    let (cols, size) = (game.m(), game.n());
    let mut board = Board::new(game);
    let mut rows = 0usize;
    for (ln, raw) in text.lines().enumerate() {
        let body = super::without_comment(raw);
        if body.trim().is_empty() || is_column_header(body) {
            continue;
        }
        if rows == size {
            return Err(ParseError::Diagram(format!(
                "line {}: more than {size} board lines for {game}",
                ln + 1
            )));
        }
        let r = size - 1 - rows;
        rows += 1;
        let row = split_row(body);
        for label in [&row.lead, &row.trail] {
            if !label.is_empty() && label.parse::<usize>().ok() != Some(r + 1) {
                return Err(ParseError::Diagram(format!(
                    "line {}: row label {:?} where row {} was expected (the top line is row {size})",
                    ln + 1,
                    crate::text::excerpt(label),
                    r + 1
                )));
            }
        }
        let mut stones = Vec::with_capacity(cols);
        for &(at, ch) in &row.cells {
            stones.push(cell(ch).ok_or(ParseError::UnknownChar {
                ch,
                line: ln + 1,
                column: at + 1,
                expected: CELLS,
            })?);
        }
        if stones.len() != cols {
            return Err(ParseError::Diagram(format!(
                "line {}: {} cells in row {}, expected {cols} for {game}",
                ln + 1,
                stones.len(),
                r + 1
            )));
        }
        for (col, stone) in stones.into_iter().enumerate() {
            board.set(Point::new(col, r).expect("in range"), stone);
        }
    }
    if rows != size {
        return Err(ParseError::Diagram(format!(
            "{rows} board lines, expected {size} for {game}"
        )));
    }
    Ok(Record::from_board(board, to_move)?)
}

/// `record` as a diagram; a puzzle's starts with the comment line that names its side to move.
pub fn write(record: &Record) -> String {
    let board = crate::board::diagram(record.board(), None);
    if record.is_puzzle() {
        format!("# {} to move\n{board}", record.to_move())
    } else {
        board
    }
}

/// The side a comment line `# black to move` or `# white to move` names (any case, any
/// blanks around the words).
fn side_comment(line: &str) -> Option<Color> {
    let comment = line
        .trim_start()
        .strip_prefix('#')?
        .trim()
        .to_ascii_lowercase();
    let words: Vec<&str> = comment.split_whitespace().collect();
    match words[..] {
        ["black", "to", "move"] => Some(Color::Black),
        ["white", "to", "move"] => Some(Color::White),
        _ => None,
    }
}
