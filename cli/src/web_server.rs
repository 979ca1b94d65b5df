//! The local web server that the `tde play` table ([`crate::play`]) and the Encounter page
//! ([`crate::encounter_web`]) share: binding the port, serving until a shutdown, the page and
//! its files, the checks every request passes, JSON errors, and the game's work done off the
//! async workers. Each server's own routes stay with it.
//!
//! Every API call must carry the session token in the `x-tde-token` header; the token is
//! drawn when the server starts and written only into the page it serves, so another web
//! page cannot act for the person (it can neither read the page across origins nor send the
//! custom header without a CORS preflight, which these servers never approve). Requests must
//! name this server in their `Host` header (no DNS rebinding), bodies are capped at
//! [`MAX_BODY`] bytes, and every refusal is a 4xx with a JSON `{"error": ...}` that says why.

use axum::body::Body;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, MethodRouter};
use axum::{Json, Router};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex, MutexGuard};

/// Largest request body accepted, in bytes.
pub const MAX_BODY: usize = 4096;

/// An API error: a status and a message.
pub(crate) struct ApiError(pub(crate) StatusCode, pub(crate) String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({"error": self.1}))).into_response()
    }
}

/// A failure inside the server (an agent, the game task or the record file): 500.
pub(crate) fn internal(message: String) -> ApiError {
    ApiError(StatusCode::INTERNAL_SERVER_ERROR, message)
}

/// A malformed JSON body, named by its field where serde says which.
pub(crate) fn bad_json(rejection: JsonRejection) -> ApiError {
    ApiError(rejection.status(), format!("request body: {}", rejection.body_text()))
}

/// Who may use a server: the page that carries its token, on a host that names it.
pub(crate) struct Session {
    /// The session token the page must send back.
    pub(crate) token: String,
    /// The address given with `--host`, which `Host` headers may name besides IP addresses
    /// and `localhost`.
    pub(crate) host: String,
    /// The port the server listens on, which `Host` headers must name.
    pub(crate) port: u16,
}

/// What the shared machinery needs of a server's state (what every request handler shares):
/// its session and its game.
pub(crate) trait ServerState: Send + Sync + 'static {
    /// The game the page shows.
    type Table: Send + 'static;

    /// Who may use the server.
    fn session(&self) -> &Session;

    /// The game, behind its lock.
    fn table(&self) -> &Mutex<Self::Table>;

    /// The game, even when a thread panicked while holding it (a table takes a step whole or
    /// not at all, so its states stay consistent).
    fn lock_table(&self) -> MutexGuard<'_, Self::Table> {
        self.table().lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A server's routes: `pages` (the page and its files) and `api` (the JSON calls, which also
/// need the session token), all behind the host check and the body limit.
pub(crate) fn guarded_router<S: ServerState>(
    shared: Arc<S>,
    pages: Router<Arc<S>>,
    api: Router<Arc<S>>,
) -> Router {
    let api = api.route_layer(middleware::from_fn_with_state(shared.clone(), check_token::<S>));
    pages
        .merge(api)
        .layer(middleware::from_fn_with_state(shared.clone(), check_host::<S>))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared)
}

/// A script built into the binary, served as JavaScript.
pub(crate) fn script<S: Clone + Send + Sync + 'static>(text: &'static str) -> MethodRouter<S> {
    get(move || async move { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], text) })
}

/// A style sheet built into the binary, served as CSS.
pub(crate) fn stylesheet<S: Clone + Send + Sync + 'static>(text: &'static str) -> MethodRouter<S> {
    get(move || async move { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], text) })
}

/// The page `html` (with the session token written in), never cached.
pub(crate) fn page(html: String) -> Response {
    let mut response = Response::new(Body::from(html));
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, "text/html; charset=utf-8".parse().expect("valid header"));
    headers.insert(header::CACHE_CONTROL, "no-store".parse().expect("valid header"));
    response
}

/// Refuse requests that do not name this server (DNS rebinding).
async fn check_host<S: ServerState>(State(shared): State<Arc<S>>, request: Request, next: Next) -> Response {
    let session = shared.session();
    let host = request.headers().get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    if !names_this_server(host, &session.host, session.port) {
        let message = format!(
            "header `Host`: `{host}` is not this server (an IP address, localhost or {} with port {})",
            session.host, session.port
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
async fn check_token<S: ServerState>(State(shared): State<Arc<S>>, request: Request, next: Next) -> Response {
    let token = request.headers().get("x-tde-token").and_then(|h| h.to_str().ok());
    match token {
        Some(t) if same(t.as_bytes(), shared.session().token.as_bytes()) => next.run(request).await,
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

/// Run `f` on the game off the async workers (agents, searches and odds may take a while).
pub(crate) async fn blocking<S: ServerState>(
    shared: Arc<S>,
    f: impl FnOnce(&mut S::Table) -> Result<Value, ApiError> + Send + 'static,
) -> Result<Json<Value>, ApiError> {
    let result = tokio::task::spawn_blocking(move || f(&mut shared.lock_table()))
        .await
        .map_err(|e| internal(format!("the game task failed: {e}")))?;
    result.map(Json)
}

/// Bind `host:port` (port 0 picks a free port) before anything else is done, so that a busy
/// port stops the command before it writes a record.
pub fn bind(host: &str, port: u16) -> Result<std::net::TcpListener, String> {
    let listener = std::net::TcpListener::bind((host, port))
        .map_err(|e| format!("--host {host} --port {port}: cannot listen: {e}"))?;
    listener.set_nonblocking(true).map_err(|e| format!("--host {host} --port {port}: {e}"))?;
    Ok(listener)
}

/// Serve the router that `build` makes (given the session: a fresh token, `host` and the port
/// bound) on `listener` until `shutdown` completes; `announce` gets the address the page is
/// opened at.
pub(crate) fn serve_with(
    listener: std::net::TcpListener,
    host: &str,
    announce: impl FnOnce(&str),
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    build: impl FnOnce(Session) -> Router,
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
        let app = build(Session { token: new_token(), host: host.to_string(), port });
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
