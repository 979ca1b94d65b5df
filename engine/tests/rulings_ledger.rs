//! Every ruling of `docs/rulings.md` points at its code and its test, and every pointer names
//! an item that exists.
//!
//! Each numbered ruling (`N. **…**`) carries one pointer line of the form
//!
//! ```text
//!     Code: `engine/src/state/combat.rs::takes_effect`. Test: `engine/tests/reactions.rs::a_dodge_is_compared_with_every_shot_and_counts_once`.
//! ```
//!
//! Paths are from the workspace root. A code item is any `fn`, `struct`, `enum`, `const`,
//! `static`, `mod`, `trait` or `type` of that name defined in the file; a test item must be a
//! `fn` marked `#[test]`. A ruling with no test yet says `Test: none yet.`, and those rulings
//! are listed in [`NONE_YET`], so a new one (or a new test for an old one) shows here.
//!
//! The check can fail: `a_wrong_name_a_missing_file_and_a_missing_line_are_each_reported` runs
//! it on a small ledger with those faults. It was also tried on the real ledger by renaming
//! one pointer (`takes_effect` to `takes_effekt` in ruling 44) and one test fn name: the
//! ledger test failed naming ruling 44 and the missing item, and passed again once restored.

use std::path::Path;

/// Rulings that no test exercises yet (their `Test:` says `none yet`).
const NONE_YET: [u32; 1] = [146];

/// Item keywords a code pointer may name.
const KINDS: [&str; 8] = ["fn", "struct", "enum", "const", "static", "mod", "trait", "type"];

/// What the check found in one ledger.
#[derive(Debug, Default)]
struct Report {
    /// Numbers of the rulings, in the order they appear.
    rulings: Vec<u32>,
    /// Rulings whose test is "none yet".
    none_yet: Vec<u32>,
    /// Every fault, naming the ruling.
    problems: Vec<String>,
}

/// The number of a line that opens a ruling (`N. **…`).
fn ruling_number(line: &str) -> Option<u32> {
    let (digits, rest) = line.split_once(". ")?;
    if !rest.starts_with("**") {
        return None;
    }
    digits.parse().ok()
}

/// Whether `line` ends a ruling's block: the next ruling, a heading, or a line at the margin.
fn ends_block(line: &str) -> bool {
    line.split_once(". ").is_some_and(|(d, _)| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        || (!line.is_empty() && !line.starts_with(' '))
}

/// The backticked items of one half of a pointer line.
fn items(part: &str) -> Vec<&str> {
    part.split('`').skip(1).step_by(2).collect()
}

/// Whether `text` holds `word` as a whole identifier starting at `at`.
fn whole_word(text: &str, at: usize, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let before = text[..at].chars().next_back();
    let after = text[at + word.len()..].chars().next();
    !before.is_some_and(ident) && !after.is_some_and(ident)
}

/// Line indices of the definitions `KIND NAME` in `src`, for each kind given.
fn definitions(src: &str, kinds: &[&str], name: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, line) in src.lines().enumerate() {
        for kind in kinds {
            let needle = format!("{kind} {name}");
            let mut from = 0;
            while let Some(at) = line[from..].find(&needle) {
                let at = from + at;
                if whole_word(line, at, &needle) {
                    out.push(i);
                }
                from = at + needle.len();
            }
        }
    }
    out
}

/// Whether the fn defined at line `i` carries `#[test]` among the attributes and comments
/// right above it.
fn is_test(lines: &[&str], i: usize) -> bool {
    lines[..i]
        .iter()
        .rev()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with("#[") || l.starts_with("//"))
        .any(|l| l == "#[test]")
}

/// Check one pointer `path::name`, as code (any item) or as a test (a `#[test]` fn).
fn check_item(root: &Path, ruling: u32, item: &str, test: bool, problems: &mut Vec<String>) {
    let Some((path, name)) = item.rsplit_once("::") else {
        problems.push(format!("ruling {ruling}: `{item}` is not `path::name`"));
        return;
    };
    let Ok(src) = std::fs::read_to_string(root.join(path)) else {
        problems.push(format!("ruling {ruling}: `{path}` does not exist"));
        return;
    };
    let lines: Vec<&str> = src.lines().collect();
    let kinds: &[&str] = if test { &["fn"] } else { &KINDS };
    let found = definitions(&src, kinds, name);
    if found.is_empty() {
        let what = if test { "test fn" } else { "item" };
        problems.push(format!("ruling {ruling}: `{path}` defines no {what} `{name}`"));
    } else if test && !found.iter().any(|&i| is_test(&lines, i)) {
        problems.push(format!("ruling {ruling}: `{path}::{name}` is not marked #[test]"));
    }
}

