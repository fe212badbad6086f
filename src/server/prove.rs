//! `POST /api/prove`: `cpbim prove --json` as a job (docs/board.md): a threat-space proof of
//! a side's win, its progress the search's (threat budget, nodes, leaf searches, the root's
//! alternatives settled).

use super::api::{body, launch, Input, Side, Wait};
use super::jobs::{self, Work};
use super::{ApiError, State};
use crate::prove::{self, Limits};
use crate::report::to_play;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Query, State as Shared};
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The seconds a proof search takes when the request names none (the server's job time
/// still bounds it).
pub const DEFAULT_PROVE_SECONDS: f64 = 30.0;

/// `POST /api/prove`: the position, the side whose win is asked (default: the side to move)
/// and `cpbim prove`'s limits (`threats`, `threat_step`, `time`, `quiet`, `quiet_depth`,
/// `width`, `late`, `each_reply`, `book`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProveRequest {
    /// The game (`--game`; default `connect6`).
    #[serde(default)]
    game: Option<String>,
    /// The record, in any format the readers take.
    #[serde(default)]
    record: String,
    /// The side to move of a puzzle diagram (`--to-move`).
    #[serde(default)]
    to_move: Option<Side>,
    /// The side whose win is to be proven (`--side`).
    side: Option<Side>,
    threats: Option<u32>,
    threat_step: Option<u32>,
    time: Option<f64>,
    quiet: Option<usize>,
    quiet_depth: Option<usize>,
    width: Option<usize>,
    late: Option<usize>,
    /// A book's text (what `--book FILE` reads from its file; `cpbim store book` writes it).
    book: Option<String>,
    /// Each reply of the side to move in a search of its own, this many seconds at first
    /// (`--each-reply`).
    each_reply: Option<f64>,
}

/// `POST /api/prove`.
pub async fn prove(
    Shared(state): Shared<State>,
    Query(wait): Query<Wait>,
    payload: Result<Json<ProveRequest>, JsonRejection>,
) -> Response {
    launch(&state, "prove", &wait, work(payload)).await
}

/// The job of a request, or why there is none.
fn work(payload: Result<Json<ProveRequest>, JsonRejection>) -> Result<Work, ApiError> {
    let req = body(payload)?;
    let record = Input::of(req.game, req.record, req.to_move).record()?;
    let pos = to_play(&record).map_err(ApiError::unprocessable)?;
    let side = req.side.map_or(pos.to_move(), Side::color);
    if let Some(why) = prove::cannot_start(&pos, side) {
        return Err(ApiError::unprocessable(why));
    }
    let defaults = Limits::default();
    let time = crate::limits::seconds("time", req.time.unwrap_or(DEFAULT_PROVE_SECONDS))
        .map_err(ApiError::unprocessable)?;
    let limits = Limits {
        threats: req.threats.unwrap_or(defaults.threats),
        threat_step: req.threat_step.unwrap_or(defaults.threat_step),
        quiet: req.quiet.unwrap_or(defaults.quiet),
        quiet_depth: req.quiet_depth.unwrap_or(defaults.quiet_depth),
        width: req.width.unwrap_or(defaults.width),
        late: req.late.unwrap_or(defaults.late),
        book: match &req.book {
            None => None,
            Some(text) => Some(Arc::new(
                prove::book::parse_for(text, *pos.game())
                    .map_err(|why| ApiError::unprocessable(format!("book: {why}")))?,
            )),
        },
        max_time: Some(time),
        threads: 1,
        progress: Some(Arc::new(prove::Progress::default())),
        ..defaults
    };
    if let Some(why) = limits.refusal(pos.game()) {
        return Err(ApiError::unprocessable(why));
    }
    let each_reply = match req.each_reply {
        None => None,
        Some(s) => match prove::each_reply::refusal(&pos, side) {
            Some(why) => return Err(ApiError::unprocessable(format!("each_reply: {why}"))),
            None => Some(crate::limits::seconds("each_reply", s).map_err(ApiError::unprocessable)?),
        },
    };
    let game = *pos.game();
    Ok(Box::new(
        move |stop: &AtomicBool, progress: &(dyn Fn(serde_json::Value) + Sync)| {
            let counter = limits.progress.clone().expect("set above");
            let poll = || prove::report::progress_json(&counter);
            let (answer, replies) = jobs::polled(
                progress,
                &poll,
                || crate::with_cpbim_model!(&game, M => prove::each_reply::prove_or_each::<M>(&pos, side, &limits, each_reply, stop)),
            );
            let mut json = prove::report::answer_json(&pos, side, &limits, &answer);
            if let Some((replies, total)) = &replies {
                prove::each_reply::add_json(&mut json, replies, total);
            }
            Ok(json)
        },
    ))
}
