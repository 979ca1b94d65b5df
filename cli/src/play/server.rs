//! The local web server: the page (embedded in the binary) and a small JSON API.
//!
//! Every API call must carry the session token in the `x-tde-token` header; the token is
//! drawn when the server starts and written only into the page it serves, so another web
//! page cannot act for the person (it can neither read the page across origins nor send the
//! custom header without a CORS preflight, which this server never approves). Requests must
//! name this server in their `Host` header (no DNS rebinding), bodies are capped at
//! [`MAX_BODY`] bytes, and every refusal is a 4xx with a JSON `{"error": ...}` that says why.

use super::advice::advise;
use super::table::{Mode, Refusal, Table};
use super::view::{fixed_json, view_json};
use axum::body::Body;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

/// Largest request body accepted, in bytes.
pub const MAX_BODY: usize = 4096;

/// The page, its script and its style, built into the binary.
const INDEX_HTML: &str = include_str!("../../web/index.html");
const APP_JS: &str = include_str!("../../web/app.js");
const STYLE_CSS: &str = include_str!("../../web/style.css");

/// What every request handler shares.
pub struct Shared {
    /// The game.
    pub table: Mutex<Table>,
    /// The session token the page must send back.
    pub token: String,
    /// The fixed parts of the game, sent once.
    pub fixed: Value,
    /// The address given with `--host`, which `Host` headers may name besides IP addresses
    /// and `localhost`.
    pub host: String,
    /// The port the server listens on, which `Host` headers must name.
    pub port: u16,
    /// Networks loaded for advice, by checkpoint path.
    pub networks: Mutex<Vec<(String, Arc<training::network::loaded::Network>)>>,
    /// Whether advice is being worked out: one question at a time.
    pub advising: std::sync::atomic::AtomicBool,
    /// Options' figures worked out on request (`/api/odds`) at one state version, by index.
    pub odds: Mutex<(usize, std::collections::HashMap<usize, Value>)>,
}

/// An API error: a status and a message.
pub(crate) struct ApiError(pub(crate) StatusCode, pub(crate) String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({"error": self.1}))).into_response()
    }
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

/// A failure inside the server (an agent or the record file): 500.
fn internal(message: String) -> ApiError {
    ApiError(StatusCode::INTERNAL_SERVER_ERROR, message)
}

/// A malformed JSON body, named by its field where serde says which.
pub(crate) fn bad_json(rejection: JsonRejection) -> ApiError {
    ApiError(rejection.status(), format!("request body: {}", rejection.body_text()))
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
        .route("/api/sight", post(sight))
        .route_layer(middleware::from_fn_with_state(shared.clone(), check_token::<Shared>));
    Router::new()
        .route("/", get(index))
        .route(
            "/app.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], APP_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE_CSS) }),
        )
        .merge(api)
        .layer(middleware::from_fn_with_state(shared.clone(), check_host::<Shared>))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared)
}

/// What the host and token checks need of a server's shared state: the `tde play` table's and
/// the Encounter page's ([`crate::encounter_web`]) alike.
pub(crate) trait Guarded: Send + Sync + 'static {
    /// The session token the page must send back.
    fn token(&self) -> &str;
    /// The address given with `--host`.
    fn host(&self) -> &str;
    /// The port the server listens on.
    fn port(&self) -> u16;
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

/// Refuse requests that do not name this server (DNS rebinding).
pub(crate) async fn check_host<S: Guarded>(
    State(shared): State<Arc<S>>,
    request: Request,
    next: Next,
) -> Response {
    let host = request.headers().get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    if !names_this_server(host, shared.host(), shared.port()) {
        let message = format!(
            "header `Host`: `{host}` is not this server (an IP address, localhost or {} with port {})",
            shared.host(),
            shared.port()
        );
        return ApiError(StatusCode::FORBIDDEN, message).into_response();
    }
    next.run(request).await
}

/// Whether a `Host` header names this server: its port (80 when it names none), and as the name
/// an IP address (which no DNS rebinding can stand for), `localhost` or the `--host` given.
fn names_this_server(header: &str, host: &str, port: u16) -> bool {
    let (name, named_port) = match header.rsplit_once(':') {
        Some((name, p)) if !p.contains(']') => (name, p.parse::<u16>().ok()),
        _ => (header, Some(80)),
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    named_port == Some(port)
        && (name.parse::<std::net::IpAddr>().is_ok()
            || name.eq_ignore_ascii_case("localhost")
            || name == host)
}

/// Refuse API calls without the session token.
pub(crate) async fn check_token<S: Guarded>(
    State(shared): State<Arc<S>>,
    request: Request,
    next: Next,
) -> Response {
    let token = request.headers().get("x-tde-token").and_then(|h| h.to_str().ok());
    match token {
        Some(t) if same(t.as_bytes(), shared.token().as_bytes()) => next.run(request).await,
        // A page from before the server was restarted: it may reload itself for the new token.
        Some(_) => (
            StatusCode::FORBIDDEN,
            Json(json!({
                "error": "header `x-tde-token`: wrong session token (the page is from an earlier start of the server)",
                "reload": true,
            })),
        )
            .into_response(),
        None => ApiError(
            StatusCode::UNAUTHORIZED,
            "header `x-tde-token` is missing: API calls need the session token from the page".into(),
        )
        .into_response(),
    }
}

/// Constant-time comparison, so the token cannot be guessed byte by byte from timings.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The page, with the session token and the mode written in.
async fn index(State(shared): State<Arc<Shared>>) -> Response {
    let mode = shared.table.lock().map(|t| t.mode).unwrap_or(Mode::Play);
    let mode = serde_json::to_value(mode).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
    let page = INDEX_HTML.replace("{{TOKEN}}", &shared.token).replace("{{MODE}}", &mode);
    let mut response = Response::new(Body::from(page));
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, "text/html; charset=utf-8".parse().expect("valid header"));
    headers.insert(header::CACHE_CONTROL, "no-store".parse().expect("valid header"));
    response
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
            let turn = tokio::task::spawn_blocking(move || lock(&s).start_bot_turn())
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
            tokio::task::spawn_blocking(move || lock(&s).finish_bot_turn(turn, action))
                .await
                .map_err(|e| format!("the game task failed: {e}"))??;
        }
    });
    task.await.map_err(|e| internal(format!("the game task failed: {e}")))?.map_err(internal)
}

