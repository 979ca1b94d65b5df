//! `tde agents`: every agent a spec may name, with its parameters, from the registries.

/// Every agent of TDE (`--agents`, `--bot`, ...) and of the Encounter (`--party`, `--dm`),
/// each with its parameters and the old spellings still accepted.
pub fn agents() -> String {
    format!(
        "Agent specs are NAME or NAME:KEY=VALUE,KEY=VALUE (e.g. mcts:iters=200,rollout=scripted,width=4).\n\n\
         TDE agents (--agents, --bot, --with):\n{}\n\
         Encounter agents (tde encounter --party, --dm):\n{}",
        training::play::registry().describe(),
        training::encounter::registry().describe()
    )
}
