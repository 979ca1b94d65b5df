//! `tde bench`: the benchmark harness of [`training::bench`] (engine, MCTS, scripted player,
//! memory, policy iteration, networks), its figures printed as text or JSON.

use clap::Args;
use serde_json::json;
use std::time::Instant;
use training::bench::{fast_speed, measure, network_speed, BenchSettings, EngineFigures};
use training::learned_player::labels::LabelConfig;

/// `tde bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Random games per timed batch (1 to 10000).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub games: u32,
    /// Number of timed batches, the median is reported (1 to 1000).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1_000))]
    pub batches: u32,
    /// Trained network to time (inference at batch 1, 64 and --net-batch, training at batch 32
    /// and --net-batch, expert generation) on the `--device`; `none` to skip.
    #[arg(long, default_value = "checkpoints/bootstrap")]
    pub net: String,
    /// The larger batch timed for the network's inference and training (64 to 4096; a GPU
    /// needs hundreds to be busy).
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u32).range(64..=4096))]
    pub net_batch: u32,
    /// Fast network to time (evaluations from scratch and incremental, whole evaluations of
    /// states, training samples, data generation); `none` to skip.
    #[arg(long, default_value = "checkpoints/fast/gen-000.fnet")]
    pub fast: String,
    /// MCTS agent timed at the first activation of each scenario (one thread).
    #[arg(long, default_value = "mcts:iters=200,depth=30,rollout=scripted,width=4,threads=1")]
    pub mcts: String,
    /// Time the network alone (--net), skipping the engine and MCTS figures: what a GPU
    /// measurement needs.
    #[arg(long)]
    pub network_only: bool,
    /// Time the fast network alone (--fast), skipping every other figure.
    #[arg(long, conflicts_with = "network_only")]
    pub fast_only: bool,
}

/// Run the benchmark and format its figures.
pub fn bench(args: &BenchArgs) -> Result<String, String> {
    if args.fast_only {
        let fast = fast_speed(&args.fast)?.ok_or("--fast-only needs a fast network: --fast names none")?;
        return Ok(if args.json {
            json!({ "fast_network": fast }).to_string()
        } else {
            fast_text(&fast, &args.fast)
        });
    }
    if args.network_only {
        if args.net == "none" {
            return Err("--network-only needs a network: --net names none".into());
        }
        let net = network_speed(&args.net, args.batches.max(1), args.net_batch as usize, &progress())?;
        return Ok(match (&net, args.json) {
            (_, true) => json!({ "network": net, "batches": args.batches.max(1) }).to_string(),
            (Some(n), false) => network_text(n, &args.net),
            (None, false) => String::new(),
        });
    }
    let settings = BenchSettings {
        games: args.games,
        batches: args.batches,
        net: args.net.clone(),
        net_batch: args.net_batch,
        fast: args.fast.clone(),
        mcts: args.mcts.clone(),
    };
    let EngineFigures {
        clone_ns,
        legal_us,
        n_legal,
        games_per_s: gps,
        steps_per_game: spg,
        scenarios,
        batches,
        state_bytes,
        state_heap_bytes,
        tree,
        bytes_per_node,
        net,
        learn,
        fast,
    } = measure(&settings, &progress())?;
    Ok(if args.json {
        let per: Vec<_> = scenarios
            .iter()
            .map(|s| {
                json!({
                    "scenario": s.scenario.name(),
                    "games_per_s": s.games_per_s,
                    "steps_per_game": s.steps_per_game,
                    "mcts_iterations_per_s": s.mcts_per_s,
                    "mcts_random_rollouts_iterations_per_s": s.mcts_random_rollouts_per_s,
                    "scripted_decisions_per_s": s.scripted_decisions_per_s,
                    "race_paired_variance_ratio": s.race_pairing,
                })
            })
            .collect();
        json!({
            "clone_ns": clone_ns,
            "legal_actions_us": legal_us,
            "legal_actions_count": n_legal,
            "random_games_per_s": gps,
            "steps_per_game": spg,
            "scenarios": per,
            "mcts": args.mcts,
            "batches": batches,
            "network": net,
            "fast_network": fast,
            "learned_games_per_hour": learn.games_per_hour,
            "labels_per_hour": learn.labels_per_hour,
            "state_bytes": state_bytes,
            "state_heap_bytes": state_heap_bytes,
            "mcts_node_bytes": tree.node_size,
            "mcts_tree_nodes": tree.nodes,
            "mcts_tree_bytes": tree.bytes,
            "mcts_bytes_per_node": bytes_per_node,
        })
        .to_string()
    } else {
        let mut out = format!(
            "medians of {batches} batches, one thread:\n  clone               {clone_ns:>10.1} ns\n  legal actions       {legal_us:>10.2} µs ({n_legal} actions at an activation decision)\n  random games        {gps:>10.1} games/s ({spg:.0} steps/game), skirmish"
        );
        for s in &scenarios {
            out.push_str(&format!(
                "\n  {:<19} {:>10.1} games/s ({:.0} steps/game), {:>7.0} MCTS iterations/s at its first activation \
                 ({:.0} with random rollouts), {:.0} scripted decisions/s",
                s.scenario.name(),
                s.games_per_s,
                s.steps_per_game,
                s.mcts_per_s,
                s.mcts_random_rollouts_per_s,
                s.scripted_decisions_per_s
            ));
        }
        out.push_str(&format!("\n  (MCTS agent: {}; and with rollout=random)", args.mcts));
        let ratios: Vec<String> = scenarios
            .iter()
            .map(|s| {
                format!("{} {}", s.scenario.name(), s.race_pairing.map_or("-".into(), |r| format!("{r:.2}")))
            })
            .collect();
        out.push_str(&format!(
            "\n  races with common dice along a scripted game (every 40th decision, the scripted player's 4 best actions, 32 rounds): \
             variance of paired differences over independent ones: {}",
            ratios.join(", ")
        ));
        out.push_str(&format!(
            "\n  memory: {} bytes per cloned state ({state_bytes} in place, {state_heap_bytes} on the heap) \
             at an activation decision;\n          MCTS tree grown there: {} nodes of {} bytes, \
             {} bytes in all, {bytes_per_node:.0} bytes per node with its children maps",
            state_bytes + state_heap_bytes,
            tree.nodes,
            tree.node_size,
            tree.bytes
        ));
        out.push_str(&format!(
            "\n  policy iteration (one thread, boards and crews drawn, generation 0): {:.0} learning games/hour, \
             {:.0} rollout labels/hour ({} candidates x {} rollouts each)",
            learn.games_per_hour,
            learn.labels_per_hour,
            LabelConfig::default().top + 1,
            LabelConfig::default().rollouts
        ));
        if let Some(n) = &net {
            out.push('\n');
            out.push_str(&network_text(n, &args.net));
        }
        if let Some(f) = &fast {
            out.push('\n');
            out.push_str(&fast_text(f, &args.fast));
        }
        out
    })
}