/// Check a whole ledger: every ruling numbered in order from 1, each with one pointer line
/// whose every item exists under `root`.
fn check_ledger(text: &str, root: &Path) -> Report {
    let mut report = Report::default();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let Some(n) = ruling_number(lines[i]) else {
            i += 1;
            continue;
        };
        let expected = report.rulings.len() as u32 + 1;
        if n != expected {
            report.problems.push(format!("ruling {n} follows ruling {}", expected - 1));
        }
        report.rulings.push(n);
        let mut end = i + 1;
        while end < lines.len() && !ends_block(lines[end]) {
            end += 1;
        }
        let pointers: Vec<&str> =
            lines[i + 1..end].iter().map(|l| l.trim_start()).filter(|l| l.starts_with("Code: ")).collect();
        match pointers.as_slice() {
            [line] => {
                let Some((code, test)) = line.split_once(" Test: ") else {
                    report.problems.push(format!("ruling {n}: its Code line has no Test"));
                    i = end;
                    continue;
                };
                let code = items(code);
                if code.is_empty() {
                    report.problems.push(format!("ruling {n}: its Code names nothing"));
                }
                for item in code {
                    check_item(root, n, item, false, &mut report.problems);
                }
                if test.trim_end() == "none yet." {
                    report.none_yet.push(n);
                } else {
                    let tests = items(test);
                    if tests.is_empty() {
                        report.problems.push(format!("ruling {n}: its Test names nothing (say `none yet.`)"));
                    }
                    for item in tests {
                        check_item(root, n, item, true, &mut report.problems);
                    }
                }
            }
            [] => report.problems.push(format!("ruling {n}: no `Code: … Test: …` line")),
            _ => report.problems.push(format!("ruling {n}: {} Code lines", pointers.len())),
        }
        i = end;
    }
    report
}

/// The workspace root (the engine crate's parent).
fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the engine crate sits in the workspace")
}

#[test]
fn every_ruling_points_at_code_and_a_test_that_exist() {
    let root = workspace_root();
    let text = std::fs::read_to_string(root.join("docs/rulings.md")).expect("docs/rulings.md is readable");
    let report = check_ledger(&text, root);
    assert!(report.rulings.len() >= 150, "only {} rulings found", report.rulings.len());
    assert!(
        report.problems.is_empty(),
        "{} problems:\n{}",
        report.problems.len(),
        report.problems.join("\n")
    );
    assert_eq!(
        report.none_yet, NONE_YET,
        "the rulings without a test changed: update NONE_YET (or write the missing test)"
    );
}

#[test]
fn a_wrong_name_a_missing_file_and_a_missing_line_are_each_reported() {
    let root = workspace_root();
    let ledger = "\
# Rulings

1. **Right** (p.1).

   Code: `engine/src/dice.rs::opposed`. Test: `engine/tests/dice.rs::opposed_failures_and_levels`.
2. **A wrong code name** (p.2).

   Code: `engine/src/dice.rs::opposed_wrongly`. Test: none yet.
3. **A code name used as a test** (p.3).

   Code: `engine/src/dice.rs::opposed`. Test: `engine/src/dice.rs::opposed`.
4. **A missing file** (p.4).

   Code: `engine/src/nowhere.rs::opposed`. Test: `engine/tests/dice.rs::no_such_test`.
5. **No pointer line** (p.5).
7. **Out of order** (p.7).

   Code: `engine/src/dice.rs::TestLevel`. Test: `engine/tests/dice.rs::opposed_failures_and_levels`.
";
    let report = check_ledger(ledger, root);
    assert_eq!(report.rulings, [1, 2, 3, 4, 5, 7]);
    assert_eq!(report.none_yet, [2]);
    let expected = [
        "ruling 2: `engine/src/dice.rs` defines no item `opposed_wrongly`",
        "ruling 3: `engine/src/dice.rs::opposed` is not marked #[test]",
        "ruling 4: `engine/src/nowhere.rs` does not exist",
        "ruling 4: `engine/tests/dice.rs` defines no test fn `no_such_test`",
        "ruling 5: no `Code: … Test: …` line",
        "ruling 7 follows ruling 5",
    ];
    assert_eq!(report.problems, expected);
}
