//! End-to-end tests of `tde rules …`, running the built binary.

use serde_json::Value;
use std::process::{Command, Output};

const EPS: f64 = 1e-12;

fn tde(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tde")).args(args).output().expect("run tde")
}

/// Run `tde` expecting success and one JSON object on one line.
fn tde_json(args: &[&str]) -> Value {
    let out = tde(args);
    let stdout = String::from_utf8(out.stdout).expect("utf-8 stdout");
    assert!(out.status.success(), "tde {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.trim_end().lines().count(), 1, "one line: {stdout}");
    let v: Value = serde_json::from_str(stdout.trim()).expect("valid JSON");
    assert!(v.is_object(), "{v}");
    v
}

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("no number `{key}` in {v}"))
}

fn assert_close(got: f64, want: f64) {
    assert!((got - want).abs() < EPS, "got {got}, want {want}");
}

#[test]
fn odds_json_attribute_seven() {
    // Feat 10, nailed it 7 x 6 = 42, pass 7 x 3 = 21, fail 3 x 9 - 3 = 24, blunder 3 (of 100).
    let v = tde_json(&["rules", "odds", "--attr", "7", "--json"]);
    assert_close(num(&v, "feat"), 0.10);
    assert_close(num(&v, "nailed_it"), 0.42);
    assert_close(num(&v, "pass"), 0.21);
    assert_close(num(&v, "fail"), 0.24);
    assert_close(num(&v, "blunder"), 0.03);
    assert_eq!(v.as_object().unwrap().len(), 5);
}

#[test]
fn odds_json_narrative_feats() {
    // Doubles 2-2 ..= 7-7 become feats: 16 and 36.
    let v = tde_json(&["rules", "odds", "--attr", "7", "--narrative-feats", "--json"]);
    assert_close(num(&v, "feat"), 0.16);
    assert_close(num(&v, "nailed_it"), 0.36);
}

#[test]
fn odds_table_is_readable() {
    let out = tde(&["rules", "odds", "--attr", "7"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for word in ["feat", "nailed_it", "pass", "fail", "blunder", "42.00%"] {
        assert!(text.contains(word), "{word} missing from:\n{text}");
    }
    let out = tde(&["rules", "odds", "--attr", "10"]);
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout).unwrap().contains("tested as 9"));
}

#[test]
fn opposed_json() {
    // CC 6 vs CC 7: both fail = 0.36 x 0.27.
    let v = tde_json(&["rules", "opposed", "--a", "6", "--b", "7", "--json"]);
    let (a, b, tie, fail) = (num(&v, "a_wins"), num(&v, "b_wins"), num(&v, "true_tie"), num(&v, "both_fail"));
    assert_close(fail, 0.0972);
    assert_close(a + b + tie + fail, 1.0);
    assert!(b > a);
    // Attribute 1 against 1, worked out in engine::odds tests.
    let v = tde_json(&["rules", "opposed", "--a", "1", "--b", "1", "--json"]);
    assert_close(num(&v, "true_tie"), 0.0163);
    assert_close(num(&v, "a_wins"), 0.1638);
}

#[test]
fn opposed_table_is_readable() {
    let out = tde(&["rules", "opposed", "--a", "6", "--b", "7", "--narrative-feats"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("a_wins") && text.contains("narrative"), "{text}");
}

#[test]
fn armour_json() {
    // 3 dice saving on 1..=5: 1/8, 3/8, 3/8, 1/8.
    let v = tde_json(&["rules", "armour", "--damage", "3", "--toughness", "5", "--json"]);
    let w = &v["wounds"];
    assert_eq!(w.as_object().unwrap().len(), 4);
    for (k, p) in [("0", 0.125), ("1", 0.375), ("2", 0.375), ("3", 0.125)] {
        assert_close(num(w, k), p);
    }
}

#[test]
fn armour_modifiers_and_cover() {
    // Toughness 4 + Armour(2) - Sunder(1) + hard cover = 6: one die wounds on 7..=10, 0.4.
    let v = tde_json(&[
        "rules",
        "armour",
        "--damage",
        "1",
        "--toughness",
        "4",
        "--armour",
        "2",
        "--sunder",
        "1",
        "--cover",
        "hard",
        "--json",
    ]);
    assert_close(num(&v["wounds"], "1"), 0.4);
    assert_eq!(v["target"], 6);
    // Soft cover does not change the armour roll.
    let soft =
        tde_json(&["rules", "armour", "--damage", "2", "--toughness", "5", "--cover", "soft", "--json"]);
    let none = tde_json(&["rules", "armour", "--damage", "2", "--toughness", "5", "--json"]);
    assert_eq!(soft, none);
    // Pierce(5) against toughness 3 floors at 1.
    let v = tde_json(&["rules", "armour", "--damage", "1", "--toughness", "3", "--pierce", "5", "--json"]);
    assert_close(num(&v["wounds"], "0"), 0.1);
}

#[test]
fn armour_table_is_readable() {
    let out = tde(&["rules", "armour", "--damage", "3", "--toughness", "5"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("12.50%") && text.contains("expected wounds: 1.50"), "{text}");
}

#[test]
fn invalid_arguments_fail_with_clear_message() {
    for (args, needle) in [
        (vec!["rules", "odds", "--attr", "11"], "--attr"),
        (vec!["rules", "odds", "--attr", "0"], "--attr"),
        (vec!["rules", "odds", "--attr", "-3"], "--attr"),
        (vec!["rules", "opposed", "--a", "5", "--b", "12"], "--b"),
        (vec!["rules", "armour", "--damage", "-1", "--toughness", "5"], "--damage"),
        (vec!["rules", "armour", "--damage", "2", "--toughness", "0"], "--toughness"),
    ] {
        let out = tde(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // clap itself rejects unknown cover kinds and missing arguments (non-zero exit).
    let out = tde(&["rules", "armour", "--damage", "2", "--toughness", "5", "--cover", "partial"]);
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr).unwrap().contains("partial"));
    assert!(!tde(&["rules", "odds"]).status.success());
}
