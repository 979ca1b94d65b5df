//! Checks of a state read from a file (a saved game, a game record's start): every profile
//! as the faction loader would accept it from a profile file, every index in range, every
//! number within its profile's limits, and the procedure stack consistent with
//! the state, so that nothing a file says can crash the engine later. The loaders call
//! [`check_static`] and [`check_dynamic`] before building the state, then make the first step
//! under [`guarded`] and check the invariants.

use crate::board::Board;
use crate::limits::{MAX_MODELS, MAX_TURNS};
use crate::profile::Profile;
use crate::scenario::types::ScenarioStep;
use crate::state::model::MAX_WEAPONS;
use crate::state::{DynState, EnemyStep, GameState, Purpose, StaticData, Step, MAX_SIDES};

/// A profile's numbers within the engine's limits.
pub fn check_profile(p: &Profile) -> Result<(), String> {
    let name = &p.id;
    for (what, v) in [
        ("cc", p.cc),
        ("agility", p.agility),
        ("marksmanship", p.marksmanship),
        ("intelligence", p.intelligence),
        ("toughness", p.toughness),
    ] {
        if !(1..=10).contains(&v) {
            return Err(format!("profile {name}: {what} {v} is not in 1..=10"));
        }
    }
    if p.speed.0 > p.speed.1 || p.speed.1 > 30 {
        return Err(format!("profile {name}: speed {}/{} is not pass ≤ nailed ≤ 30", p.speed.0, p.speed.1));
    }
    if !(1..=20).contains(&p.wounds) || !(1..=10).contains(&p.ap_max) || p.ap_gain > p.ap_max || p.armour > 10
    {
        return Err(format!("profile {name}: wounds, AP or armour out of range"));
    }
    if p.weapons.len() > MAX_WEAPONS {
        return Err(format!("profile {name}: {} weapons, more than {MAX_WEAPONS}", p.weapons.len()));
    }
    for w in &p.weapons {
        if w.range.is_some_and(|(pass, nailed)| pass > nailed || nailed > 100)
            || w.damage.0 > 20
            || w.damage.1 > 20
        {
            return Err(format!("profile {name}: weapon {}: range or damage out of range", w.name));
        }
    }
    Ok(())
}

/// The static part: the board's size, the profiles (every rule a profile file must meet, as
/// the faction loader checks them, and the engine's own limits), turns, sides and cards.
pub fn check_static(stat: &StaticData) -> Result<(), String> {
    if stat.sides != 2 {
        return Err(format!("{} sides; the engine plays two", stat.sides));
    }
    if !(1..=MAX_TURNS).contains(&stat.max_turns) {
        return Err(format!("max_turns {} is not in 1..={MAX_TURNS}", stat.max_turns));
    }
    if stat.profiles.is_empty() || stat.profiles.len() > 255 {
        return Err(format!("{} profiles", stat.profiles.len()));
    }
    crate::profile::check_profiles(stat.profiles.iter().map(|p| &**p), "profiles")
        .map_err(|e| format!("{}: {}", e.field, e.reason))?;
    for p in &stat.profiles {
        check_profile(p)?;
        if let Some((rider, mount)) = &p.cavalry {
            for part in [rider, mount] {
                if !stat.profiles.iter().any(|q| &q.id == part) {
                    return Err(format!(
                        "profile {}: its cavalry part {part} is not among the profiles",
                        p.id
                    ));
                }
            }
        }
    }
    if stat.cards.len() > MAX_SIDES || stat.cards.iter().any(|c| c.len() > 16) {
        return Err("more cards than the engine holds (16 per side)".into());
    }
    Ok(())
}

