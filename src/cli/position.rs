//! `cpbim position`: read games in any format and write them in another (docs/formats.md).

use super::input::{self, Inputs};
use super::InputArgs;
use anyhow::Result;
use clap::{Args, ValueEnum};
use cpbim::notation::Format;
use cpbim::Record;

#[derive(Args)]
pub struct PositionArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatName::Diagram)]
    format: FormatName,
    /// Renju: also list black's forbidden points (overline, double four, double three), as a
    /// comment line after the game.
    #[arg(long)]
    forbidden: bool,
}

/// The formats that can be written.
#[derive(Clone, Copy, ValueEnum)]
enum FormatName {
    /// Stone list in play order.
    List,
    /// The board as a diagram with coordinates.
    Diagram,
    /// SGF (Little Golem style for Connect6).
    Sgf,
    /// Chinese computer-games contest record, {[C6]…;B(J,10);…}.
    Contest,
    /// One row of the game-record CSV.
    Csv,
}

impl FormatName {
    fn format(self) -> Format {
        match self {
            FormatName::List => Format::List,
            FormatName::Diagram => Format::Diagram,
            FormatName::Sgf => Format::Sgf,
            FormatName::Contest => Format::Contest,
            FormatName::Csv => Format::Csv,
        }
    }
}

/// `record` in `format`, with the comments of [`cpbim::report::position_text`].
fn written(record: &Record, format: Format, forbidden: bool) -> Result<String> {
    Ok(cpbim::report::position_text(record, format, forbidden)?)
}

pub fn run(args: &PositionArgs) -> Result<()> {
    let Some(arg) = args.input.position.as_deref() else {
        super::usage!("give a game: its text, a file, or - for standard input");
    };
    let format = args.format.format();
    let how = args.input.reading();
    let forbidden = args.forbidden;
    if forbidden && args.input.game.rule() != cpbim::Rule::Renju {
        super::usage!(
            "--forbidden: only Renju has forbidden points (give --game renju); {} has none",
            args.input.game
        );
    }
    match input::read(Some(arg), args.input.game_id)? {
        Inputs::One(text) => outln!(
            "{}",
            written(&cpbim::parse_record(&text, how)?, format, forbidden)?
        )?,
        Inputs::Lines(lines) => {
            let (mut errors, mut count) = (0, 0);
            for line in lines {
                let line = line?;
                count += 1;
                let result = cpbim::batch::read_line(&line.bytes, how)
                    .map_err(anyhow::Error::from)
                    .and_then(|r| written(&r, format, forbidden));
                match result {
                    Ok(text) if format == Format::Diagram => outln!("{text}\n")?,
                    Ok(text) => outln!("{text}")?,
                    Err(e) => {
                        errors += 1;
                        outln!("error: line {}: {e:#}", line.number)?;
                    }
                }
            }
            input::batch_end(count, errors)?;
        }
    }
    Ok(())
}
