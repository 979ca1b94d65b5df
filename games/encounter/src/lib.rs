//! The dungeon Encounter of seed 004 ("Encounters & Combat") as a second game behind the
//! agents crate's [`agents::Game`] trait: the party (player 0) against the adversaries of an
//! AI Dungeon Master (player 1) on a square-grid board section, with hidden simultaneous
//! declarations, initiative, activations, Danger Zones, melee and ranged attacks, D6 checks
//! with exact odds, damage with Soak, Injury cards, out of play and death, Fate Points (the
//! player's choice), knocked-out Characters to drag or abandon, every condition the seed names
//! ([`conditions`]), an illustrative Morale check that leaves shaken Adversaries (and the
//! Company's Henchmen, and Followers by Obedience) Broken until a check or a Rally steadies
//! them or they flee off the board at their edge, a Nemesis, Momentum paid at Bookkeeping (a deficit gives
//! Banes) and all six of its uses, the Adversary Pool and Threat (with an illustrative Talent
//! and Effect to buy at set-up), additional Minor actions for Fatigue, Push, Dark Deal and
//! Recuperate, Stress and Corruption below their limits (Distressed, Strained), Manage
//! Equipment (a healing draught), Assist, Two-Weapon Fighting, magic ([`magic`]: the Winds of Magic, arcane
//! casting with Miscasts, a blast template that sets models Ablaze, prayers); game records
//! that replay ([`record`]); the odds of
//! every option from the engine's own checks ([`odds`]); a scripted player of either side
//! ([`dm`]) and a searching one over the scripted choices ([`search`]), with levels for players.
//!
//! The numbers of the party, the adversaries and the board are illustrative
//! ([`data`]); the rulings where the seed is silent are in `docs/rulings-encounter.md`.

#![warn(missing_docs)]

mod activation;
pub mod board;
pub mod checks;
mod combat;
pub mod conditions;
pub mod data;
mod declare;
pub mod dm;
mod flow;
mod force;
mod game;
pub mod magic;
mod movement;
pub mod odds;
mod pose;
pub mod record;
mod registry;
pub mod search;
pub mod state;
mod tensor;
mod text;

pub use activation::price;
pub use combat::{BREAK_FREE_TARGET, DAMAGE_TARGET, POINT_BLANK};
pub use data::MOMENTUM_CREDIT;
pub use dm::ScriptedAgent;
pub use flow::{Node, MAX_MOMENTUM};
pub use force::{FORCE_OBSTACLE, FORCE_TARGET};
pub use record::{replay, replay_with_log, GameRecord, Setup};
pub use registry::{make_agent, registry};
pub use search::{level_spec, SearchAgent, SearchConfig, LEVELS};
pub use state::{Action, Encounter, Intent, Phase, DM_SIDE, PARTY_SIDE};
