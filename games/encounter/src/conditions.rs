//! Conditions and their durations ("Conditions & Effects"): Fleeting ones end at the model's
//! next End Phase, Persistent ones lose a counter each End Phase, Ongoing ones last until
//! their condition is met.

/// How long a condition lasts ("Duration Types").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Duration {
    /// Ends at the model's next End Phase.
    Fleeting,
    /// X counters, one fewer each End Phase.
    Persistent,
    /// Until a specific condition is met.
    Ongoing,
}

/// The conditions a model can suffer in this Encounter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Conditions {
    /// Prone (Ongoing): melee attacks against it have Favour, ranged ones Peril; a Major
    /// action stands it up. (Ruling: a Prone model projects no Danger Zone and cannot move.)
    pub prone: bool,
    /// Stunned (Fleeting): misses its next Activation.
    pub stunned: bool,
    /// Staggered (Fleeting): cannot perform Manoeuvres.
    pub staggered: bool,
    /// Bleeding X (Persistent): at its Start Phase an automatic S[X] hit.
    pub bleeding: u8,
}

impl Conditions {
    /// The duration type of each condition, by name.
    pub const DURATIONS: [(&'static str, Duration); 4] = [
        ("prone", Duration::Ongoing),
        ("stunned", Duration::Fleeting),
        ("staggered", Duration::Fleeting),
        ("bleeding", Duration::Persistent),
    ];

    /// The End Phase: Fleeting conditions end, Persistent ones lose a counter ("Reduce
    /// condition tracker by 1 (remove if zero)"); Ongoing ones stay.
    pub fn end_phase(&mut self) {
        self.stunned = false;
        self.staggered = false;
        self.bleeding = self.bleeding.saturating_sub(1);
    }

    /// The names of the conditions in force, for logs and observations.
    pub fn names(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.prone {
            out.push("prone".to_string());
        }
        if self.stunned {
            out.push("stunned".to_string());
        }
        if self.staggered {
            out.push("staggered".to_string());
        }
        if self.bleeding > 0 {
            out.push(format!("bleeding {}", self.bleeding));
        }
        out
    }
}
