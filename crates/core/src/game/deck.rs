//! Decks of cards and cups of markers, drawn without replacement: what is still in each, what
//! has been drawn, what is out of play; app draws (seeded and verifiable, like dice) and
//! physical draws typed in; and the exact odds of the next draw and of the next k.
//!
//! Every deck entry of the journal carries the deck as it was before and after, so the state
//! is the last effective entry's `after`, and `umpire game verify` re-derives each app draw
//! from the seed and the `before`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::dice::{AppDice, Budget, Fraction, WORK_PER_SECOND, choose_big};
use crate::rules::{DeckSpec, Ruleset};

/// What a deck or cup holds now.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DeckState {
    /// Still in it, by name.
    #[serde(default)]
    pub inside: BTreeMap<String, u32>,
    /// Drawn (played, discarded, in hands): may go back in.
    #[serde(default)]
    pub out: BTreeMap<String, u32>,
    /// Out of play for good ("remove if used").
    #[serde(default)]
    pub removed: BTreeMap<String, u32>,
}

/// What a deck entry did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum DeckChange {
    /// The umpire said what is in it (the text does not give it, or a scenario sets it up).
    Filled,
    /// Drawn, in order.
    Drawn {
        /// The names drawn.
        items: Vec<String>,
        /// App (seeded) or physical.
        provenance: crate::dice::Provenance,
        /// The side that drew (a hand of cards), if said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<String>,
        /// The drawn ones were shuffled back in first, as the rules say when it runs out.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        reshuffled: bool,
    },
    /// Everything drawn put back in (and shuffled).
    Refilled,
    /// Some drawn ones put back in.
    Returned {
        /// Their names.
        items: Vec<String>,
    },
    /// Taken out of play for good.
    Removed {
        /// Their names.
        items: Vec<String>,
    },
    /// New ones put in (cards joining the deck, a marker for a Corps that enters).
    Added {
        /// Their names.
        items: Vec<String>,
    },
}

/// The game's key for a deck: its id, or `id/side` for one each side keeps.
pub fn key(deck: &str, owner: Option<&str>) -> String {
    match owner {
        Some(side) => format!("{deck}/{side}"),
        None => deck.to_string(),
    }
}

impl DeckState {
    /// As the ruleset's text gives it at the start.
    pub fn initial(spec: &DeckSpec) -> DeckState {
        DeckState {
            inside: spec
                .items
                .iter()
                .map(|i| (i.name.clone(), i.count))
                .collect(),
            ..DeckState::default()
        }
    }

    /// How many are still in it.
    pub fn left(&self) -> u64 {
        self.inside.values().map(|&c| u64::from(c)).sum()
    }

    /// How many have been drawn and may go back.
    pub fn drawn(&self) -> u64 {
        self.out.values().map(|&c| u64::from(c)).sum()
    }

    /// The name as it is inside (or out, or removed), matched without regard to case.
    pub fn name_of<'a>(&'a self, typed: &str, among: &'a BTreeMap<String, u32>) -> Option<&'a str> {
        let typed = typed.trim();
        among
            .keys()
            .find(|k| k.eq_ignore_ascii_case(typed))
            .map(String::as_str)
    }

    /// Takes one named item out of `inside` into `out`.
    fn take(&mut self, name: &str) -> bool {
        match self.inside.get_mut(name) {
            Some(c) if *c > 0 => {
                *c -= 1;
                if *c == 0 {
                    self.inside.remove(name);
                }
                *self.out.entry(name.to_string()).or_insert(0) += 1;
                true
            }
            _ => false,
        }
    }

    /// Everything drawn back in.
    pub fn refill(&mut self) {
        for (name, c) in std::mem::take(&mut self.out) {
            *self.inside.entry(name).or_insert(0) += c;
        }
    }

