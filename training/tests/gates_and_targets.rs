//! Self-play's promotion gate decides as its test statistic says (known scores, known
//! decisions), its settings are checked with the field named, and the Gumbel policy target
//! with a spread floor no longer turns noise among sibling values into a confident target.

use agents::{improved_policy, normalise_q};
use training::gate::sprt::{Decision, Gate, Sprt};
use training::selfplay::config::SelfPlayConfig;

#[test]
fn the_sequential_test_has_walds_bounds_and_decides_known_scores() {
    let test = Sprt::default();
    assert_eq!((test.p0, test.p1, test.alpha, test.beta), (0.5, 0.55, 0.05, 0.05));
    let (low, high) = test.bounds();
    assert!((high - 19f64.ln()).abs() < 1e-12 && (low + 19f64.ln()).abs() < 1e-12, "{low} {high}");
    // Each win adds ln(1.1), each loss ln(0.9).
    assert!((test.llr(1.0, 1.0) - 1.1f64.ln()).abs() < 1e-12);
    assert!((test.llr(0.0, 1.0) - 0.9f64.ln()).abs() < 1e-12);
    // 60 of 100: LLR 1.50, undecided; 120 of 200: 3.01 > ln 19, promote.
    assert_eq!(test.decide(60.0, 100.0), Decision::Continue);
    assert_eq!(test.decide(120.0, 200.0), Decision::Promote);
    // 45 of 100: -1.51, undecided; 90 of 200: -3.01 < -ln 19, keep.
    assert_eq!(test.decide(45.0, 100.0), Decision::Continue);
    assert_eq!(test.decide(90.0, 200.0), Decision::Keep);
    // An even score drifts to H0 (its LLR per game is negative): 500 of 1000 keeps.
    assert_eq!(test.decide(500.0, 1000.0), Decision::Keep);
}

#[test]
fn the_gate_stops_at_its_maximum_and_a_fixed_gate_needs_its_interval_above_half() {
    let sequential = Gate { max_games: 400, sprt: Some(Sprt::default()) };
    assert_eq!(sequential.decide(60.0, 100), Decision::Continue);
    assert_eq!(sequential.decide(120.0, 200), Decision::Promote);
    // Undecided at the cap: the best version stays.
    assert_eq!(sequential.decide(212.0, 400), Decision::Keep);
    let fixed = Gate { max_games: 400, sprt: None };
    assert_eq!(fixed.decide(300.0, 399), Decision::Continue, "a fixed gate plays all its games");
    // 55% of 400: Wilson interval 50.1% to 59.8%, promote; 54%: 49.1% to 58.8%, keep.
    assert_eq!(fixed.decide(220.0, 400), Decision::Promote);
    assert_eq!(fixed.decide(216.0, 400), Decision::Keep);
}

/// The shipped self-play configuration with `[eval]` replaced by `eval`.
fn with_eval(eval: &str) -> String {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../configs/training/selfplay.toml"))
            .unwrap();
    let at = text.find("[eval]").unwrap();
    format!("{}[eval]\nevery_versions = 4\ngames = 20\nopponents = [\"scripted\"]\n{eval}", &text[..at])
}

#[test]
fn gate_settings_are_checked_with_the_field_named() {
    let shipped = SelfPlayConfig::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../configs/training/selfplay.toml"
    )))
    .unwrap();
    assert!(shipped.eval.gate_games >= 400 || shipped.eval.sprt.is_some());
    assert!(shipped.eval.agent.contains("{net}"), "{}", shipped.eval.agent);
    let cases = [
        ("gate_games = 100\n", "eval.gate_games", "at least 400"),
        ("agent = \"policy:checkpoint=x\"\n", "eval.agent", "{net}"),
        ("agent = \"policy:checkpoint={net}\"\nsearch = \"sims=4\"\n", "eval.search", "without eval.agent"),
        (
            "gate_games = 600\n[eval.sprt]\np0 = 0.5\np1 = 0.45\nalpha = 0.05\nbeta = 0.05\n",
            "eval.sprt.p1",
            "(p0",
        ),
        ("[eval.sprt]\np0 = 0.5\np1 = 0.55\nalpha = 0.5\nbeta = 0.05\n", "eval.sprt.alpha", "(0, 0.5)"),
    ];
    for (eval, field, why) in cases {
        let e = SelfPlayConfig::parse(&with_eval(eval), "s.toml").unwrap_err();
        assert_eq!((e.file.as_str(), e.field.as_str()), ("s.toml", field), "{eval}: {e}");
        assert!(e.reason.contains(why), "{eval}: {e}");
    }
    let ok = SelfPlayConfig::parse(
        &with_eval("agent = \"policy:checkpoint={net}\"\ngate_games = 2000\n[eval.sprt]\np0 = 0.5\np1 = 0.55\nalpha = 0.05\nbeta = 0.05\n"),
        "s.toml",
    )
    .unwrap();
    assert_eq!(ok.eval.gate(), Gate { max_games: 2000, sprt: Some(Sprt::default()) });
    assert_eq!(
        ok.eval.agent_for(std::path::Path::new("runs/x/step-1"), "sims=4"),
        "policy:checkpoint=runs/x/step-1"
    );
}

