//! One handler per endpoint: JSON request → library call → the JSON objects of the CLI's
//! `--json` output (`docs/json.md`). Every request is checked before any work starts; what is
//! wrong comes back as 4xx with `{"error": "…"}` and the library's message.

use super::jobs::{self, JobState, Work};
use super::{ApiError, State};
use crate::analyze::{analysis_json, analyze_record, board_svg, AnalyzeConfig};
use crate::engine::{player_for, Limits, Params, PlayerKind};
use crate::geom::{Color, Point};
use crate::notation::{list, Format};
use crate::record::Record;
use crate::report::{answer_json, choice_json, finished_json, position_text, to_play};
use crate::search::{tt::DEFAULT_ENTRIES, Config, SearchProgress, DEFAULT_DEPTH};
use crate::{batch, limits, opening, renju, Game, Reading, Rule};
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State as Shared};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The longest `time` a move may ask for, in seconds.
pub const MAX_MOVE_SECONDS: f64 = 60.0;
/// The deepest `depth` a move may ask for, in whole moves (deeper runs for minutes).
pub const MAX_MOVE_DEPTH: u32 = 4;

/// The body as `T`, or a 4xx carrying what is wrong with it (400 for JSON that does not
/// parse, 422 for an unknown or mistyped field, 415 without `Content-Type: application/json`).
pub(super) fn body<T>(payload: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    payload.map(|Json(t)| t).map_err(|r| ApiError {
        status: r.status(),
        message: r.body_text(),
    })
}

/// The side to move of a puzzle diagram, as `--to-move` takes it.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Black.
    Black,
    /// White.
    White,
}

