//! The on-disk store of a proof search (`cpbim prove --store PATH`; `docs/search.md`,
//! "The store"): attacker nodes proven (with their proofs) and not proven within a threat
//! budget, kept in a redb database so that a stopped search resumes where it was and later
//! searches reuse what earlier ones proved.
//!
//! A position is keyed by its canonical form under the board's symmetries (8 on a square board,
//! 4 on another): the game, the attacker and the stones of each colour, as bytes, under the
//! symmetry that gives the smallest key. A proof is kept in that orientation and mapped back
//! on reading.
//!
//! - A proof holds whatever the limits: a proven entry answers every later search.
//! - "Not proven with t threats" holds only for the limits it was searched with: its key also
//!   holds the limits that shape the tree ([`Fingerprint`]) and the store's format.
//!
//! Writes are gathered and committed together (every [`FLUSH_EVERY`] or at the end, and when
//! the search stops): a crash loses the last few seconds at most, never the database (redb
//! commits are atomic).

use super::canonical::{apply, board_of_key, canonical, game_head, inverse};
use super::lambda::Prover;
use super::lock;
use super::tree::ThreatProof;
use crate::board::Board;
use crate::geom::Point;
use crate::model::Model;
use crate::Color;
use fxhash::FxHashMap;
use redb::{Database, ReadableTable, ReadableTableMetadata, TableDefinition};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Proven attacker nodes: canonical key → the proof (JSON, canonical orientation), compressed
/// by zstd (a store written before it holds plain JSON, read as well; see [`pack`]).
const PROVEN: TableDefinition<&[u8], &[u8]> = TableDefinition::new("proven");
/// Positions not proven: canonical key and fingerprint → the threat budget searched (high 32
/// bits) and the last two defender stones that refuted a threat there, each as its point index
/// + 1 (0: none), in the canonical orientation.
const FAILED: TableDefinition<&[u8], u64> = TableDefinition::new("failed");
/// What the searches of `--each-reply`'s replies cost: the canonical key of the position after
/// the reply and the fingerprint → its [`Effort`] (JSON), so that a run stopped, killed or
/// crashed is continued by the next, its costs summed and its schedule kept.
const EFFORTS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("efforts");

/// The format of the keys; a change of the search that changes what "not proven within
/// these limits" means, or of the proofs' JSON, changes it too (3: a defender root's pass win
/// is a threat-space proof).
pub(super) const FORMAT: u8 = 3;

/// The largest proof kept, in bytes of JSON (redb holds values up to 3 GiB). A larger proof is
/// of a position whose parts' proofs are kept: `--each-reply`'s root, whose replies' proofs
/// the store holds, is rebuilt from them.
pub const LARGEST_PROOF: usize = 1 << 30;

/// Pending writes are committed at least this often.
pub const FLUSH_EVERY: Duration = Duration::from_secs(5);

/// Why the store could not be used.
#[derive(Debug, thiserror::Error)]
#[error("proof store {path}: {message}")]
pub struct StoreError {
    path: String,
    message: String,
}

/// The limits that shape a search's tree below the root: a failure is only known for them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fingerprint {
    /// Leaf search depth in plies.
    pub leaf_depth: u32,
    /// Leaf search nodes.
    pub leaf_nodes: u64,
    /// Threat moves per attacker node.
    pub width: usize,
    /// Replies restricted to zones.
    pub zone: bool,
    /// Quiet moves per attacker node, and how deep they nest.
    pub quiet: usize,
    /// See [`Fingerprint::quiet`].
    pub quiet_depth: usize,
    /// [`super::Limits::late`]: budgets mean other searches when late moves cost more.
    pub late: usize,
}

impl Fingerprint {
    /// The fingerprint of a search under `limits` (its quiet moves included).
    pub fn of(limits: &super::Limits) -> Fingerprint {
        Fingerprint {
            leaf_depth: limits.leaf_depth,
            leaf_nodes: limits.leaf_nodes,
            width: limits.width,
            zone: limits.zone,
            quiet: limits.quiet,
            quiet_depth: limits.quiet_depth,
            late: limits.late,
        }
    }

