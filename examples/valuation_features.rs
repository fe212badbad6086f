//! The features the Connect6 valuation is fitted on (`docs/engine.md`, "Fitted weights"): one
//! line per position after each whole move of a finished game, until a six stands.
//!
//! `cargo run --release --example valuation_features -- [RECORD ...] > features.tsv`
//!
//! Reads the bundled games (`data/connect6_games.csv`, those that name a winner) and any game
//! records given (SGF or the other formats `cpbim` reads; those that end in a six). Columns, tab
//! separated: source (`data` or the record's path), game number, stones on the board, whether
//! the side to move won (1 or 0), its connections of the ten types `L2` to `DW`, the
//! opponent's ten, then the stones the side to move and the opponent would owe each other's
//! live windows (cover numbers: the side to move's is the threat it has, the opponent's the
//! tempo set `tempo` picks).
use cpbim::games::{bundled_games_path, load_games};
use cpbim::{parse_record, Board, Color, Cpbim, Game, Model, Point};
use std::io::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let game = Game::CONNECT6;
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for g in load_games(&bundled_games_path())? {
        if let Some(winner) = g.winner {
            write_game(&mut out, "data", g.id, &g.moves, winner)?;
        }
    }
    for (i, path) in std::env::args().skip(1).enumerate() {
        let text = std::fs::read_to_string(&path)?;
        let record = parse_record(&text, game).map_err(|e| format!("{path}: {e}"))?;
        if let Some(win) = record.win() {
            write_game(&mut out, &path, i as u64, record.stones(), win.winner)?;
        }
    }
    Ok(())
}

/// The lines of one game: after each whole move (stones 1, 3, 5, …) while no six stands.
fn write_game(
    out: &mut impl Write,
    source: &str,
    id: u64,
    stones: &[Point],
    winner: Color,
) -> std::io::Result<()> {
    let game = Game::CONNECT6;
    let mut m = Cpbim::from_board(&Board::new(game));
    for (i, &p) in stones.iter().enumerate() {
        let played = game.color_of_stone(i);
        m.make(p, played);
        if i % 2 != 0 {
            continue;
        }
        if m.has_win(Color::Black) || m.has_win(Color::White) {
            break;
        }
        let mover = played.opponent();
        write!(
            out,
            "{source}\t{id}\t{}\t{}",
            i + 1,
            u8::from(winner == mover)
        )?;
        for side in [mover, played] {
            for n in &m.type_counts(side)[1..=10] {
                write!(out, "\t{n}")?;
            }
        }
        writeln!(out, "\t{}\t{}", m.thn(mover), m.thn(played))?;
    }
    Ok(())
}
