//! `tde rules …`: exact odds of attribute tests, opposed tests and armour rolls, computed by
//! `engine::odds` (rulebook pp.14-16, 30, 42, 53). Each command prints a readable table, or
//! with `--json` a single JSON object on one line.

use engine::dice::TestLevel;
use engine::odds;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::fmt::Write as _;

/// Cover of the model making an armour roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CoverArg {
    /// Hard cover: +1 armour on the armour roll (p.30).
    Hard,
    /// Soft cover: only -1 Marksmanship for the shooter; no change to the armour roll.
    Soft,
    /// No cover.
    None,
}

/// The `tde rules` subcommands.
#[derive(Clone, Debug, PartialEq, Eq, clap::Subcommand)]
pub enum RulesCommand {
    /// Chances of each result of one attribute test (two D10s against an attribute).
    Odds {
        /// The (modified) attribute tested, 1..=10; modified attributes never exceed 9, so 10
        /// is tested as 9.
        #[arg(long, allow_negative_numbers = true)]
        attr: i32,
        /// Use the Narrative Feats optional rule: doubles at or under the attribute are Feats.
        #[arg(long)]
        narrative_feats: bool,
        /// Print one JSON object on one line instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Chances of each result of an opposed test between two attributes.
    Opposed {
        /// Attribute of the first model (A), 1..=10.
        #[arg(long, allow_negative_numbers = true)]
        a: i32,
        /// Attribute of the second model (B), 1..=10.
        #[arg(long, allow_negative_numbers = true)]
        b: i32,
        /// Use the Narrative Feats optional rule.
        #[arg(long)]
        narrative_feats: bool,
        /// Print one JSON object on one line instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Distribution of wounds from an armour roll.
    Armour {
        /// Damage taken: the number of armour dice rolled, 0..=50.
        #[arg(long, allow_negative_numbers = true)]
        damage: i32,
        /// Toughness of the defending model, 1..=10.
        #[arg(long, allow_negative_numbers = true)]
        toughness: i32,
        /// Armour(X) of the defending model, 0..=10.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        armour: i32,
        /// Pierce(X) of the weapon, 0..=10: deducted from toughness.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        pierce: i32,
        /// Sunder(X) of the weapon, 0..=10: reduces the defender's Armour(X).
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        sunder: i32,
        /// Cover of the defending model.
        #[arg(long, value_enum, default_value_t = CoverArg::None)]
        cover: CoverArg,
        /// Print one JSON object on one line instead of a table.
        #[arg(long)]
        json: bool,
    },
}

/// Run a `tde rules` subcommand and return the text to print, or a message explaining which
/// argument is invalid.
pub fn run(cmd: &RulesCommand) -> Result<String, String> {
    match *cmd {
        RulesCommand::Odds { attr, narrative_feats, json } => {
            check("--attr", attr, 1, 10)?;
            Ok(odds_text(attr, narrative_feats, json))
        }
        RulesCommand::Opposed { a, b, narrative_feats, json } => {
            check("--a", a, 1, 10)?;
            check("--b", b, 1, 10)?;
            Ok(opposed_text(a, b, narrative_feats, json))
        }
        RulesCommand::Armour { damage, toughness, armour, pierce, sunder, cover, json } => {
            let damage = check("--damage", damage, 0, 50)?;
            let toughness = check("--toughness", toughness, 1, 10)?;
            let armour = check("--armour", armour, 0, 10)?;
            let pierce = check("--pierce", pierce, 0, 10)?;
            let sunder = check("--sunder", sunder, 0, 10)?;
            let roll = ArmourRoll { damage, toughness, armour, pierce, sunder, cover };
            Ok(armour_text(&roll, json))
        }
    }
}

/// `value` as a `u8` if it lies in `lo..=hi`, else a message naming the argument.
fn check(name: &str, value: i32, lo: u8, hi: u8) -> Result<u8, String> {
    if (i32::from(lo)..=i32::from(hi)).contains(&value) {
        Ok(value as u8)
    } else {
        Err(format!("{name} must be between {lo} and {hi} (got {value})"))
    }
}

/// "standard" or "narrative" feats, for table headings.
fn feats_name(narrative_feats: bool) -> &'static str {
    if narrative_feats {
        "narrative feats"
    } else {
        "standard feats"
    }
}

/// A probability as a percentage with two decimals, right-aligned.
fn pct(p: f64) -> String {
    format!("{:>7.2}%", p * 100.0)
}

/// JSON of `tde rules odds`, best result first.
#[derive(Serialize)]
struct OddsJson {
    feat: f64,
    nailed_it: f64,
    pass: f64,
    fail: f64,
    blunder: f64,
}

fn odds_text(attr: i32, narrative_feats: bool, json: bool) -> String {
    let d = odds::level_distribution(attr, narrative_feats);
    let p = |level: TestLevel| d[TestLevel::ALL.iter().position(|&l| l == level).unwrap_or(0)];
    if json {
        let out = OddsJson {
            feat: p(TestLevel::Feat),
            nailed_it: p(TestLevel::NailedIt),
            pass: p(TestLevel::Pass),
            fail: p(TestLevel::Fail),
            blunder: p(TestLevel::Blunder),
        };
        return serde_json::to_string(&out).unwrap_or_default();
    }
    let tested = engine::dice::clamp_attribute(attr);
    let mut s = format!("Attribute test against {attr}");
    if i32::from(tested) != attr {
        let _ = write!(s, " (tested as {tested})");
    }
    let _ = writeln!(s, ", {}", feats_name(narrative_feats));
    let _ = writeln!(s, "{:<10} {:>8}", "result", "chance");
    for level in TestLevel::ALL.iter().rev() {
        let _ = writeln!(s, "{:<10} {}", level.name(), pct(p(*level)));
    }
    let success: f64 = TestLevel::ALL.iter().filter(|l| l.is_success()).map(|&l| p(l)).sum();
    let _ = write!(s, "{:<10} {}", "success", pct(success));
    s
}

fn opposed_text(a: i32, b: i32, narrative_feats: bool, json: bool) -> String {
    let o = odds::opposed_odds(a, b, narrative_feats);
    if json {
        return serde_json::to_string(&o).unwrap_or_default();
    }
    let mut s = format!(
        "Opposed test: A (attribute {a}) against B (attribute {b}), {}\n",
        feats_name(narrative_feats)
    );
    let _ = writeln!(s, "{:<10} {:>8}", "result", "chance");
    for (name, p) in
        [("a_wins", o.a_wins), ("b_wins", o.b_wins), ("true_tie", o.true_tie), ("both_fail", o.both_fail)]
    {
        let _ = writeln!(s, "{name:<10} {}", pct(p));
    }
    let _ = write!(
        s,
        "A's action succeeds {}, B's {}",
        pct(o.a_wins + o.true_tie).trim(),
        pct(o.b_wins + o.true_tie).trim()
    );
    s
}

/// Validated arguments of `tde rules armour`.
struct ArmourRoll {
    damage: u8,
    toughness: u8,
    armour: u8,
    pierce: u8,
    sunder: u8,
    cover: CoverArg,
}

/// Wound probabilities serialised as a JSON object `{"0": p, "1": p, …}` in wound order.
struct WoundMap<'a>(&'a [f64]);

