//! Agent specs, parsed in one place: a spec such as `mcts:iters=200,rollout=scripted,width=4`
//! is a name and `key=value` parameters ([`Spec`]), checked once against the agent's
//! parameters ([`Param`]: integers and numbers with ranges, words, paths, nested agent specs
//! such as `rollout=learned:gen=PATH`) into typed values ([`Args`]). A [`Registry`] maps each
//! name to its parameters, a one-line description and a constructor; every crate extends the
//! one below it (the generic agents of [`crate::generic_registry`], the TDE agents in [`crate::registry`], the network
//! agents in `training`, the Encounter's in `encounter`), and old spellings stay accepted
//! through [`Alias`]es. A parameter not in the agent's list, given twice, out of range or
//! missing is refused with the agent's name, the parameter and the parameters allowed.

use crate::{Agent, Game};
use std::fmt;

/// A spec as written: the agent's name and its parameters in order, unchecked.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// The agent's name, e.g. `mcts`.
    pub name: String,
    /// The parameters: `key=value` pieces as `(key, Some(value))`, a piece without `=` as
    /// `(piece, None)` (only an [`Alias`] gives those a meaning).
    pub params: Vec<(String, Option<String>)>,
}

impl Spec {
    /// Split `name[:k=v,k=v...]`; refuses only an empty name.
    pub fn parse(text: &str) -> Result<Spec, String> {
        let (name, params) = text.trim().split_once(':').unwrap_or((text.trim(), ""));
        if name.is_empty() {
            return Err(format!("agent spec `{text}` has no agent name"));
        }
        let params = params
            .split(',')
            .filter(|p| !p.is_empty())
            .map(|p| match p.split_once('=') {
                Some((k, v)) => (k.to_string(), Some(v.to_string())),
                None => (p.to_string(), None),
            })
            .collect();
        Ok(Spec { name: name.to_string(), params })
    }

    /// Whether the parameter `key` is given.
    pub fn has(&self, key: &str) -> bool {
        self.params.iter().any(|(k, v)| k == key && v.is_some())
    }

    /// Give the parameter `key` the value `value`, replacing every earlier value.
    pub fn set(&mut self, key: &str, value: &str) {
        self.params.retain(|(k, _)| k != key);
        self.params.push((key.to_string(), Some(value.to_string())));
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            f.write_str(if i == 0 { ":" } else { "," })?;
            match v {
                Some(v) => write!(f, "{k}={v}")?,
                None => f.write_str(k)?,
            }
        }
        Ok(())
    }
}

/// What a parameter's value may be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// An integer from `min` to `max`.
    Int {
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
    },
    /// A finite number from `min` to `max`.
    Real {
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
    },
    /// One of these words.
    Word(&'static [&'static str]),
    /// A file or folder (not empty).
    Path,
    /// An agent spec of its own, of one of these agents (e.g. `rollout=learned:gen=PATH`).
    Agent(&'static [&'static str]),
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Int { min, max } => write!(f, "an integer from {min} to {max}"),
            Kind::Real { min, max } => write!(f, "a number from {min} to {max}"),
            Kind::Word(words) => write!(f, "one of {}", words.join(", ")),
            Kind::Path => f.write_str("a path"),
            Kind::Agent(names) => write!(f, "an agent spec: {}", names.join(", ")),
        }
    }
}

/// One parameter an agent takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// Its key, e.g. `iters`.
    pub key: &'static str,
    /// What its value may be.
    pub kind: Kind,
    /// Whether a spec must give it.
    pub required: bool,
    /// What it does, in a few words.
    pub about: &'static str,
}

impl Param {
    /// An optional integer parameter from `min` to `max`.
    pub const fn int(key: &'static str, min: u64, max: u64, about: &'static str) -> Param {
        Param { key, kind: Kind::Int { min, max }, required: false, about }
    }

    /// An optional number parameter from `min` to `max`.
    pub const fn real(key: &'static str, min: f64, max: f64, about: &'static str) -> Param {
        Param { key, kind: Kind::Real { min, max }, required: false, about }
    }

    /// An optional parameter that is one of `words`.
    pub const fn word(key: &'static str, words: &'static [&'static str], about: &'static str) -> Param {
        Param { key, kind: Kind::Word(words), required: false, about }
    }

    /// An optional path parameter.
    pub const fn path(key: &'static str, about: &'static str) -> Param {
        Param { key, kind: Kind::Path, required: false, about }
    }

    /// An optional nested agent spec, one of `names`.
    pub const fn agent(key: &'static str, names: &'static [&'static str], about: &'static str) -> Param {
        Param { key, kind: Kind::Agent(names), required: false, about }
    }

    /// The time budget of a search, `ms=`: milliseconds per decision instead of a count of
    /// iterations or simulations (see [`Args::budget`]).
    pub const MILLIS: Param =
        Param::int("ms", 1, 3_600_000, "time per decision in milliseconds, instead of a count");

    /// The same parameter, required.
    pub const fn required(self) -> Param {
        Param { required: true, ..self }
    }
}

/// A checked parameter's value.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Int(u64),
    Real(f64),
    Text(String),
    Agent(Box<Args>),
}

/// A spec checked against its agent's parameters: the agent's name, the spec as written and
/// the typed values of the parameters given.
#[derive(Clone, Debug, PartialEq)]
pub struct Args {
    name: String,
    source: String,
    values: Vec<(&'static str, Value)>,
}

impl Args {
    /// The agent's name (after aliases).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The spec as it was written (before aliases).
    pub fn source(&self) -> &str {
        &self.source
    }

