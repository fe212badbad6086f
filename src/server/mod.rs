//! `cpbim serve`: the analysis board in the browser (`docs/board.md`). A thin layer over the
//! same library calls as the command line: [`api`] turns JSON requests into library calls and
//! answers with the objects of the CLI's `--json` output (`docs/json.md`), [`jobs`] runs the
//! long ones (solve, analyze, move) on blocking threads with progress and cancellation,
//! [`assets`] serves the page, which is inside the binary, [`host`] refuses requests for other
//! host names, and [`serve`] accepts the connections, within limits ([`Options`]).

pub mod api;
pub mod assets;
pub mod host;
pub mod jobs;
mod listen;
pub mod prove;

pub use host::Hosts;
pub use listen::{serve, MAX_BODY};

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::sync::Arc;
use std::time::Duration;

/// How the server limits its work and whom it answers.
#[derive(Clone, Debug)]
pub struct Options {
    /// The longest a job may run: then its stop flag is set (a search answers `unknown`).
    pub job_time: Duration,
    /// Jobs that may run at once; one more is refused with 503.
    pub max_running: usize,
    /// The longest a connection may take to send a request's head (the request line and
    /// headers), or wait between requests; then it is closed.
    pub header_time: Duration,
    /// The longest a request's body may take to arrive once its head has; then 408.
    pub body_time: Duration,
    /// Connections open at once; one more closes the oldest that is not being answered, or
    /// waits ([`serve`]).
    pub max_connections: usize,
    /// The `Host` names answered ([`host`]).
    pub hosts: Hosts,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            job_time: Duration::from_secs(120),
            max_running: 8,
            header_time: Duration::from_secs(10),
            body_time: Duration::from_secs(30),
            max_connections: 256,
            hosts: Hosts::default(),
        }
    }
}

/// What every handler shares: the job table and the options.
#[derive(Clone)]
pub struct State {
    jobs: Arc<jobs::Jobs>,
}

/// An error answer: a status and `{"error": "…"}` carrying the library's message.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status (4xx for the request's fault).
    pub status: StatusCode,
    /// What is wrong.
    pub message: String,
}

impl ApiError {
    /// 422: the request is well formed but its content is not (a record, a point, a limit).
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: message.into(),
        }
    }

    /// 404.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(crate::report::error_json(&self.message))).into_response()
    }
}

/// The router of the page and the API, behind the `Host` check.
pub fn router(options: Options) -> Router {
    let hosts = Arc::new(options.hosts.clone());
    let state = State {
        jobs: Arc::new(jobs::Jobs::new(options)),
    };
    Router::new()
        .route("/", get(assets::index))
        .route("/assets/{file}", get(assets::file))
        .route("/api/position", post(api::position))
        .route("/api/export", post(api::export))
        .route("/api/solve", post(api::solve))
        .route("/api/analyze", post(api::analyze))
        .route("/api/prove", post(prove::prove))
        .route("/api/move", post(api::play))
        .route("/api/jobs", get(api::job_list))
        .route("/api/jobs/{id}", get(api::job).delete(api::cancel))
        .route("/api/jobs/{id}/events", get(api::events))
        .fallback(no_route)
        .method_not_allowed_fallback(no_method)
        .with_state(state)
        .layer(axum::middleware::from_fn_with_state(hosts, host::check))
}

async fn no_route(uri: axum::http::Uri) -> ApiError {
    ApiError::not_found(format!("no such page or endpoint: {}", uri.path()))
}

async fn no_method(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: format!("{} does not take {method}", uri.path()),
    }
}