/// The dynamic part against the static one: models, sides, the procedure stack, the action
/// under way and the scenario's markers and nominations.
pub fn check_dynamic(stat: &StaticData, d: &DynState) -> Result<(), String> {
    let board: &Board = &stat.board;
    let n = d.models.len();
    if n == 0 || n > MAX_MODELS {
        return Err(format!("{n} models; a game holds 1 to {MAX_MODELS}"));
    }
    let sides = stat.sides;
    let model = |m: u8, what: &str| -> Result<(), String> {
        if (m as usize) < n {
            Ok(())
        } else {
            Err(format!("{what} names model {m}, but there are {n}"))
        }
    };
    let side = |s: u8, what: &str| -> Result<(), String> {
        if s < sides {
            Ok(())
        } else {
            Err(format!("{what} names side {s}, but there are {sides}"))
        }
    };
    let cell = |c: u16, what: &str| -> Result<(), String> {
        if (c as usize) < board.len() {
            Ok(())
        } else {
            Err(format!("{what} names cell {c}, outside the {}x{} board", board.width(), board.depth()))
        }
    };
    if let Some(c) = d.uc.noise {
        cell(c, "the AI side's noise")?;
    }
    if let Some(m) = (0..64u8).find(|&m| {
        d.uc.confusion(m) > 0 && d.models.get(m as usize).is_none_or(|x| x.side != crate::uc::AI_SIDE)
    }) {
        return Err(format!("model {m} holds confusion tokens but is no AI model"));
    }
    let kinds = stat.uc.as_ref().map_or(0, |uc| uc.data.markers.len());
    for (i, mk) in d.uc.markers_on_table() {
        cell(mk.cell, &format!("ambush marker {i}"))?;
        if mk.kind as usize >= kinds {
            return Err(format!("ambush marker {i} is of kind {}, which the UC data lacks", mk.kind));
        }
        if mk.heard_by.is_some_and(|m| m as usize >= d.models.len()) {
            return Err(format!(
                "ambush marker {i} heard model {}, which does not exist",
                mk.heard_by.unwrap_or(0)
            ));
        }
        if d.uc.markers_on_table().any(|(j, other)| j < i && other.cell == mk.cell) {
            return Err(format!("ambush markers {i} and another lie on cell {}", mk.cell));
        }
    }
    for (i, m) in d.models.iter().enumerate() {
        let what = format!("model {i}");
        let p = stat
            .profiles
            .get(m.profile as usize)
            .ok_or_else(|| format!("{what} names profile {} of {}", m.profile, stat.profiles.len()))?;
        match (&stat.uc, m.side) {
            // An AI model: a profile of the AI side, never AP (it acts by its cards).
            (Some(uc), crate::uc::AI_SIDE) => {
                if uc.enemy(m).is_none() {
                    return Err(format!("{what} is on the AI side but {} is no AI model", p.id));
                }
                if m.ap != 0 {
                    return Err(format!("{what} is an AI model holding AP"));
                }
            }
            _ => side(m.side, &what)?,
        }
        cell(m.cell, &what)?;
        if m.ap > p.ap_max {
            return Err(format!("{what} holds {} AP, above its profile's {}", m.ap, p.ap_max));
        }
        if m.wounds > p.wounds {
            return Err(format!("{what} has {} wounds, above its profile's {}", m.wounds, p.wounds));
        }
        let weapons = (1u16 << p.weapons.len()) - 1;
        if (m.jammed as u16 | m.broken as u16) & !weapons != 0 {
            return Err(format!("{what} has a jammed or broken weapon it does not carry"));
        }
        if let Some(partner) = m.partner {
            model(partner, &format!("{what}'s partner"))?;
        }
        if m.z > 60 || m.tokens.fire > 20 || m.ap_adjust.unsigned_abs() > 10 {
            return Err(format!("{what}: height, fire tokens or AP adjustment out of range"));
        }
    }
    if d.turn > stat.max_turns {
        return Err(format!("turn {} is beyond max_turns {}", d.turn, stat.max_turns));
    }
    side(d.initiative, "the initiative")?;
    side(d.active, "the active side")?;
    if d.pass_tokens.iter().skip(sides as usize).any(|&t| t != 0) || d.pass_tokens.iter().any(|&t| t > 20) {
        return Err(format!("pass tokens {:?} for sides that do not play, or too many", d.pass_tokens));
    }
    if let Some(a) = d.activating {
        model(a, "the activating model")?;
    }
    for c in &d.clouds {
        cell(c.centre, "a smoke cloud")?;
    }
    let rolls = d.sequence.as_ref().map_or(0, |s| s.rolls.len());
    let templates = d.sequence.as_ref().map_or(0, |s| s.templates.len());
    if let Some(seq) = &d.sequence {
        model(seq.actor, "the action under way")?;
        cell(seq.origin, "the action's origin")?;
        if seq.path.points.len() > 200 {
            return Err("the declared path is too long".into());
        }
        for p in &seq.path.points {
            cell(p.cell, "the declared path")?;
        }
        for r in &seq.rolls {
            model(r.model, "a combat roll")?;
            if let Some(t) = r.target {
                model(t, "a combat roll's target")?;
            }
            if r.point as usize > seq.path.points.len() {
                return Err(format!(
                    "a combat roll at point {} of a {}-point path",
                    r.point,
                    seq.path.points.len()
                ));
            }
        }
        for t in &seq.templates {
            model(t.firer, "a template")?;
            cell(t.at, "a template")?;
            cell(t.origin, "a template's origin")?;
            if t.roll as usize >= rolls {
                return Err(format!("a template names roll {} of {rolls}", t.roll));
            }
            if let Some((m, c, _)) = t.mover_at {
                model(m, "a template")?;
                cell(c, "a template")?;
            }
        }
        if let Some((a, b)) = seq.command {
            model(a, "a command order")?;
            model(b, "a command order")?;
        }
    }
    let markers = d.scenario.markers.len();
    if markers > 16 {
        return Err(format!("{markers} markers; the engine holds 16"));
    }
    for mk in &d.scenario.markers {
        cell(mk.cell, "a marker")?;
        if let Some(h) = mk.holder {
            model(h, "a marker's carrier")?;
        }
        if let Some(s) = mk.controller {
            side(s, "a marker's controller")?;
        }
    }
    for g in d.scenario.grudges.iter().flatten() {
        model(g.holder, "a grudge")?;
        model(g.target, "a grudge")?;
    }
    for c in d.scenario.couriers.iter().flatten() {
        model(*c, "a courier")?;
    }
    let marker = |k: u8, what: &str| -> Result<(), String> {
        if (k as usize) < markers {
            Ok(())
        } else {
            Err(format!("{what} names marker {k}, but there are {markers}"))
        }
    };
    let needs_sequence = |what: &str| -> Result<(), String> {
        if d.sequence.is_some() {
            Ok(())
        } else {
            Err(format!("the procedure stack has {what} with no action under way"))
        }
    };
    if d.steps.len() > 500 {
        return Err(format!("{} pending steps", d.steps.len()));
    }
    for step in &d.steps {
        match step {
            Step::ChooseInitiative(s) => side(*s, "a step")?,
            Step::ChooseAction(m) | Step::FireRoll { model: m } => model(*m, "a step")?,
            Step::ChooseDodgeMove { model: m, budget } => {
                model(*m, "a step")?;
                if *budget > 40 {
                    return Err("a dodge move longer than 4\"".into());
                }
            }
            Step::Test { model: m, attr, purpose, .. } => {
                model(*m, "a test")?;
                if !(1..=10).contains(attr) {
                    return Err(format!("a test against attribute {attr}"));
                }
                match purpose {
                    Purpose::Combat(r) if *r as usize >= rolls => {
                        return Err(format!("a test for roll {r} of {rolls}"))
                    }
                    Purpose::Movement | Purpose::Interact | Purpose::Command | Purpose::Combat(_) => {
                        needs_sequence("a test of the action")?
                    }
                    Purpose::Infiltrate => {}
                }
            }
            Step::Armour { model: m, damage, target, .. } => {
                model(*m, "an armour roll")?;
                if *damage == 0 || *damage > 30 || *target > 10 {
                    return Err(format!("an armour roll of {damage} dice against {target}"));
                }
            }
            Step::ChooseAllocation { model: m, chooser, .. } => {
                model(*m, "a step")?;
                side(*chooser, "a step")?;
            }
            Step::ChooseFallPoint { chooser } => {
                side(*chooser, "a step")?;
                needs_sequence("a fall")?;
            }
            Step::ChooseCard { side: s, test, .. } => {
                side(*s, "a card step")?;
                if let Some((m, attr, _, _)) = test {
                    model(*m, "a card step")?;
                    if !(1..=10).contains(attr) {
                        return Err(format!("a re-roll against attribute {attr}"));
                    }
                }
            }
            Step::ChooseContinuer { rider, mount } => {
                model(*rider, "a step")?;
                model(*mount, "a step")?;
            }
            Step::ChooseCommandAp { donor, recipient } => {
                model(*donor, "a step")?;
                model(*recipient, "a step")?;
                needs_sequence("a command order")?;
            }
            Step::Scatter { template, distance } => {
                needs_sequence("a scatter")?;
                if *template as usize >= templates || distance.is_some_and(|x| x > 30) {
                    return Err(format!("a scatter of template {template} of {templates}"));
                }
            }
            Step::TemplateStealth { template, model: m, .. } => {
                model(*m, "a step")?;
                if *template as usize >= templates {
                    return Err(format!("a step names template {template} of {templates}"));
                }
            }
            Step::ChooseReactionBy(s) => {
                side(*s, "a step")?;
                needs_sequence("a reaction")?;
            }
            Step::ChooseNested
            | Step::ChooseReaction
            | Step::ChooseFirefight
            | Step::ChooseCommand
            | Step::ChooseMidAir
            | Step::ResolveMove
            | Step::CancelUnreached
            | Step::ChargeStrike
            | Step::RollCombat
            | Step::ResolveCombat
            | Step::Dismount
            | Step::Remount
            | Step::ResolveInteract
            | Step::TemplateHits
            | Step::CommandOrder
            | Step::ResolveCommand
            | Step::EndSequence => needs_sequence("a step of an action")?,
            Step::Scenario(s) => match s {
                ScenarioStep::ChooseGrudge(x)
                | ScenarioStep::ChooseCourier(x)
                | ScenarioStep::ChooseGroup(x)
                | ScenarioStep::Infiltrate(x)
                | ScenarioStep::RollSought(x) => side(*x, "a scenario step")?,
                ScenarioStep::ChooseZone { side: x, .. } | ScenarioStep::DeployNext { side: x, .. } => {
                    side(*x, "a scenario step")?
                }
                ScenarioStep::PlaceMarker { side: x, marker: k } => {
                    side(*x, "a scenario step")?;
                    marker(*k, "a scenario step")?;
                }
                ScenarioStep::Deploy { model: m, .. } | ScenarioStep::InfiltrationResult(m) => {
                    model(*m, "a scenario step")?
                }
                ScenarioStep::DrawNumber { marker: k } => marker(*k, "a scenario step")?,
                ScenarioStep::ResolveLook { model: m, marker: k } => {
                    model(*m, "a scenario step")?;
                    marker(*k, "a scenario step")?;
                }
                ScenarioStep::DropMarker { marker: k, chooser, carrier } => {
                    marker(*k, "a scenario step")?;
                    side(*chooser, "a scenario step")?;
                    model(*carrier, "a scenario step")?;
                }
                ScenarioStep::ChooseRoles | ScenarioStep::BeginGame => {}
            },
            Step::Enemy(e) => {
                let Some(uc) = &stat.uc else {
                    return Err("a step of the AI side in a game without one".into());
                };
                match e {
                    EnemyStep::RollPlacement { chooser } => side(*chooser, "a step of the AI side")?,
                    EnemyStep::Place { model: m, chooser } => {
                        model(*m, "a step of the AI side")?;
                        side(*chooser, "a step of the AI side")?;
                        if uc.enemy(&d.models[*m as usize]).is_none()
                            || d.models[*m as usize].side != crate::uc::AI_SIDE
                        {
                            return Err(format!("the AI side places model {m}, which is no AI model"));
                        }
                    }
                    EnemyStep::Phase => {}
                    EnemyStep::RollMarker { chooser } => side(*chooser, "a step of the AI side")?,
                    EnemyStep::PlaceMarker { kind, chooser } => {
                        side(*chooser, "a step of the AI side")?;
                        if *kind as usize >= uc.data.markers.len() {
                            return Err(format!("an ambush marker of kind {kind}, which the UC data lacks"));
                        }
                    }
                    EnemyStep::Ambush { cell, table, trigger, .. } => {
                        model(*trigger, "a step of the AI side")?;
                        if *cell as usize >= stat.board.len() {
                            return Err(format!("an ambush marker at cell {cell}, off the board"));
                        }
                        if *table as usize >= uc.data.spawn_tables.len() {
                            return Err(format!("spawn table {table}, which the UC data lacks"));
                        }
                    }
                    EnemyStep::AmbushReaction { model: m, trigger } => {
                        model(*m, "a step of the AI side")?;
                        model(*trigger, "a step of the AI side")?;
                        if uc.enemy(&d.models[*m as usize]).is_none() {
                            return Err(format!("model {m} makes an ambush reaction but is no AI model"));
                        }
                    }
                    EnemyStep::Spawn { near } => {
                        if *near as usize >= stat.board.len() {
                            return Err(format!("a noise at cell {near}, off the board"));
                        }
                    }
                    EnemyStep::AnswerAttack => needs_sequence("an AI model's answer")?,
                    EnemyStep::MoveReaction { model: m, trigger }
                    | EnemyStep::ReactionAct { model: m, trigger, .. } => {
                        model(*m, "a step of the AI side")?;
                        model(*trigger, "a step of the AI side")?;
                        if uc.enemy(&d.models[*m as usize]).is_none() {
                            return Err(format!("model {m} makes an AI reaction but is no AI model"));
                        }
                    }
                    EnemyStep::NoiseReaction { model: m, maker, source } => {
                        model(*m, "a step of the AI side")?;
                        model(*maker, "a step of the AI side")?;
                        if uc.enemy(&d.models[*m as usize]).is_none() {
                            return Err(format!("model {m} makes an AI reaction but is no AI model"));
                        }
                        if *source as usize >= stat.board.len() {
                            return Err(format!("a noise at cell {source}, off the board"));
                        }
                    }
                    EnemyStep::Draw { model: m }
                    | EnemyStep::Box { model: m, .. }
                    | EnemyStep::Act { model: m, .. } => {
                        model(*m, "a step of the AI side")?;
                        let Some(deck) = uc.deck_of_model(&d.models[*m as usize]) else {
                            return Err(format!("model {m} draws AI cards but is no AI model"));
                        };
                        if let EnemyStep::Box { card, index, .. } | EnemyStep::Act { card, index, .. } = e {
                            let cards = &uc.data.decks[deck as usize].cards;
                            if cards.get(*card as usize).is_none_or(|c| *index as usize >= c.boxes.len()) {
                                return Err(format!(
                                    "model {m} resolves box {index} of card {card}, which its deck lacks"
                                ));
                            }
                        }
                    }
                }
            }
            Step::StartTurn
            | Step::PassTokens
            | Step::RollOff
            | Step::GrantAp
            | Step::ChooseActivation
            | Step::Cleanup
            | Step::EndTurn => {}
        }
    }
    Ok(())
}

/// Run `f` on a state built from a file, turning a panic (an inconsistency the checks above
/// did not foresee) into an error instead of a crash. The panic message is not printed.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    result.map_err(|e| {
        let why = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!("the state is inconsistent ({why})")
    })
}

/// Build a state from checked parts, take its first steps under [`guarded`] and check the
/// invariants: the whole check of a state read from a file.
pub fn build_checked(stat: StaticData, d: DynState) -> Result<GameState, String> {
    check_static(&stat)?;
    check_dynamic(&stat, &d)?;
    let state = guarded(|| {
        let s = GameState::from_parts(std::sync::Arc::new(stat), d);
        let _ = s.legal_actions();
        let _ = s.chance_outcomes();
        s
    })?;
    let violations = guarded(|| crate::invariants::violations(&state))?;
    if let Some(v) = violations.first() {
        return Err(format!("the state breaks the rules: {v}"));
    }
    Ok(state)
}