    /// The item an app draw picks: slot `draw_slot(seed, index, left)` counted through the
    /// names in order. None when it is empty.
    pub fn pick(&self, seed: u64, index: u64) -> Option<String> {
        let left = self.left();
        if left == 0 {
            return None;
        }
        let mut slot = AppDice::draw_slot(seed, index, left);
        for (name, &c) in &self.inside {
            if slot < u64::from(c) {
                return Some(name.clone());
            }
            slot -= u64::from(c);
        }
        None
    }

    /// Draws `count` by the app from draw `first` of `seed` (reshuffling the drawn ones in when
    /// it runs out and `reshuffle` allows): the names, whether it reshuffled, and the state
    /// after. Err with how many there were when there are too few.
    pub fn draw_app(
        &self,
        seed: u64,
        first: u64,
        count: u32,
        reshuffle: bool,
    ) -> Result<(Vec<String>, bool, DeckState), u64> {
        let mut state = self.clone();
        let mut reshuffled = false;
        let mut items = Vec::new();
        for k in 0..u64::from(count) {
            if state.left() == 0 && reshuffle && state.drawn() > 0 {
                // Those drawn in this same draw stay out: only the earlier ones go back.
                state.refill_except(&items);
                reshuffled = true;
            }
            let Some(name) = state.pick(seed, first.saturating_add(k)) else {
                return Err(self.left() + if reshuffle { self.drawn() } else { 0 });
            };
            state.take(&name);
            items.push(name);
        }
        Ok((items, reshuffled, state))
    }

    /// Puts the drawn ones back in, except those just drawn (`keep_out`, by name and count).
    fn refill_except(&mut self, keep_out: &[String]) {
        let mut out = std::mem::take(&mut self.out);
        for name in keep_out {
            if let Some(c) = out.get_mut(name)
                && *c > 0
            {
                *c -= 1;
                *self.out.entry(name.clone()).or_insert(0) += 1;
            }
        }
        for (name, c) in out {
            if c > 0 {
                *self.inside.entry(name).or_insert(0) += c;
            }
        }
    }

    /// Draws the typed names (physical draws), reshuffling when it runs out and `reshuffle`
    /// allows. Err names the first one that is not in it.
    pub fn draw_typed(
        &self,
        typed: &[String],
        reshuffle: bool,
    ) -> Result<(Vec<String>, bool, DeckState), String> {
        let mut state = self.clone();
        let mut reshuffled = false;
        let mut items: Vec<String> = Vec::new();
        for t in typed {
            if state.left() == 0 && reshuffle && state.drawn() > 0 {
                state.refill_except(&items);
                reshuffled = true;
            }
            let Some(name) = state.name_of(t, &state.inside).map(str::to_string) else {
                return Err(t.clone());
            };
            state.take(&name);
            items.push(name);
        }
        Ok((items, reshuffled, state))
    }

    /// The chance that the next one drawn is each name, in lowest terms.
    pub fn next_odds(&self) -> Vec<(String, Fraction)> {
        let left = u128::from(self.left());
        self.inside
            .iter()
            .map(|(name, &c)| (name.clone(), Fraction::new(u128::from(c), left)))
            .collect()
    }

    /// Seconds the exact odds of the next `k` take, estimated before any work (and erring
    /// long). Each kind needs C(N, k) and C(N−n, k): k multiplications and divisions of a big
    /// integer growing to log₂ C(N, k) ≤ k·log₂(e·N/k) bits, then a reduction (a gcd, quadratic
    /// in the limbs). A cup of millions asked about its next million would take hours.
    pub fn look_ahead_seconds(&self, k: u64) -> f64 {
        let n_total = self.left();
        if k > n_total || k == 0 {
            return 0.0;
        }
        let k = k.min(n_total - k) as f64;
        if k == 0.0 {
            return 0.0;
        }
        let bits = k * (std::f64::consts::E * n_total as f64 / k).log2();
        let limbs = bits / 64.0 + 1.0;
        let per_kind = 2.0 * k * limbs + limbs * limbs;
        self.inside.len() as f64 * per_kind / WORK_PER_SECOND
    }

