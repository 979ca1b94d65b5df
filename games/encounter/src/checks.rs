//! D6 checks with their exact odds ("Checks System"): Basic checks (one die against an
//! Obstacle, with Favour and Peril and the confirmation of a Boon at Obstacle 6+) and Complex
//! checks (a pool of dice scoring Marks against an Obstacle) and Extended checks (Complex
//! rolls repeated, one per unit of time, their Marks added up). The odds are computed exactly,
//! so the game's chance nodes carry exact probabilities; the tests compare them with a
//! brute-force enumeration of every die.

/// The outcome of a check, worst first ("Check Outcomes").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// [⊗] Fails with dire consequences.
    Bane,
    /// [⊖] Simply fails.
    Failure,
    /// [⊜] Succeeds with consequences (treated as Success unless a rule says otherwise).
    Complication,
    /// [⊕] Succeeds as intended.
    Success,
    /// [⊛] Succeeds with additional benefits.
    Boon,
}

impl Outcome {
    /// All outcomes, worst first.
    pub const ALL: [Outcome; 5] =
        [Outcome::Bane, Outcome::Failure, Outcome::Complication, Outcome::Success, Outcome::Boon];

    /// Whether the check succeeded (Complication, Success or Boon).
    pub fn succeeded(self) -> bool {
        self >= Outcome::Complication
    }
}

/// How the die of a Basic check is rolled after Favour and Peril cancel ("Favour & Peril").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Roll {
    /// One die.
    Normal,
    /// Favourable: two dice, the higher counts (ruling).
    Favour,
    /// Perilous: two dice, the lower counts (ruling).
    Peril,
}

impl Roll {
    /// Net Favour and Peril: more Peril is perilous, more Favour favourable, equal normal.
    pub fn net(favour: u8, peril: u8) -> Roll {
        match favour.cmp(&peril) {
            std::cmp::Ordering::Greater => Roll::Favour,
            std::cmp::Ordering::Less => Roll::Peril,
            std::cmp::Ordering::Equal => Roll::Normal,
        }
    }

    /// The probability that the counted die shows `face` (1–6).
    pub fn face_odds(self, face: u8) -> f64 {
        let f = face as f64;
        match self {
            Roll::Normal => 1.0 / 6.0,
            Roll::Favour => (2.0 * f - 1.0) / 36.0,
            Roll::Peril => (13.0 - 2.0 * f) / 36.0,
        }
    }
}

/// Lowest and highest Obstacle of a Basic check (ruling: a 1 always fails, a 6 needs
/// confirming at 6 and 7).
pub const BASIC_OBSTACLES: std::ops::RangeInclusive<i8> = 2..=7;

/// The Basic check outcome of a counted die `face` against `obstacle`, or `None` when a 6
/// must be confirmed (Obstacle 6 or more): "Bane: Roll = 1 · Failure: Roll < Obstacle ·
/// Complication: Roll = Obstacle · Success: Roll > Obstacle · Boon: Roll = 6".
pub fn basic_face(face: u8, obstacle: u8) -> Option<Outcome> {
    match face {
        1 => Some(Outcome::Bane),
        6 if obstacle >= 6 => None,
        6 => Some(Outcome::Boon),
        f if f < obstacle => Some(Outcome::Failure),
        f if f == obstacle => Some(Outcome::Complication),
        _ => Some(Outcome::Success),
    }
}

/// The outcome of a confirmation die after a 6 at Obstacle 6+ (ruling: "rolling success
/// again" is a second 6, a Boon; otherwise the first 6 counts as Complication at Obstacle 6
/// and as Failure above).
pub fn confirm_face(face: u8, obstacle: u8) -> Outcome {
    match (face, obstacle) {
        (6, _) => Outcome::Boon,
        (_, 6) => Outcome::Complication,
        _ => Outcome::Failure,
    }
}

/// Exact odds of a Basic check's outcomes (indexed like [`Outcome::ALL`]); the Obstacle is
/// clamped to [`BASIC_OBSTACLES`].
pub fn basic_odds(obstacle: i8, roll: Roll) -> [f64; 5] {
    let ob = obstacle.clamp(*BASIC_OBSTACLES.start(), *BASIC_OBSTACLES.end()) as u8;
    let mut odds = [0.0; 5];
    for face in 1..=6u8 {
        let p = roll.face_odds(face);
        match basic_face(face, ob) {
            Some(o) => odds[o as usize] += p,
            None => {
                for confirm in 1..=6u8 {
                    odds[confirm_face(confirm, ob) as usize] += p / 6.0;
                }
            }
        }
    }
    odds
}

