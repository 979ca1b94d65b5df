//! The one list of scenarios. A new scenario joins it with one entry, its variant and its
//! file's name; everything else that enumerates the scenarios is generated from it:
//! [`Scenario`](super::Scenario)'s variants (in `types.rs`), the scenario module's `mod` lines
//! and its table of rules (each file's unit struct, named as the variant), and, in crate
//! `agents`, the scripted player's plans (`agents/src/scripted/plans/NAME.rs`, a unit struct
//! named as the variant in a file named as the scenario's).
//!
//! The order is the variants' order: the skirmish first, then the rulebook's D5 table (p.76).
//! It is also the order of the observation's scenario slots, so it must not change for the
//! scenarios already listed; a new scenario goes last.

/// Calls the macro `$then` with every scenario of the list, each as `$(#[attribute])* Variant
/// file,` (the attributes are the variant's doc comment, and `#[default]` on the skirmish).
/// The one list of scenarios (see the module's documentation).
#[macro_export]
macro_rules! for_each_scenario {
    ($then:ident) => {
        $then! {
            /// No scenario: crews deploy automatically on the long edges and score the points
            /// of the enemy models they put down or out (the first-game set-up, p.20).
            #[default]
            Skirmish skirmish,
            /// 1. Take out the enemy leader; hold the central treasure (p.78).
            Assassinate assassinate,
            /// 2. Secret grudges: take out the chosen enemy with the chosen holder (p.80).
            GrudgeMatch grudge_match,
            /// 3. Control three objectives, scored on turns 2, 4 and 6 (p.81).
            AttackAndDefend attack_and_defend,
            /// 4. Carry your prize off the enemy edge and intercept theirs (p.82).
            Couriers couriers,
            /// 5. Hidden numbered markers, each side seeking one number at a time (p.84).
            ScavengerHunt scavenger_hunt,
        }
    };
}
