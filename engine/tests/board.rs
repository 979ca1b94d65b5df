//! The board: text format, line of sight, cell walks, distances and the shipped boards.

use engine::board::{Board, BoardError, CellIdx, Cover, LosTemplate, Sight, Terrain, Volume};
use std::path::{Path, PathBuf};

const C: Volume = Volume::Standing(LosTemplate::C);
const A: Volume = Volume::Standing(LosTemplate::A);
const E: Volume = Volume::Standing(LosTemplate::E);
const BASE: Volume = Volume::Base;

/// A board from rows of cells (each row a string of two-character cells).
fn board(rows: &[&str]) -> Board {
    let text = format!("name: test\nsize: {}x{}\n{}\n", rows[0].len() / 2, rows.len(), rows.join("\n"));
    Board::parse(&text, "test").unwrap()
}

/// Sight between two cells, both bases on their surfaces.
fn see(b: &Board, from: (u8, u8), eye: Volume, to: (u8, u8), target: Volume) -> Sight {
    let (f, t) = (b.idx(from.0, from.1), b.idx(to.0, to.1));
    b.sight(f, b.cell(f).height, eye, t, b.cell(t).height, target)
}

fn clear() -> Sight {
    Sight { visible: true, hard_cover: false, soft_cover: false }
}

fn hidden() -> Sight {
    Sight::default()
}

fn hard() -> Sight {
    Sight { visible: true, hard_cover: true, soft_cover: false }
}

fn soft() -> Sight {
    Sight { visible: true, hard_cover: false, soft_cover: true }
}

fn boards_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/boards")
}

