//! The `tde play` table's routes (the page, built into the binary, and its JSON API) on the
//! local web server machinery it shares with the Encounter page ([`crate::web_server`]: the
//! session token, the host check, the body limit and JSON errors).

use super::advice::advise;
use super::table::{Mode, Refusal, Table};
use super::view::{fixed_json, view_json};
use crate::web_server::{
    bad_json, blocking, guarded_router, internal, page, script, serve_with, stylesheet, ApiError,
    ServerState, Session,
};
use axum::extract::rejection::JsonRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

/// The page, its script and its style, built into the binary.
const INDEX_HTML: &str = include_str!("../../web/index.html");
const APP_JS: &str = include_str!("../../web/app.js");
const STYLE_CSS: &str = include_str!("../../web/style.css");

/// What every request handler shares.
pub struct Shared {
    /// The game.
    pub table: Mutex<Table>,
    /// Who may use the server.
    pub session: Session,
    /// The fixed parts of the game, sent once.
    pub fixed: Value,
    /// Networks loaded for advice, by checkpoint path.
    pub networks: Mutex<Vec<(String, Arc<training::network::loaded::Network>)>>,
    /// Whether advice is being worked out: one question at a time.
    pub advising: std::sync::atomic::AtomicBool,
    /// Options' figures worked out on request (`/api/odds`) at one state version, by index.
    pub odds: Mutex<(usize, std::collections::HashMap<usize, Value>)>,
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        let status = match r {
            Refusal::NoSuchAction { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Refusal::WrongMode(_) => StatusCode::BAD_REQUEST,
            Refusal::Stale { .. } | Refusal::NotYourTurn(_) | Refusal::BotThinking(_) => StatusCode::CONFLICT,
        };
        ApiError(status, r.to_string())
    }
}

/// The routes, with the token and host checks and the body limit.
pub fn router(shared: Arc<Shared>) -> Router {
    let api = Router::new()
        .route("/api/fixed", get(fixed))
        .route("/api/state", get(state))
        .route("/api/action", post(action))
        .route("/api/advance", post(advance))
        .route("/api/advice", post(advice))
        .route("/api/risk", post(risk))
        .route("/api/odds", post(odds))
        .route("/api/sight", post(sight));
    let pages = Router::new()
        .route("/", get(index))
        .route("/app.js", script(APP_JS))
        .route("/style.css", stylesheet(STYLE_CSS));
    guarded_router(shared, pages, api)
}

impl ServerState for Shared {
    type Table = Table;

    fn session(&self) -> &Session {
        &self.session
    }

    fn table(&self) -> &Mutex<Table> {
        &self.table
    }
}

/// The page, with the session token and the mode written in.
async fn index(State(shared): State<Arc<Shared>>) -> Response {
    let mode = shared.table.lock().map(|t| t.mode).unwrap_or(Mode::Play);
    let mode = serde_json::to_value(mode).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
    page(INDEX_HTML.replace("{{TOKEN}}", &shared.session.token).replace("{{MODE}}", &mode))
}

async fn fixed(State(shared): State<Arc<Shared>>) -> Json<Value> {
    Json(shared.fixed.clone())
}

/// `at`: the state version to show (watching and viewing); play always shows the latest.
#[derive(Deserialize)]
struct StateQuery {
    at: Option<usize>,
}

async fn state(
    State(shared): State<Arc<Shared>>,
    query: Result<Query<StateQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) =
        query.map_err(|e| ApiError(StatusCode::BAD_REQUEST, format!("query: {}", e.body_text())))?;
    blocking(shared, move |table| {
        let at = match table.mode {
            Mode::Play => table.version(),
            _ => query.at.unwrap_or(table.version()),
        };
        Ok(view_json(table, at, table.human()))
    })
    .await
}

/// An option of the person's decision: the index of a legal action at the version it was
/// offered at (the choice of `/api/action`, or the option whose figures over the rest of the
/// action sequence `/api/odds` asks for, which the answer to the step left for later).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionRequest {
    version: usize,
    index: usize,
}

async fn action(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<OptionRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(request) = body.map_err(bad_json)?;
    let _taken = blocking(shared.clone(), move |table| {
        table.human_action(request.version, request.index).map_err(internal)??;
        Ok(Value::Null)
    })
    .await?;
    play_on(shared.clone()).await?;
    blocking(shared, |table| Ok(view_json(table, table.version(), table.human()))).await
}