impl Side {
    /// The colour.
    pub fn color(self) -> Color {
        match self {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

/// A game as every request gives it: the game's name (`--game`, default `connect6`), the
/// record in any format the readers take, the side to move of a puzzle diagram.
#[derive(Debug)]
pub struct Input {
    game: Option<String>,
    record: String,
    to_move: Option<Side>,
}

impl Input {
    pub(super) fn of(game: Option<String>, record: String, to_move: Option<Side>) -> Input {
        Input {
            game,
            record,
            to_move,
        }
    }

    fn reading(&self) -> Result<Reading, ApiError> {
        let game = match &self.game {
            None => Game::CONNECT6,
            Some(g) => g
                .parse::<Game>()
                .map_err(|e| ApiError::unprocessable(e.to_string()))?,
        };
        Ok(Reading {
            game,
            to_move: self.to_move.map(Side::color),
        })
    }

    /// The record, read as `cpbim solve` and `position` read one game.
    pub(super) fn record(&self) -> Result<Record, ApiError> {
        crate::parse_record(&self.record, self.reading()?)
            .map_err(|e| ApiError::unprocessable(e.to_string()))
    }
}

/// `POST /api/position`: a record, and the stones of a move not yet complete.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// The game (`--game`; default `connect6`).
    #[serde(default)]
    game: Option<String>,
    /// The record, in any format the readers take.
    #[serde(default)]
    record: String,
    /// The side to move of a puzzle diagram (`--to-move`).
    #[serde(default)]
    to_move: Option<Side>,
    /// Stones of the side to move placed so far in a move of two (the page's clicks).
    #[serde(default)]
    pending: Vec<String>,
}

fn rule_name(rule: Rule) -> &'static str {
    match rule {
        Rule::Free => "free",
        Rule::Exact => "exact",
        Rule::Renju => "renju",
    }
}

/// The position object: the game's numbers, the stones with their colours in play order,
/// the stones of the move in progress, the side to move and how many stones it still places,
/// how a finished game ended, black's forbidden points when black is to move in Renju, and
/// the DIF name of a Connect6 line's opening.
pub fn position_json(record: &Record, pending: &[Point]) -> Value {
    let game = *record.game();
    let board = record.board();
    let stone = |p: Point, c: Color| json!([p, c.name()]);
    let stones: Vec<Value> = record
        .stones()
        .iter()
        .filter_map(|&p| board.get(p).map(|c| stone(p, c)))
        .collect();
    let to_move = record.to_move();
    let finished = record.win().map(finished_json);
    let to_place = match finished {
        Some(_) => 0,
        None => game.stones_to_place(board.stones(), to_move) - pending.len(),
    };
    let forbidden: Vec<Value> = if finished.is_none() && renju::applies(&game, to_move) {
        renju::forbidden_points(board)
            .into_iter()
            .map(|(p, why)| json!([p, why.name()]))
            .collect()
    } else {
        Vec::new()
    };
    json!({
        "game": game.to_string(),
        "columns": game.m(),
        "rows": game.n(),
        "k": game.k(),
        "p": game.p(),
        "q": game.q(),
        "rule": rule_name(game.rule()),
        "ordered": record.ordered(),
        "stones": stones,
        "pending": pending.iter().map(|&p| stone(p, to_move)).collect::<Vec<_>>(),
        "to_move": to_move.name(),
        "stones_to_place": to_place,
        "finished": finished,
        "forbidden": forbidden,
        "list": record.ordered().then(|| list::stone_list(&game, record.stones())),
        "opening": opening_json(record),
    })
}

/// The DIF name of the opening of a Connect6 line that has its first three stones, black's on
/// J10 (as `cpbim name --json` prints it), with the figures of the thesis that picture it
/// (none when it is not among its 24 named openings); `null` otherwise (and for a diagram).
fn opening_json(record: &Record) -> Value {
    if !record.ordered() {
        return Value::Null;
    }
    if !record.game().is_connect6() {
        // A game of five: the name of its three-stone opening, if it is one of the 26.
        let Some(o) = crate::five_openings::name_of(record.game(), record.stones()) else {
            return Value::Null;
        };
        let stones: Vec<String> = record.stones()[..3].iter().map(|p| p.to_string()).collect();
        let kind = if o.direct { "direct" } else { "indirect" };
        return json!({"name": format!("{}, {kind}, {}", o.kanji, stones.join(" ")),
                      "short": o.name, "stones": stones, "figures": [], "kanji": o.kanji});
    }
    let Ok(o) = opening::name_line(record.stones()) else {
        return Value::Null;
    };
    let figures: Vec<&str> = opening::named_openings()
        .into_iter()
        .find(|(named, _)| *named == o)
        .map(|(_, figures)| figures)
        .unwrap_or_default();
    json!({"name": o.name(), "short": o.short(), "stones": o.stones(), "figures": figures})
}

/// The record with `pending` stones played after it: the game that they finish (a move
/// completed, or a row made by its first stone), or the record and the stones of the move in
/// progress. After a diagram (a puzzle) the stones are the side to move's, fewer than a move.
fn with_pending(record: Record, pending: &[String]) -> Result<(Record, Vec<Point>), ApiError> {
    if pending.is_empty() {
        return Ok((record, Vec::new()));
    }
    let bad = |m: String| ApiError::unprocessable(format!("pending: {m}"));
    let pos = record.position().map_err(|e| bad(e.to_string()))?;
    let game = *record.game();
    if pending.len() >= pos.stones_to_place() {
        return Err(bad(format!(
            "{} stones, but the move in progress has {}: send a whole move as the record",
            pending.len(),
            pos.stones_to_place()
        )));
    }
    if !record.ordered() {
        return diagram_with_pending(record, pending).map_err(bad);
    }
    let mut tokens: Vec<(Point, String)> = record
        .stones()
        .iter()
        .map(|&p| (p, p.to_string()))
        .collect();
    let mut points = Vec::new();
    for t in pending {
        let p = game.parse_point(t).map_err(|e| bad(e.to_string()))?;
        tokens.push((p, t.clone()));
        points.push(p);
    }
    match Record::from_tokens(game, &tokens) {
        Ok(done) => Ok((done, Vec::new())),
        Err(crate::PositionError::StoneCount { .. }) => Ok((record, points)),
        Err(e) => Err(bad(e.to_string())),
    }
}

/// A diagram with `pending` stones of its side to move (fewer than a move): the finished
/// diagram when they make a row, else the diagram and their points.
fn diagram_with_pending(
    record: Record,
    pending: &[String],
) -> Result<(Record, Vec<Point>), String> {
    let side = record.to_move();
    let mut board = record.board().clone();
    let mut points = Vec::new();
    for t in pending {
        let p = board.game().parse_point(t).map_err(|e| e.to_string())?;
        if !board.is_empty(p) {
            return Err(crate::PositionError::Occupied {
                token: crate::text::excerpt(t),
            }
            .to_string());
        }
        board.set(p, Some(side));
        points.push(p);
    }
    if board.find_win_of(side).is_some() {
        let done = Record::from_board(board, Some(side)).map_err(|e| e.to_string())?;
        return Ok((done, Vec::new()));
    }
    Ok((record, points))
}

/// `POST /api/position`: the position object of a record.
pub async fn position(payload: Result<Json<PositionRequest>, JsonRejection>) -> Response {
    let run = || -> Result<Value, ApiError> {
        let req = body(payload)?;
        let input = Input::of(req.game, req.record, req.to_move);
        let (record, pending) = with_pending(input.record()?, &req.pending)?;
        Ok(position_json(&record, &pending))
    };
    match run() {
        Ok(v) => Json(v).into_response(),
        Err(e) => e.into_response(),
    }
}

/// `POST /api/export`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportRequest {
    /// The game (`--game`; default `connect6`).
    #[serde(default)]
    game: Option<String>,
    /// The record, in any format the readers take.
    #[serde(default)]
    record: String,
    /// The side to move of a puzzle diagram (`--to-move`).
    #[serde(default)]
    to_move: Option<Side>,
    /// `list`, `diagram`, `sgf`, `contest`, `csv` (as `cpbim position --format`) or `svg`.
    format: String,
    /// Renju: list black's forbidden points in a comment (as `--forbidden`).
    #[serde(default)]
    forbidden: bool,
}