fn shipped_boards() -> Vec<(PathBuf, Board)> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(boards_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "board"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let b = Board::load(&p).unwrap_or_else(|e| panic!("{e}"));
            (p, b)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Text format

#[test]
fn parse_reads_every_kind_and_height() {
    let text = "; a comment\n\n  ; an indented comment\nname:  Test Board: the sequel \nsize: 4x2\n\
                0.9~a,zX\n3s0h1.0~  \n";
    let b = Board::parse(text, "t").unwrap();
    assert_eq!(b.name(), "Test Board: the sequel");
    assert_eq!((b.width(), b.depth(), b.len()), (4, 2, 8));
    let cell = |x, y| *b.cell(b.idx(x, y));
    assert_eq!((cell(0, 0).height, cell(0, 0).terrain, cell(0, 0).cover), (0, Terrain::Open, Cover::None));
    assert_eq!((cell(1, 0).height, cell(1, 0).terrain), (9, Terrain::Water));
    assert_eq!((cell(2, 0).height, cell(2, 0).terrain), (10, Terrain::Rough));
    assert_eq!((cell(3, 0).height, cell(3, 0).terrain), (35, Terrain::Impassable));
    assert_eq!((cell(0, 1).height, cell(0, 1).terrain, cell(0, 1).cover), (3, Terrain::Open, Cover::Soft));
    assert_eq!((cell(1, 1).height, cell(1, 1).terrain, cell(1, 1).cover), (0, Terrain::Open, Cover::Hard));
    assert_eq!(cell(3, 1).terrain, Terrain::Water);
}

#[test]
fn render_round_trips() {
    let text = "name: Round\nsize: 3x2\n0.5~b,\nzXqs0h\n";
    let b = Board::parse(text, "t").unwrap();
    let again = Board::parse(&b.to_text(), "rendered").unwrap();
    assert_eq!(again.name(), b.name());
    assert_eq!((again.width(), again.depth()), (3, 2));
    assert_eq!(again.cells(), b.cells());
    assert_eq!(again.to_text(), b.to_text());
}

#[test]
fn shipped_boards_round_trip() {
    for (path, b) in shipped_boards() {
        let again = Board::parse(&b.to_text(), "rendered").unwrap();
        assert_eq!(again.cells(), b.cells(), "{}", path.display());
        assert_eq!(again.name(), b.name());
    }
}

/// Parse `text` expecting an error at `line` whose reason contains every one of `words`.
fn bad(text: &str, line: usize, words: &[&str]) {
    let e: BoardError = match Board::parse(text, "bad.board") {
        Ok(_) => panic!("parsed: {text:?}"),
        Err(e) => e,
    };
    assert_eq!(e.file, "bad.board");
    assert_eq!(e.line, line, "{e} for {text:?}");
    for w in words {
        assert!(e.reason.contains(w), "`{}` lacks `{w}` for {text:?}", e.reason);
    }
    assert_eq!(e.to_string(), format!("bad.board:{line}: {}", e.reason));
}

#[test]
fn malformed_boards_name_line_and_reason() {
    bad("", 0, &["missing `name:`"]);
    bad("name: x\n", 0, &["missing `size:`"]);
    bad("size: 2x1\n0.0.\n", 2, &["before the `name:` header"]);
    bad("name: x\n0.0.\n", 2, &["before the `size:` header"]);
    bad("name: x\nname: y\nsize: 1x1\n0.\n", 2, &["duplicate `name:`"]);
    bad("name: x\nsize: 1x1\nsize: 1x1\n0.\n", 3, &["duplicate `size:`"]);
    bad("name:   \nsize: 1x1\n0.\n", 1, &["empty board name"]);
    bad("name: x\nsize: 36by36\n", 2, &["bad size `36by36`"]);
    bad("name: x\nsize: 0x4\n", 2, &["bad size", "1 to 255"]);
    bad("name: x\nsize: 300x4\n", 2, &["bad size", "1 to 255"]);
    bad("name: x\nsize: 36\n", 2, &["bad size"]);
    bad("name: x\ncolour: red\n", 2, &["unknown header `colour:`"]);
    bad("name: x\nsize: 3x2\n0.0.0.\n0.0.\n", 4, &["row 2 has 2 cells", "expected 3 cells"]);
    bad("name: x\nsize: 3x1\n0.0.0.0.\n", 3, &["row 1 has 4 cells", "expected 3 cells"]);
    bad("name: x\nsize: 3x1\n0.0.0\n", 3, &["2 and a half cells", "5 characters", "expected 3 cells"]);
    bad("name: x\nsize: 3x1\n0.Q.0.\n", 3, &["unknown height character `Q`", "column 3"]);
    bad("name: x\nsize: 3x1\n0.0.0?\n", 3, &["unknown kind character `?`", "column 6"]);
    bad("name: x\nsize: 3x1\n0.0 0.\n", 3, &["unknown kind character ` `", "column 4"]);
    bad("name: x\nsize: 2x3\n0.0.\n; comment\n0.0.\n", 5, &["too few rows", "expected 3", "after 2"]);
    bad("name: x\nsize: 2x1\n0.0.\n\n0.0.\n", 5, &["too many rows", "expected 1"]);
    bad("name: x\nsize: 2x1\n0.0.\nsize: 2x1\n", 4, &["duplicate `size:`"]);
    bad("size: 2x1\nname: x\n0.0.\nname: y\n", 4, &["duplicate `name:`"]);
    bad("name: x\nsize: 2x2\n0.0.\nname: y\n", 4, &["duplicate `name:`"]);
}

#[test]
fn load_reports_missing_files() {
    let e = Board::load(Path::new("/nonexistent/nowhere.board")).unwrap_err();
    assert_eq!(e.line, 0);
    assert!(e.file.ends_with("nowhere.board"));
    assert!(e.reason.contains("cannot read"));
}

// ---------------------------------------------------------------------------------------------
// Line of sight

#[test]
fn open_ground_is_clear_and_same_cell_is_visible() {
    let b = board(&["0.0.0.0.0.0.0.", "0.0.0.0.0.0.0."]);
    for eye in Volume::ALL {
        for target in Volume::ALL {
            assert_eq!(see(&b, (0, 0), eye, (6, 1), target), clear());
            assert_eq!(see(&b, (3, 1), eye, (3, 1), target), clear());
        }
    }
}

#[test]
fn a_wall_blocks_sight() {
    let b = board(&["0.0.0.4.0.0.0."]);
    for eye in Volume::ALL {
        for target in Volume::ALL {
            assert_eq!(see(&b, (0, 0), eye, (6, 0), target), hidden(), "{eye:?} {target:?}");
        }
    }
    // A model 8" up a climb: the eye is drawn from the base.
    let (from, to) = (b.idx(0, 0), b.idx(6, 0));
    assert_eq!(b.sight(to, 8, BASE, from, 0, C), hard());
    assert_eq!(b.sight(to, 2, BASE, from, 0, C), hidden());
}

#[test]
fn a_low_wall_gives_hard_cover_to_a_standing_target_behind_it_only() {
    // A 1" wall at x = 4.
    let b = board(&["0.0.0.0.1.0.0.0."]);
    assert_eq!(see(&b, (0, 0), C, (5, 0), C), hard(), "behind the wall");
    assert_eq!(see(&b, (0, 0), C, (3, 0), C), clear(), "in front of the wall");
    assert_eq!(see(&b, (7, 0), C, (5, 0), C), clear(), "seen from its own side");
    // Seen from high above, the wall hides nothing.
    let b = board(&["9.0.0.0.1.0.0.0."]);
    assert_eq!(see(&b, (0, 0), C, (5, 0), C), clear());
    assert_eq!(see(&b, (0, 0), C, (5, 0), BASE), clear());
}

#[test]
fn a_crate_in_front_of_the_base_only_gives_no_cover_to_a_tall_model() {
    // A 1" crate right in front of the target: a 3" tall template E is sampled from 1" up and
    // only its base is obscured; a template C is partly hidden.
    let b = board(&["0.0.0.0.0.0h0."]);
    assert_eq!(see(&b, (0, 0), C, (6, 0), E), clear());
    assert_eq!(see(&b, (0, 0), C, (6, 0), C), hard());
}

#[test]
fn a_prone_target_behind_a_crate_gets_hard_cover() {
    // Viewer at (0,0), prone target at (4,4), a crate at (3,4) hides part of its base.
    let b = board(&["0.0.0.0.0.", "0.0.0.0.0.", "0.0.0.0.0.", "0.0.0.0.0.", "0.0.0.0h0."]);
    assert_eq!(see(&b, (0, 0), C, (4, 4), BASE), hard());
    // Straight behind the crate, a prone model is out of sight at ground level ...
    let b = board(&["0.0.0.0.0h0."]);
    assert_eq!(see(&b, (0, 0), C, (5, 0), BASE), hidden());
    assert_eq!(see(&b, (0, 0), BASE, (5, 0), BASE), hidden());
    // ... but not a standing one.
    assert_eq!(see(&b, (0, 0), C, (5, 0), C), hard());
}

#[test]
fn scatter_in_the_targets_own_cell_covers_it_from_its_level_only() {
    let b = board(&["0.0.0.0.0.0h", "0.0.0.0.0.0s"]);
    assert_eq!(see(&b, (0, 0), C, (5, 0), C), hard());
    assert_eq!(see(&b, (0, 0), C, (5, 0), BASE), hidden());
    assert_eq!(see(&b, (0, 1), C, (5, 1), C), soft());
    assert_eq!(see(&b, (0, 1), C, (5, 1), BASE), soft());
    // The viewer's own scatter does not get in its way.
    assert_eq!(see(&b, (5, 0), C, (0, 0), C), clear());
    assert_eq!(see(&b, (5, 1), BASE, (0, 1), BASE), clear());
    // From a tower, a model lying behind the crate in its cell is in plain view.
    let b = board(&["c.0.0.0.0.0h"]);
    assert_eq!(see(&b, (0, 0), C, (5, 0), BASE), clear());
}

#[test]
fn soft_cover_gives_cover_but_never_blocks() {
    // A 3" deep hedge (2" tall) between the two.
    let b = board(&["0.0.0s0s0s0.0."]);
    for eye in Volume::ALL {
        for target in [BASE, A, C] {
            assert_eq!(see(&b, (0, 0), eye, (6, 0), target), soft(), "{eye:?} {target:?}");
        }
    }
    // The top of a 3" template rises above the hedge but its lower part is screened.
    assert_eq!(see(&b, (0, 0), C, (6, 0), E), soft());
    // Hard and soft cover together.
    let b = board(&["0.0.0s0.0h0."]);
    assert_eq!(see(&b, (0, 0), C, (5, 0), C), Sight { visible: true, hard_cover: true, soft_cover: true });
}

#[test]
fn a_taller_template_is_seen_over_a_wall_that_hides_a_shorter_one() {
    let b = board(&["0.0.0.2.0.0.0."]);
    assert_eq!(see(&b, (0, 0), C, (6, 0), A), hidden());
    assert_eq!(see(&b, (0, 0), C, (6, 0), C), hidden());
    assert_eq!(see(&b, (0, 0), C, (6, 0), E), hard());
    // A taller viewer (template E, eye at 3") sees more of the short one too.
    assert_eq!(see(&b, (0, 0), E, (6, 0), C), hard());
}

#[test]
fn models_on_and_under_a_building() {
    // A 6" building from x = 3; one model pressed against its wall, one on its roof edge.
    let b = board(&["0.0.0.6.6.6."]);
    assert_eq!(see(&b, (2, 0), C, (3, 0), C), hidden());
    assert_eq!(see(&b, (3, 0), C, (2, 0), C), hidden(), "the roof edge hides the wall's foot");
    assert_eq!(see(&b, (3, 0), C, (0, 0), C), clear(), "further out it shows");
    assert_eq!(see(&b, (0, 0), C, (3, 0), C), hard(), "and sees the roof edge model");
    // From the back of the roof, the edge hides the whole street.
    assert_eq!(see(&b, (5, 0), C, (0, 0), C), hidden());
    assert_eq!(see(&b, (5, 0), C, (3, 0), C), clear());
}

#[test]
fn diagonal_sight_does_not_slip_between_corners() {
    // Two pillars meeting only at a corner, between (0,0) and (2,2).
    let b = board(&["0.5.0.", "5.0.0.", "0.0.0."]);
    assert_eq!(see(&b, (0, 0), C, (2, 2), C), hidden());
    assert_eq!(see(&b, (0, 0), C, (1, 1), C), hidden());
    // With one pillar gone the corner shows, partly hidden.
    let b = board(&["0.5.0.", "0.0.0.", "0.0.0."]);
    assert_eq!(see(&b, (0, 0), C, (2, 2), C), hard());
}

#[test]
fn sight_is_cached_per_viewer_eye_and_target() {
    let b = board(&["0.0.3.0.", "0.0h0.0s"]);
    assert_eq!(b.sight_entries_built(), 0);
    let first = see(&b, (0, 0), C, (3, 1), BASE);
    assert_eq!(b.sight_entries_built(), 1, "one pair computed, for every target volume");
    for target in Volume::ALL {
        b.sight(0, 0, C, 7, 0, target);
    }
    assert_eq!(b.sight_entries_built(), 1, "the other volumes come from the same entry");
    for t in 0..b.len() as CellIdx {
        b.sight(0, 0, C, t, b.cell(t).height, C);
    }
    assert_eq!(b.sight_entries_built(), b.len());
    // Other base heights are answered directly, without filling entries.
    b.sight(0, 1, C, 3, 0, C);
    assert_eq!(b.sight_entries_built(), b.len());
    assert_eq!(see(&b, (0, 0), C, (3, 1), BASE), first);
}

#[test]
fn board_is_shareable_between_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Board>();
}

