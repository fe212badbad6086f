//! The brute-force checker of threat-space proofs (`cpbim prove`; the format is in
//! `src/prove/tree.rs`): raw board only, no knowledge base, no model, no zone. After every
//! threat it plays every legal defence the board allows and finds each one answered: by its
//! own listed proof, or by a pass proof that the checker re-checks on the board after that
//! very defence. So it trusts no relevance-zone argument; it is exact and slow (every defence
//! of every threat is tried), meant for small boards and short proofs. A quiet move's pass
//! proof is itself a threat-space proof, checked whole after each defence it answers.

use super::json::Json;
use super::{check_proof_relaxed, point_on, Plain};
use std::collections::HashMap;

/// Check `node`, a proof that `a` (to move) wins on `board`. Returns the threats on the
/// proof's longest line, or why it is wrong.
pub fn check_threat_proof<J: Json>(board: &Plain, a: u8, node: &J) -> Result<u32, String> {
    let d = 3 - a;
    if board.has_win(d) {
        return Err("the defender has already won".into());
    }
    if let Some(leaf) = node.get("leaf") {
        return check_proof_relaxed(board, a, leaf)
            .map(|_| 0)
            .map_err(|e| format!("leaf: {e}"));
    }
    let p = board.rules.p;
    let (stones, pass) = match (node.get("threat"), node.get("quiet")) {
        (Some(threat), _) => (threat, node.get("pass").map(Pass::Leaf)),
        (None, Some(quiet)) => (quiet, node.get("pass").map(Pass::Threats)),
        (None, None) => {
            // The defender to move (a root): every move answered.
            if node.get("replies").is_none() {
                return Err("neither leaf, threat, quiet move nor defence".into());
            }
            let stones = if board.cells.iter().all(|&c| c == 0) {
                board.rules.q
            } else {
                p
            };
            let pass = node.get("pass").filter(|v| !v.is_null()).map(Pass::Threats);
            if let Some(pass) = pass {
                pass.check(board, a)
                    .map_err(|e| format!("the pass proof: {e}"))?;
            }
            return every_defence(board, a, node, pass, stones);
        }
    };
    let threat = points(board, stones)?;
    let mut distinct = threat.clone();
    distinct.sort();
    distinct.dedup();
    if threat.len() != p || distinct.len() != p {
        return Err(format!("a threat is {p} distinct stones"));
    }
    let mut b = board.clone();
    for &x in &threat {
        if b.cells[x] != 0 || b.forbids(a, x) {
            return Err(format!("the threat {} is not a legal point", board.name(x)));
        }
        b.cells[x] = a;
    }
    let pass = pass.ok_or("a threat without its pass proof")?;
    let pass_threats = pass
        .check(&b, a)
        .map_err(|e| format!("the pass proof: {e}"))?;
    Ok(1 + every_defence(&b, a, node, Some(pass), p)?.max(pass_threats))
}

/// A win of the attacker were the defender to pass: a leaf proof, or (after a quiet move) a
/// threat-space proof, checked whole.
enum Pass<'v, J> {
    Leaf(&'v J),
    Threats(&'v J),
}

impl<J> Clone for Pass<'_, J> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<J> Copy for Pass<'_, J> {}

impl<J: Json> Pass<'_, J> {
    /// Does it hold for `a`, to move on `b`? The threats on its longest line if so (0 for a
    /// leaf proof).
    fn check(self, b: &Plain, a: u8) -> Result<u32, String> {
        match self {
            Pass::Leaf(v) => check_proof_relaxed(b, a, v).map(|_| 0),
            Pass::Threats(v) => check_threat_proof(b, a, v),
        }
    }
}

/// The defender to move on `b`, placing `stones`: every legal move of theirs is answered by
/// what `node` lists or by `pass` (checked on the board after that move). Returns the most
/// threats any answer needs.
fn every_defence<J: Json>(
    b: &Plain,
    a: u8,
    node: &J,
    pass: Option<Pass<'_, J>>,
    stones: usize,
) -> Result<u32, String> {
    let d = 3 - a;
    let answers = Answers::read(b, node, stones)?;
    let empty: Vec<usize> = (0..b.cells.len()).filter(|&x| b.cells[x] == 0).collect();
    let mut deepest = 0;
    for defence in moves(&empty, stones) {
        if defence.iter().any(|&x| b.forbids(d, x)) {
            continue;
        }
        let mut c = b.clone();
        for &x in &defence {
            c.cells[x] = d;
            let mut alone = b.clone();
            alone.cells[x] = d;
            if alone.has_win(d) || c.has_win(d) {
                return Err(format!("the defence {} wins", names(b, &defence)));
            }
        }
        let threats = answers
            .check(&c, a, &defence, pass)
            .map_err(|e| format!("the defence {}: {e}", names(b, &defence)))?;
        deepest = deepest.max(threats);
    }
    Ok(deepest)
}

