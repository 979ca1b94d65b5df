//! The Encounter's state: models, resources, the phase of the round, the activation under
//! way and the stack of pending resolutions (checks waiting for dice, offers of re-rolls and
//! Interrupts). Plain data and the queries every rule module shares; the rules live in
//! [`crate::flow`] and the modules it calls.

use crate::board::{Board, Cell};
use crate::checks::Outcome;
use crate::conditions::Conditions;
use crate::data::{InjuryEffect, Profile, Weapon, ADVERSARIES, INJURY_DECK, MAP, PARTY};

/// Player 0: the Adventurers (the party).
pub const PARTY_SIDE: usize = 0;
/// Player 1: the Dungeon Master (the adversaries).
pub const DM_SIDE: usize = 1;

/// What a model declares it will do this round ("Declare Actions"); the declaration allows
/// its Major action and sets its Action modifier to initiative.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Intent {
    /// Minor actions only (modifier 0).
    Move,
    /// May Strike in melee (modifier 1).
    Fight,
    /// May Shoot (modifier 2).
    Shoot,
    /// May cast an arcane spell (modifier 2, ruling: as slow to ready as a shot).
    Cast,
}

impl Intent {
    /// The Action modifier subtracted from the initiative roll (ruling).
    pub fn modifier(self) -> i8 {
        match self {
            Intent::Move => 0,
            Intent::Fight => 1,
            Intent::Shoot | Intent::Cast => 2,
        }
    }
}

/// Who was surprised ("Determine Surprise").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Surprise {
    /// Not yet rolled.
    Unknown,
    /// Nobody.
    Nobody,
    /// The Company.
    Company,
    /// The Adversaries.
    Adversaries,
}

