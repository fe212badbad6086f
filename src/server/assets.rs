//! The page: plain HTML, JavaScript and CSS (no framework, no build step), inside the binary.

use super::ApiError;
use axum::extract::Path;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};

/// The page.
pub const INDEX: &str = include_str!("assets/index.html");
/// The board and its controls.
pub const BOARD_JS: &str = include_str!("assets/board.js");
/// The move list and the evaluation bar.
pub const MOVES_JS: &str = include_str!("assets/moves.js");
/// Export: the text formats, the PNG picture, the clipboard.
pub const EXPORT_JS: &str = include_str!("assets/export.js");
/// The page's style.
pub const BOARD_CSS: &str = include_str!("assets/board.css");

/// `GET /`.
pub async fn index() -> Html<&'static str> {
    Html(INDEX)
}

/// `GET /assets/{file}`.
pub async fn file(Path(file): Path<String>) -> Response {
    let (body, kind) = match file.as_str() {
        "board.js" => (BOARD_JS, "text/javascript; charset=utf-8"),
        "moves.js" => (MOVES_JS, "text/javascript; charset=utf-8"),
        "export.js" => (EXPORT_JS, "text/javascript; charset=utf-8"),
        "board.css" => (BOARD_CSS, "text/css; charset=utf-8"),
        "index.html" => (INDEX, "text/html; charset=utf-8"),
        _ => return ApiError::not_found(format!("no asset {file}")).into_response(),
    };
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}