    fn bytes(&self) -> Vec<u8> {
        let mut v = vec![FORMAT];
        v.extend(self.leaf_depth.to_be_bytes());
        v.extend(self.leaf_nodes.to_be_bytes());
        v.extend((self.width as u32).to_be_bytes());
        v.push(self.zone as u8);
        v.extend((self.quiet as u32).to_be_bytes());
        v.extend((self.quiet_depth as u32).to_be_bytes());
        // Only when set: the keys of stores written before it stay the same.
        if self.late > 0 {
            v.extend((self.late as u32).to_be_bytes());
        }
        v
    }
}

/// What the store knows of a position.
#[derive(Clone, Debug, PartialEq)]
pub enum Stored {
    /// A proof of the attacker's win.
    Proven(ThreatProof),
    /// Not proven within this threat budget under the limits asked about; the defender's
    /// stones that refuted threats there last, the latest first.
    Failed(u32, Vec<Point>),
}

/// What the searches of one position have cost over every run (`--each-reply` keeps one for
/// each reply, under the limits it was searched with).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Effort {
    /// How its last search ended: `proven`, `not proven`, `stopped` (also a search under way
    /// when it was recorded), or `not searched`.
    pub result: String,
    /// The threats on its proof's longest line when proven, else the budget reached.
    pub threats: u32,
    /// Nodes of its searches.
    pub nodes: u64,
    /// Wall time of its searches, in milliseconds.
    pub time_ms: f64,
    /// Its searches that settled it or spent their own time (`--each-reply`'s S, then 4× as
    /// long each): the next is S × 4^passes long. A search cut short by the run's limits, a
    /// signal or a kill adds its costs (a kill: up to the last record, every 30 s) only.
    pub passes: u32,
}

impl Default for Effort {
    fn default() -> Self {
        Effort {
            result: "not searched".to_string(),
            threats: 0,
            nodes: 0,
            time_ms: 0.0,
            passes: 0,
        }
    }
}

/// How many positions a store holds (`cpbim store info`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Contents {
    /// Positions proven, each with its proof.
    pub proven: u64,
    /// Positions not proven within a threat budget, each under the limits it was searched with.
    pub not_proven: u64,
    /// Records of what `--each-reply`'s searches of a reply cost ([`Effort`]).
    pub reply_records: u64,
}

/// What [`Store::merge`] took (`cpbim store merge`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Merged {
    /// Proofs of positions the store did not hold proven.
    pub proofs_added: u64,
    /// Proofs of positions it held proven already (its own proof kept).
    pub proofs_known: u64,
    /// Failures new to the store, or of a larger threat budget than its own.
    pub failures_added: u64,
    /// Failures it knew already within the same or a larger budget.
    pub failures_known: u64,
    /// Reply records ([`Effort`]) new to the store, or of more time spent than its own.
    pub records_added: u64,
    /// Entries of another format (an older `cpbim`), not copied: no search reads them.
    pub other_format: u64,
    /// False when the merge was stopped before the end (what it took is committed).
    pub complete: bool,
}

/// A merge commits its entries this many at a time.
pub const MERGE_BATCH: usize = 20_000;

/// The open store.
pub struct Store {
    db: Database,
    path: String,
    proven: FxHashMap<Vec<u8>, Vec<u8>>,
    failed: FxHashMap<Vec<u8>, u64>,
    efforts: FxHashMap<Vec<u8>, Vec<u8>>,
    last_flush: Instant,
    entries: u64,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Store({}, {} entries)", self.path, self.entries)
    }
}