/// An action at a decision node or an outcome at a chance node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// Chance: a die face (1–6), or the index of the model a stray shot hits.
    Face(u8),
    /// Chance: the outcome of the pending check.
    Roll(Outcome),
    /// DM at set-up: spend this much Threat on additional Adversary Pool values (this ends
    /// the set-up spending).
    BuyPool(u8),
    /// DM at set-up: spend 1 Threat on the Menacing Talent for its Champion ("Spend Threat for
    /// Talents"; illustrative).
    BuyTalent,
    /// DM at set-up: spend 1 Threat on the Gloom Effect ("buy additional Effects";
    /// illustrative: ranged attacks are harder while its Duration lasts).
    BuyEffect,
    /// DM at set-up: spend 1 Threat to field its Champion as a Nemesis ("better models";
    /// [`crate::data::NEMESIS`], illustrative).
    BuyNemesis,
    /// Declare the next model's (or DM group's) intent, hidden from the other side.
    Declare(Intent),
    /// Minor: move up to Movement, stopping on entering an enemy Danger Zone.
    Advance(Cell),
    /// Minor manoeuvre: leave every enemy Danger Zone (a check, or 2 Momentum).
    Disengage {
        /// Where to.
        to: Cell,
        /// Paid with 2 Momentum instead of the check.
        momentum: bool,
    },
    /// Minor manoeuvre: swap places with an adjacent engaged ally (a check, or 1 Momentum).
    ChangePlace {
        /// The ally (model index).
        ally: u8,
        /// Paid with 1 Momentum instead of the check.
        momentum: bool,
    },
    /// Minor manoeuvre: step to an adjacent square inside an engaging enemy's Danger Zone.
    Reposition(Cell),
    /// Minor: drag the knocked-out Character `body`, adjacent, along while moving to `to`, up
    /// to ½M; the body ends on the last square the dragger left.
    Drag {
        /// The knocked-out Character (model index).
        body: u8,
        /// Where the dragger goes.
        to: Cell,
    },
    /// Minor: open the door at this square.
    OpenDoor(Cell),
    /// Minor: one roll of the Extended check that forces the stuck door at this square.
    ForceDoor(Cell),
    /// Minor: the model's next check this activation is one step easier.
    Prepare,
    /// Free (no action): 1 Momentum makes the model's next check this activation two steps
    /// easier ("1pt: Decrease Check Difficulty by 2"), offered where a check manoeuvre is.
    Ease,
    /// Free (no action): 2 Momentum make the model's next hit this activation trigger its
    /// weapon's Critical Hit qualities ("2pt: Activate Weapon Quality requiring Critical Hit").
    Empower,
    /// Minor: a Complex Athletics check against Obstacle X to remove Entangled X.
    BreakFree,
    /// Minor: clear the model's sight, removing Blinded (ruling).
    ClearSight,
    /// Minor (Use a Skill): become Hidden, out of every enemy's Line of Sight (ruling).
    Hide,
    /// Major: stand up from Prone.
    StandUp,
    /// Major: melee attacks against a model in the Danger Zone.
    Strike {
        /// The target (model index).
        target: u8,
        /// Difficulty −2, for 1 Momentum (party) or 1 Adversary Pool (elite, champion).
        boost: bool,
        /// One more attack, for 4 Momentum (party) or 1 Threat (champion).
        extra: bool,
    },
    /// Major: a ranged attack against a model in range and Line of Sight.
    Shoot {
        /// The target (model index).
        target: u8,
        /// Difficulty −2, as for a Strike.
        boost: bool,
    },
    /// Spend a Reaction on an Interrupt: a melee attack before the offered action resolves.
    Interrupt,
    /// Decline the offered Interrupt.
    Pass,
    /// Spend a Luck Point to re-roll the check just failed.
    Reroll,
    /// Push: re-roll the check just failed for 1 Stress (`stress`) or 1 Fatigue ("Push:
    /// Suffer 1 Stress or Fatigue").
    Push {
        /// Suffer Stress rather than Fatigue.
        stress: bool,
    },
    /// Dark Deal: re-roll the check just failed for 1 Corruption, even a re-rolled one ("One
    /// attempt per check (except Dark Deal)").
    DarkDeal,
    /// Minor: Recuperate, a Challenging Cool check to recover 1 Stress (`stress`) or a
    /// Challenging Endurance check to recover 1 Fatigue.
    Recuperate {
        /// Recover Stress rather than Fatigue.
        stress: bool,
    },
    /// Keep the check's outcome; or take the wound rather than soak it; or meet death rather
    /// than spend a Fate Point.
    Accept,
    /// Spend a Fate Point to escape certain death ("Fate Points: Escape certain death").
    SpendFate,
    /// Let the armour soak one wound before it is dealt (no Injury drawn; the armour loses a
    /// point of armour and of Soak).
    Soak,
    /// End the activation.
    EndActivation,
    /// Major: cast arcane spell `spell` of [`crate::data::SPELLS`] at the enemy model on
    /// `at` (a Blast's template is centred there): an Extended check of the Magic Pool.
    Cast {
        /// The spell (index into [`crate::data::SPELLS`]).
        spell: u8,
        /// The square of the enemy model it is cast at.
        at: Cell,
    },
    /// Roll the Magic Pool again for the casting under way (another unit of Time, more 1s
    /// risked); [`Action::Accept`] lets the spell go instead.
    Channel,
    /// Minor manoeuvre: pray (divine magic, "Handled as Manoeuvres"): a Routine Cool check.
    Pray,
    /// Minor: beat out the flames, removing Ablaze (ruling).
    Extinguish,
    /// Minor: "Assist: Aid another Model": the adjacent ally's next Basic check has Favour
    /// (illustrative ruling).
    Assist {
        /// The ally (model index).
        ally: u8,
    },
    /// Minor (Manage Equipment: "drink potion"): drink a healing draught, recovering
    /// [`crate::data::DRAUGHT_WOUNDS`] Wound (illustrative).
    DrinkDraught,
}

