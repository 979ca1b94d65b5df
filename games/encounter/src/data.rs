//! ILLUSTRATIVE DATA, replaceable: the board section, the party and the adversaries of the
//! one Encounter this crate plays, with their armour's Soak, and the Injury deck. The seed gives the rules, not these numbers; every value
//! here is a placeholder chosen to make a fair, short fight (see `docs/rulings-encounter.md`).

/// Who a model belongs to and how it is played (seed 004, "Model Types").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A Player Character: has Luck Points.
    Character,
    /// Follows a Character.
    Follower,
    /// Hired help.
    Henchman,
    /// [⁎] Basic Activities only.
    Minion,
    /// [⁑] Situational Activities: manoeuvres and the Adversary Pool.
    Elite,
    /// [⁂] A wide array of Activities; can use Threat directly.
    Champion,
}

impl Kind {
    /// Whether the model belongs to the party (side 0) rather than the DM (side 1).
    pub fn is_party(self) -> bool {
        matches!(self, Kind::Character | Kind::Follower | Kind::Henchman)
    }
}

/// A weapon's Reach: the shape of its Danger Zone ("Danger Zone").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reach {
    /// The ring of squares directly adjacent (eight).
    M,
    /// The squares directly in front, behind, left and right (four).
    P,
    /// Reach M plus the next ring (Chebyshev distance 2).
    R,
}

/// A weapon quality triggered by a Critical Hit (a Boon on the attack), or a permission.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quality {
    /// Critical Hit: the target falls Prone.
    Impact,
    /// Critical Hit: the target starts Bleeding 2.
    Rend,
    /// Critical Hit: the target is Stunned.
    Stun,
    /// May shoot while Engaged ("Engagement Restriction").
    Pistol,
    /// Critical Hit: the target is Entangled 2 (a net or a barbed haft).
    Entangle,
    /// Critical Hit: the target is Demoralized 2 (a terrifying blow).
    Dread,
}

/// A model's size ("Size Modifiers").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Size {
    /// +2 difficulty to attacks against it.
    Little,
    /// +1.
    Small,
    /// 0.
    Average,
    /// −1.
    Large,
}

impl Size {
    /// The difficulty steps added to an attack against a model of this size.
    pub fn attack_difficulty(self) -> i8 {
        match self {
            Size::Little => 2,
            Size::Small => 1,
            Size::Average => 0,
            Size::Large => -1,
        }
    }
}

/// A weapon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weapon {
    /// Its name.
    pub name: &'static str,
    /// Melee: its Reach. Ranged weapons keep `M` for the rare blow struck with them.
    pub reach: Reach,
    /// Ranged: range in squares (Chebyshev); 0 for a melee weapon.
    pub range: u8,
    /// Damage dice: melee adds the wielder's Strength, ranged uses this alone.
    pub damage: u8,
    /// Its qualities.
    pub qualities: &'static [Quality],
}

impl Weapon {
    /// Whether it has `q`.
    pub fn has(&self, q: Quality) -> bool {
        self.qualities.contains(&q)
    }
}