/// After the person's action, the dice and the bot play on until the person decides again or
/// the game ends. The bot thinks without holding the table, so that meanwhile the page can
/// show what it is thinking about; and the work goes on to its end in a task of its own even
/// when the request that started it is dropped (a closed tab), so no step is left half done.
async fn play_on(shared: Arc<Shared>) -> Result<(), ApiError> {
    let task = tokio::spawn(async move {
        loop {
            let s = shared.clone();
            let turn = tokio::task::spawn_blocking(move || s.lock_table().start_bot_turn())
                .await
                .map_err(|e| format!("the game task failed: {e}"))??;
            let Some(mut turn) = turn else { return Ok(()) };
            let (turn, action) = tokio::task::spawn_blocking(move || {
                let action = turn.think();
                (turn, action)
            })
            .await
            .map_err(|e| format!("the bot failed while thinking: {e}"))?;
            let s = shared.clone();
            tokio::task::spawn_blocking(move || s.lock_table().finish_bot_turn(turn, action))
                .await
                .map_err(|e| format!("the game task failed: {e}"))??;
        }
    });
    task.await.map_err(|e| internal(format!("the game task failed: {e}")))?.map_err(internal)
}

/// Watch mode: the next step of the agents or the dice.
async fn advance(State(shared): State<Arc<Shared>>) -> Result<Json<Value>, ApiError> {
    blocking(shared, move |table| {
        if table.mode != Mode::Watch {
            return Err(Refusal::WrongMode(table.mode).into());
        }
        table.advance().map_err(internal)?;
        Ok(view_json(table, table.version(), None))
    })
    .await
}

/// "What would the bot do here?" at the version the page shows.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AdviceRequest {
    version: usize,
}

async fn advice(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<AdviceRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    use std::sync::atomic::Ordering;
    let Json(request) = body.map_err(bad_json)?;
    // One question at a time: repeated clicks must not queue minutes of work before the game.
    if shared.advising.swap(true, Ordering::SeqCst) {
        return Err(ApiError(
            StatusCode::TOO_MANY_REQUESTS,
            "the bot is already working out its advice: one question at a time".into(),
        ));
    }
    let networks = shared.clone();
    // Cleared when the work ends, even if the request is dropped before.
    let guard = AdviceGuard(shared.clone());
    blocking(shared, move |table| {
        let _guard = guard;
        if table.mode != Mode::Play {
            return Err(Refusal::WrongMode(table.mode).into());
        }
        if let Some(thinking) = &table.thinking {
            return Err(Refusal::BotThinking(thinking.on.clone()).into());
        }
        if request.version != table.version() {
            return Err(Refusal::Stale { offered: request.version, current: table.version() }.into());
        }
        advise(table, &networks.networks).map_err(|e| match e {
            super::advice::AdviceError::NotYourTurn(node) => Refusal::NotYourTurn(node).into(),
            super::advice::AdviceError::Agent(message) => internal(message),
        })
    })
    .await
}

/// Marks advice as being worked out until dropped.
struct AdviceGuard(Arc<Shared>);

impl Drop for AdviceGuard {
    fn drop(&mut self) {
        self.0.advising.store(false, std::sync::atomic::Ordering::SeqCst);
    }
}

/// An option of the person's decision, followed through the enemy's answers.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RiskRequest {
    version: usize,
    index: usize,
}

async fn risk(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<RiskRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(request) = body.map_err(bad_json)?;
    blocking(shared, move |table| {
        if table.mode != Mode::Play {
            return Err(Refusal::WrongMode(table.mode).into());
        }
        if request.version != table.version() {
            return Err(Refusal::Stale { offered: request.version, current: table.version() }.into());
        }
        let state = table.current();
        let side = match state.current_player() {
            engine::Player::Side(s) if Some(s) == table.human() => s,
            _ => return Err(Refusal::NotYourTurn(state.describe_node()).into()),
        };
        let legal = state.legal_actions();
        let Some(&action) = legal.get(request.index) else {
            return Err(Refusal::NoSuchAction { index: request.index, count: legal.len() }.into());
        };
        let seed = table.version() as u64 ^ (request.index as u64) << 20 ^ 0x715c;
        let bot = table.bot_spec().unwrap_or("scripted");
        super::risk::risk(state, side, action, seed, bot)
            .map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e))
    })
    .await
}