/// One model on the board section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// Its profile (illustrative data).
    pub profile: &'static Profile,
    /// Where it stands.
    pub cell: Cell,
    /// Wounds left.
    pub wounds: u8,
    /// Out of play (Wounds 0, or below) and off the board.
    pub out: bool,
    /// Dead: a wound took its Wounds below 0 ("Wounds < 0 = Death"); also out of play.
    pub dead: bool,
    /// Routed: Broken by a failed Morale (or a Follower's Obedience) check, it fled the Board
    /// Section at its side's edge (out of play, neither wounded out nor dead; illustrative
    /// ruling).
    pub routed: bool,
    /// Its armour now (the profile's, less what Soak has cost it).
    pub armour: u8,
    /// The Soak its armour has left.
    pub soak: u8,
    /// How many of each card of [`crate::data::INJURY_DECK`] it has drawn.
    pub injuries: [u8; INJURY_CARDS],
    /// Reactions left (for Interrupts).
    pub reactions: u8,
    /// Luck Points left.
    pub luck: u8,
    /// Fatigue taken (Characters: extra Minor actions, Push), up to
    /// [`crate::data::FATIGUE_LIMIT`].
    pub fatigue: u8,
    /// Stress taken (Characters: Push), up to [`crate::data::STRESS_LIMIT`].
    pub stress: u8,
    /// Corruption taken (Characters: Dark Deal), below
    /// [`crate::data::CORRUPTION_THRESHOLD`].
    pub corruption: u8,
    /// Fate Points left.
    pub fate: u8,
    /// Healing draughts left (Manage Equipment).
    pub draughts: u8,
    /// Its conditions.
    pub conditions: Conditions,
    /// Whether it (or its group) has declared this round.
    pub declared: bool,
    /// Its declared intent (hidden from the other side until all have declared).
    pub intent: Option<Intent>,
    /// Its initiative score this round, once rolled.
    pub initiative: Option<i8>,
}

impl Model {
    /// The side that controls it.
    pub fn side(&self) -> usize {
        if self.profile.kind.is_party() {
            PARTY_SIDE
        } else {
            DM_SIDE
        }
    }

    /// Whether it is in play (on the board and able to act).
    pub fn in_play(&self) -> bool {
        !self.out
    }

    /// Whether it lies on the board out of play: a Character at Wounds 0, alive ("Characters:
    /// Must be dragged or abandoned"); it holds its square and can be dragged.
    pub fn body(&self) -> bool {
        self.out && !self.dead && self.profile.kind == crate::data::Kind::Character
    }

    /// Peril dice on its Basic checks: its conditions' ([`Conditions::peril`]) and, on a
    /// physical check, exhaustion (Fatigue at [`crate::data::FATIGUE_LIMIT`]; illustrative).
    pub fn peril(&self, physical: bool) -> u8 {
        self.conditions.peril(physical) + (physical && self.fatigue >= crate::data::FATIGUE_LIMIT) as u8
    }

    /// Peril dice on its mental (Cool) checks: its conditions' ([`Conditions::mental_peril`]:
    /// Distressed among them).
    pub fn mental_peril(&self) -> u8 {
        self.conditions.mental_peril()
    }

    /// Keep the conditions that Stress and Corruption bring below their limits in step with
    /// them (illustrative): Distressed at [`crate::data::DISTRESS_STRESS`] Stress, Strained at
    /// [`crate::data::STRAIN_CORRUPTION`] Corruption.
    pub fn feel(&mut self) {
        self.conditions.distressed = self.stress >= crate::data::DISTRESS_STRESS;
        self.conditions.strained = self.corruption >= crate::data::STRAIN_CORRUPTION;
    }

    /// Favour dice on its Basic checks: an ally's Assist (one, on its next check).
    pub fn favour(&self) -> u8 {
        self.conditions.assisted as u8
    }

    /// Its melee weapon.
    pub fn weapon(&self) -> &'static Weapon {
        &self.profile.melee_weapon
    }

    /// Its Melee (WS), less the points its injuries cost (at least 1).
    pub fn melee(&self) -> u8 {
        let lost: u8 = INJURY_DECK
            .iter()
            .zip(self.injuries)
            .filter(|(card, _)| card.effect == InjuryEffect::LoseMelee)
            .map(|(_, n)| n)
            .sum();
        self.profile.melee.saturating_sub(lost).max(1)
    }

    /// Its Strength, less Weakened.
    pub fn strength(&self) -> u8 {
        self.profile.strength.saturating_sub(self.conditions.weakened)
    }
}

/// Cards in [`crate::data::INJURY_DECK`].
pub const INJURY_CARDS: usize = INJURY_DECK.len();

/// The phase of the round ("Turn Sequence").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Set-up: the DM may spend Threat on additional Pool values.
    BuyPool,
    /// Set-up: the surprise roll.
    Surprise,
    /// The D6 that says who declares first.
    DeclareOrder,
    /// Alternate declarations.
    Declare,
    /// Initiative rolls, one per declared model.
    Initiative,
    /// "Determine Winds of Magic": a D6 at the start of a round while an arcane caster is in
    /// play (illustrative: 1 ebbing, 6 surging).
    Winds,
    /// Activations in initiative order.
    Activation,
    /// The Encounter is over.
    Over,
}