/// A model's profile: skills on a 1–6 scale (the seed names them, not their scale).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Its name.
    pub name: &'static str,
    /// Its kind.
    pub kind: Kind,
    /// Adversaries declare by group; party models have their own.
    pub group: u8,
    /// Its size.
    pub size: Size,
    /// Melee (WS).
    pub melee: u8,
    /// Defense (WS).
    pub defense: u8,
    /// Shooting (BS).
    pub shooting: u8,
    /// Athletics (Ag).
    pub athletics: u8,
    /// Dodge (I).
    pub dodge: u8,
    /// Initiative characteristic.
    pub initiative: u8,
    /// Strength.
    pub strength: u8,
    /// Toughness.
    pub toughness: u8,
    /// Armour, added to Toughness.
    pub armour: u8,
    /// Soak of the armour ("Soak Mechanic"): wounds it may cancel, losing a point of armour
    /// and of Soak each time.
    pub soak: u8,
    /// Rally X (an illustrative leader's talent): while it is in play, whenever an enemy goes
    /// out of play, every model of its side in play becomes Inspired X.
    pub rally: u8,
    /// Shield Rating (2+ makes ranged attacks against it opposed).
    pub shield: u8,
    /// Wounds.
    pub wounds: u8,
    /// Movement (squares).
    pub movement: u8,
    /// Attacks (attacks per Strike, Interrupts per round).
    pub attacks: u8,
    /// Luck Points (Characters).
    pub luck: u8,
    /// Fate Points (Characters): "Escape certain death".
    pub fate: u8,
    /// Cool (WP): "Remain calm under stress, resist fear"; an Adversary's Morale checks use it,
    /// and a Character's Recuperate to recover Stress.
    pub cool: u8,
    /// Endurance (T): "Endure hardship"; a Character's Recuperate to recover Fatigue uses it.
    pub endurance: u8,
    /// Its value in the Adversary Pool (the A/C/E value; 0 for party models).
    pub pool: u8,
    /// Its melee weapon.
    pub melee_weapon: Weapon,
    /// Its ranged weapon, if any.
    pub ranged_weapon: Option<Weapon>,
    /// Magic (Mag): "Wizard level; determines Magic Pool for spellcasting"; 0 casts no
    /// arcane spell. A caster knows every spell of [`SPELLS`] (illustrative).
    pub magic: u8,
    /// Its prayer (divine magic, "Handled as Manoeuvres"), if any.
    pub prayer: Option<Prayer>,
    /// A one-handed weapon in its off-hand ("Two-Weapon Fighting"), if any.
    pub off_hand: Option<Weapon>,
    /// Hatred (Ongoing) of the model so named, from the start (illustrative).
    pub hates: Option<&'static str>,
    /// Animosity (Ongoing) to the ally so named, from the start (illustrative).
    pub animosity: Option<&'static str>,
    /// The Character a Follower follows ("Followers: Follow a single Character").
    pub follows: Option<&'static str>,
    /// A Follower's Obedience ("use Obedience to track loyalty"; 1–6, illustrative).
    pub obedience: u8,
    /// Healing draughts carried (Manage Equipment: "drink potion"; illustrative).
    pub draughts: u8,
    /// Fear X (illustrative): a model its attack hits is Cowed X against it.
    pub fear: u8,
    /// A Nemesis ("Returning adversary; evolves like Characters"): a Champion bought up with
    /// Threat at set-up, with a Character's Luck and Fate Points; +5 Momentum when defeated.
    pub nemesis: bool,
}

impl Profile {
    /// Interrupts it gains at its End Phase: its Attacks, and one more for fighting with two
    /// weapons ("Gain +1 additional Interrupt").
    pub fn interrupts(&self) -> u8 {
        self.attacks + self.off_hand.is_some() as u8
    }
}

/// Extra difficulty steps of an off-hand attack ("Off-hand actions: Difficulty +2").
pub const OFF_HAND_STEPS: i8 = 2;

/// What an arcane spell does once cast (illustrative).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpellEffect {
    /// An automatic hit of this many damage dice on one enemy model (one more on a Boon).
    Bolt(u8),
    /// A template attack: every model in the 3×3 squares centred on an enemy model takes an
    /// automatic hit of this many damage dice ("Template Attacks: All Models in template
    /// affected unless specified otherwise").
    Blast(u8),
}

/// An arcane spell ("Arcane Magic"; illustrative): its Casting Number is the Obstacle of the
/// Extended casting check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spell {
    /// Its name.
    pub name: &'static str,
    /// Its Casting Number ("Obstacle: Casting Number of spell").
    pub casting_number: u8,
    /// Its range in squares (Chebyshev), in Line of Sight.
    pub range: u8,
    /// What it does.
    pub effect: SpellEffect,
}

/// The arcane spells a caster knows (ILLUSTRATIVE): a bolt and a blast template.
pub const SPELLS: [Spell; 2] = [
    Spell { name: "Dart of Light", casting_number: 2, range: 6, effect: SpellEffect::Bolt(3) },
    Spell { name: "Fireball", casting_number: 3, range: 6, effect: SpellEffect::Blast(3) },
];

/// The Ablaze X a Fireball leaves on every model in its template (illustrative): "Ablaze
/// (Ongoing): Start Phase: Automatic S[varies] hit."
pub const FIREBALL_ABLAZE: u8 = 1;

/// Target number of a die of the Magic Pool in a casting roll (illustrative, as damage).
pub const CAST_TARGET: u8 = 3;

/// Most rolls of one casting (the Extended check's units of Time within one Major action;
/// illustrative).
pub const CAST_ROLLS: u8 = 3;

/// Damage dice of the hit a Major or Catastrophic Miscast deals its caster (illustrative).
pub const MISCAST_DICE: u8 = 3;

