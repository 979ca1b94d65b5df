//! `tde games`: the fact sheet of every game of the registry ([`eval::games`]), with the
//! network agents ([`training::games::agent_sources`]).

/// Every registered game's fact sheet.
pub fn games() -> Result<String, String> {
    let mut sheets = Vec::new();
    for game in eval::games::all(&training::games::agent_sources())? {
        sheets.push(game.facts()?.text());
    }
    Ok(format!(
        "{}\nPlay one in the arena with `tde arena --game NAME --agents ...`; `tde agents` lists the agents' parameters.",
        sheets.join("\n")
    ))
}