    fn value(&self, key: &str) -> Option<&Value> {
        self.values.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// Whether the parameter `key` was given.
    pub fn has(&self, key: &str) -> bool {
        self.value(key).is_some()
    }

    /// An integer parameter's value, if given.
    pub fn int(&self, key: &str) -> Option<u64> {
        match self.value(key) {
            Some(Value::Int(n)) => Some(*n),
            _ => None,
        }
    }

    /// A number parameter's value, if given.
    pub fn real(&self, key: &str) -> Option<f64> {
        match self.value(key) {
            Some(Value::Real(x)) => Some(*x),
            _ => None,
        }
    }

    /// A word or path parameter's value, if given.
    pub fn text(&self, key: &str) -> Option<&str> {
        match self.value(key) {
            Some(Value::Text(s)) => Some(s),
            _ => None,
        }
    }

    /// A search's budget: the count parameter `count` (e.g. `iters`) and [`Param::MILLIS`],
    /// each if given; refuses both.
    pub fn budget(&self, count: &str) -> Result<(Option<u64>, Option<u64>), String> {
        match (self.int(count), self.int("ms")) {
            (Some(_), Some(_)) => {
                Err(format!("{}: give `{count}` or `ms` as the budget, not both", self.name))
            }
            budget => Ok(budget),
        }
    }

    /// A nested agent spec's checked parameters, if given.
    pub fn agent(&self, key: &str) -> Option<&Args> {
        match self.value(key) {
            Some(Value::Agent(a)) => Some(a),
            _ => None,
        }
    }
}

/// Check `spec`'s parameters against `params` for the agent `agent`; nested agent specs are
/// checked by `nested`. Refuses a piece that is not `key=value`, an unknown key (naming the
/// allowed ones), a key given twice, a value out of range and a required key missing.
pub fn check(
    agent: &str,
    params: &[Param],
    spec: &Spec,
    source: &str,
    nested: &dyn Fn(&str) -> Result<Args, String>,
) -> Result<Args, String> {
    let allowed = || {
        if params.is_empty() {
            "it takes none".to_string()
        } else {
            format!("allowed: {}", params.iter().map(|p| p.key).collect::<Vec<_>>().join(", "))
        }
    };
    let mut values: Vec<(&'static str, Value)> = Vec::new();
    for (k, v) in &spec.params {
        let Some(v) = v else {
            return Err(format!("{agent}: parameter `{k}` is not key=value ({})", allowed()));
        };
        let Some(param) = params.iter().find(|p| p.key == k) else {
            return Err(format!("{agent}: unknown parameter `{k}` ({})", allowed()));
        };
        if values.iter().any(|(key, _)| key == k) {
            return Err(format!("{agent}: parameter `{k}` is given twice"));
        }
        let bad = || format!("{agent}: parameter `{k}`: `{v}` is not {}", param.kind);
        let value = match param.kind {
            Kind::Int { min, max } => {
                Value::Int(v.parse::<u64>().ok().filter(|n| (min..=max).contains(n)).ok_or_else(bad)?)
            }
            Kind::Real { min, max } => Value::Real(
                v.parse::<f64>().ok().filter(|x| x.is_finite() && (min..=max).contains(x)).ok_or_else(bad)?,
            ),
            Kind::Word(words) if words.contains(&v.as_str()) => Value::Text(v.clone()),
            Kind::Word(_) => return Err(bad()),
            Kind::Path if v.is_empty() => return Err(format!("{agent}: parameter `{k}` needs a path")),
            Kind::Path => Value::Text(v.clone()),
            Kind::Agent(names) => {
                let inner = nested(v).map_err(|e| format!("{agent}: parameter `{k}`: {e}"))?;
                if !names.contains(&inner.name()) {
                    return Err(bad());
                }
                Value::Agent(Box::new(inner))
            }
        };
        values.push((param.key, value));
    }
    if let Some(p) = params.iter().find(|p| p.required && !values.iter().any(|(k, _)| *k == p.key)) {
        return Err(format!("{agent}: needs {}=... ({})", p.key, p.about));
    }
    Ok(Args { name: agent.to_string(), source: source.to_string(), values })
}

/// Check parameters (`k=v,k=v`) of the agent `agent` that takes no nested agent specs.
pub fn check_params(agent: &str, params: &[Param], text: &str) -> Result<Args, String> {
    let spec = Spec::parse(&format!("{agent}:{text}"))?;
    check(agent, params, &spec, text, &|v| Err(format!("`{v}` is not allowed here")))
}

/// Builds an agent from its checked parameters and a seed.
pub type Build<G> = fn(&Args, u64) -> Result<Box<dyn Agent<G>>, String>;

/// An agent a registry knows: its name, what it is, its parameters and its constructor.
pub struct AgentKind<G: Game> {
    /// The name specs give, e.g. `mcts`.
    pub name: &'static str,
    /// What the agent is, in one line.
    pub about: &'static str,
    /// The parameters it takes.
    pub params: Vec<Param>,
    /// Its constructor.
    pub build: Build<G>,
}

/// An old spelling still accepted: `rewrite` turns a spec written the old way into the new
/// spelling (and says `true`), or leaves any other spec alone (`false`).
pub struct Alias {
    /// The old spelling, as a pattern shown to people (e.g. `mcts:...,net=PATH`).
    pub old: &'static str,
    /// What it now reads as (e.g. `mcts-net:...,net=PATH`).
    pub new: &'static str,
    /// The rewrite.
    pub rewrite: fn(&mut Spec) -> bool,
}

/// The agents of one game by name, with the old spellings they still accept.
pub struct Registry<G: Game> {
    kinds: Vec<AgentKind<G>>,
    aliases: Vec<Alias>,
}

impl<G: Game> Default for Registry<G> {
    fn default() -> Self {
        Registry { kinds: Vec::new(), aliases: Vec::new() }
    }
}

impl<G: Game> Registry<G> {
    /// Add an agent; one of the same name already known is replaced (a game's own `mcts`
    /// replaces the generic one).
    pub fn add(&mut self, kind: AgentKind<G>) {
        self.kinds.retain(|k| k.name != kind.name);
        self.kinds.push(kind);
    }

    /// Accept an old spelling.
    pub fn alias(&mut self, alias: Alias) {
        self.aliases.push(alias);
    }

    /// The names of the agents known.
    pub fn names(&self) -> Vec<&'static str> {
        self.kinds.iter().map(|k| k.name).collect()
    }

    /// Parse `text`, rewrite an old spelling, and check its parameters (nested specs too)
    /// against its agent's.
    pub fn check(&self, text: &str) -> Result<Args, String> {
        let mut spec = Spec::parse(text)?;
        for alias in &self.aliases {
            if (alias.rewrite)(&mut spec) {
                break;
            }
        }
        let kind = self.kinds.iter().find(|k| k.name == spec.name).ok_or_else(|| {
            format!(
                "unknown agent `{}` (available: {}; see `tde agents`)",
                spec.name,
                self.names().join(", ")
            )
        })?;
        check(kind.name, &kind.params, &spec, text.trim(), &|inner| self.check(inner))
    }

    /// The agent of `text`, seeded.
    pub fn make(&self, text: &str, seed: u64) -> Result<Box<dyn Agent<G>>, String> {
        let args = self.check(text)?;
        let kind =
            self.kinds.iter().find(|k| k.name == args.name()).expect("checked specs name a known agent");
        (kind.build)(&args, seed)
    }

    /// Every agent with its parameters, and the old spellings, as text for people.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        for kind in &self.kinds {
            out.push_str(&format!("{:<12} {}\n", kind.name, kind.about));
            for p in &kind.params {
                let required = if p.required { ", required" } else { "" };
                out.push_str(&format!(
                    "  {:<12} {} ({}{required})\n",
                    format!("{}=", p.key),
                    p.about,
                    p.kind
                ));
            }
        }
        if !self.aliases.is_empty() {
            out.push_str("old spellings still accepted:\n");
            for a in &self.aliases {
                out.push_str(&format!("  {} -> {}\n", a.old, a.new));
            }
        }
        out
    }
}

/// Split a comma-separated agent list, keeping each spec's parameters with it: a piece of
/// the form `key=value` (no `:` in the key) continues the spec before it, so
/// `random,mcts:iters=400,c=1.4,greedy` gives `random`, `mcts:iters=400,c=1.4`, `greedy`,
/// and `mcts:ms=20,rollout=learned:gen.json,scripted` gives `mcts:ms=20,rollout=learned:gen.json`
/// and `scripted`.
pub fn split_agent_list(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let is_parameter = |piece: &str| piece.split_once('=').is_some_and(|(key, _)| !key.contains(':'));
    for piece in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match out.last_mut() {
            Some(last) if is_parameter(piece) && last.contains(':') => {
                last.push(',');
                last.push_str(piece);
            }
            _ => out.push(piece.to_string()),
        }
    }
    out
}
