//! The Ulaya Chronicles action-card AI (seed 003), for AI-controlled dinosaurs in TDE games
//! ("The Drowned Earth Conversion"): the enemy die ([`enemy_die`]) and the data the card AI
//! runs on ([`data`]: AI models, action decks, spawn tables, ambush markers) and what a game
//! with AI models holds of it ([`game`]).

pub mod data;
pub mod enemy_die;
pub mod game;

pub use data::{default_uc, load_uc, parse_uc, UcData, UcSources};
pub use enemy_die::{evaluate_enemy, opposed_vs_enemy, vs_enemy_odds, EnemyLevel, EnemyOutcome, VsEnemy};
pub use game::{AmbushMarker, UcGame, UcState, AI_SIDE, MAX_MARKERS};