/// Marks one die of a Complex check scores against target number `target`: a 1 takes one
/// away, a face of `target` or more scores one, and a 6 also rolls a bonus die that scores
/// one more at `target` or more (ruling: the bonus die neither explodes nor subtracts).
pub fn die_marks(face: u8, bonus: u8, target: u8) -> i32 {
    match face {
        1 => -1,
        6 => 1 + (bonus >= target) as i32,
        f => (f >= target) as i32,
    }
}

/// The Complex check outcome of `marks` against `obstacle` (ruling: below 0 Bane, below the
/// Obstacle Failure, equal Complication, above Success, 3 or more above Boon).
pub fn marks_outcome(marks: i32, obstacle: i32) -> Outcome {
    if marks < 0 {
        Outcome::Bane
    } else if marks < obstacle {
        Outcome::Failure
    } else if marks == obstacle {
        Outcome::Complication
    } else if marks < obstacle + 3 {
        Outcome::Success
    } else {
        Outcome::Boon
    }
}

/// Exact distribution of the Marks of `dice` dice against target number `target` (2–6):
/// entry `i` is the probability of `i - dice` Marks.
pub fn marks_odds(dice: u8, target: u8) -> Vec<f64> {
    // One die: −1, 0, +1 or +2 Marks.
    let t = target.clamp(2, 6);
    let bonus_hit = (7 - t) as f64 / 6.0;
    let one =
        [1.0 / 6.0, (t - 2) as f64 / 6.0, (6 - t) as f64 / 6.0 + (1.0 - bonus_hit) / 6.0, bonus_hit / 6.0];
    let n = dice as usize;
    // dist[k] = P(marks = k - n), marks from −n to 2n.
    let mut dist = vec![0.0; 3 * n + 1];
    dist[n] = 1.0;
    for _ in 0..n {
        let mut next = vec![0.0; 3 * n + 1];
        for (k, &p) in dist.iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            for (j, &q) in one.iter().enumerate() {
                let to = k as i64 + j as i64 - 1;
                if (0..next.len() as i64).contains(&to) {
                    next[to as usize] += p * q;
                }
            }
        }
        dist = next;
    }
    dist
}

/// Exact distribution of how many of `dice` dice show a 1 (the Miscast count of a casting
/// roll, "Count total 1s rolled across all attempts"): entry `k` is the probability of `k` 1s.
pub fn ones_odds(dice: u8) -> Vec<f64> {
    let n = dice as i32;
    let choose = |k: i32| (0..k).fold(1.0, |c, i| c * (n - i) as f64 / (i + 1) as f64);
    (0..=n).map(|k| choose(k) * (1.0f64 / 6.0).powi(k) * (5.0f64 / 6.0).powi(n - k)).collect()
}

/// Exact distribution of the Marks of `dice` dice none of which shows a 1 (each uniform over
/// 2–6) against `target`, as [`die_marks`] scores them: entry `i` is the probability of `i`
/// Marks (0 to 2 × dice). With [`ones_odds`] it splits a Complex roll into its 1s and the
/// rest: P(1s = k, Marks = m − k) = ones_odds[k] × rest_marks_odds(dice − k)[m].
pub fn rest_marks_odds(dice: u8, target: u8) -> Vec<f64> {
    let t = target.clamp(2, 6);
    let bonus_hit = (7 - t) as f64 / 6.0;
    // One die of 2–6: 0, +1 or +2 Marks.
    let one = [(t - 2) as f64 / 5.0, (6 - t) as f64 / 5.0 + (1.0 - bonus_hit) / 5.0, bonus_hit / 5.0];
    let n = dice as usize;
    let mut dist = vec![0.0; 2 * n + 1];
    dist[0] = 1.0;
    for _ in 0..n {
        let mut next = vec![0.0; 2 * n + 1];
        for (k, &p) in dist.iter().enumerate().filter(|d| *d.1 > 0.0) {
            for (j, &q) in one.iter().enumerate() {
                if k + j < next.len() {
                    next[k + j] += p * q;
                }
            }
        }
        dist = next;
    }
    dist
}

/// Exact odds of a Complex check's outcomes (indexed like [`Outcome::ALL`]): `dice` dice
/// (the Reference Value) against `target`, Marks against `obstacle`.
pub fn complex_odds(dice: u8, target: u8, obstacle: u8) -> [f64; 5] {
    let mut odds = [0.0; 5];
    for (k, p) in marks_odds(dice, target).into_iter().enumerate() {
        odds[marks_outcome(k as i32 - dice as i32, obstacle as i32) as usize] += p;
    }
    odds
}