/// The answers a threat (or a defender's root) lists.
struct Answers<'v, J> {
    /// Whole defences (sorted) and the proof after each.
    moves: HashMap<Vec<usize>, &'v J>,
    /// First stones: the pass proof after each, and the whole defences through it answered.
    stones: HashMap<usize, (&'v J, HashMap<Vec<usize>, &'v J>)>,
}

impl<'v, J: Json> Answers<'v, J> {
    fn read(b: &Plain, node: &'v J, stones: usize) -> Result<Answers<'v, J>, String> {
        let mut answers = Answers {
            moves: HashMap::new(),
            stones: HashMap::new(),
        };
        for reply in list(node)? {
            if let Some(stone) = reply.get("stone") {
                let s = point_on(&b.rules, stone.as_str().ok_or("expected a point")?);
                let pass = reply.get("pass").ok_or("a stone without its pass proof")?;
                let mut inner = HashMap::new();
                for r in list(reply)? {
                    let (m, next) = whole(b, r, stones)?;
                    if !m.contains(&s) {
                        return Err(format!("{} listed under {}", names(b, &m), b.name(s)));
                    }
                    inner.insert(m, next);
                }
                answers.stones.insert(s, (pass, inner));
            } else {
                let (m, next) = whole(b, reply, stones)?;
                answers.moves.insert(m, next);
            }
        }
        Ok(answers)
    }

    /// Is `defence` (played on `c`) answered? Its own proof if listed, else a first stone's
    /// pass proof or the threat's, checked on `c` itself.
    fn check(
        &self,
        c: &Plain,
        a: u8,
        defence: &[usize],
        pass: Option<Pass<'_, J>>,
    ) -> Result<u32, String> {
        if let Some(next) = self.moves.get(defence) {
            return check_threat_proof(c, a, *next);
        }
        let mut why = Vec::new();
        for s in defence {
            let Some((pass, inner)) = self.stones.get(s) else {
                continue;
            };
            if let Some(next) = inner.get(defence) {
                return check_threat_proof(c, a, *next);
            }
            match check_proof_relaxed(c, a, *pass) {
                Ok(_) => return Ok(0),
                Err(e) => why.push(format!("the pass proof after {}: {e}", c.name(*s))),
            }
        }
        match pass.map(|pass| pass.check(c, a)) {
            Some(Ok(n)) => Ok(n),
            Some(Err(e)) => {
                why.push(format!("not listed, and the pass proof fails: {e}"));
                Err(why.join("; "))
            }
            None => {
                why.push("not listed, and no pass proof".into());
                Err(why.join("; "))
            }
        }
    }
}

/// A `{"stones": […], "next": …}` entry: its stones sorted, and the proof.
fn whole<'v, J: Json>(
    b: &Plain,
    reply: &'v J,
    stones: usize,
) -> Result<(Vec<usize>, &'v J), String> {
    let mut m = points(b, reply.get("stones").ok_or("a reply without stones")?)?;
    if m.len() != stones {
        return Err(format!("a defence is {stones} stones"));
    }
    m.sort();
    Ok((m, reply.get("next").ok_or("a reply without next")?))
}

fn list<J: Json>(node: &J) -> Result<&[J], String> {
    node.get("replies")
        .and_then(J::as_array)
        .ok_or_else(|| "a threat without its replies".into())
}

fn points<J: Json>(b: &Plain, v: &J) -> Result<Vec<usize>, String> {
    v.as_array()
        .ok_or("expected a list of points")?
        .iter()
        .map(|s| Ok(point_on(&b.rules, s.as_str().ok_or("expected a point")?)))
        .collect()
}

/// Every set of `p` (1 or 2) distinct points of `points`, each sorted.
pub fn moves(points: &[usize], p: usize) -> Vec<Vec<usize>> {
    match p {
        1 => points.iter().map(|&x| vec![x]).collect(),
        _ => points
            .iter()
            .enumerate()
            .flat_map(|(i, &x)| points[i + 1..].iter().map(move |&y| vec![x, y]))
            .collect(),
    }
}

fn names(b: &Plain, m: &[usize]) -> String {
    m.iter().map(|&x| b.name(x)).collect::<Vec<_>>().join(" ")
}
