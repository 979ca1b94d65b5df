//! Dice and attribute tests (rulebook "Dice and Tests", p.14, and "Opposed Tests", p.16).
//!
//! An attribute test rolls two D10s: the attribute die (1..=10, the 0 face is 10) and the
//! feat die, whose 1 face is the feat symbol `Q`. This module turns a pair of faces into a
//! [`TestOutcome`] and compares two outcomes in an opposed test. Dice are never rolled here:
//! rolls come from chance nodes of the game state, so every random event is explicit.

use serde::{Deserialize, Serialize};

/// The feat die face that carries the feat symbol instead of a 1.
pub const FEAT_SYMBOL: u8 = 1;

/// The five results of an attribute test, ordered from worst to best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TestLevel {
    /// A double over the attribute: an unsuccessful result with a penalty.
    Blunder,
    /// The attribute die is over the attribute (and no feat symbol).
    Fail,
    /// The attribute die is at or under the attribute, the feat die over it.
    Pass,
    /// Both dice at or under the attribute.
    NailedIt,
    /// The feat symbol (or, with narrative feats, a double at or under the attribute).
    Feat,
}

impl TestLevel {
    /// All levels, worst first.
    pub const ALL: [TestLevel; 5] =
        [TestLevel::Blunder, TestLevel::Fail, TestLevel::Pass, TestLevel::NailedIt, TestLevel::Feat];

    /// The level as the rulebook names it: "Blunder", "Fail", "Pass", "Nailed It", "Feat".
    pub fn words(self) -> &'static str {
        match self {
            TestLevel::Blunder => "Blunder",
            TestLevel::Fail => "Fail",
            TestLevel::Pass => "Pass",
            TestLevel::NailedIt => "Nailed It",
            TestLevel::Feat => "Feat",
        }
    }

    /// Pass, "Nailed It" and Feat are successful results.
    pub fn is_success(self) -> bool {
        self >= TestLevel::Pass
    }

    /// A Feat always counts as a "Nailed It" result.
    pub fn is_nailed(self) -> bool {
        self >= TestLevel::NailedIt
    }

    /// Stable lower-case name used in JSON and text output.
    pub fn name(self) -> &'static str {
        match self {
            TestLevel::Blunder => "blunder",
            TestLevel::Fail => "fail",
            TestLevel::Pass => "pass",
            TestLevel::NailedIt => "nailed_it",
            TestLevel::Feat => "feat",
        }
    }
}

/// The faces of one attribute test roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TestRoll {
    /// Attribute die, 1..=10.
    pub attribute_die: u8,
    /// Feat die, 1..=10, where 1 is the feat symbol `Q`.
    pub feat_die: u8,
}

/// What an attribute test produced: its level and the highest successful numeric die, which
/// breaks ties between equal levels in an opposed test (0 when no numeric die succeeded; the
/// feat symbol has no numeric value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TestOutcome {
    /// Success level of the test.
    pub level: TestLevel,
    /// Highest die at or under the attribute, not counting the feat symbol; 0 if none.
    pub high_die: u8,
}

impl TestOutcome {
    /// Whether the test succeeded on its own (before any opposed comparison).
    pub fn is_success(self) -> bool {
        self.level.is_success()
    }
}

/// Clamp a modified attribute into 1..=9: "A modifier may never raise an attribute to more
/// than 9 or less than 1" (p.14). Also applies to armour-roll targets.
pub fn clamp_attribute(value: i32) -> u8 {
    value.clamp(1, 9) as u8
}

/// Evaluate a roll against an (already modified) attribute using the Attribute Test Results
/// Table (p.14). `narrative_feats` turns doubles at or under the attribute into feats (the
/// optional rule of p.14, standard in the French v1.4 book).
pub fn evaluate(attribute: i32, roll: TestRoll, narrative_feats: bool) -> TestOutcome {
    let attr = clamp_attribute(attribute);
    let a = roll.attribute_die;
    let f = roll.feat_die;
    let a_ok = a <= attr;
    let feat_symbol = f == FEAT_SYMBOL;
    let f_ok = !feat_symbol && f <= attr;
    let high_die = match (a_ok, f_ok) {
        (true, true) => a.max(f),
        (true, false) => a,
        (false, true) => f,
        (false, false) => 0,
    };
    let level = if feat_symbol || (narrative_feats && a == f && a_ok) {
        TestLevel::Feat
    } else if a == f && !a_ok {
        TestLevel::Blunder
    } else if a_ok && f_ok {
        TestLevel::NailedIt
    } else if a_ok {
        TestLevel::Pass
    } else {
        TestLevel::Fail
    };
    // A failed test has no successful die worth comparing.
    let high_die = if level.is_success() { high_die } else { 0 };
    TestOutcome { level, high_die }
}

/// The result of comparing two tests in an opposed test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpposedResult {
    /// The first test wins; the second action fails.
    AWins,
    /// The second test wins; the first action fails.
    BWins,
    /// Same level and same highest successful die: both actions succeed.
    TrueTie,
    /// Both tests failed: neither action succeeds.
    BothFail,
}

/// Compare two tests (p.16): higher success level wins; at the same level the highest
/// successful numeric die wins; equal dice is a true tie; two failures mean neither succeeds.
pub fn opposed(a: TestOutcome, b: TestOutcome) -> OpposedResult {
    match (a.is_success(), b.is_success()) {
        (false, false) => OpposedResult::BothFail,
        (true, false) => OpposedResult::AWins,
        (false, true) => OpposedResult::BWins,
        (true, true) => match a.level.cmp(&b.level).then(a.high_die.cmp(&b.high_die)) {
            std::cmp::Ordering::Greater => OpposedResult::AWins,
            std::cmp::Ordering::Less => OpposedResult::BWins,
            std::cmp::Ordering::Equal => OpposedResult::TrueTie,
        },
    }
}

/// A D5 from a D10 face: halve and round up (p.9).
pub fn d5_from_d10(face: u8) -> u8 {
    face.div_ceil(2)
}

/// Re-roll bookkeeping for one test (p.9): a re-roll may never be re-rolled, and a Feat or
/// Blunder may never be re-rolled or altered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RerollState {
    /// Whether the current result already comes from a re-roll.
    pub rerolled: bool,
}

impl RerollState {
    /// Whether a test currently showing `outcome` may be re-rolled.
    pub fn may_reroll(self, outcome: TestOutcome) -> bool {
        !self.rerolled && !matches!(outcome.level, TestLevel::Feat | TestLevel::Blunder)
    }

    /// Record that the test was re-rolled; the new result stands.
    pub fn mark_rerolled(&mut self) {
        self.rerolled = true;
    }
}