/// The activation under way ("Activation").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Activation {
    /// The model.
    pub model: u8,
    /// Whether its Major action is spent.
    pub major: bool,
    /// Minor actions spent (one free with a Major, three without).
    pub minors: u8,
    /// Its next check is one step easier (Prepare).
    pub prepared: bool,
    /// Its next check is two steps easier (Momentum: [`Action::Ease`]).
    pub eased: bool,
    /// Its next hit triggers its weapon's Critical Hit qualities (Momentum:
    /// [`Action::Empower`]).
    pub empowered: bool,
    /// It may use Basic actions only (minions; elites and champions when surprised).
    pub basic_only: bool,
    /// It has ended (or misses its action phase).
    pub ended: bool,
    /// It has rolled to force a stuck door (one roll per activation).
    pub forced: bool,
    /// It has prayed (one prayer per activation).
    pub prayed: bool,
    /// It has attacked (a Strike, a Shoot or a Cast): a Frenzied model's fury lasts.
    pub attacked: bool,
}

/// A stuck door ("Interact"; ruling): a closed door that does not open by an Interact but is
/// forced by an Extended Brawn check, one roll per activation, keeping its Marks between rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StuckDoor {
    /// Where it is.
    pub cell: Cell,
    /// The Marks of the Extended check so far.
    pub marks: i32,
    /// The check ended as a Bane: the door cannot be forced in this Encounter.
    pub jammed: bool,
}

/// What a check is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Purpose {
    /// An attack (melee or ranged) by `attacker` against `target`.
    Attack {
        /// The attacking model.
        attacker: u8,
        /// The target.
        target: u8,
        /// A ranged attack.
        ranged: bool,
        /// The models the target is engaged with (a shot into melee), as a bit mask.
        melee_mask: u32,
        /// Made with the off-hand weapon ("Two-Weapon Fighting").
        off_hand: bool,
    },
    /// Damage against Toughness: a wound on success, two on a Boon.
    Damage {
        /// The model hit.
        target: u8,
        /// Damage dice rolled.
        dice: u8,
        /// The Obstacle: Toughness plus armour.
        obstacle: u8,
        /// The automatic hit of Bleeding at the model's Start Phase (not an attack).
        bleeding: bool,
    },
    /// A Disengage by `model` to `to`.
    Disengage {
        /// The model.
        model: u8,
        /// Its destination.
        to: Cell,
    },
    /// An attempt by `model` to break free of Entangled.
    BreakFree {
        /// The model.
        model: u8,
    },
    /// The Morale check of Adversary or Henchman `model`, or a Follower's Obedience check, at
    /// Bookkeeping (illustrative ruling).
    Morale {
        /// The model.
        model: u8,
    },
    /// The Cool check of Strained `model` at its Start Phase: a failure leaves it Broken.
    Strain {
        /// The model.
        model: u8,
    },
    /// A Change Place of `model` with `ally`.
    ChangePlace {
        /// The model.
        model: u8,
        /// The ally.
        ally: u8,
    },
    /// The prayer of `model` (divine magic, a Manoeuvre).
    Prayer {
        /// The model.
        model: u8,
    },
    /// A Recuperate of `model`: 1 Stress (`stress`) or 1 Fatigue recovered on a success.
    Recuperate {
        /// The model.
        model: u8,
        /// Stress rather than Fatigue.
        stress: bool,
    },
}

impl Purpose {
    /// The model making the check (its Basic checks take an Assist's Favour); `None` for a
    /// damage check.
    pub fn maker(&self) -> Option<u8> {
        match *self {
            Purpose::Attack { attacker, .. } => Some(attacker),
            Purpose::Damage { .. } | Purpose::BreakFree { .. } => None,
            Purpose::Disengage { model, .. }
            | Purpose::Morale { model }
            | Purpose::Strain { model }
            | Purpose::ChangePlace { model, .. }
            | Purpose::Prayer { model }
            | Purpose::Recuperate { model, .. } => Some(model),
        }
    }
}

/// A check waiting for its roll, with its exact odds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Check {
    /// What it is for.
    pub purpose: Purpose,
    /// Probabilities indexed like [`Outcome::ALL`].
    pub odds: [f64; 5],
    /// The Character who may re-roll it (Luck, Push or Dark Deal), if any.
    pub luck: Option<u8>,
    /// Already re-rolled: the result is final.
    pub rerolled: bool,
}