// ---------------------------------------------------------------------------------------------
// Cell walks and distances

fn between(b: &Board, from: (u8, u8), to: (u8, u8)) -> Vec<((u8, u8), f32)> {
    let mut out = Vec::new();
    b.for_each_cell_between(b.idx(from.0, from.1), b.idx(to.0, to.1), |c, f| out.push((b.xy(c), f)));
    out
}

fn assert_cells(got: Vec<((u8, u8), f32)>, want: &[((u8, u8), f32)]) {
    assert_eq!(got.len(), want.len(), "{got:?}");
    for ((gc, gf), (wc, wf)) in got.iter().zip(want) {
        assert_eq!(gc, wc, "{got:?}");
        assert!((gf - wf).abs() < 1e-5, "{got:?}");
    }
}

#[test]
fn cells_between_on_straight_lines() {
    let b = board(&["0.0.0.0.0.", "0.0.0.0.0.", "0.0.0.0.0.", "0.0.0.0.0.", "0.0.0.0.0."]);
    assert_cells(between(&b, (0, 0), (4, 0)), &[((1, 0), 0.25), ((2, 0), 0.5), ((3, 0), 0.75)]);
    assert_cells(between(&b, (2, 4), (2, 1)), &[((2, 3), 1.0 / 3.0), ((2, 2), 2.0 / 3.0)]);
    assert_cells(between(&b, (1, 1), (2, 1)), &[]);
    assert_cells(between(&b, (1, 1), (1, 1)), &[]);
}