/// The table, even when a thread panicked while holding it (its states stay consistent:
/// a step is pushed whole or not at all).
fn lock(shared: &Shared) -> std::sync::MutexGuard<'_, Table> {
    shared.table.lock().unwrap_or_else(|p| p.into_inner())
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
            let table = lock(&work);
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

/// Run `f` on the table off the async workers (agents and odds may take a while).
async fn blocking(
    shared: Arc<Shared>,
    f: impl FnOnce(&mut Table) -> Result<Value, ApiError> + Send + 'static,
) -> Result<Json<Value>, ApiError> {
    let result = tokio::task::spawn_blocking(move || f(&mut lock(&shared)))
        .await
        .map_err(|e| internal(format!("the game task failed: {e}")))?;
    result.map(Json)
}

/// Bind `host:port` (port 0 picks a free port) before anything else is done, so that a busy
/// port stops `tde play` before it writes a record.
pub fn bind(host: &str, port: u16) -> Result<std::net::TcpListener, String> {
    let listener = std::net::TcpListener::bind((host, port))
        .map_err(|e| format!("--host {host} --port {port}: cannot listen: {e}"))?;
    listener.set_nonblocking(true).map_err(|e| format!("--host {host} --port {port}: {e}"))?;
    Ok(listener)
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
    let host_name = host.to_string();
    serve_with(listener, host, announce, std::future::pending(), move |token, port| {
        router(Arc::new(Shared {
            table: Mutex::new(table),
            token,
            fixed,
            host: host_name,
            port,
            networks: Mutex::new(Vec::new()),
            advising: std::sync::atomic::AtomicBool::new(false),
            odds: Mutex::new((0, std::collections::HashMap::new())),
        }))
    })
}

/// Serve the router that `build` makes (given a fresh session token and the port bound) on
/// `listener` (bound to `host`) until `shutdown` completes; `announce` gets the address the
/// page is opened at.
pub(crate) fn serve_with(
    listener: std::net::TcpListener,
    host: &str,
    announce: impl FnOnce(&str),
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    build: impl FnOnce(String, u16) -> Router,
) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server runtime: {e}"))?;
    runtime.block_on(async move {
        let listener =
            tokio::net::TcpListener::from_std(listener).map_err(|e| format!("cannot listen: {e}"))?;
        let bound = listener.local_addr().map_err(|e| e.to_string())?;
        let port = bound.port();
        let app = build(new_token(), port);
        // A server on every interface is opened here through the loopback address.
        let url_host = match host.parse::<std::net::IpAddr>() {
            Ok(ip) if ip.is_unspecified() && ip.is_ipv4() => "127.0.0.1".to_string(),
            Ok(ip) if ip.is_unspecified() => "[::1]".to_string(),
            Ok(std::net::IpAddr::V6(_)) => format!("[{host}]"),
            _ => host.to_string(),
        };
        announce(&format!("http://{url_host}:{port}/"));
        axum::serve(listener, app)
            .with_graceful_shutdown(shutdown)
            .await
            .map_err(|e| format!("the server stopped: {e}"))
    })
}

/// A fresh session token: 128 bits from the operating system's generator (not a game seed:
/// it must not be predictable).
fn new_token() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::names_this_server;

    #[test]
    fn host_headers_must_name_this_server_by_address() {
        for ok in ["127.0.0.1:8014", "localhost:8014", "192.168.1.20:8014", "[::1]:8014", "table.lan:8014"] {
            assert!(names_this_server(ok, "table.lan", 8014), "{ok}");
        }
        assert!(names_this_server("[::1]", "::1", 80));
        assert!(names_this_server("127.0.0.1", "127.0.0.1", 80));
        for bad in ["127.0.0.1:8015", "evil.example:8014", "127.0.0.1", "", "localhost:x"] {
            assert!(!names_this_server(bad, "table.lan", 8014), "{bad}");
        }
    }
}
