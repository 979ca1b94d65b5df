//! A `tde play`/`watch`/`view` server started for a test, and HTTP calls to it; [`browser`]:
//! headless Chromium for the browser tests.
#![allow(dead_code)]

pub mod browser;

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// The index of an option of `view`'s decision, drawn by `rng`: most of the time one of the
/// options that move, shoot, charge, activate, react or fight (the play that reaches tests
/// and reactions), else any.
pub fn favoured_option(view: &Value, rng: &mut impl rand::Rng) -> u64 {
    let options = view["decision"]["options"].as_array().expect("a decision with options");
    let kinds = ["move", "activate", "charge", "shoot", "close_combat", "react"];
    let good: Vec<&Value> =
        options.iter().filter(|o| kinds.contains(&o["kind"].as_str().unwrap_or(""))).collect();
    if !good.is_empty() && rng.gen_bool(0.85) {
        good[rng.gen_range(0..good.len())]["i"].as_u64().expect("an option index")
    } else {
        rng.gen_range(0..options.len()) as u64
    }
}

/// A fresh folder under the target's temporary folder.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("play-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An HTTP answer.
#[derive(Debug)]
pub struct Reply {
    /// Status code.
    pub status: u16,
    /// Body text.
    pub body: String,
}

impl Reply {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    /// The body as JSON, after checking for 200.
    pub fn ok(&self) -> Value {
        assert_eq!(self.status, 200, "{}", self.body);
        self.json()
    }
}

/// A running server; stopped when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The session token from the page.
    pub token: String,
    /// The record file of `tde play`.
    pub record: PathBuf,
}

impl Server {
    /// `tde play ARGS` on a free port, keeping its record in a temporary folder.
    pub fn play(args: &[&str]) -> Server {
        let dir = temp_dir(&format!("game-{}", args.join("-").replace(['/', ':', ',', '='], "_")));
        let record = dir.join("record.json");
        let mut all = vec!["play", "--record", record.to_str().unwrap()];
        all.extend_from_slice(args);
        let mut server = Server::start(&all);
        server.record = record;
        server
    }

    /// `tde play` resumed at a reaction prompt of seed 21's Attack and Defend game (a move with
    /// a nested action and three enemy reactions declared), whose answer took 17 s when every
    /// option's whole sequence was enumerated (over five million outcomes): its record
    /// (`cli/src/play/testdata/heavy_reaction.json`), copied.
    pub fn heavy_reaction_prompt() -> Server {
        let dir = temp_dir("heavy-reaction");
        let record = dir.join("record.json");
        let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/src/play/testdata/heavy_reaction.json");
        std::fs::copy(fixture, &record).unwrap();
        let mut server = Server::start(&["play", "--record", record.to_str().unwrap()]);
        server.record = record;
        server
    }

    /// `tde ARGS --port 0`: waits for the address it prints and reads the token from the page.
    pub fn start(args: &[&str]) -> Server {
        Server::start_in(None, args).0
    }

    /// As [`Server::start`], run in folder `dir` (the working folder) when given; also
    /// returns what the server printed before its address.
    pub fn start_in(dir: Option<&std::path::Path>, args: &[&str]) -> (Server, String) {
        let mut command = Command::new(env!("CARGO_BIN_EXE_tde"));
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
        // A free port unless the test names one (to restart a server where it was).
        let port: &[&str] = if args.contains(&"--port") { &[] } else { &["--port", "0"] };
        let mut child = command
            .args(args)
            .args(port)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("tde starts");
        let stdout = child.stdout.take().unwrap();
        let mut lines = BufReader::new(stdout).lines();
        let mut said = String::new();
        let base = loop {
            let line = lines.next().expect("the server prints its address").unwrap();
            if let Some(rest) = line.strip_prefix("Open ") {
                break rest.split_whitespace().next().unwrap().trim_end_matches('/').to_string();
            }
            said.push_str(&line);
            said.push('\n');
        };
        // Keep draining the output so the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        let page = ureq::get(&format!("{base}/")).call().expect("the page").into_string().unwrap();
        let token = page
            .split("name=\"tde-token\" content=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .expect("the page carries the token")
            .to_string();
        (Server { child, base, token, record: PathBuf::new() }, said)
    }

    fn reply(result: Result<ureq::Response, ureq::Error>) -> Reply {
        match result {
            Ok(r) => Reply { status: r.status(), body: r.into_string().unwrap() },
            Err(ureq::Error::Status(status, r)) => Reply { status, body: r.into_string().unwrap() },
            Err(e) => panic!("HTTP transport error: {e}"),
        }
    }

    /// GET an API path with the token.
    pub fn get(&self, path: &str) -> Reply {
        Server::reply(ureq::get(&format!("{}{path}", self.base)).set("x-tde-token", &self.token).call())
    }

    /// POST JSON with the token.
    pub fn post(&self, path: &str, body: Value) -> Reply {
        self.post_with_token(path, body, &self.token.clone())
    }

    /// POST JSON with a given token.
    pub fn post_with_token(&self, path: &str, body: Value, token: &str) -> Reply {
        Server::reply(ureq::post(&format!("{}{path}", self.base)).set("x-tde-token", token).send_json(body))
    }

    /// POST a raw body with a content type, with or without the token.
    pub fn raw_post(&self, path: &str, content_type: &str, body: &str, token: bool) -> Reply {
        let mut request = ureq::post(&format!("{}{path}", self.base)).set("content-type", content_type);
        if token {
            request = request.set("x-tde-token", &self.token);
        }
        Server::reply(request.send_string(body))
    }

    /// GET with the token but a `Host` header naming another server (DNS rebinding).
    pub fn wrong_host(&self, path: &str) -> Reply {
        let address = self.base.trim_start_matches("http://");
        let mut stream = std::net::TcpStream::connect(address).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: evil.example:80\r\nx-tde-token: {}\r\nConnection: close\r\n\r\n",
            self.token
        )
        .unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).unwrap();
        let status = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let body = text.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
        Reply { status, body }
    }
}

impl Server {
    /// Stop the server (as Ctrl-C or a crash would: no clean-up runs).
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.base.rsplit(':').next().and_then(|p| p.parse().ok()).expect("a port in the address")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