/// An arcane casting under way ("Casting Procedure: Extended Check using Magic Pool").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Casting {
    /// The caster.
    pub caster: u8,
    /// The spell (index into [`crate::data::SPELLS`]).
    pub spell: u8,
    /// The square it is cast at.
    pub at: Cell,
    /// Dice of the Magic Pool for each roll: Mag and the Winds of Magic.
    pub dice: u8,
    /// Marks so far (the Extended check's running total).
    pub marks: i32,
    /// 1s rolled so far across all rolls: the Miscast Number.
    pub ones: u8,
    /// Rolls made so far.
    pub rolls: u8,
}

/// A resolution waiting on the stack.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// A check waiting for its roll (a chance node).
    Check(Check),
    /// The party decides whether to re-roll a failed check with Luck.
    Reroll(Check, Outcome),
    /// `by` may spend a Reaction to Interrupt the action waiting in `deferred`.
    Interrupt {
        /// The model offered the Interrupt.
        by: u8,
    },
    /// A missed shot into melee: which model it hits (a chance node over `candidates`).
    Stray {
        /// The shooter.
        shooter: u8,
        /// The target and the models it is engaged with.
        candidates: Vec<u8>,
    },
    /// A roll to force a stuck door: the Marks it scores (a chance node).
    Force {
        /// The model forcing it.
        model: u8,
        /// The door.
        door: Cell,
    },
    /// The side of `target` decides whether its armour soaks one of `wounds` wounds.
    Soak {
        /// The model wounded.
        target: u8,
        /// The wounds about to be dealt.
        wounds: u8,
    },
    /// Death comes to the Character `model`, who has a Fate Point: its side decides whether
    /// to spend it ("Escape certain death") or meet death.
    Fate {
        /// The Character.
        model: u8,
        /// What kills it: the Adversary slaying it where it lies abandoned, or `None` for
        /// wounds taking it below 0.
        slayer: Option<u8>,
    },
    /// A wound was caused: `target` draws an Injury card (a chance node over the deck).
    Injury {
        /// The model wounded.
        target: u8,
    },
    /// A casting roll: how many of the Magic Pool's dice show a 1 (a chance node, `Face(k)`).
    CastOnes(Casting),
    /// A casting roll, its 1s known (`ones`): the Marks of the other dice (a chance node,
    /// `Face(m)`).
    CastMarks(Casting, u8),
    /// The caster's side decides whether to roll again ([`Action::Channel`]) or let the
    /// spell go ([`Action::Accept`]).
    Channel(Casting),
    /// The off-hand attack that ends a two-weapon fighter's Strike ("Two-Weapon Fighting";
    /// resolved automatically after its other attacks).
    OffHand {
        /// The attacker.
        attacker: u8,
        /// The target.
        target: u8,
        /// Difficulty steps of the Strike (−2 when boosted); the off-hand adds its own.
        steps: i8,
    },
    /// The remaining attacks of a Strike (resolved automatically, one at a time).
    Attacks {
        /// The attacker.
        attacker: u8,
        /// The target.
        target: u8,
        /// Attacks left.
        left: u8,
        /// Difficulty steps added to each (−2 when boosted).
        steps: i8,
    },
}

/// One Encounter of seed 004: the party (player 0) against the DM's adversaries (player 1).
#[derive(Clone, Debug)]
pub struct Encounter {
    pub(crate) board: Board,
    pub(crate) models: Vec<Model>,
    pub(crate) round: u8,
    pub(crate) phase: Phase,
    pub(crate) momentum: u8,
    pub(crate) momentum_spent: u8,
    pub(crate) pool: u8,
    pub(crate) threat: u8,
    pub(crate) bought_pool: u8,
    pub(crate) setup_threat: u8,
    pub(crate) menacing: bool,
    pub(crate) gloom: u8,
    pub(crate) winds: i8,
    pub(crate) surprise: Surprise,
    pub(crate) declare_turn: usize,
    pub(crate) to_declare: [Vec<u8>; 2],
    pub(crate) init_queue: Vec<u8>,
    pub(crate) order: Vec<u8>,
    pub(crate) cursor: usize,
    pub(crate) act: Option<Activation>,
    pub(crate) pending: Vec<Pending>,
    pub(crate) deferred: Option<(u8, Action)>,
    pub(crate) defeated: Vec<u8>,
    pub(crate) stuck: Vec<StuckDoor>,
    pub(crate) books_kept: bool,
    pub(crate) winner: Option<usize>,
    pub(crate) log: Option<Vec<String>>,
}