/// The largest probability of a distribution.
fn top(p: &[f32]) -> f32 {
    p.iter().copied().fold(0.0, f32::max)
}

#[test]
fn a_spread_floor_keeps_value_noise_from_making_a_confident_target() {
    let priors = [0.4f32, 0.3, 0.2, 0.1];
    // σ as the Gumbel root computes it after 16 simulations over 4 actions: (50 + 4) · 0.1.
    let sigma = 5.4;
    // Sibling values that differ by noise only (±0.02 on a [-1, 1] scale), the best by noise
    // the prior's least liked action.
    let noise = [0.0, -0.01, 0.005, 0.02];
    let stretched = improved_policy(&priors, &normalise_q(&noise, true, 0.0), sigma);
    let floored = improved_policy(&priors, &normalise_q(&noise, true, 1.0), sigma);
    // Min-max stretches 0.03 of noise to the full range: the noise's favourite gets most of
    // the target and the prior's favourite is overturned.
    assert!(top(&stretched) > 0.6 && stretched[3] == top(&stretched), "{stretched:?}");
    // With a floor of 1 (half the value range) the target stays within a few points of the prior.
    for (p, q) in priors.iter().zip(&floored) {
        assert!((p - q).abs() < 0.05, "{floored:?}");
    }
    // A real difference still moves the target: action 2 a quarter of the range better.
    let real = [0.0, 0.0, 0.5, 0.0];
    let moved = improved_policy(&priors, &normalise_q(&real, true, 1.0), sigma);
    assert!(moved[2] > 0.7 && moved[2] == top(&moved), "{moved:?}");
    // Equal values leave the prior as it is, with or without the floor.
    for floor in [0.0, 1.0] {
        let same = improved_policy(&priors, &normalise_q(&[0.3; 4], true, floor), sigma);
        assert!(same.iter().zip(&priors).all(|(a, b)| (a - b).abs() < 1e-6), "{same:?}");
    }
    // The floor is read from the spec and written back.
    let config = agents::AzConfig::parse("sims=16,root=gumbel,floor=1").unwrap();
    assert_eq!(config.rescale_floor, 1.0);
    assert!(config.spec().contains("floor=1"), "{}", config.spec());
    assert!(agents::AzConfig::parse("sims=16,root=puct,floor=1").is_err());
}

#[test]
fn the_learned_player_teaches_the_softmax_of_its_scores_and_plays_their_best() {
    use agents::{Game, Turn};
    use engine::setup::{new_game, GameConfig};
    let generation = concat!(env!("CARGO_MANIFEST_DIR"), "/../checkpoints/learned/gen-003.json");
    let mut sharp = training::play::make_agent(&format!("learned:gen={generation},teach=0.1"), 1).unwrap();
    let mut soft = training::play::make_agent(&format!("learned:gen={generation},teach=10"), 1).unwrap();
    let mut plain = training::play::make_agent(&format!("learned:gen={generation}"), 1).unwrap();
    assert!(training::play::make_agent(&format!("learned:gen={generation},teach=0"), 1).is_err());
    let mut state = new_game(&GameConfig::default()).unwrap();
    let mut dice = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
    let mut taught = 0;
    while taught < 20 {
        let action = match Game::turn(&state) {
            Turn::Terminal => break,
            Turn::Chance => state.sample_chance(&mut dice).unwrap(),
            Turn::Player(_) => {
                let chosen = sharp.select_action(&state);
                assert_eq!(chosen, plain.select_action(&state), "teaching leaves the play alone");
                assert_eq!(soft.select_action(&state), chosen);
                assert!(plain.last_search().is_none());
                if Game::legal_actions(&state).len() >= 2 {
                    let (s, f) = (sharp.last_search().unwrap(), soft.last_search().unwrap());
                    for target in [&s, &f] {
                        let total: f64 = target.iter().map(|p| p.1).sum();
                        assert!((total - 1.0).abs() < 1e-9, "{total}");
                        let top = target.iter().map(|p| p.1).fold(0.0, f64::max);
                        let mine = target.iter().find(|p| p.0 == chosen).unwrap().1;
                        assert!((mine - top).abs() < 1e-9, "the action played is a most probable one");
                    }
                    let top = |t: &[(engine::Action, f64)]| t.iter().map(|p| p.1).fold(0.0, f64::max);
                    assert!(top(&s) >= top(&f), "a lower temperature is sharper");
                    taught += 1;
                }
                chosen
            }
        };
        state.apply_action(action).unwrap();
    }
    assert_eq!(taught, 20);
}
