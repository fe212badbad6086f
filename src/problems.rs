//! Collections of threat problems with published answers, in the format of
//! `tests/data/vcf/problems.txt` (built in as [`BUILT_IN_VCF`]): blocks separated by blank
//! lines, each a few `# key: value` lines and a diagram. Keys: `id`, `source`, `game`,
//! `to-move`, `answer` (`win N`, the attacker's stones with the five; `win N?` when the source
//! only says a win exists), `first`, `line`, `minimal` (`yes (source)`, `yes (our check)`,
//! `no (our check: K suffice)`), `note` (repeatable). Lines starting with `##` are comments;
//! unknown keys are ignored. Used by `cpbim bench --vcf` and the tests.

use crate::board::Position;
use crate::game::Game;
use crate::geom::Color;
use crate::notation::{parse_position, Reading};

/// The 55 published Renju VCF problems bundled with cpbim (their sources and licences:
/// `tests/data/vcf/SOURCES.md`).
pub const BUILT_IN_VCF: &str = include_str!("../tests/data/vcf/problems.txt");

/// One problem.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Its identifier.
    pub id: String,
    /// The game it is set in.
    pub game: Game,
    /// The attacker.
    pub to_move: Color,
    /// The attacker's stones of the known win, the five included; `None` when the source says
    /// only that a win exists.
    pub stones: Option<u32>,
    /// No shorter win exists: the source proves it, or the collectors' exhaustive search
    /// found none.
    pub shortest_proven: bool,
    /// A shorter win the collectors found and checked (attacker stones).
    pub shorter: Option<u32>,
    /// The notes say the line is also a VCF under freestyle rules.
    pub freestyle: bool,
    /// The diagram.
    pub diagram: String,
}

impl Problem {
    /// The depth in plies of the known win (N stones: 2(N − 1)), if its length is known.
    pub fn known_depth(&self) -> Option<u32> {
        self.stones.map(|n| 2 * n.saturating_sub(1))
    }

    /// The problem's position in `game` (its own, or another to compare rules).
    pub fn position(&self, game: Game) -> Result<Position, String> {
        let how = Reading {
            game,
            to_move: Some(self.to_move),
        };
        parse_position(&self.diagram, how).map_err(|e| format!("{}: {e}", self.id))
    }
}

/// Read a collection; an error names the problem and what is wrong with it.
pub fn parse_problems(text: &str) -> Result<Vec<Problem>, String> {
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut keys = std::collections::HashMap::new();
        let mut notes = String::new();
        let mut diagram = String::new();
        for line in block.lines() {
            if line.starts_with("##") {
                continue;
            }
            if let Some(kv) = line.strip_prefix("# ") {
                let (k, v) = kv
                    .split_once(": ")
                    .ok_or_else(|| format!("not a `# key: value` line: {line:?}"))?;
                if k == "note" {
                    notes += v;
                    notes.push('\n');
                } else {
                    keys.insert(k, v);
                }
            } else {
                diagram += line;
                diagram.push('\n');
            }
        }
        let Some(&id) = keys.get("id") else { continue };
        let key = |k: &str| {
            keys.get(k)
                .copied()
                .ok_or_else(|| format!("{id}: no `{k}`"))
        };
        let answer = key("answer")?;
        let stones = match answer.strip_prefix("win ") {
            Some(n) if n.ends_with('?') => None,
            Some(n) => Some(n.parse().map_err(|_| format!("{id}: answer {answer:?}"))?),
            None => return Err(format!("{id}: answer {answer:?}")),
        };
        let side = key("to-move")?;
        let minimal = keys.get("minimal").copied().unwrap_or("");
        let shorter = match minimal.strip_prefix("no (our check: ") {
            Some(rest) => {
                let n = rest.split_whitespace().next().unwrap_or("");
                Some(
                    n.parse()
                        .map_err(|_| format!("{id}: minimal {minimal:?}"))?,
                )
            }
            None => None,
        };
        out.push(Problem {
            id: id.to_string(),
            game: key("game")?.parse().map_err(|e| format!("{id}: {e}"))?,
            to_move: Color::of_name(side).ok_or_else(|| format!("{id}: to-move {side:?}"))?,
            stones,
            shortest_proven: minimal.starts_with("yes"),
            shorter,
            freestyle: notes.contains("also a legal VCF under freestyle"),
            diagram,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_collection_reads() {
        let problems = parse_problems(BUILT_IN_VCF).expect("the built-in problems");
        assert_eq!(problems.len(), 55);
        let kokou = problems
            .iter()
            .find(|p| p.id == "quintet-kokou-no-rotenburo")
            .expect("the long one");
        assert_eq!((kokou.stones, kokou.known_depth()), (Some(73), Some(144)));
        assert_eq!(kokou.to_move, Color::Black);
        for p in &problems {
            p.position(p.game).expect("every diagram reads");
        }
        assert!(parse_problems("# id: x\n# answer: lost\n").is_err());
    }
}