impl Encounter {
    /// The board section of the illustrative data, with the party and the adversaries on
    /// their start squares, before set-up.
    pub fn new() -> Encounter {
        let (board, marks) = Board::parse(&MAP).expect("the built-in map parses");
        let start = |c: char| marks.iter().find(|m| m.0 == c).map(|m| m.1).expect("a start square per model");
        let mut models = Vec::new();
        for (i, p) in PARTY.iter().enumerate() {
            models.push(Model::fresh(p, start((b'0' + i as u8) as char)));
        }
        for (i, p) in ADVERSARIES.iter().enumerate() {
            models.push(Model::fresh(p, start((b'a' + i as u8) as char)));
        }
        let named = |name: &str| models.iter().position(|m: &Model| m.profile.name == name).map(|i| i as u8);
        let grudges: Vec<_> = models
            .iter()
            .map(|m| (m.profile.hates.and_then(named), m.profile.animosity.and_then(named)))
            .collect();
        for (m, (hatred, animosity)) in models.iter_mut().zip(grudges) {
            m.conditions.hatred = hatred;
            m.conditions.animosity = animosity;
        }
        Encounter {
            board,
            models,
            round: 1,
            phase: Phase::BuyPool,
            momentum: 0,
            momentum_spent: 0,
            pool: 0,
            threat: crate::data::THREAT,
            bought_pool: 0,
            setup_threat: 0,
            menacing: false,
            gloom: 0,
            winds: 0,
            surprise: Surprise::Unknown,
            declare_turn: PARTY_SIDE,
            to_declare: [Vec::new(), Vec::new()],
            init_queue: Vec::new(),
            order: Vec::new(),
            cursor: 0,
            act: None,
            pending: Vec::new(),
            deferred: None,
            defeated: Vec::new(),
            stuck: marks
                .iter()
                .filter(|m| m.0 == '=')
                .map(|m| StuckDoor { cell: m.1, marks: 0, jammed: false })
                .collect(),
            books_kept: false,
            winner: None,
            log: None,
        }
    }

    /// The same, keeping a text log of what happens ([`Encounter::log`]).
    pub fn with_log() -> Encounter {
        Encounter { log: Some(Vec::new()), ..Encounter::new() }
    }

    /// The text log, if kept.
    pub fn log(&self) -> &[String] {
        self.log.as_deref().unwrap_or(&[])
    }

    /// Add a line to the log, if kept.
    pub(crate) fn note(&mut self, line: impl FnOnce(&Encounter) -> String) {
        if self.log.is_some() {
            let text = line(self);
            if let Some(log) = self.log.as_mut() {
                log.push(text);
            }
        }
    }

    /// The models (party first, then adversaries; the index is the model's id).
    pub fn models(&self) -> &[Model] {
        &self.models
    }

    /// The board section.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The round (from 1).
    pub fn round(&self) -> u8 {
        self.round
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The party's Momentum.
    pub fn momentum(&self) -> u8 {
        self.momentum
    }

    /// Momentum the party has spent this round, subtracted at Bookkeeping ("Subtract Action
    /// costs from Pool").
    pub fn momentum_spent(&self) -> u8 {
        self.momentum_spent
    }

    /// The rounds the Gloom Effect bought at set-up still lasts (its Duration tracker; 0: not
    /// in force).
    pub fn gloom(&self) -> u8 {
        self.gloom
    }

    /// The Winds of Magic this round: dice added to every Magic Pool (−1 ebbing, 0 steady, +1
    /// surging; illustrative).
    pub fn winds(&self) -> i8 {
        self.winds
    }

    /// Whether the DM bought its Champion the Menacing Talent at set-up.
    pub fn menacing(&self) -> bool {
        self.menacing
    }

    /// Threat the DM may still spend at set-up ([`crate::data::MAX_SETUP_THREAT`] in all).
    pub fn setup_threat_left(&self) -> u8 {
        self.threat.min(crate::data::MAX_SETUP_THREAT.saturating_sub(self.setup_threat))
    }

    /// Momentum the party may still spend this round: its Momentum plus
    /// [`crate::MOMENTUM_CREDIT`], less what it has spent (none in the first round when the
    /// Company is surprised).
    pub fn momentum_left(&self) -> u8 {
        if self.round == 1 && self.surprise == Surprise::Company {
            0
        } else {
            (self.momentum + crate::data::MOMENTUM_CREDIT).saturating_sub(self.momentum_spent)
        }
    }

    /// The Adversary Pool.
    pub fn pool(&self) -> u8 {
        self.pool
    }

    /// The DM's Threat.
    pub fn threat(&self) -> u8 {
        self.threat
    }

    /// Who was surprised.
    pub fn surprise(&self) -> Surprise {
        self.surprise
    }

    /// The activation under way, if any.
    pub fn activation(&self) -> Option<&Activation> {
        self.act.as_ref()
    }

    /// The stuck doors of the board section.
    pub fn stuck_doors(&self) -> &[StuckDoor] {
        &self.stuck
    }

    /// The resolutions waiting, innermost last.
    pub fn pending(&self) -> &[Pending] {
        &self.pending
    }

    /// The winning side once over (`None` for a draw or while playing).
    pub fn winner(&self) -> Option<usize> {
        self.winner
    }

    /// A model's name.
    pub fn name(&self, m: u8) -> &'static str {
        self.models[m as usize].profile.name
    }

