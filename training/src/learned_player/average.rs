//! A candidate that averages several searches' candidates (`tde learn --proposer average`).
//!
//! Independent self-play searches from the same incumbent ([`super::tune`], each with its own
//! `--seed`) each end near the incumbent with their own noise; averaging them cancels much of
//! it, as averaging a single search's iterates does (Polyak–Ruppert). Each weight of the
//! average is the geometric mean of the files' weights (the mean of the log-multipliers the
//! searches move), and the standing models' parameters, where the files have them, their
//! arithmetic mean.

use agents::learned::generation::Generation;
use agents::learned::standing::StandingModel;
use agents::scripted::terms::Term;
use std::path::{Path, PathBuf};

/// The average of the candidates in `files`, each of which must have been searched from the
/// incumbent (its `parent` names `incumbent_file`'s file name): numbered one past the
/// incumbent, its note naming the files.
pub fn average(
    files: &[PathBuf],
    incumbent: &Generation,
    incumbent_file: &Path,
) -> Result<Generation, String> {
    if files.len() < 2 {
        return Err(format!("average: needs at least two candidates, got {}", files.len()));
    }
    let parent = incumbent_file.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let mut loaded = Vec::new();
    for f in files {
        let g = Generation::load(f)?;
        if g.parent.as_deref() != Some(parent.as_str()) {
            return Err(format!(
                "{}: its parent is {}, not the incumbent {parent}; average candidates searched from the incumbent",
                f.display(),
                g.parent.as_deref().unwrap_or("(none)")
            ));
        }
        loaded.push(g);
    }
    let flats: Vec<Vec<f64>> = loaded.iter().map(Generation::flat).collect();
    let terms = Term::ALL.len();
    let mut flat = Vec::with_capacity(flats[0].len());
    for i in 0..flats[0].len() {
        let values: Vec<f64> = flats.iter().map(|w| w[i]).collect();
        // A term no file uses (an added term none brought in) stays unused.
        if values.iter().all(|&v| v == 0.0) {
            flat.push(0.0);
            continue;
        }
        let positive = values.iter().all(|&v| v > 0.0);
        let negative = values.iter().all(|&v| v < 0.0);
        if !positive && !negative {
            return Err(format!(
                "average: the {} weight of block {} has different signs or a zero among the files ({values:?}); a geometric mean needs one sign",
                Term::ALL[i % terms].name(),
                i / terms
            ));
        }
        let mean_log = values.iter().map(|v| v.abs().ln()).sum::<f64>() / values.len() as f64;
        flat.push(if positive { mean_log.exp() } else { -mean_log.exp() });
    }
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let note = format!(
        "the average (geometric mean of the weights) of {} searches: {}",
        files.len(),
        names.join(", ")
    );
    let mut next = Generation::from_flat(incumbent.generation + 1, Some(parent), note, &flat);
    next.standing = average_standing(&loaded, files)?;
    Ok(next)
}

/// The arithmetic mean of the files' standing models: none where no file has one; an error
/// where some have one and others not, or their sizes differ.
fn average_standing(loaded: &[Generation], files: &[PathBuf]) -> Result<Option<StandingModel>, String> {
    let Some(first) = loaded.iter().find_map(|g| g.standing.as_ref()) else { return Ok(None) };
    let mut sum = vec![0.0; first.params().len()];
    for (g, f) in loaded.iter().zip(files) {
        match &g.standing {
            Some(m) if m.hidden == first.hidden && (first.hidden == 0 || m.input == first.input) => {
                for (s, p) in sum.iter_mut().zip(m.params()) {
                    *s += p;
                }
            }
            _ => {
                return Err(format!(
                    "{}: its standing model differs in kind from the others' (none, another size, or other hidden units); average candidates of the same search settings",
                    f.display()
                ))
            }
        }
    }
    let n = loaded.len() as f64;
    Ok(Some(StandingModel::from_params(first.hidden, &sum.iter().map(|s| s / n).collect::<Vec<_>>())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tde-average-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_average_is_the_geometric_mean_of_candidates_from_the_incumbent() {
        let dir = temp("mean");
        let incumbent = Generation::scripted();
        let incumbent_file = dir.join("gen-000.json");
        let mut a = Generation::scripted();
        a.generation = 1;
        a.parent = Some("gen-000.json".into());
        let mut b = a.clone();
        a.blocks[3].0[Term::Risk as usize] = 4.0;
        b.blocks[3].0[Term::Risk as usize] = 1.0;
        b.blocks[0].0[Term::Cover as usize] = -2.0;
        a.blocks[0].0[Term::Cover as usize] = -0.5;
        let (fa, fb) = (dir.join("a.json"), dir.join("b.json"));
        a.save(&fa, true).unwrap();
        b.save(&fb, true).unwrap();
        let avg = average(&[fa.clone(), fb.clone()], &incumbent, &incumbent_file).unwrap();
        assert_eq!(avg.generation, 1);
        assert!((avg.blocks[3].get(Term::Risk) - 2.0).abs() < 1e-9);
        assert!((avg.blocks[0].get(Term::Cover) + 1.0).abs() < 1e-9);
        assert_eq!(avg.blocks[5].get(Term::Risk), 1.0);
        assert_eq!(avg.blocks[5].get(Term::Guard), 0.0, "a term none of them uses stays at 0");
        assert!(avg.note.contains("a.json"));
        // Refused: one file, a file from another incumbent, weights of opposite signs.
        assert!(average(std::slice::from_ref(&fa), &incumbent, &incumbent_file)
            .unwrap_err()
            .contains("at least two"));
        let mut c = b.clone();
        c.parent = Some("gen-007.json".into());
        let fc = dir.join("c.json");
        c.save(&fc, true).unwrap();
        assert!(average(&[fa.clone(), fc], &incumbent, &incumbent_file)
            .unwrap_err()
            .contains("gen-007.json"));
        let mut d = b.clone();
        d.blocks[3].0[Term::Risk as usize] = -1.0;
        let fd = dir.join("d.json");
        d.save(&fd, true).unwrap();
        assert!(average(&[fa, fd], &incumbent, &incumbent_file)
            .unwrap_err()
            .contains("risk weight of block 3"));
    }
}