/// A prayer (divine magic, "Handled as Manoeuvres. Specific mechanics vary by deity and
/// prayer"; illustrative): a Manoeuvre (a Minor action) with a Routine Cool check; on a
/// success the model and its side's models within `radius` squares become Inspired
/// `inspired` (one more on a Boon); a Bane leaves it Staggered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Prayer {
    /// Its name.
    pub name: &'static str,
    /// The Inspired X it grants.
    pub inspired: u8,
    /// How far (Chebyshev squares) its blessing reaches.
    pub radius: u8,
    /// On a Boon the god's fury takes the model: Frenzied 1 (illustrative).
    pub frenzy: bool,
}

/// Brannoc's prayer (ILLUSTRATIVE).
pub const WATCHERS_BLESSING: Prayer =
    Prayer { name: "the Watcher's Blessing", inspired: 1, radius: 2, frenzy: false };

/// The orc veteran's prayer (ILLUSTRATIVE).
pub const WAR_GODS_FURY: Prayer = Prayer { name: "the War-god's Fury", inspired: 1, radius: 2, frenzy: true };

const SWORD: Weapon =
    Weapon { name: "sword", reach: Reach::M, range: 0, damage: 1, qualities: &[Quality::Rend] };
const SPEAR: Weapon = Weapon { name: "spear", reach: Reach::R, range: 0, damage: 1, qualities: &[] };
const BARBED_SPEAR: Weapon =
    Weapon { name: "barbed spear", reach: Reach::R, range: 0, damage: 1, qualities: &[Quality::Entangle] };
const DAGGER: Weapon = Weapon { name: "dagger", reach: Reach::P, range: 0, damage: 0, qualities: &[] };
const CLUB: Weapon =
    Weapon { name: "club", reach: Reach::M, range: 0, damage: 1, qualities: &[Quality::Stun] };
const AXE: Weapon =
    Weapon { name: "axe", reach: Reach::M, range: 0, damage: 2, qualities: &[Quality::Impact] };
const GREAT_CLUB: Weapon = Weapon {
    name: "great club",
    reach: Reach::R,
    range: 0,
    damage: 2,
    qualities: &[Quality::Impact, Quality::Stun, Quality::Dread],
};
const BOW: Weapon = Weapon { name: "bow", reach: Reach::M, range: 8, damage: 4, qualities: &[Quality::Rend] };
const PISTOL: Weapon = Weapon {
    name: "pistol",
    reach: Reach::M,
    range: 4,
    damage: 4,
    qualities: &[Quality::Pistol, Quality::Impact],
};
const SHORTBOW: Weapon = Weapon { name: "shortbow", reach: Reach::M, range: 6, damage: 3, qualities: &[] };

const fn party(name: &'static str, kind: Kind, group: u8) -> Profile {
    Profile {
        name,
        kind,
        group,
        size: Size::Average,
        melee: 3,
        defense: 3,
        shooting: 3,
        athletics: 3,
        dodge: 3,
        initiative: 3,
        strength: 3,
        toughness: 1,
        armour: 1,
        soak: 0,
        rally: 0,
        shield: 0,
        wounds: 3,
        movement: 4,
        attacks: 1,
        luck: 0,
        fate: 0,
        cool: 3,
        endurance: 3,
        pool: 0,
        melee_weapon: SWORD,
        ranged_weapon: None,
        magic: 0,
        prayer: None,
        off_hand: None,
        hates: None,
        animosity: None,
        follows: None,
        obedience: 0,
        draughts: 0,
        fear: 0,
        nemesis: false,
    }
}

/// The party (ILLUSTRATIVE): two Characters (Brannoc in mail with Soak 2, Rally 1 and a prayer;
/// Isolde, an archer and a hedge-wizard of Mag 2; each with a Luck Point, a Fate Point and a
/// healing draught), a Follower (Wat, Brannoc's, Obedience 3, with Hatred of the ogre
/// chieftain) and a Henchman (Garrick, Cool 3, with Animosity to Wat).
pub const PARTY: [Profile; 4] = [
    Profile {
        melee: 4,
        defense: 4,
        shield: 2,
        soak: 2,
        rally: 1,
        wounds: 4,
        luck: 1,
        fate: 1,
        prayer: Some(WATCHERS_BLESSING),
        draughts: 1,
        ..party("Brannoc", Kind::Character, 0)
    },
    Profile {
        shooting: 4,
        athletics: 4,
        dodge: 4,
        initiative: 4,
        strength: 2,
        armour: 0,
        luck: 1,
        fate: 1,
        movement: 5,
        magic: 2,
        melee_weapon: DAGGER,
        ranged_weapon: Some(BOW),
        draughts: 1,
        ..party("Isolde", Kind::Character, 1)
    },
    Profile {
        wounds: 2,
        melee_weapon: SPEAR,
        follows: Some("Brannoc"),
        obedience: 3,
        hates: Some("ogre chieftain"),
        ..party("Wat", Kind::Follower, 2)
    },
    Profile {
        wounds: 2,
        melee_weapon: CLUB,
        ranged_weapon: Some(PISTOL),
        animosity: Some("Wat"),
        ..party("Garrick", Kind::Henchman, 3)
    },
];