/// `POST /api/export`: the record as `cpbim position --format F` writes it, or the board as
/// the SVG of `cpbim analyze --svg`.
pub async fn export(payload: Result<Json<ExportRequest>, JsonRejection>) -> Response {
    let run = || -> Result<Response, ApiError> {
        let req = body(payload)?;
        let format = req.format.clone();
        let forbidden = req.forbidden;
        let record = Input::of(req.game, req.record, req.to_move).record()?;
        if forbidden && record.game().rule() != Rule::Renju {
            return Err(ApiError::unprocessable(format!(
                "--forbidden: only Renju has forbidden points (give --game renju); {} has none",
                record.game()
            )));
        }
        if format == "svg" {
            let svg = board_svg(
                record.board(),
                &last_move(&record),
                &[],
                &svg_title(&record),
            );
            return Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response());
        }
        let format = Format::ALL
            .into_iter()
            .find(|f| f.name() == format)
            .ok_or_else(|| {
                ApiError::unprocessable(format!(
                    "format {format:?}: give list, diagram, sgf, contest, csv or svg"
                ))
            })?;
        let text = position_text(&record, format, forbidden)
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        Ok((
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            text + "\n",
        )
            .into_response())
    };
    run().unwrap_or_else(IntoResponse::into_response)
}

/// The stones of the record's last move (none for a diagram).
fn last_move(record: &Record) -> Vec<Point> {
    let stones = record.stones();
    match (record.win(), stones.len()) {
        (Some(w), _) => w.last_move.clone(),
        (None, 0) => Vec::new(),
        (None, _) if !record.ordered() => Vec::new(),
        (None, n) => stones[record.game().move_of_stone(n - 1).start..].to_vec(),
    }
}

