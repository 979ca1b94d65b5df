//! The Encounter page's routes on the `tde play` server machinery ([`crate::play::server`]):
//! the same host check (no DNS rebinding), session token (`x-tde-token`), body limit and
//! JSON errors that name the field; the page and its script built into the binary.

use super::table::{EncounterTable, Refusal};
use super::view::view_json;
use crate::play::server::{bad_json, check_host, check_token, ApiError, Guarded, MAX_BODY};
use axum::body::Body;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, StatusCode};
use axum::middleware;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The page, its script and its style.
const PAGE_HTML: &str = include_str!("../../web/encounter.html");
const PAGE_JS: &str = include_str!("../../web/encounter.js");
const PAGE_CSS: &str = include_str!("../../web/encounter.css");

/// What every request handler shares.
pub struct Shared {
    /// The game.
    pub table: Mutex<EncounterTable>,
    /// The session token the page must send back.
    pub token: String,
    /// The address given with `--host`.
    pub host: String,
    /// The port the server listens on.
    pub port: u16,
    /// Set when the person quits: the server then stops.
    pub stop: Arc<AtomicBool>,
}

impl Guarded for Shared {
    fn token(&self) -> &str {
        &self.token
    }
    fn host(&self) -> &str {
        &self.host
    }
    fn port(&self) -> u16 {
        self.port
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        let status = match r {
            Refusal::NoSuchOption { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Refusal::Stale { .. } | Refusal::Over | Refusal::Quit => StatusCode::CONFLICT,
        };
        ApiError(status, r.to_string())
    }
}

/// The routes, with the token and host checks and the body limit.
pub fn router(shared: Arc<Shared>) -> Router {
    let api = Router::new()
        .route("/api/state", get(state))
        .route("/api/action", post(action))
        .route("/api/quit", post(quit))
        .route_layer(middleware::from_fn_with_state(shared.clone(), check_token::<Shared>));
    Router::new()
        .route("/", get(index))
        .route(
            "/encounter.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], PAGE_JS) }),
        )
        .route(
            "/encounter.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], PAGE_CSS) }),
        )
        .merge(api)
        .layer(middleware::from_fn_with_state(shared.clone(), check_host::<Shared>))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared)
}

/// The page, with the session token written in.
async fn index(State(shared): State<Arc<Shared>>) -> Response {
    let mut response = Response::new(Body::from(PAGE_HTML.replace("{{TOKEN}}", &shared.token)));
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, "text/html; charset=utf-8".parse().expect("valid header"));
    headers.insert(header::CACHE_CONTROL, "no-store".parse().expect("valid header"));
    response
}

/// The table, even when a thread panicked while holding it (a step is taken whole or not at
/// all, and the record written after it).
fn lock(shared: &Shared) -> std::sync::MutexGuard<'_, EncounterTable> {
    shared.table.lock().unwrap_or_else(|p| p.into_inner())
}

/// Run `f` on the table off the async workers (the DM may search a while).
async fn blocking(
    shared: Arc<Shared>,
    f: impl FnOnce(&mut EncounterTable) -> Result<Value, ApiError> + Send + 'static,
) -> Result<Json<Value>, ApiError> {
    let result = tokio::task::spawn_blocking(move || f(&mut lock(&shared)))
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("the game task failed: {e}")))?;
    result.map(Json)
}

async fn state(State(shared): State<Arc<Shared>>) -> Result<Json<Value>, ApiError> {
    blocking(shared, |table| Ok(view_json(table))).await
}

/// The party's choice: an option's index at the version it was offered at.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionRequest {
    version: usize,
    index: usize,
}

/// Take the choice; the dice and the DM play on (in a task of its own, so a closed tab never
/// leaves a step half done) and the new view comes back.
async fn action(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<ActionRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(request) = body.map_err(bad_json)?;
    blocking(shared, move |table| {
        table
            .choose(request.version, request.index)
            .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e))??;
        Ok(view_json(table))
    })
    .await
}

/// Quit: nothing but an empty object.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuitRequest {}

/// Quit the game: the record is written, the answer says how to resume, and the server stops.
async fn quit(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<QuitRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(QuitRequest {}) = body.map_err(bad_json)?;
    let stop = shared.stop.clone();
    let answer = blocking(shared, |table| {
        table.quit().map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e))?;
        let mut view = view_json(table);
        view["resume"] = json!(super::resume_command(table.record_path()));
        Ok(view)
    })
    .await?;
    stop.store(true, Ordering::SeqCst);
    Ok(answer)
}