/// Lowest and highest Obstacle of an Extended check ("Unopposed: Fixed number (1-10)").
pub const EXTENDED_OBSTACLES: std::ops::RangeInclusive<u8> = 1..=10;

/// Where an Extended check stands after a roll ("Extended Checks").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extended {
    /// Still under way with this many Marks (1 to Obstacle − 1): another roll may follow.
    Going(i32),
    /// Over with this outcome.
    Done(Outcome),
}

/// One roll of an Extended check: "Use Complex Check rules. Multiple rolls allowed until
/// Obstacle reached. [...] If Marks reach 0 or below, Check ends as Bane." The roll's `marks`
/// are added to the running `total`; reaching the Obstacle ends the check with the Complex
/// outcome of the total (ruling: Complication at the Obstacle, Success above, Boon 3 or more
/// above); a total of 0 or below is a Bane (also after the first roll); otherwise it goes on,
/// unless this was the last roll allowed (`last`), which is a Failure (ruling: time ran out).
/// The Obstacle is clamped to [`EXTENDED_OBSTACLES`].
pub fn extended_step(total: i32, marks: i32, obstacle: u8, last: bool) -> Extended {
    let ob = obstacle.clamp(*EXTENDED_OBSTACLES.start(), *EXTENDED_OBSTACLES.end()) as i32;
    let now = total + marks;
    if now >= ob {
        Extended::Done(marks_outcome(now, ob))
    } else if now <= 0 {
        Extended::Done(Outcome::Bane)
    } else if last {
        Extended::Done(Outcome::Failure)
    } else {
        Extended::Going(now)
    }
}

/// Exact odds of an Extended check's outcomes (indexed like [`Outcome::ALL`]): rolls of `dice`
/// dice against `target`, at most `rolls` of them (at least one), Marks added up against
/// `obstacle` by [`extended_step`].
pub fn extended_odds(dice: u8, target: u8, obstacle: u8, rolls: u8) -> [f64; 5] {
    let ob = obstacle.clamp(*EXTENDED_OBSTACLES.start(), *EXTENDED_OBSTACLES.end()) as usize;
    let one = marks_odds(dice, target);
    let mut odds = [0.0; 5];
    // going[t] = P(the check is still under way with t Marks), t from 0 to Ob − 1.
    let mut going = vec![0.0; ob];
    going[0] = 1.0;
    let rolls = rolls.max(1);
    for roll in 1..=rolls {
        let mut next = vec![0.0; ob];
        for (t, &p) in going.iter().enumerate().filter(|g| *g.1 > 0.0) {
            for (k, &q) in one.iter().enumerate() {
                match extended_step(t as i32, k as i32 - dice as i32, ob as u8, roll == rolls) {
                    Extended::Going(now) => next[now as usize] += p * q,
                    Extended::Done(o) => odds[o as usize] += p * q,
                }
            }
        }
        going = next;
    }
    odds
}

/// Difficulty steps ("Difficulty"; ruling: how many steps each shifts the Reference Value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Difficulty {
    /// [○] −2.
    VeryEasy,
    /// [◔] −1.
    Easy,
    /// [◑] 0.
    Routine,
    /// [●] +1.
    Challenging,
    /// [∶] +2.
    Difficult,
    /// [∵] +3.
    Hard,
    /// [∷] +4.
    VeryHard,
    /// [∺] +6.
    Impossible,
}

impl Difficulty {
    /// Steps this difficulty takes off the Reference Value.
    pub fn steps(self) -> i8 {
        match self {
            Difficulty::VeryEasy => -2,
            Difficulty::Easy => -1,
            Difficulty::Routine => 0,
            Difficulty::Challenging => 1,
            Difficulty::Difficult => 2,
            Difficulty::Hard => 3,
            Difficulty::VeryHard => 4,
            Difficulty::Impossible => 6,
        }
    }
}

/// The Obstacle of an unopposed Basic check (ruling): the Reference Value is the model's
/// skill less the difficulty steps, and the die must beat 7 less it.
pub fn unopposed_obstacle(skill: u8, steps: i8) -> i8 {
    7 - (skill as i8 - steps)
}

/// The Obstacle of an opposed Basic check (ruling): the Reference Value is the target's
/// skill plus the difficulty steps, and the die must beat 4 plus its excess over the acting
/// model's skill.
pub fn opposed_obstacle(skill: u8, target_skill: u8, steps: i8) -> i8 {
    4 + (target_skill as i8 + steps) - skill as i8
}