#[test]
fn cells_between_on_diagonals() {
    let b = board(&["0.0.0.0.", "0.0.0.0.", "0.0.0.0.", "0.0.0.0."]);
    // A true diagonal passes through corners and reports both cells meeting at each.
    assert_cells(
        between(&b, (0, 0), (3, 3)),
        &[
            ((1, 0), 1.0 / 6.0),
            ((0, 1), 1.0 / 6.0),
            ((1, 1), 1.0 / 3.0),
            ((2, 1), 0.5),
            ((1, 2), 0.5),
            ((2, 2), 2.0 / 3.0),
            ((3, 2), 5.0 / 6.0),
            ((2, 3), 5.0 / 6.0),
        ],
    );
    assert_cells(between(&b, (1, 1), (2, 2)), &[((2, 1), 0.5), ((1, 2), 0.5)]);
    // A knight's move: two cells, no corners.
    assert_cells(between(&b, (0, 0), (2, 1)), &[((1, 0), 0.375), ((1, 1), 0.625)]);
    // Shallow lines through one corner each.
    assert_cells(
        between(&b, (3, 0), (0, 1)),
        &[((2, 0), 1.0 / 3.0), ((1, 0), 0.5), ((2, 1), 0.5), ((1, 1), 2.0 / 3.0)],
    );
    assert_cells(
        between(&b, (0, 3), (3, 2)),
        &[((1, 3), 1.0 / 3.0), ((2, 3), 0.5), ((1, 2), 0.5), ((2, 2), 2.0 / 3.0)],
    );
}