/// `connect6: 47 stones, black to move` or `…: finished: black won, six …`.
fn svg_title(record: &Record) -> String {
    let state = match record.win() {
        Some(w) => crate::report::finished_text(w),
        None => format!("{} to move", record.to_move()),
    };
    format!(
        "{}: {} stones, {state}",
        record.game(),
        record.stones().len()
    )
}

/// `?wait=1`: answer with the result once the job has ended.
#[derive(Debug, Deserialize)]
pub struct Wait {
    #[serde(default)]
    wait: Option<String>,
}

impl Wait {
    fn wanted(&self) -> bool {
        self.wait
            .as_deref()
            .is_some_and(|w| !matches!(w, "0" | "false" | "no"))
    }
}

/// The search options of `solve` and `analyze` (`--depth`, `--nodes`, `--time`, `--canonical`)
/// as a [`Config`], checked as the CLI checks them.
fn config(
    game: &Game,
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<f64>,
    canonical: bool,
) -> Result<Config, ApiError> {
    Ok(Config {
        depth: limits::depth("depth", depth.unwrap_or(DEFAULT_DEPTH), game)
            .map_err(ApiError::unprocessable)?,
        max_nodes: nodes,
        max_time: time
            .map(|t| limits::seconds("time", t))
            .transpose()
            .map_err(ApiError::unprocessable)?,
        tt_entries: DEFAULT_ENTRIES,
        complete: !canonical,
        ..Config::default()
    })
}

/// Start `work` (or answer why there is none); with `?wait=1` answer with its result (200),
/// else with the job (202).
pub(super) async fn launch(
    state: &State,
    kind: &'static str,
    wait: &Wait,
    work: Result<Work, ApiError>,
) -> Response {
    let work = match work {
        Ok(work) => work,
        Err(e) => return e.into_response(),
    };
    let job = match state.jobs.start(kind, work) {
        Ok(job) => job,
        Err(e) => return e.into_response(),
    };
    if !wait.wanted() {
        let id = job.id;
        return (
            StatusCode::ACCEPTED,
            Json(json!({
                "id": id,
                "job": format!("/api/jobs/{id}"),
                "events": format!("/api/jobs/{id}/events"),
            })),
        )
            .into_response();
    }
    let s = job.ended().await;
    ended_response(s)
}

fn ended_response(s: jobs::Snapshot) -> Response {
    match s.state {
        JobState::Done => Json(s.result.unwrap_or(Value::Null)).into_response(),
        JobState::Failed => ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: s.error.unwrap_or_default(),
        }
        .into_response(),
        JobState::Cancelled | JobState::Running => ApiError {
            status: StatusCode::CONFLICT,
            message: "the job was cancelled".into(),
        }
        .into_response(),
    }
}

/// `POST /api/solve`: `cpbim solve --json` with `depth`, `nodes`, `time`, `canonical`,
/// `proof`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// The game (`--game`; default `connect6`).
    #[serde(default)]
    game: Option<String>,
    /// The record, in any format the readers take.
    #[serde(default)]
    record: String,
    /// The side to move of a puzzle diagram (`--to-move`).
    #[serde(default)]
    to_move: Option<Side>,
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<f64>,
    #[serde(default)]
    canonical: bool,
    #[serde(default)]
    proof: bool,
}

/// `POST /api/solve`.
pub async fn solve(
    Shared(state): Shared<State>,
    Query(wait): Query<Wait>,
    payload: Result<Json<SolveRequest>, JsonRejection>,
) -> Response {
    let prepare = || -> Result<Work, ApiError> {
        let req = body(payload)?;
        let (depth, nodes, time, canonical, proof) =
            (req.depth, req.nodes, req.time, req.canonical, req.proof);
        let record = Input::of(req.game, req.record, req.to_move).record()?;
        let game = *record.game();
        let counter = SearchProgress::new();
        let config = Config {
            proof,
            progress: Some(counter.clone()),
            ..config(&game, depth, nodes, time, canonical)?
        };
        Ok(Box::new(
            move |stop: &AtomicBool, progress: &(dyn Fn(Value) + Sync)| {
                let poll = || json!({"nodes": counter.nodes(), "depth": counter.depth()});
                let answer = jobs::polled(progress, &poll, || {
                    batch::answer_cpbim(&record, &config, stop)
                });
                Ok(answer_json(&answer))
            },
        ))
    };
    launch(&state, "solve", &wait, prepare()).await
}

