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
    /// Stunned during its own Activation (by an Interrupt): ruling: the stun outlasts that
    /// Activation's End Phase, so that the model still misses its next Activation.
    pub stun_held: bool,
    /// Staggered X (Fleeting): cannot perform Manoeuvres; "If X > 1: Limited actions"
    /// (ruling: one action in its activation, a Major or a Minor). A second Staggered while
    /// Staggered raises X (at most 2).
    pub staggered: u8,
    /// Bleeding X (Persistent): at its Start Phase an automatic S[X] hit.
    pub bleeding: u8,
    /// Entangled X (Ongoing): Movement −X; a Minor action with a Complex Athletics check
    /// against Obstacle X removes it.
    pub entangled: u8,
    /// Blinded (Ongoing): Peril on all its checks, no ranged attacks; a Minor action clears
    /// its sight (ruling).
    pub blinded: bool,
    /// Drained (Ongoing): Peril on physical checks (melee attacks, Athletics); it lasts the
    /// Encounter (ruling: an injury's, healed only after it).
    pub drained: bool,
    /// Weakened X (Persistent): Strength −X.
    pub weakened: u8,
    /// Inspired X (Persistent): its checks are X steps easier.
    pub inspired: u8,
    /// Demoralized X (Persistent): its checks are X steps harder.
    pub demoralized: u8,
    /// Hidden (Ongoing): Movement ½M; an attacker against it is treated as Blinded (Peril in
    /// melee, no ranged attack).
    pub hidden: bool,
    /// A Hidden model that has attacked: Hidden ends at its End Phase.
    pub revealed: bool,
    /// Banes X from a Momentum deficit ("All Company Models gain Banes equal to deficit"):
    /// ruling: Peril on all its Basic checks, one counter off each End Phase (Persistent).
    pub banes: u8,
    /// Assisted (illustrative ruling of "Assist: Aid another Model"): Favour on its next Basic
    /// check; it ends with that check or at its End Phase.
    pub assisted: bool,
    /// Ablaze X (Ongoing): at its Start Phase an automatic S[X] hit; a Minor action beats the
    /// flames out (ruling).
    pub ablaze: u8,
    /// Frenzied X (Ongoing): Attacks ×2, Strikes only at the nearest enemy, only Strikes and
    /// Advances, immune to Psychology (Morale, Demoralized, Cowed); it ends at the End Phase
    /// of an activation without an attack (ruling), and then the model gains Fatigue X.
    pub frenzied: u8,
    /// Hatred (Ongoing) against this model: Favour on opposed checks against it, immune to
    /// its Fear (Cowed); it ends when that model leaves play.
    pub hatred: Option<u8>,
    /// Distressed (Ongoing): Peril on mental (Cool) checks; while Stress is at
    /// [`crate::data::DISTRESS_STRESS`] or more (ruling).
    pub distressed: bool,
    /// Strained (Ongoing): Peril on all checks; a Cool check at each Start Phase or Broken;
    /// while Corruption is at [`crate::data::STRAIN_CORRUPTION`] or more (ruling).
    pub strained: bool,
    /// Broken (Ongoing; a Character from a failed Strained check, an Adversary, Follower or
    /// Henchman from a failed Morale or Obedience check): "Move away from enemies. Cannot use
    /// Actions": only Advances away from the enemies (one at least, while it can) and no
    /// Interrupts; it ends with a passed check at a later Start Phase or a leader's Rally, and
    /// an Adversary, Follower or Henchman on its side's edge of the board routs (rulings).
    pub broken: bool,
    /// Animosity (Ongoing) against this ally: no Teamwork actions (Assist, Change Place)
    /// with it; it ends when that model leaves play.
    pub animosity: Option<u8>,
    /// Deafened (Ongoing): immune to Social actions (a Rally, another's prayer, the Menacing
    /// Talent); it ends at Bookkeeping (ruling: the ringing fades).
    pub deafened: bool,
    /// Cowed X (Persistent) against the model `cowed_by`: its opposed checks against that
    /// model are X steps harder.
    pub cowed: u8,
    /// The source of Cowed.
    pub cowed_by: u8,
}