#[test]
fn edge_distances() {
    let b = board(&["0.0.0.0.", "0.0.0.0.", "0.0.0.0.", "0.0.0.0."]);
    let (a, right, diag, far) = (b.idx(0, 0), b.idx(1, 0), b.idx(1, 1), b.idx(3, 0));
    assert_eq!(b.edge_distance(a, 0, right, 0), 0.0);
    assert!((b.edge_distance(a, 0, diag, 0) - (2f32.sqrt() - 1.0)).abs() < 1e-6);
    assert_eq!(b.edge_distance(a, 0, far, 0), 2.0);
    assert_eq!(b.edge_distance(a, 0, a, 4), 3.0);
    assert_eq!(b.edge_distance(a, 0, a, 0), 0.0);
    assert_eq!(b.centre_distance(a, 0, far, 4), 5.0);
}

// ---------------------------------------------------------------------------------------------
// Shipped boards

#[test]
fn shipped_boards_follow_the_terrain_guidelines() {
    let boards = shipped_boards();
    let square = boards.iter().filter(|(_, b)| (b.width(), b.depth()) == (36, 36)).count();
    assert!(square >= 3, "want three 3'x3' boards");
    let mut names: Vec<&str> = boards.iter().map(|(_, b)| b.name()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), boards.len(), "board names must differ");
    let default = boards.iter().find(|(p, _)| p.ends_with("sunken_plaza.board")).expect("default board");
    assert_eq!(default.1.name(), "Sunken Plaza");
    assert_eq!((default.1.width(), default.1.depth()), (36, 36));

    // The reports build sight tables; spread the boards over threads.
    std::thread::scope(|s| {
        let handles: Vec<_> = boards.iter().map(|(p, b)| s.spawn(move || (p, b.guidelines()))).collect();
        for h in handles {
            let (path, report) = h.join().unwrap();
            assert!(report.passes(), "{}: {:#?}", path.display(), report.problems());
            assert!(report.water_fraction >= 1.0 / 3.0);
            assert!(report.death_zones.is_empty() && report.edge_sight_lines.is_empty());
        }
    });
}

#[test]
fn guidelines_catch_a_bad_board() {
    // An open field: no water, no structures, one big death zone, edge to edge sight.
    let row = "0.".repeat(20);
    let rows: Vec<&str> = (0..20).map(|_| row.as_str()).collect();
    let r = board(&rows).guidelines();
    assert_eq!(r.water_fraction, 0.0);
    assert_eq!(r.blocking_fraction, 0.0);
    assert_eq!(r.death_zones.len(), 15 * 15);
    assert!(!r.edge_sight_lines.is_empty());
    assert!(r.tall_structures.is_empty() && r.long_leaps.is_empty());
    assert_eq!(r.widest_view.1, 1.0);
    assert!(r.problems().len() >= 7, "{:?}", r.problems());
    assert!(!r.passes());
}

#[test]
fn guidelines_measure_leaps_and_tall_structures() {
    // Two 6" towers 4" apart (a long leap) and a 3" block 2" from the second (a short one).
    let r = board(&["6.6.0~0~0~0~7.7.0.0.3.3."]).guidelines();
    assert_eq!(r.ground_level, 0);
    assert_eq!(r.tall_structures.len(), 2);
    assert_eq!(r.long_leaps.len(), 1);
    assert_eq!(r.long_leaps[0].gap, 4);
    assert_eq!(r.short_leaps.len(), 1);
    assert_eq!(r.short_leaps[0].gap, 2);
    assert!((r.water_fraction - 4.0 / 12.0).abs() < 1e-6);
    assert!((r.blocking_fraction - 6.0 / 12.0).abs() < 1e-6);
}
