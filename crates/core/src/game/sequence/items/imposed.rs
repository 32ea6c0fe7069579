//! What a scenario imposes that the walk asks for: an attribute a schedule puts on a Force
//! (S2's Attack Order at turn 3) and a Force the text gives no hex, set up at the first step.

use super::Here;
use crate::game::scenario::Scenario;
use crate::game::state::GameState;
use crate::game::steps::{Pending, Whose};
use crate::game::words::{attribute_words, side_words};

/// The Force's Primo Capitano on the table (its leader whose role is `primo_capitano`).
pub(super) fn primo_capitano<'s>(
    state: &'s GameState,
    force: &str,
) -> Option<&'s crate::game::state::CounterState> {
    state.counters.values().find(|c| {
        c.removed.is_none()
            && c.force.as_deref() == Some(force)
            && c.kind == crate::game::scenario::CounterKind::Leader
            && c.attributes.get("role") == Some(&crate::rules::Value::Text("primo_capitano".into()))
    })
}

impl Here<'_> {
    /// A schedule that puts something on a Force (S2: the Swiss Force in Novara "receives an
    /// Attack Order" at the beginning of the third turn): recorded from the list, on the
    /// Force's Primo Capitano — asked for first when he is not recorded yet.
    pub(super) fn set_item(
        &self,
        s: &crate::game::scenario::Schedule,
        (force, attribute, value): &(String, String, crate::rules::Value),
        key: String,
        mut label: String,
        whose: Option<Whose>,
    ) -> Pending {
        let done = self.carried_out(&key) || self.skipped(&key);
        let (what, to) = (
            attribute_words(self.ruleset, attribute),
            crate::game::words::attribute_value_words(value),
        );
        let credit = match primo_capitano(self.state, force) {
            Some(c) => {
                label.push_str(&format!(" — {}'s {what}: {to}", c.name));
                Some(format!("set {}'s {what} to {to}", c.name))
            }
            None => {
                label.push_str(&format!(
                    " — the {what} ({to}) goes on the Force's Primo Capitano: record who he is first (his role)"
                ));
                None
            }
        };
        Pending {
            label,
            procedure: None,
            mandatory: s.mandatory,
            credit: credit.filter(|_| !done),
            enter: None,
            done,
            key,
            whose,
        }
    }

    /// At the game's first step, each Force the text gives no hex (S5: "set up anywhere in the
    /// Duchy … as the owning player wishes"): placed by its owner, done once none of its
    /// counters is left in its off-map box.
    pub(super) fn unplaced_items(&self, scenario: &Scenario) -> Vec<Pending> {
        if self.cursor.turn != 1 || self.cursor.step != self.walk().first_step_of_turn(1) {
            return Vec::new();
        }
        scenario
            .forces
            .iter()
            .filter(|f| f.unplaced)
            .map(|f| {
                let waiting: Vec<&crate::game::state::CounterState> = self
                    .state
                    .counters
                    .values()
                    .filter(|c| {
                        c.removed.is_none()
                            && c.force.as_deref() == Some(f.id.as_str())
                            && c.position == f.position
                    })
                    .collect();
                // Its leaders by name, the rest counted ("Lannoy, De Leyva, Del Vasto and 5
                // units").
                let leaders: Vec<&str> = waiting
                    .iter()
                    .filter(|c| c.kind == crate::game::scenario::CounterKind::Leader)
                    .map(|c| c.name.as_str())
                    .collect();
                let others = waiting.len() - leaders.len();
                let who = match (leaders.is_empty(), others) {
                    (true, 0) => "the Force".to_string(),
                    (true, n) => format!("{n} counters"),
                    (false, 0) => leaders.join(", "),
                    (false, n) => format!(
                        "{} and {n} unit{}",
                        leaders.join(", "),
                        if n == 1 { "" } else { "s" }
                    ),
                };
                let key = format!("setup:{}", f.id);
                let place = f.place.clone().unwrap_or_else(|| f.position.to_string());
                Pending {
                    label: format!("Set up {who} ({}): {place}", side_words(scenario, &f.side)),
                    done: waiting.is_empty() || self.skipped(&key),
                    key,
                    procedure: None,
                    mandatory: true,
                    credit: None,
                    enter: None,
                    whose: Some(Whose::Side(f.side.clone())),
                }
            })
            .collect()
    }
}