impl Serialize for WoundMap<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (w, p) in self.0.iter().enumerate() {
            map.serialize_entry(&w.to_string(), p)?;
        }
        map.end()
    }
}

/// JSON of `tde rules armour`.
#[derive(Serialize)]
struct ArmourJson<'a> {
    /// The armour roll target after modifiers (each die at or under it saves).
    target: u8,
    /// Probability of each number of wounds.
    wounds: WoundMap<'a>,
}

fn armour_text(r: &ArmourRoll, json: bool) -> String {
    let target = odds::armour_target(r.toughness, r.armour, r.pierce, r.sunder, r.cover == CoverArg::Hard);
    let dist = odds::wound_distribution(r.damage, target);
    if json {
        let out = ArmourJson { target, wounds: WoundMap(&dist) };
        return serde_json::to_string(&out).unwrap_or_default();
    }
    let cover = match r.cover {
        CoverArg::Hard => "hard",
        CoverArg::Soft => "soft",
        CoverArg::None => "none",
    };
    let mut s = format!(
        "Armour roll: {} damage against toughness {}, armour {}, pierce {}, sunder {}, cover {}\n",
        r.damage, r.toughness, r.armour, r.pierce, r.sunder, cover
    );
    let _ = writeln!(
        s,
        "each die at or under {target} saves (chance {} per die)",
        pct(f64::from(target) / 10.0).trim()
    );
    let _ = writeln!(s, "{:<7} {:>8} {:>9}", "wounds", "exactly", "at least");
    let mut at_least: f64 = 1.0;
    for (w, p) in dist.iter().enumerate() {
        let _ = writeln!(s, "{w:<7} {} {}", pct(*p), pct(at_least.max(0.0)));
        at_least -= p;
    }
    let _ = write!(s, "expected wounds: {:.2}", odds::expected_wounds(&dist));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_out_of_range_arguments() {
        let err = run(&RulesCommand::Odds { attr: 11, narrative_feats: false, json: true }).unwrap_err();
        assert!(err.contains("--attr") && err.contains("11"), "{err}");
        let err = run(&RulesCommand::Armour {
            damage: 3,
            toughness: 5,
            armour: -1,
            pierce: 0,
            sunder: 0,
            cover: CoverArg::None,
            json: false,
        })
        .unwrap_err();
        assert!(err.contains("--armour"), "{err}");
    }

    #[test]
    fn wound_map_keeps_numeric_order() {
        let dist = vec![0.0; 12];
        let json = serde_json::to_string(&WoundMap(&dist)).unwrap();
        assert!(json.starts_with("{\"0\":0.0,\"1\":0.0,\"2\":0.0"), "{json}");
        assert!(json.ends_with("\"10\":0.0,\"11\":0.0}"), "{json}");
    }
}
