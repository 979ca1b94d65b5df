//! The agents of every game of the registry of games ([`eval::games`]) with the ones that play
//! with a trained network, which the command line hands to it (`tde games`, `tde arena --game`).

use eval::games::AgentSources;

/// Every registered game's agents with the network ones: TDE's of [`crate::play::registry`]
/// and the Encounter's of [`crate::encounter::registry`].
pub fn agent_sources() -> AgentSources {
    AgentSources {
        tde: crate::play::registry,
        tde_factory: crate::play::make_agent,
        encounter: crate::encounter::registry,
    }
}
