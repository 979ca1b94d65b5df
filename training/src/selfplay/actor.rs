//! The actor: plays self-play games with the latest network version and writes them as
//! shards. One actor plays `parallel_games` games at once: each game's search runs until it
//! needs a position judged, the positions of all games go through the network in one forward
//! pass (per board size class), and an evaluation cache skips positions already judged.
//!
//! Actors talk to the learner only through the run folder: they read `checkpoints/latest`
//! before each shard, write `shards/ID-NNNNNN.jsonl` atomically (so a killed actor leaves no
//! half shard, and a restarted one continues its numbering), and stop when the learner's state
//! says training is over. Two actors never share an ID's files: each holds
//! `actors/ID.lock` while it runs ([`lock_actor`]).

use crate::network::loaded::Network;
use crate::network_training::expert::Target;
use crate::network_training::lock::ProcessLock;
use crate::selfplay::config::{ActorSearch, SelfPlayConfig};
use crate::selfplay::records::{shard_names, shard_path, write_shard, PlayedGame};
use crate::selfplay::source::GameSource;
use agents::{AzSearch, Game, NetOutput, PolicyValue, TensorGame, Turn};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// Positions already judged by one network version, keyed by (set-up, mover, information
/// state): an information-state key tells positions apart within one game only, and an actor
/// plays games on different boards, crews and scenarios at once.
pub struct EvalCache {
    capacity: usize,
    entries: HashMap<(u64, usize, u64), NetOutput>,
    /// Look-ups answered from the cache.
    pub hits: u64,
    /// Look-ups that went to the network.
    pub misses: u64,
}

impl EvalCache {
    /// Share of look-ups answered from the cache so far.
    pub fn hit_rate(&self) -> f64 {
        self.hits as f64 / (self.hits + self.misses).max(1) as f64
    }

    /// An empty cache of at most `capacity` entries (0: no cache).
    pub fn new(capacity: usize) -> EvalCache {
        EvalCache { capacity, entries: HashMap::new(), hits: 0, misses: 0 }
    }

    /// Forget everything (a new network version).
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

/// Figures of one batch of games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BatchStats {
    /// Forward passes made.
    pub forward_passes: u64,
    /// Positions the network judged.
    pub positions: u64,
    /// Decisions searched in full: the training targets written.
    pub decisions: u64,
    /// Seconds spent.
    pub seconds: f64,
}

/// Games played together and their figures.
pub type Played<A> = (Vec<PlayedGame<A>>, BatchStats);

/// One game in progress.
struct Live<G: Game> {
    setup: String,
    /// A hash of `setup`, keying the evaluation cache with the game's information states.
    setup_key: u64,
    state: G,
    search: Option<AzSearch<G>>,
    actions: Vec<G::Action>,
    targets: Vec<Target>,
    /// Whether the search under way is a full one (its result becomes a target).
    full: bool,
    rng: ChaCha8Rng,
    done: bool,
}

impl<G: Game> Live<G> {
    /// Play on until the search needs a position judged (returned) or the game ends.
    fn advance(&mut self, searches: &ActorSearch) -> Result<Option<(G, usize)>, String> {
        loop {
            if let Some(search) = &mut self.search {
                if let Some(request) = search.request() {
                    return Ok(Some(request));
                }
                let result = search.result();
                self.search = None;
                if self.full {
                    let legal = self.state.legal_actions();
                    let probs = result
                        .policy
                        .iter()
                        .filter(|&&(_, p)| p > 0.0)
                        .filter_map(|&(a, p)| Some((legal.iter().position(|&l| l == a)? as u16, p)))
                        .collect();
                    let value = Some(result.value.clamp(-1.0, 1.0) as f32);
                    self.targets.push(Target { ply: self.actions.len() as u32, probs, value });
                }
                self.play(result.action)?;
                continue;
            }
            match self.state.turn() {
                Turn::Terminal => {
                    self.done = true;
                    return Ok(None);
                }
                Turn::Chance => {
                    let outcome =
                        self.state.sample_chance(&mut self.rng).ok_or("a chance node without outcomes")?;
                    self.play(outcome)?;
                }
                Turn::Player(_) => {
                    let legal = self.state.legal_actions();
                    if legal.len() == 1 {
                        self.play(legal[0])?;
                    } else {
                        // The draw is made only under a playout cap, so games without one are
                        // unchanged.
                        let (config, full) = match &searches.fast {
                            Some((fast, share)) if self.rng.gen::<f64>() >= *share => (fast, false),
                            _ => (&searches.full, true),
                        };
                        self.full = full;
                        self.search = Some(AzSearch::new(&self.state, config.clone(), self.rng.gen())?);
                    }
                }
            }
        }
    }

    fn play(&mut self, action: G::Action) -> Result<(), String> {
        self.state.apply(action)?;
        self.actions.push(action);
        Ok(())
    }
}