/// `POST /api/analyze`: `cpbim analyze --json` of one line, its objects in an array.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// The game (`--game`; default `connect6`).
    #[serde(default)]
    game: Option<String>,
    /// The record, in any format the readers take.
    #[serde(default)]
    record: String,
    /// The side to move of a puzzle diagram (`--to-move`).
    #[serde(default)]
    to_move: Option<Side>,
    #[serde(default)]
    defenses: bool,
    radius: Option<usize>,
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<f64>,
    #[serde(default)]
    canonical: bool,
}

/// `POST /api/analyze`.
pub async fn analyze(
    Shared(state): Shared<State>,
    Query(wait): Query<Wait>,
    payload: Result<Json<AnalyzeRequest>, JsonRejection>,
) -> Response {
    let prepare = || -> Result<Work, ApiError> {
        let req = body(payload)?;
        let input = Input::of(req.game, req.record, req.to_move);
        let how = input.reading()?;
        let record = crate::opening::parse_game_or_name(&input.record, how)
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        let counter = SearchProgress::new();
        let cfg = AnalyzeConfig {
            search: Config {
                progress: Some(counter.clone()),
                ..config(&how.game, req.depth, req.nodes, req.time, req.canonical)?
            },
            defenses: req.defenses,
            radius: req.radius.unwrap_or(2),
            ..AnalyzeConfig::default()
        };
        Ok(analysis_work(record, cfg, counter))
    };
    launch(&state, "analyze", &wait, prepare()).await
}

/// The work of an analysis job: the objects of `cpbim analyze --json` in an array. Its
/// progress: the nodes of its searches (`counter`, which `cfg`'s searches publish to) and the
/// boundaries and searches done.
fn analysis_work(record: Record, cfg: AnalyzeConfig, counter: Arc<SearchProgress>) -> Work {
    Box::new(
        move |stop: &AtomicBool, progress: &(dyn Fn(Value) + Sync)| {
            let last = Mutex::new(None);
            let poll = || analysis_progress(*lock(&last), counter.nodes());
            let report = |p: crate::analyze::Progress| {
                *lock(&last) = Some(p);
                progress(poll());
            };
            let game = *record.game();
            let analyse = || crate::with_cpbim_model!(&game, M => analyze_record::<M>(&record, &cfg, stop, &report));
            let a = jobs::polled(progress, &poll, analyse).map_err(|e| e.to_string())?;
            Ok(Value::Array(analysis_json(&a)))
        },
    )
}

/// The progress of an analysis: the boundaries and searches done (once the first search has
/// ended) and the nodes of all its searches so far.
fn analysis_progress(p: Option<crate::analyze::Progress>, nodes: u64) -> Value {
    let mut v = json!({ "nodes": nodes });
    if let Some(p) = p {
        v["boundaries_done"] = json!(p.boundaries_done);
        v["boundaries"] = json!(p.boundaries);
        v["searches_done"] = json!(p.searches_done);
        v["searches"] = json!(p.searches);
    }
    v
}

/// The value behind `m` (a panic elsewhere cannot leave a progress object half written).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// `POST /api/move`: `cpbim move --json` with `time` or `depth` and `player`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The game (`--game`; default `connect6`).
    #[serde(default)]
    game: Option<String>,
    /// The record, in any format the readers take.
    #[serde(default)]
    record: String,
    /// The side to move of a puzzle diagram (`--to-move`).
    #[serde(default)]
    to_move: Option<Side>,
    time: Option<f64>,
    depth: Option<u32>,
    player: Option<String>,
}

