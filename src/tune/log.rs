//! `DIR/games.csv`: one line per finished game of a tune, appended and flushed as the game
//! ends. The log is the run's state: a resumed run replays it.

use super::{Pairing, Side};
use crate::matches::Played;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::sync::Mutex;

/// The header line.
pub const HEADER: &str = "round,game,side0,side1,black,opening,score,ending,stones";

/// One logged game (rounds, games and openings from 0 here, from 1 in the file).
#[derive(Clone, Debug, PartialEq)]
pub struct Logged {
    /// Its round.
    pub round: u64,
    /// Its index in the round.
    pub game: usize,
    /// The two candidates.
    pub sides: [Side; 2],
    /// Which side had black.
    pub black: usize,
    /// The opening's index.
    pub opening: usize,
    /// The points of `sides[0]`: 1, 0.5 or 0.
    pub score: f64,
    /// How it ended (`row`, `time`, `crash`, …).
    pub ending: String,
    /// Stones on the board at the end.
    pub stones: usize,
}

impl Logged {
    /// The log line of a game just played.
    pub fn of(round: u64, game: usize, p: &Pairing, played: &Played) -> Logged {
        Logged {
            round,
            game,
            sides: p.sides,
            black: p.black,
            opening: p.opening,
            score: played.score0(),
            ending: played.ending.name().to_string(),
            stones: played.stones.len(),
        }
    }

    fn line(&self) -> String {
        format!(
            "{},{},{},{},{},{},{},{},{}",
            self.round + 1,
            self.game + 1,
            self.sides[0],
            self.sides[1],
            self.black,
            self.opening + 1,
            self.score,
            self.ending,
            self.stones
        )
    }

    fn parse(line: &str) -> Option<Logged> {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 9 {
            return None;
        }
        let from1 = |s: &str| s.parse::<usize>().ok().and_then(|n| n.checked_sub(1));
        let score: f64 = f[6].parse().ok()?;
        if ![0.0, 0.5, 1.0].contains(&score) {
            return None;
        }
        Some(Logged {
            round: from1(f[0])? as u64,
            game: from1(f[1])?,
            sides: [f[2].parse().ok()?, f[3].parse().ok()?],
            black: f[4].parse().ok().filter(|&b: &usize| b < 2)?,
            opening: from1(f[5])?,
            score,
            ending: f[7].to_string(),
            stones: f[8].parse().ok()?,
        })
    }
}

/// The log of a state directory: the games read at the start and the file appended to.
pub struct GameLog {
    games: BTreeMap<u64, Vec<Logged>>,
    file: Mutex<File>,
}

impl GameLog {
    /// Read `DIR/games.csv` (created with its header when absent). A last line without its
    /// newline (a write cut short) is dropped from the file; any other line that does not
    /// read is an error naming it.
    pub fn open(dir: &Path) -> io::Result<GameLog> {
        let path = dir.join("games.csv");
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e),
        };
        let whole = match text.rfind('\n') {
            Some(i) => &text[..=i],
            None => "",
        };
        let mut games: BTreeMap<u64, Vec<Logged>> = BTreeMap::new();
        for (i, line) in whole.lines().enumerate() {
            if i == 0 && line == HEADER {
                continue;
            }
            let g = Logged::parse(line).ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}: line {} does not read: {line:?}", path.display(), i + 1),
                )
            })?;
            games.entry(g.round).or_default().push(g);
        }
        let mut file = OpenOptions::new().create(true).append(true).open(&path)?;
        if whole.len() != text.len() {
            file.set_len(whole.len() as u64)?;
        }
        if whole.is_empty() {
            file.set_len(0)?;
            writeln!(file, "{HEADER}")?;
            file.sync_data()?;
        }
        Ok(GameLog {
            games,
            file: Mutex::new(file),
        })
    }

    /// The games of round `r` read from the file (the last of each game, should one repeat).
    pub fn round(&self, r: u64) -> Vec<Logged> {
        let mut by_game: BTreeMap<usize, Logged> = BTreeMap::new();
        for g in self.games.get(&r).into_iter().flatten() {
            by_game.insert(g.game, g.clone());
        }
        by_game.into_values().collect()
    }

    /// Append one game and flush it to the disk.
    pub fn append(&self, g: &Logged) -> io::Result<()> {
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(file, "{}", g.line())?;
        file.sync_data()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(round: u64, game: usize, score: f64) -> Logged {
        Logged {
            round,
            game,
            sides: [0, 1],
            black: game % 2,
            opening: 4,
            score,
            ending: "row".into(),
            stones: 31,
        }
    }

    #[test]
    fn lines_read_back_and_a_torn_last_line_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let log = GameLog::open(dir.path()).unwrap();
        log.append(&game(0, 0, 1.0)).unwrap();
        log.append(&game(0, 1, 0.5)).unwrap();
        drop(log);
        let path = dir.path().join("games.csv");
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("1,3,0,1,0,5,1");
        std::fs::write(&path, &text).unwrap();
        let log = GameLog::open(dir.path()).unwrap();
        assert_eq!(log.round(0), vec![game(0, 0, 1.0), game(0, 1, 0.5)]);
        log.append(&game(1, 0, 0.0)).unwrap();
        drop(log);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 4, "{text}");
        assert!(!text.contains("1,3,0,1,0,5,1\n"));
        let log = GameLog::open(dir.path()).unwrap();
        assert_eq!(log.round(1), vec![game(1, 0, 0.0)]);
    }

    #[test]
    fn a_broken_line_inside_the_log_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        std::fs::write(&path, format!("{HEADER}\n1,1,0,1,0,1,2,row,30\n")).unwrap();
        let e = GameLog::open(dir.path()).err().unwrap();
        assert!(e.to_string().contains("line 2"), "{e}");
    }
}