/// The figures of the option (the engine's enumeration, as the step's answer would have given
/// them), or why there are none. They are worked out without holding the table, so that a
/// choice made meanwhile is played at once; and kept for the state's version.
async fn odds(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<OptionRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(request) = body.map_err(bad_json)?;
    let work = shared.clone();
    let result = tokio::task::spawn_blocking(move || -> Result<Value, ApiError> {
        let (state, action) = {
            let table = work.lock_table();
            if table.mode != Mode::Play {
                return Err(Refusal::WrongMode(table.mode).into());
            }
            if request.version != table.version() {
                return Err(Refusal::Stale { offered: request.version, current: table.version() }.into());
            }
            let state = table.current();
            if !matches!(state.current_player(), engine::Player::Side(s) if Some(s) == table.human()) {
                return Err(Refusal::NotYourTurn(state.describe_node()).into());
            }
            let legal = state.legal_actions();
            let Some(&action) = legal.get(request.index) else {
                return Err(Refusal::NoSuchAction { index: request.index, count: legal.len() }.into());
            };
            if !super::view::has_sequence_odds(state.node()) {
                let why = format!("index {}: this decision's options have no such figures", request.index);
                return Err(ApiError(StatusCode::UNPROCESSABLE_ENTITY, why));
            }
            (state.clone(), action)
        };
        let key = (request.version, request.index);
        let kept = work.odds.lock().unwrap_or_else(|p| p.into_inner());
        if kept.0 == key.0 {
            if let Some(answer) = kept.1.get(&key.1) {
                return Ok(answer.clone());
            }
        }
        drop(kept);
        let answer = match super::odds::sequence_odds(&state, action, engine::analysis::MAX_LEAVES) {
            Ok(v) => json!({"version": key.0, "index": key.1, "odds": super::view::odds_json(&v)}),
            Err(why) => json!({"version": key.0, "index": key.1, "odds": null, "why": why}),
        };
        let mut kept = work.odds.lock().unwrap_or_else(|p| p.into_inner());
        if kept.0 != key.0 {
            *kept = (key.0, std::collections::HashMap::new());
        }
        kept.1.insert(key.1, answer.clone());
        Ok(answer)
    })
    .await
    .map_err(|e| internal(format!("the game task failed: {e}")))?;
    result.map(Json)
}

/// The sight, cover and threat overlay of a cell: `version` is the state the page shows
/// (play: the current one), `model` the person's model imagined there (default: the one acting,
/// else the first of the seat's side).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SightRequest {
    version: usize,
    x: u32,
    y: u32,
    model: Option<u32>,
}

async fn sight(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<SightRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(request) = body.map_err(bad_json)?;
    blocking(shared, move |table| {
        let current = table.version();
        let stale = match table.mode {
            Mode::Play => request.version != current,
            _ => request.version > current,
        };
        if stale {
            return Err(Refusal::Stale { offered: request.version, current }.into());
        }
        let state = table.state_at(request.version);
        // The person's side; a spectator looks with side A, or the side acting now.
        let side = table.human().unwrap_or(match state.current_player() {
            engine::Player::Side(s) if s < 2 => s,
            _ => 0,
        });
        super::sight::sight(state, side, request.x, request.y, request.model)
            .map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e))
    })
    .await
}

/// Serve `table` on `listener` (bound to `host`) until the process is stopped; `announce`
/// gets the address; `unfinished` (other saved games to go on with) goes to the page.
pub fn serve(
    listener: std::net::TcpListener,
    table: Table,
    host: &str,
    unfinished: Value,
    announce: impl FnOnce(&str),
) -> Result<(), String> {
    let mut fixed = fixed_json(table.current());
    fixed["unfinished"] = unfinished;
    serve_with(listener, host, announce, std::future::pending(), move |session| {
        router(Arc::new(Shared {
            table: Mutex::new(table),
            session,
            fixed,
            networks: Mutex::new(Vec::new()),
            advising: std::sync::atomic::AtomicBool::new(false),
            odds: Mutex::new((0, std::collections::HashMap::new())),
        }))
    })
}
