//! The Encounter page's routes on the local web server machinery it shares with `tde play`
//! ([`crate::web_server`]): the same host check (no DNS rebinding), session token
//! (`x-tde-token`), body limit and JSON errors that name the field; the page and its script
//! built into the binary.

use super::table::{EncounterTable, Refusal};
use super::view::view_json;
use crate::web_server::{
    bad_json, blocking, guarded_router, internal, page, script, stylesheet, ApiError, ServerState, Session,
};
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
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
    /// Who may use the server.
    pub session: Session,
    /// Set when the person quits: the server then stops.
    pub stop: Arc<AtomicBool>,
}

impl ServerState for Shared {
    type Table = EncounterTable;

    fn session(&self) -> &Session {
        &self.session
    }

    fn table(&self) -> &Mutex<EncounterTable> {
        &self.table
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
        .route("/api/quit", post(quit));
    let pages = Router::new()
        .route("/", get(index))
        .route("/encounter.js", script(PAGE_JS))
        .route("/encounter.css", stylesheet(PAGE_CSS));
    guarded_router(shared, pages, api)
}

/// The page, with the session token written in.
async fn index(State(shared): State<Arc<Shared>>) -> Response {
    page(PAGE_HTML.replace("{{TOKEN}}", &shared.session.token))
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
        table.choose(request.version, request.index).map_err(internal)??;
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
        table.quit().map_err(internal)?;
        let mut view = view_json(table);
        view["resume"] = json!(super::resume_command(table.record_path()));
        Ok(view)
    })
    .await?;
    stop.store(true, Ordering::SeqCst);
    Ok(answer)
}