/// `POST /api/move`.
pub async fn play(
    Shared(state): Shared<State>,
    Query(wait): Query<Wait>,
    payload: Result<Json<MoveRequest>, JsonRejection>,
) -> Response {
    let prepare = || -> Result<Work, ApiError> {
        let req = body(payload)?;
        let (time, depth) = (req.time, req.depth);
        let kind: PlayerKind = match &req.player {
            None => PlayerKind::Cpbim,
            Some(p) => p.parse().map_err(ApiError::unprocessable)?,
        };
        let record = Input::of(req.game, req.record, req.to_move).record()?;
        if time.is_some() && depth.is_some() {
            return Err(ApiError::unprocessable(
                "give time or depth, not both (as `cpbim move`)",
            ));
        }
        let time = time
            .map(|t| limits::seconds("time", t))
            .transpose()
            .map_err(ApiError::unprocessable)?;
        if time.is_some_and(|t| t > Duration::from_secs_f64(MAX_MOVE_SECONDS)) {
            return Err(ApiError::unprocessable(format!(
                "time: at most {MAX_MOVE_SECONDS} seconds a move here"
            )));
        }
        if depth.is_some_and(|d| d > MAX_MOVE_DEPTH) {
            return Err(ApiError::unprocessable(format!(
                "depth: at most {MAX_MOVE_DEPTH} moves here (deeper takes minutes); give a time"
            )));
        }
        let pos = to_play(&record).map_err(ApiError::unprocessable)?;
        let mut player = player_for(kind, pos.game(), Params::for_game(pos.game()))
            .map_err(|e| ApiError::unprocessable(format!("player: {e}")))?;
        let limits = Limits {
            time,
            depth,
            clock: None,
        };
        Ok(Box::new(
            move |stop: &AtomicBool, _: &(dyn Fn(Value) + Sync)| {
                Ok(choice_json(&player.choose_until(&pos, limits, stop)))
            },
        ))
    };
    launch(&state, "move", &wait, prepare()).await
}

/// The job a path names (404 for anything but the number of a known job).
fn job_of(state: &State, id: &str) -> Result<std::sync::Arc<jobs::Job>, ApiError> {
    let n = id
        .parse::<u64>()
        .map_err(|_| ApiError::not_found(format!("no job {}", crate::text::excerpt(id))))?;
    state.jobs.get(n)
}

/// `GET /api/jobs/{id}[?wait=1]`: the job's state, progress and result.
pub async fn job(
    Shared(state): Shared<State>,
    Path(id): Path<String>,
    Query(wait): Query<Wait>,
) -> Response {
    let job = match job_of(&state, &id) {
        Ok(j) => j,
        Err(e) => return e.into_response(),
    };
    let s = if wait.wanted() {
        job.ended().await
    } else {
        job.snapshot()
    };
    Json(job.status_json(&s)).into_response()
}

/// `GET /api/jobs`: the jobs known and the threads still working.
pub async fn job_list(Shared(state): Shared<State>) -> Json<Value> {
    let jobs: Vec<Value> = state
        .jobs
        .list()
        .iter()
        .map(|j| json!({"id": j.id, "kind": j.kind, "state": j.snapshot().state.name()}))
        .collect();
    Json(json!({"busy": state.jobs.busy(), "jobs": jobs}))
}

/// `DELETE /api/jobs/{id}`: set the job's stop flag; 204.
pub async fn cancel(Shared(state): Shared<State>, Path(id): Path<String>) -> Response {
    match job_of(&state, &id) {
        Ok(job) => {
            job.cancel();
            StatusCode::NO_CONTENT.into_response()
        }
        Err(e) => e.into_response(),
    }
}

/// `GET /api/jobs/{id}/events`: server-sent events ([`jobs::events`]).
pub async fn events(Shared(state): Shared<State>, Path(id): Path<String>) -> Response {
    match job_of(&state, &id) {
        Ok(job) => jobs::events(job).into_response(),
        Err(e) => e.into_response(),
    }
}