/// Says each network stage on standard error with the seconds since the start.
fn progress() -> impl Fn(&str) {
    let started = Instant::now();
    move |stage: &str| eprintln!("tde bench [{:.1} s]: {stage}", started.elapsed().as_secs_f64())
}

/// The fast network's figures as text.
fn fast_text(f: &fastnet::speed::FastSpeed, path: &str) -> String {
    format!(
        "  fast network ({path}, {} parameters, {:.0} active features a position; medians):\n\
         \x20   evaluations, one thread: {:.0}/s from scratch, {:.0}/s incremental ({:.1} rows changed an update), \
         {:.0}/s of whole states (features computed)\n\
         \x20   evaluations with the 16-bit first layer (play form), one thread: {:.0}/s from scratch, {:.0}/s incremental\n\
         \x20   training: {:.0} samples/s on one thread, {:.0} on {} threads; data generation: {:.2} million labelled positions/hour on {} threads\n\
         \x20   expert iteration's self-play (its default search): {:.2} million labelled positions/hour, {:.0} games/hour on {} threads",
        f.params,
        f.mean_active_features,
        f.scratch_per_s,
        f.incremental_per_s,
        f.incremental_rows_changed,
        f.states_per_s,
        f.quantised_scratch_per_s,
        f.quantised_incremental_per_s,
        f.train_per_s_one_thread,
        f.train_per_s_all_threads,
        f.threads,
        f.data_positions_per_hour / 1e6,
        f.threads,
        f.selfplay_positions_per_hour / 1e6,
        f.selfplay_games_per_hour,
        f.threads
    )
}

/// The network's figures as text.
fn network_text(n: &training::network::speed::NetSpeed, net: &str) -> String {
    format!(
        "  network ({} parameters, {}, on {}): inference {:.0} positions/s at batch 1, {:.0} at batch 64, \
         {:.0} at batch {}; training {:.0} positions/s at batch 32, {:.0} at batch {}; \
         expert games {:.0} positions/s\n  \
         search with the network (8 simulations): {:.0} positions/s evaluating leaves one by one, \
         {:.0} positions/s ({:.0} forward passes/s) batching 16 searches' leaves, \
         {:.0} positions/s ({:.0} forward passes/s) batching {}\n  \
         first (untimed) forward passes {:.3} s at batch 1, {:.3} s at 64, {:.3} s at {}; \
         first training steps {:.3} s at batch 32, {:.3} s at {} (a GPU compiles its kernels then)",
        n.parameters,
        net,
        n.device,
        n.inference_batch1_per_s,
        n.inference_batch64_per_s,
        n.inference_large_batch_per_s,
        n.large_batch,
        n.training_per_s,
        n.training_large_batch_per_s,
        n.large_batch,
        n.expert_positions_per_s,
        n.search_batch1_per_s,
        n.search_batch16_per_s,
        n.search_batch16_passes_per_s,
        n.search_large_batch_per_s,
        n.search_large_batch_passes_per_s,
        n.large_batch,
        n.first_pass_s[0],
        n.first_pass_s[1],
        n.first_pass_s[2],
        n.large_batch,
        n.first_training_step_s[0],
        n.first_training_step_s[1],
        n.large_batch
    )
}