const fn goblin(name: &'static str, weapon: Weapon) -> Profile {
    Profile {
        name,
        kind: Kind::Minion,
        group: 0,
        size: Size::Small,
        melee: 3,
        defense: 2,
        shooting: 3,
        athletics: 3,
        dodge: 3,
        initiative: 3,
        strength: 2,
        toughness: 1,
        armour: 0,
        soak: 0,
        rally: 0,
        shield: 0,
        wounds: 1,
        movement: 4,
        attacks: 1,
        luck: 0,
        fate: 0,
        cool: 3,
        endurance: 3,
        pool: 1,
        melee_weapon: weapon,
        ranged_weapon: None,
        magic: 0,
        prayer: None,
        off_hand: None,
        hates: None,
        animosity: None,
        follows: None,
        obedience: 0,
        draughts: 0,
        fear: 0,
        nemesis: false,
    }
}

/// The adversaries (ILLUSTRATIVE): three goblin minions (a cutter fighting with sword and dagger,
/// and a spearman with a barbed,
/// entangling spear in group 0, an archer in group 1), an orc elite (group 2; Soak 1, Rally 1,
/// a prayer whose Boon frenzies it)
/// and an ogre champion (group 3; Soak 1, a great club of Dread, Fear 1).
pub const ADVERSARIES: [Profile; 5] = [
    Profile { off_hand: Some(DAGGER), ..goblin("goblin cutter", SWORD) },
    goblin("goblin spearman", BARBED_SPEAR),
    Profile { group: 1, shooting: 4, ranged_weapon: Some(SHORTBOW), ..goblin("goblin archer", DAGGER) },
    Profile {
        kind: Kind::Elite,
        group: 2,
        size: Size::Average,
        melee: 4,
        defense: 3,
        strength: 3,
        armour: 1,
        soak: 1,
        rally: 1,
        shield: 2,
        wounds: 2,
        pool: 2,
        cool: 4,
        endurance: 3,
        prayer: Some(WAR_GODS_FURY),
        ..goblin("orc veteran", AXE)
    },
    Profile {
        kind: Kind::Champion,
        group: 3,
        size: Size::Large,
        melee: 4,
        defense: 3,
        initiative: 2,
        strength: 3,
        toughness: 2,
        armour: 1,
        soak: 1,
        wounds: 4,
        attacks: 2,
        pool: 3,
        cool: 5,
        endurance: 3,
        fear: 1,
        ..goblin("ogre chieftain", GREAT_CLUB)
    },
];

/// The Nemesis the DM may make of its Champion at set-up for 1 Threat ("better models";
/// ILLUSTRATIVE): the ogre chieftain returning, "evolves like Characters": one Advance more
/// (+1 Wounds) and a Character's resources (1 Luck Point, 1 Fate Point).
pub const NEMESIS: Profile = Profile {
    name: "ogre chieftain (Nemesis)",
    wounds: 5,
    luck: 1,
    fate: 1,
    nemesis: true,
    ..ADVERSARIES[4]
};

/// The Momentum the party gains for defeating a Nemesis ("+5 Nemesis Adversary defeated").
pub const NEMESIS_MOMENTUM: u8 = 5;

/// Wounds a healing draught restores (Manage Equipment: "drink potion"; illustrative).
pub const DRAUGHT_WOUNDS: u8 = 1;

/// The Stress at which a Character is Distressed (below [`STRESS_LIMIT`]; illustrative:
/// Stress's effect within an Encounter).
pub const DISTRESS_STRESS: u8 = 2;

/// The Corruption at which a Character is Strained (below [`CORRUPTION_THRESHOLD`];
/// illustrative: Corruption's effect within an Encounter).
pub const STRAIN_CORRUPTION: u8 = 2;