impl Conditions {
    /// The duration type of each condition, by name.
    pub const DURATIONS: [(&'static str, Duration); 22] = [
        ("prone", Duration::Ongoing),
        ("stunned", Duration::Fleeting),
        ("staggered", Duration::Fleeting),
        ("bleeding", Duration::Persistent),
        ("entangled", Duration::Ongoing),
        ("blinded", Duration::Ongoing),
        ("drained", Duration::Ongoing),
        ("weakened", Duration::Persistent),
        ("inspired", Duration::Persistent),
        ("demoralized", Duration::Persistent),
        ("hidden", Duration::Ongoing),
        ("banes", Duration::Persistent),
        ("assisted", Duration::Fleeting),
        ("ablaze", Duration::Ongoing),
        ("frenzied", Duration::Ongoing),
        ("hatred", Duration::Ongoing),
        ("distressed", Duration::Ongoing),
        ("strained", Duration::Ongoing),
        ("broken", Duration::Ongoing),
        ("animosity", Duration::Ongoing),
        ("deafened", Duration::Ongoing),
        ("cowed", Duration::Persistent),
    ];

    /// The End Phase: Fleeting conditions end, Persistent ones lose a counter ("Reduce
    /// condition tracker by 1 (remove if zero)"); Ongoing ones stay.
    pub fn end_phase(&mut self) {
        // A stun taken during this very activation is kept for the next one (ruling).
        if self.stun_held {
            self.stun_held = false;
        } else {
            self.stunned = false;
        }
        self.staggered = 0;
        self.assisted = false;
        self.bleeding = self.bleeding.saturating_sub(1);
        self.weakened = self.weakened.saturating_sub(1);
        self.inspired = self.inspired.saturating_sub(1);
        self.demoralized = self.demoralized.saturating_sub(1);
        self.banes = self.banes.saturating_sub(1);
        self.cowed = self.cowed.saturating_sub(1);
        if self.revealed {
            self.hidden = false;
            self.revealed = false;
        }
    }

    /// Difficulty steps its Basic checks take from Inspired and Demoralized.
    pub fn steps(&self) -> i8 {
        self.demoralized as i8 - self.inspired as i8
    }

    /// Staggered once more ("Staggered" X rises, at most 2).
    pub fn stagger(&mut self) {
        self.staggered = (self.staggered + 1).min(2);
    }

    /// Whether Psychology touches it (Frenzied: "Immune to Psychology").
    pub fn psychology(&self) -> bool {
        self.frenzied == 0
    }

    /// The difficulty steps of its opposed check against model `other`: Cowed X against it.
    pub fn cowed_against(&self, other: u8) -> i8 {
        if self.cowed > 0 && self.cowed_by == other {
            self.cowed as i8
        } else {
            0
        }
    }

    /// Favour on its opposed check against model `other`: Hatred of it.
    pub fn hates(&self, other: u8) -> u8 {
        (self.hatred == Some(other)) as u8
    }

    /// Peril dice on its Basic checks: Blinded, Banes and Strained (all checks), Drained
    /// (physical ones).
    pub fn peril(&self, physical: bool) -> u8 {
        self.blinded as u8 + (physical && self.drained) as u8 + (self.banes > 0) as u8 + self.strained as u8
    }

    /// Peril dice on its mental (Cool) checks: all checks' and Distressed.
    pub fn mental_peril(&self) -> u8 {
        self.peril(false) + self.distressed as u8
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
        let counted = [
            ("staggered", self.staggered),
            ("frenzied", self.frenzied),
            ("cowed", self.cowed),
            ("bleeding", self.bleeding),
            ("entangled", self.entangled),
            ("weakened", self.weakened),
            ("inspired", self.inspired),
            ("demoralized", self.demoralized),
            ("banes", self.banes),
            ("ablaze", self.ablaze),
        ];
        out.extend(counted.iter().filter(|c| c.1 > 0).map(|(name, x)| format!("{name} {x}")));
        for (name, on) in [
            ("blinded", self.blinded),
            ("drained", self.drained),
            ("hidden", self.hidden),
            ("assisted", self.assisted),
            ("distressed", self.distressed),
            ("strained", self.strained),
            ("broken", self.broken),
            ("deafened", self.deafened),
        ] {
            if on {
                out.push(name.to_string());
            }
        }
        for (name, whom) in [("hatred of model", self.hatred), ("animosity to model", self.animosity)] {
            if let Some(m) = whom {
                out.push(format!("{name} {m}"));
            }
        }
        out
    }
}