impl Store {
    /// Open the store at `path`, creating it when it does not exist.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let name = path.display().to_string();
        let db = Database::create(path).map_err(|e| open_error(&name, e))?;
        let err = |e: &dyn std::fmt::Display| error(&name, e);
        let tx = db.begin_write().map_err(|e| err(&e))?;
        let entries = {
            let proven = tx.open_table(PROVEN).map_err(|e| err(&e))?;
            let failed = tx.open_table(FAILED).map_err(|e| err(&e))?;
            // Created here in a store older than the records.
            tx.open_table(EFFORTS).map_err(|e| err(&e))?;
            proven.len().map_err(|e| err(&e))? + failed.len().map_err(|e| err(&e))?
        };
        tx.commit().map_err(|e| err(&e))?;
        Ok(Store {
            db,
            path: name,
            proven: FxHashMap::default(),
            failed: FxHashMap::default(),
            efforts: FxHashMap::default(),
            last_flush: Instant::now(),
            entries,
        })
    }

    /// How many positions the store holds proven and not proven (committed entries).
    pub fn contents(&self) -> Result<Contents, StoreError> {
        let tx = self.db.begin_read().map_err(|e| self.error(&e))?;
        let proven = tx.open_table(PROVEN).map_err(|e| self.error(&e))?;
        let failed = tx.open_table(FAILED).map_err(|e| self.error(&e))?;
        let efforts = tx.open_table(EFFORTS).map_err(|e| self.error(&e))?;
        Ok(Contents {
            proven: proven.len().map_err(|e| self.error(&e))?,
            not_proven: failed.len().map_err(|e| self.error(&e))?,
            reply_records: efforts.len().map_err(|e| self.error(&e))?,
        })
    }

    /// Take into this store what the store at `from` holds (`cpbim store merge`): every proof of
    /// a position this one does not hold proven, and every failure of a larger threat budget
    /// than this one's under the same limits. Entries of another format are not copied (they
    /// are never read). Committed every [`MERGE_BATCH`] entries; `stop` ends the merge between
    /// batches, with what was merged committed. Merging the same store again takes nothing
    /// twice, so a stopped merge is finished by running it again.
    pub fn merge(&mut self, from: &Path, stop: &AtomicBool) -> Result<Merged, StoreError> {
        self.flush()?;
        let name = from.display().to_string();
        let err = |e: &dyn std::fmt::Display| error(&name, e);
        let source = Database::open(from).map_err(|e| open_error(&name, e))?;
        let tx = source.begin_read().map_err(|e| err(&e))?;
        let not_a_store = |e: redb::TableError| match e {
            redb::TableError::TableDoesNotExist(_) => {
                err(&"not a proof store (a redb database that `cpbim prove` wrote)")
            }
            e => err(&e),
        };
        let mut merged = Merged::default();
        let proven = tx.open_table(PROVEN).map_err(not_a_store)?;
        for entry in proven.iter().map_err(|e| err(&e))? {
            let (k, v) = entry.map_err(|e| err(&e))?;
            if k.value().first() != Some(&FORMAT) {
                merged.other_format += 1;
            } else if self.holds_proof(k.value())? {
                merged.proofs_known += 1;
            } else {
                merged.proofs_added += 1;
                let bytes = match is_packed(v.value()) {
                    true => v.value().to_vec(),
                    false => pack(v.value().to_vec()),
                };
                self.proven.insert(k.value().to_vec(), bytes);
            }
            if self.merge_batch_done(stop)? {
                return Ok(merged);
            }
        }
        let failed = tx.open_table(FAILED).map_err(not_a_store)?;
        for entry in failed.iter().map_err(|e| err(&e))? {
            let (k, v) = entry.map_err(|e| err(&e))?;
            let (key, budget) = (k.value(), v.value() >> 32);
            if key.first() != Some(&FORMAT) {
                merged.other_format += 1;
            } else if self.failed_budget(key)?.is_some_and(|t| t >= budget) {
                merged.failures_known += 1;
            } else {
                merged.failures_added += 1;
                self.failed.insert(key.to_vec(), v.value());
            }
            if self.merge_batch_done(stop)? {
                return Ok(merged);
            }
        }
        // A store older than the records has none.
        match tx.open_table(EFFORTS) {
            Ok(efforts) => {
                for entry in efforts.iter().map_err(|e| err(&e))? {
                    let (k, v) = entry.map_err(|e| err(&e))?;
                    if k.value().first() != Some(&FORMAT) {
                        merged.other_format += 1;
                    } else if self.takes_record(k.value(), v.value(), &err)? {
                        merged.records_added += 1;
                        self.efforts.insert(k.value().to_vec(), v.value().to_vec());
                    }
                    if self.merge_batch_done(stop)? {
                        return Ok(merged);
                    }
                }
            }
            Err(redb::TableError::TableDoesNotExist(_)) => {}
            Err(e) => return Err(err(&e)),
        }
        self.flush()?;
        merged.complete = true;
        Ok(merged)
    }

    /// Whether a merge takes the record `bytes` of another store (`err` names it) under `key`:
    /// this one has none there, or one of less time spent.
    fn takes_record(
        &self,
        key: &[u8],
        bytes: &[u8],
        err: &dyn Fn(&dyn std::fmt::Display) -> StoreError,
    ) -> Result<bool, StoreError> {
        let theirs = read_effort(bytes).map_err(|e| err(&e))?;
        Ok(self
            .effort_at(key)?
            .is_none_or(|ours| ours.time_ms < theirs.time_ms))
    }

    /// Commit the merge's pending entries once there are [`MERGE_BATCH`]; true when `stop` asks
    /// the merge to end (the entries committed first).
    fn merge_batch_done(&mut self, stop: &AtomicBool) -> Result<bool, StoreError> {
        let stopped = stop.load(std::sync::atomic::Ordering::Relaxed);
        if stopped || self.proven.len() + self.failed.len() + self.efforts.len() >= MERGE_BATCH {
            self.flush()?;
        }
        Ok(stopped)
    }

    /// Call `each` with every position of `game` the store holds proven (committed), in the
    /// key's orientation: its board, its attacker, its proof. `stop` ends the reading early.
    pub fn for_each_proof(
        &self,
        game: crate::Game,
        stop: &AtomicBool,
        mut each: impl FnMut(&Board, Color, &ThreatProof),
    ) -> Result<(), StoreError> {
        let head = game_head(game);
        let tx = self.db.begin_read().map_err(|e| self.error(&e))?;
        let table = tx.open_table(PROVEN).map_err(|e| self.error(&e))?;
        let range = table.range(head.as_slice()..).map_err(|e| self.error(&e))?;
        for entry in range {
            let (k, v) = entry.map_err(|e| self.error(&e))?;
            if !k.value().starts_with(&head) || stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            let Some((b, a)) = board_of_key(k.value(), game) else {
                continue;
            };
            let proof = read_proof(v.value()).map_err(|e| self.error(&e))?;
            each(&b, a, &proof);
        }
        Ok(())
    }

    /// Whether the store holds a proof under the canonical key `key` (committed or pending).
    fn holds_proof(&self, key: &[u8]) -> Result<bool, StoreError> {
        if self.proven.contains_key(key) {
            return Ok(true);
        }
        let tx = self.db.begin_read().map_err(|e| self.error(&e))?;
        let table = tx.open_table(PROVEN).map_err(|e| self.error(&e))?;
        Ok(table.get(key).map_err(|e| self.error(&e))?.is_some())
    }

    /// The threat budget of the failure under `key` (canonical key and fingerprint), if any.
    fn failed_budget(&self, key: &[u8]) -> Result<Option<u64>, StoreError> {
        if let Some(v) = self.failed.get(key) {
            return Ok(Some(v >> 32));
        }
        let tx = self.db.begin_read().map_err(|e| self.error(&e))?;
        let table = tx.open_table(FAILED).map_err(|e| self.error(&e))?;
        let got = table.get(key).map_err(|e| self.error(&e))?;
        Ok(got.map(|v| v.value() >> 32))
    }

    /// The record under `key` (canonical key and fingerprint), committed or pending.
    fn effort_at(&self, key: &[u8]) -> Result<Option<Effort>, StoreError> {
        let bytes = match self.efforts.get(key) {
            Some(v) => v.clone(),
            None => {
                let tx = self.db.begin_read().map_err(|e| self.error(&e))?;
                let table = tx.open_table(EFFORTS).map_err(|e| self.error(&e))?;
                let got = table.get(key).map_err(|e| self.error(&e))?;
                match got {
                    Some(v) => v.value().to_vec(),
                    None => return Ok(None),
                }
            }
        };
        read_effort(&bytes).map(Some).map_err(|e| self.error(&e))
    }

    /// What the searches of `a` to move on `b` have cost under the limits `f`, when a record
    /// was kept ([`Store::put_effort`]).
    pub fn effort(
        &self,
        b: &Board,
        a: Color,
        f: &Fingerprint,
    ) -> Result<Option<Effort>, StoreError> {
        let (mut key, _) = canonical(b, a);
        key.extend(f.bytes());
        self.effort_at(&key)
    }

    /// Record what the searches of `a` to move on `b` have cost under the limits `f`
    /// (committed by a later flush), in place of the record before.
    pub fn put_effort(&mut self, b: &Board, a: Color, f: &Fingerprint, effort: &Effort) {
        let (mut key, _) = canonical(b, a);
        key.extend(f.bytes());
        let bytes = serde_json::to_vec(effort).expect("a record is plain JSON");
        self.efforts.insert(key, bytes);
    }

    /// Entries written (committed or pending).
    pub fn len(&self) -> u64 {
        self.entries + (self.proven.len() + self.failed.len()) as u64
    }

    /// True when the store holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What is stored of `a` to move on `b`: a proof (whatever the limits), else the largest
    /// threat budget within which it was not proven under the limits `f` with the defender's
    /// stones that refuted threats there last (the latest first), else nothing.
    pub fn lookup(
        &self,
        b: &Board,
        a: Color,
        f: &Fingerprint,
    ) -> Result<Option<Stored>, StoreError> {
        let (key, sym) = canonical(b, a);
        let mut failed_key = key.clone();
        failed_key.extend(f.bytes());
        let mut proof = self.proven.get(&key).cloned();
        let mut failed = None;
        if proof.is_none() {
            let tx = self.db.begin_read().map_err(|e| self.error(&e))?;
            let table = tx.open_table(PROVEN).map_err(|e| self.error(&e))?;
            let got = table.get(key.as_slice()).map_err(|e| self.error(&e))?;
            proof = got.map(|v| v.value().to_vec());
            failed = self.failed.get(&failed_key).copied();
            if proof.is_none() && failed.is_none() {
                let table = tx.open_table(FAILED).map_err(|e| self.error(&e))?;
                let got = table
                    .get(failed_key.as_slice())
                    .map_err(|e| self.error(&e))?;
                failed = got.map(|v| v.value());
            }
        }
        let game = b.game();
        let back = |x: Point| apply(inverse(sym), x, game.m(), game.n());
        if let Some(bytes) = proof {
            let proof = read_proof(&bytes).map_err(|e| self.error(&e))?;
            return Ok(Some(Stored::Proven(proof.map_points(&back))));
        }
        Ok(failed.map(|v| {
            let stones = [(v >> 16) & 0xffff, v & 0xffff]
                .into_iter()
                .filter_map(|i| Point::from_index((i as usize).checked_sub(1)?))
                .filter(|&x| game.contains(x))
                .map(back)
                .collect();
            Stored::Failed((v >> 32) as u32, stones)
        }))
    }

    /// Whether the store holds a proof of `a`'s win, `a` to move on `b` (committed or not),
    /// without reading it.
    pub fn holds_proof_of(&self, b: &Board, a: Color) -> Result<bool, StoreError> {
        self.holds_proof(&canonical(b, a).0)
    }

    /// The store's proof of `a`'s win, `a` to move on `b`, if it holds one.
    pub fn proof_of(&self, b: &Board, a: Color) -> Result<Option<ThreatProof>, StoreError> {
        match self.lookup(b, a, &Fingerprint::default())? {
            Some(Stored::Proven(proof)) => Ok(Some(proof)),
            _ => Ok(None),
        }
    }

    /// The proof of `a`'s win, `a` to move on `b`, that the store holds ([`Store::holds_proof_of`]):
    /// its absence is an error.
    pub fn held_proof(&self, b: &Board, a: Color) -> Result<ThreatProof, StoreError> {
        self.proof_of(b, a)?
            .ok_or_else(|| self.error(&"a proof it held is gone"))
    }

    /// Keep `proof` of `a`'s win, `a` to move on `b` (committed by a later flush), unless its
    /// JSON is larger than [`LARGEST_PROOF`].
    pub fn put_proof(&mut self, b: &Board, a: Color, proof: &ThreatProof) {
        let (key, sym) = canonical(b, a);
        let game = b.game();
        let canonical = proof.map_points(&|x| apply(sym, x, game.m(), game.n()));
        let json = serde_json::to_vec(&canonical).expect("a proof is plain JSON");
        if json.len() <= LARGEST_PROOF {
            self.proven.insert(key, pack(json));
        }
    }

    /// Keep that `a`, to move on `b`, was not proven within `t` threats under `f`, the
    /// defender's `refuters` (at most two, the latest first) having refuted threats there last.
    pub fn put_failed(&mut self, b: &Board, a: Color, f: &Fingerprint, t: u32, refuters: &[Point]) {
        let (mut key, sym) = canonical(b, a);
        key.extend(f.bytes());
        let game = b.game();
        let mut value = u64::from(t) << 32;
        for (i, &x) in refuters.iter().take(2).enumerate() {
            let x = apply(sym, x, game.m(), game.n()).index() as u64 + 1;
            value |= x << (16 * (1 - i));
        }
        let known = self.failed.entry(key).or_insert(value);
        if *known >> 32 <= value >> 32 {
            *known = value;
        }
    }

    /// Commit the pending writes when [`FLUSH_EVERY`] has passed since the last commit.
    pub fn flush_if_due(&mut self) -> Result<(), StoreError> {
        if self.last_flush.elapsed() >= FLUSH_EVERY {
            self.flush()?;
        }
        Ok(())
    }

    /// Commit the pending writes.
    pub fn flush(&mut self) -> Result<(), StoreError> {
        self.last_flush = Instant::now();
        if self.proven.is_empty() && self.failed.is_empty() && self.efforts.is_empty() {
            return Ok(());
        }
        let tx = self.db.begin_write().map_err(|e| self.error(&e))?;
        {
            let mut proven = tx.open_table(PROVEN).map_err(|e| self.error(&e))?;
            for (k, v) in &self.proven {
                proven
                    .insert(k.as_slice(), v.as_slice())
                    .map_err(|e| self.error(&e))?;
            }
            let mut failed = tx.open_table(FAILED).map_err(|e| self.error(&e))?;
            for (k, &v) in &self.failed {
                let old = failed
                    .get(k.as_slice())
                    .map_err(|e| self.error(&e))?
                    .map(|old| old.value());
                if old.is_none_or(|old| old >> 32 <= v >> 32) {
                    failed.insert(k.as_slice(), v).map_err(|e| self.error(&e))?;
                }
            }
            self.entries = proven.len().map_err(|e| self.error(&e))?
                + failed.len().map_err(|e| self.error(&e))?;
            let mut efforts = tx.open_table(EFFORTS).map_err(|e| self.error(&e))?;
            for (k, v) in &self.efforts {
                efforts
                    .insert(k.as_slice(), v.as_slice())
                    .map_err(|e| self.error(&e))?;
            }
        }
        tx.commit().map_err(|e| self.error(&e))?;
        self.proven.clear();
        self.failed.clear();
        self.efforts.clear();
        Ok(())
    }

    fn error(&self, e: &dyn std::fmt::Display) -> StoreError {
        error(&self.path, e)
    }
}