    /// The model named `name`, if any.
    pub fn named(&self, name: &str) -> Option<u8> {
        self.models.iter().position(|m| m.profile.name == name).map(|i| i as u8)
    }

    /// The model standing on `c`, if any.
    pub fn model_at(&self, c: Cell) -> Option<u8> {
        self.models.iter().position(|m| m.in_play() && m.cell == c).map(|i| i as u8)
    }

    /// The knocked-out Character lying on `c`, if any ([`Model::body`]).
    pub fn body_at(&self, c: Cell) -> Option<u8> {
        self.models.iter().position(|m| m.body() && m.cell == c).map(|i| i as u8)
    }

    /// Whether model `e` projects a Danger Zone over square `c` (in play, not Prone); a square
    /// two away counts only in Line of Sight (ruling: a Reach R weapon does not reach through
    /// a wall).
    pub fn threatens(&self, e: u8, c: Cell) -> bool {
        let m = &self.models[e as usize];
        m.in_play()
            && !m.conditions.prone
            && Board::in_zone(m.weapon().reach, m.cell, c)
            && (m.cell.distance(c) < 2 || self.board.line_of_sight(m.cell, c, |_| false))
    }

    /// The enemies of model `m` whose Danger Zone covers square `c`.
    pub fn zone_enemies(&self, m: u8, c: Cell) -> Vec<u8> {
        let side = self.models[m as usize].side();
        (0..self.models.len() as u8)
            .filter(|&e| self.models[e as usize].side() != side && self.threatens(e, c))
            .collect()
    }

    /// Whether square `c` lies in the Danger Zone of an enemy of model `m` (what
    /// [`Encounter::zone_enemies`] lists, without listing them).
    pub fn in_enemy_zone(&self, m: u8, c: Cell) -> bool {
        let side = self.models[m as usize].side();
        (0..self.models.len() as u8).any(|e| self.models[e as usize].side() != side && self.threatens(e, c))
    }

    /// Whether model `m` is Engaged (inside an enemy's Danger Zone).
    pub fn engaged(&self, m: u8) -> bool {
        self.in_enemy_zone(m, self.models[m as usize].cell)
    }

    /// Models of `side` still in play.
    pub fn in_play(&self, side: usize) -> usize {
        self.models.iter().filter(|m| m.in_play() && m.side() == side).count()
    }
}

impl Default for Encounter {
    fn default() -> Self {
        Encounter::new()
    }
}

impl Model {
    fn fresh(profile: &'static Profile, cell: Cell) -> Model {
        Model {
            profile,
            cell,
            wounds: profile.wounds,
            out: false,
            dead: false,
            routed: false,
            armour: profile.armour,
            soak: profile.soak,
            injuries: [0; INJURY_CARDS],
            reactions: profile.interrupts(),
            luck: profile.luck,
            fatigue: 0,
            stress: 0,
            corruption: 0,
            fate: profile.fate,
            draughts: profile.draughts,
            conditions: Conditions::default(),
            declared: false,
            intent: None,
            initiative: None,
        }
    }
}
