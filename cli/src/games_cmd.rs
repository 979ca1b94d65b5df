//! `tde games`: the fact sheet of every game of the registry ([`eval::games`]), and the agent
//! sources the command line gives it (the network agents too).

use eval::games::AgentSources;

/// The agents the command line knows for each game: the libraries' and the network agents.
pub fn sources() -> AgentSources {
    AgentSources {
        tde: training::play::registry,
        tde_factory: training::play::make_agent,
        encounter: crate::encounter_train::encounter_registry,
    }
}

/// Every registered game's fact sheet.
pub fn games() -> Result<String, String> {
    let mut sheets = Vec::new();
    for game in eval::games::all(&sources())? {
        sheets.push(game.facts()?.text());
    }
    Ok(format!(
        "{}\nPlay one in the arena with `tde arena --game NAME --agents ...`; `tde agents` lists the agents' parameters.",
        sheets.join("\n")
    ))
}
