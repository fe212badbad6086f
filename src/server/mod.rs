//! `cpbim serve`: the analysis board in the browser (`docs/board.md`). A thin layer over the
//! same library calls as the command line: [`api`] turns JSON requests into library calls and
//! answers with the objects of the CLI's `--json` output (`docs/json.md`), [`jobs`] runs the
//! long ones (solve, analyze, move) on blocking threads with progress and cancellation, and
//! [`assets`] serves the page, which is inside the binary.

pub mod api;
pub mod assets;
pub mod jobs;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::sync::Arc;
use std::time::Duration;

/// How the server limits its work.
#[derive(Clone, Debug)]
pub struct Options {
    /// The longest a job may run: then its stop flag is set (a search answers `unknown`).
    pub job_time: Duration,
    /// Jobs that may run at once; one more is refused with 503.
    pub max_running: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            job_time: Duration::from_secs(120),
            max_running: 8,
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

/// The router of the page and the API.
pub fn router(options: Options) -> Router {
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
        .route("/api/move", post(api::play))
        .route("/api/jobs", get(api::job_list))
        .route("/api/jobs/{id}", get(api::job).delete(api::cancel))
        .route("/api/jobs/{id}/events", get(api::events))
        .fallback(no_route)
        .method_not_allowed_fallback(no_method)
        .with_state(state)
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

/// Serve `router` on `listener` until `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router)
        .with_graceful_shutdown(shutdown)
        .await
}