/// A reply's record from its JSON.
fn read_effort(bytes: &[u8]) -> serde_json::Result<Effort> {
    serde_json::from_slice(bytes)
}

/// The stored form of a proof's JSON: zstd's frame at its default level. Proofs hold their
/// sub-proofs and repeat their keys and points, so they shrink ~24× (a Kagetsu store: 2.2 GB of
/// JSON, docs/design/prove.md step 21).
fn pack(json: Vec<u8>) -> Vec<u8> {
    zstd::bulk::compress(&json, 0).unwrap_or(json)
}

/// Whether `bytes` are a zstd frame (else plain JSON, which starts with `{`).
fn is_packed(bytes: &[u8]) -> bool {
    bytes.starts_with(&ZSTD_MAGIC)
}

/// How a zstd frame starts.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// A proof's JSON from its stored form, at most [`LARGEST_PROOF`] bytes of it.
fn unpack(bytes: &[u8]) -> std::io::Result<std::borrow::Cow<'_, [u8]>> {
    use std::io::Read;
    if !is_packed(bytes) {
        return Ok(bytes.into());
    }
    let mut json = Vec::new();
    zstd::stream::Decoder::new(bytes)?
        .take(LARGEST_PROOF as u64 + 1)
        .read_to_end(&mut json)?;
    if json.len() > LARGEST_PROOF {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "a stored proof larger than the largest kept",
        ));
    }
    Ok(json.into())
}