/// Play `seeds.len()` games at once (game `i` dealt and played from `seeds[i]`), both sides
/// searching with `net`, their leaves evaluated together; returns the games and figures.
pub fn play_batch<G: TensorGame>(
    source: &dyn GameSource<G>,
    net: &dyn PolicyValue<G>,
    search: &ActorSearch,
    seeds: &[u64],
    version: &str,
    cache: &mut EvalCache,
) -> Result<Played<G::Action>, String> {
    let start = Instant::now();
    let mut live: Vec<Live<G>> = seeds
        .iter()
        .map(|&seed| {
            let (setup, state) = source.deal(seed)?;
            Ok(Live {
                setup_key: id_hash(&setup),
                setup,
                state,
                search: None,
                actions: Vec::new(),
                targets: Vec::new(),
                full: true,
                rng: ChaCha8Rng::seed_from_u64(seed ^ 0x5E1F_0000),
                done: false,
            })
        })
        .collect::<Result<_, String>>()?;
    let mut stats = BatchStats::default();
    loop {
        let mut requests: Vec<(usize, G, usize)> = Vec::new();
        for (i, game) in live.iter_mut().enumerate().filter(|(_, g)| !g.done) {
            if let Some((leaf, mover)) = game.advance(search)? {
                requests.push((i, leaf, mover));
            }
        }
        if requests.is_empty() {
            break;
        }
        let keys: Vec<(u64, usize, u64)> = requests
            .iter()
            .map(|(i, leaf, mover)| (live[*i].setup_key, *mover, leaf.information_state_key(*mover)))
            .collect();
        // Take every cached answer before the fresh ones are stored: storing may empty a full
        // cache.
        let mut answers: Vec<Option<NetOutput>> =
            keys.iter().map(|k| cache.entries.get(k).cloned()).collect();
        let missing: Vec<usize> = (0..requests.len()).filter(|&r| answers[r].is_none()).collect();
        let batch: Vec<(&G, usize)> = missing.iter().map(|&r| (&requests[r].1, requests[r].2)).collect();
        let fresh = if batch.is_empty() { Vec::new() } else { net.evaluate(&batch)? };
        if !batch.is_empty() {
            stats.forward_passes += 1;
            stats.positions += batch.len() as u64;
        }
        cache.misses += missing.len() as u64;
        cache.hits += (requests.len() - missing.len()) as u64;
        for (&r, out) in missing.iter().zip(fresh) {
            if cache.capacity > 0 {
                if cache.entries.len() >= cache.capacity {
                    cache.entries.clear();
                }
                cache.entries.insert(keys[r], out.clone());
            }
            answers[r] = Some(out);
        }
        for ((i, _, _), answer) in requests.iter().zip(answers) {
            let out = answer.ok_or("the network answered fewer positions than it was given")?;
            live[*i].search.as_mut().map(|s| s.supply(out)).transpose()?;
        }
    }
    let games = live
        .into_iter()
        .map(|g| {
            stats.decisions += g.targets.len() as u64;
            let bound = g.state.return_bound().max(1e-12);
            PlayedGame {
                version: version.to_string(),
                setup: g.setup,
                returns: g.state.returns().iter().map(|r| (r / bound).clamp(-1.0, 1.0)).collect(),
                margins: g.state.final_margins(),
                actions: g.actions,
                targets: g.targets,
            }
        })
        .collect();
    stats.seconds = start.elapsed().as_secs_f64();
    Ok((games, stats))
}

/// A stable number for a text (FNV-1a): an actor ID, to seed its games; a set-up, to key the
/// evaluation cache.
fn id_hash(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// The seed of game `game` of shard `seq` of actor `id`.
pub fn game_seed(config: &SelfPlayConfig, id: &str, seq: u64, game: usize) -> u64 {
    let mut rng =
        ChaCha8Rng::seed_from_u64(config.seed ^ id_hash(id) ^ seq.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    for _ in 0..game {
        rng.gen::<u64>();
    }
    rng.gen()
}

/// The next shard number of actor `id`: one past its last finished shard.
pub fn next_shard(run: &Path, id: &str) -> Result<u64, String> {
    let prefix = format!("{id}-");
    Ok(shard_names(run)?
        .iter()
        .filter_map(|n| n.strip_prefix(&prefix)?.strip_suffix(".jsonl")?.parse::<u64>().ok())
        .max()
        .map_or(0, |n| n + 1))
}

/// Check an actor ID: letters, digits, `_` and `-` (it names files).
pub fn check_id(id: &str) -> Result<(), String> {
    if id.is_empty()
        || id.len() > 64
        || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(format!("actor id `{id}`: use 1 to 64 letters, digits, `_` or `-`"));
    }
    Ok(())
}

/// Take the lock of actor `id` in `run` (`actors/ID.lock`) for as long as it is held.
pub fn lock_actor(run: &Path, id: &str) -> Result<ProcessLock, String> {
    check_id(id)?;
    ProcessLock::take(&run.join("actors").join(format!("{id}.lock")), &format!("actor `{id}`"))
}

/// The network of the run's latest version: (checkpoint name, network).
pub fn latest_network(run: &Path) -> Result<Option<(String, Arc<Network>)>, String> {
    let dir = run.join("checkpoints");
    if !dir.join("latest").is_file() {
        return Ok(None);
    }
    let found = crate::network::checkpoint::resolve(&dir).map_err(|e| e.to_string())?;
    let name = found.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    Ok(Some((name, Arc::new(Network::load(&found)?))))
}

/// Play one shard for actor `id` with `net` (version `version`) and write it; returns the
/// shard number and the batch figures.
pub fn play_shard<G: TensorGame>(
    run: &Path,
    config: &SelfPlayConfig,
    source: &dyn GameSource<G>,
    net: &dyn PolicyValue<G>,
    version: &str,
    id: &str,
    cache: &mut EvalCache,
) -> Result<(u64, Played<G::Action>), String>
where
    G::Action: Serialize,
{
    let seq = next_shard(run, id)?;
    let seeds: Vec<u64> = (0..config.actors.parallel_games).map(|g| game_seed(config, id, seq, g)).collect();
    let (games, stats) = play_batch(source, net, &config.actor_search(), &seeds, version, cache)?;
    write_shard(&shard_path(run, id, seq), &games)?;
    Ok((seq, (games, stats)))
}