    /// Why the odds of the next `k` are past `budget` (the same as exact dice odds), with the
    /// most draws that fit; None when they fit. A sentence, for the command line and the desk.
    pub fn look_ahead_refusal(&self, k: u64, budget: &Budget) -> Option<String> {
        let seconds = self.look_ahead_seconds(k);
        if seconds <= budget.seconds {
            return None;
        }
        // The cost grows with k up to half of what is left: the most that fit, by halving.
        let (mut lo, mut hi) = (0u64, k.min(self.left() / 2 + 1));
        while lo + 1 < hi {
            let mid = lo + (hi - lo) / 2;
            if self.look_ahead_seconds(mid) <= budget.seconds {
                lo = mid
            } else {
                hi = mid
            }
        }
        Some(format!(
            "the odds of the next {k} draws from {} would take about {} to work out exactly (the limit is {}); at most {lo} draws fit",
            self.left(),
            crate::dice::seconds_words(seconds),
            crate::dice::seconds_words(budget.seconds)
        ))
    }

    /// The chance of at least one `name` among the next `k` drawn (without replacement, from
    /// what is in it now): 1 − C(N−n, k) / C(N, k). None when fewer than `k` are left, or when
    /// the work is past the default [`Budget`] ([`DeckState::look_ahead_refusal`] says why).
    pub fn at_least_one(&self, name: &str, k: u64) -> Option<Fraction> {
        let n_total = self.left();
        if k > n_total || self.look_ahead_refusal(k, &Budget::default()).is_some() {
            return None;
        }
        let n = u64::from(self.inside.get(name).copied().unwrap_or(0));
        let all = choose_big(n_total, k);
        let none = choose_big(n_total - n, k);
        Some(Fraction::of(&all - none, all))
    }

    /// How many `name` among the next `k` (hypergeometric): (j, chance) for each possible j.
    /// None when fewer than `k` are left or the work is past the default [`Budget`].
    pub fn among_next(&self, name: &str, k: u64) -> Option<Vec<(u64, Fraction)>> {
        let n_total = self.left();
        let n = u64::from(self.inside.get(name).copied().unwrap_or(0));
        // One C(N, k)-sized product for each possible count, not one for each kind.
        let per_kind = self.look_ahead_seconds(k) / self.inside.len().max(1) as f64;
        if k > n_total || per_kind * (k.min(n) + 1) as f64 > Budget::default().seconds {
            return None;
        }
        let all = choose_big(n_total, k);
        Some(
            (0..=k.min(n))
                .filter(|j| k - j <= n_total - n)
                .map(|j| {
                    (
                        j,
                        Fraction::of(
                            choose_big(n, j) * choose_big(n_total - n, k - j),
                            all.clone(),
                        ),
                    )
                })
                .collect(),
        )
    }

    /// "3 left: 2 Battle Cry, 1 Into the Breach; 5 drawn; 1 out of play".
    pub fn words(&self, spec: &DeckSpec) -> String {
        let list = |m: &BTreeMap<String, u32>| {
            m.iter()
                .map(|(n, c)| format!("{c} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut out = if self.left() == 0 {
            format!("the {} is empty", spec.noun())
        } else {
            format!("{} left: {}", self.left(), list(&self.inside))
        };
        if self.drawn() > 0 {
            out.push_str(&format!("; {} drawn ({})", self.drawn(), list(&self.out)));
        }
        let removed: u64 = self.removed.values().map(|&c| u64::from(c)).sum();
        if removed > 0 {
            out.push_str(&format!("; {removed} out of play"));
        }
        out
    }
}

/// The ruleset's deck by id or by name (any case).
pub fn find<'r>(ruleset: &'r Ruleset, named: &str) -> Option<&'r DeckSpec> {
    let named = named.trim();
    ruleset
        .decks
        .iter()
        .find(|d| d.id == named || d.name.eq_ignore_ascii_case(named))
}