/// A proof from its stored form (see [`unpack`]), however deep (serde_json stops at 128 levels
/// by default; a proof whose leaf is a VCF of 81 plies has more): the stack grows as the
/// reading needs it.
fn read_proof(bytes: &[u8]) -> Result<ThreatProof, String> {
    let json = unpack(bytes).map_err(|e| e.to_string())?;
    read_json(&json).map_err(|e| e.to_string())
}

/// See [`read_proof`].
fn read_json(bytes: &[u8]) -> serde_json::Result<ThreatProof> {
    use serde::Deserialize;
    let mut json = serde_json::Deserializer::from_slice(bytes);
    json.disable_recursion_limit();
    let proof = ThreatProof::deserialize(serde_stacker::Deserializer::new(&mut json))?;
    json.end()?;
    Ok(proof)
}

/// The error `e` of the store at `path`.
fn error(path: &str, e: &dyn std::fmt::Display) -> StoreError {
    StoreError {
        path: path.to_string(),
        message: e.to_string(),
    }
}

/// Why the database at `path` did not open, in the words of `cpbim prove`.
fn open_error(path: &str, e: redb::DatabaseError) -> StoreError {
    match e {
        redb::DatabaseError::DatabaseAlreadyOpen => error(
            path,
            &"in use by another search (one search per store at a time)",
        ),
        redb::DatabaseError::Storage(redb::StorageError::Io(io))
            if io.kind() == std::io::ErrorKind::InvalidData =>
        {
            error(
                path,
                &"not a proof store (a redb database that `cpbim prove` wrote)",
            )
        }
        e => error(path, &e),
    }
}