/// What an Injury card does to the model that draws it ("Wound Effects").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InjuryEffect {
    /// Nothing beyond the card itself (it matters for healing after the Encounter).
    Nothing,
    /// Bleeding X (Persistent).
    Bleeding(u8),
    /// Prone (Ongoing).
    Prone,
    /// Staggered X (Fleeting; X > 1: limited actions).
    Staggered(u8),
    /// Drained (Ongoing, for the rest of the Encounter): Peril on physical checks.
    Drained,
    /// Blinded (Ongoing, until a Minor action clears the model's sight).
    Blinded,
    /// Weakened X (Persistent): Strength −X.
    Weakened(u8),
    /// A point of Melee (WS) lost for the rest of the Encounter.
    LoseMelee,
}

/// An Injury card ("Wound Effects": "draw Injury card with Severity rating and effects").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InjuryCard {
    /// Its name.
    pub name: &'static str,
    /// Its Severity: the Obstacle for healing it (after the Encounter).
    pub severity: u8,
    /// What it does now.
    pub effect: InjuryEffect,
    /// How many copies of it the deck holds.
    pub copies: u8,
}

/// The Injury deck (ILLUSTRATIVE): 12 cards; a card is drawn from the full, reshuffled deck
/// (ruling), so each draw has the odds `copies / 12`.
pub const INJURY_DECK: [InjuryCard; 8] = [
    InjuryCard { name: "bruised ribs", severity: 1, effect: InjuryEffect::Nothing, copies: 3 },
    InjuryCard { name: "deep cut", severity: 1, effect: InjuryEffect::Bleeding(1), copies: 2 },
    InjuryCard { name: "knocked down", severity: 1, effect: InjuryEffect::Prone, copies: 2 },
    InjuryCard { name: "dazed", severity: 2, effect: InjuryEffect::Staggered(2), copies: 1 },
    InjuryCard { name: "winded", severity: 2, effect: InjuryEffect::Drained, copies: 1 },
    InjuryCard { name: "blood in the eyes", severity: 2, effect: InjuryEffect::Blinded, copies: 1 },
    InjuryCard { name: "torn muscle", severity: 2, effect: InjuryEffect::Weakened(2), copies: 1 },
    InjuryCard { name: "broken fingers", severity: 3, effect: InjuryEffect::LoseMelee, copies: 1 },
];

/// The board section (ILLUSTRATIVE): `#` wall, `+` closed door, `o` obstacle, `.` floor,
/// digits the party's start squares (0–3), letters the adversaries' (a–e).
pub const MAP: [&str; 8] = [
    "##########", //
    "#0...#.b.#",
    "#1.o.+..a#",
    "#....=.c.#",
    "#2.o.....#",
    "#3.....de#",
    "#....o...#",
    "##########",
];

/// How much more Momentum than it holds the party may spend in a round, paid at Bookkeeping
/// (illustrative ruling: "If below 0: All Company Models gain Banes equal to deficit").
pub const MOMENTUM_CREDIT: u8 = 2;

/// The Company's Fortune Pool: the starting Momentum ("Calculate Initial Momentum").
pub const FORTUNE: u8 = 3;

/// The DM's Threat at the start of the Encounter.
pub const THREAT: u8 = 3;

/// Most Threat the DM may spend at set-up, on additional Pool values, the Menacing Talent
/// and the Gloom Effect together.
pub const MAX_SETUP_THREAT: u8 = 2;

/// Rounds the Gloom Effect lasts once bought at set-up (its Duration tracker; illustrative).
pub const GLOOM_DURATION: u8 = 3;

/// The extra difficulty steps of a ranged attack while the Gloom lasts (illustrative).
pub const GLOOM_STEPS: i8 = 1;

/// The Demoralized X a Company model gains when it starts its activation in the Danger Zone
/// of the Champion that has the Menacing Talent (illustrative).
pub const MENACE: u8 = 1;

/// The Fatigue at which a Character is exhausted (illustrative): it takes no more (no extra
/// Minor action, no Push for Fatigue) and has Peril on its physical checks.
pub const FATIGUE_LIMIT: u8 = 3;

/// The Stress a Character can take in an Encounter (illustrative): at it, no Push for Stress.
pub const STRESS_LIMIT: u8 = 3;

/// A Character's Corruption Threshold ("Corruption Threshold (CT): Ability to resist
/// Corruption"; illustrative): a Dark Deal is made only below it.
pub const CORRUPTION_THRESHOLD: u8 = 3;

/// Rounds after which an undecided Encounter ends as a draw.
pub const MAX_ROUNDS: u8 = 8;