/// The search's side of the store.
impl<M: Model> Prover<'_, M> {
    /// What the store knows of A to move on `b` within `t` threats: a proof (of any number of
    /// threats: a proof is a proof), or `Some(None)` when it was not proven within `t` or more
    /// under these limits; `None` when the store does not know (or there is none).
    pub(super) fn stored_within(&mut self, b: &Board, t: u32) -> Option<Option<ThreatProof>> {
        if self.level > 0 {
            // Below a quiet move's pass: positions the store's keys cannot tell apart.
            return None;
        }
        let store = self.limits.store.clone()?;
        let start = Instant::now();
        let store = lock(&store);
        let known = match store.lookup(b, self.a, &self.fingerprint()) {
            Ok(Some(Stored::Proven(proof))) => Some(Some(proof)),
            Ok(Some(Stored::Failed(n, refuters))) if n >= t => {
                // The defences that refuted threats there are tried first next, as after the
                // search itself.
                refuters.iter().rev().for_each(|&x| self.refuted_by(x));
                Some(None)
            }
            Ok(_) => None,
            Err(e) => return self.store_failed(e),
        };
        self.answer.store_hits += known.is_some() as u64;
        self.answer.store_time += start.elapsed();
        known
    }

    /// A proof of `b` from the store, whatever the limits.
    pub(super) fn stored(&mut self, b: &Board) -> Option<ThreatProof> {
        self.stored_within(b, u32::MAX).flatten()
    }

    /// Tell the store what the search found of A to move on `b` within `t` threats, when
    /// finding it took `effort` nodes, at least [`Limits::store_min_nodes`](super::Limits).
    pub(super) fn keep(&mut self, b: &Board, found: Option<&ThreatProof>, t: u32, effort: u64) {
        let fingerprint = self.fingerprint();
        let worth = effort >= self.limits.store_min_nodes;
        if let (Some(store), false, true) = (&self.limits.store, self.level > 0, worth) {
            let start = Instant::now();
            let mut store = lock(store);
            match found {
                Some(proof) => store.put_proof(b, self.a, proof),
                None => {
                    let refuters = &self.killers[..self.killers.len().min(2)];
                    store.put_failed(b, self.a, &fingerprint, t, refuters);
                }
            }
            self.answer.store_time += start.elapsed();
        }
    }

    /// Commit the store's pending writes (`now`, or when they are due); a failure stops the
    /// search.
    pub(super) fn flush_store(&mut self, now: bool) {
        let Some(store) = self.limits.store.clone() else {
            return;
        };
        let start = Instant::now();
        let mut store = lock(&store);
        let done = if now {
            store.flush()
        } else {
            store.flush_if_due()
        };
        self.answer.store_time += start.elapsed();
        if let Err(e) = done {
            drop(store);
            self.store_failed::<()>(e);
        }
    }

    fn store_failed<T>(&mut self, e: StoreError) -> Option<T> {
        self.answer.store_error.get_or_insert(e.to_string());
        self.stopped = true;
        None
    }

    fn fingerprint(&self) -> Fingerprint {
        // A failure of the threats-only pass is one of a search without quiet moves.
        let (quiet, quiet_depth) = match self.quiet_phase {
            true => (self.limits.quiet, self.limits.quiet_depth),
            false => (0, 0),
        };
        Fingerprint {
            quiet,
            quiet_depth,
            ..Fingerprint::of(self.limits)
        }
    }
}
