//! Who may touch what: an umpire signed in with a Control role is held to its remit
//! ([`super::people::People::remit_check`]). An action on something outside the remit is
//! refused with the reason and the rule; one the rules leave to Control's discretion goes ahead
//! only with a reason, which is recorded with it.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::people::{People, Remit};
use crate::game::event::Audience;
use crate::game::journal::Login;
use crate::game::scenario::{ControlRole, Scenario};
use crate::game::{Action, Actor, CounterChange, Event, EventKind, GameState, Gate, Refusal};

/// An umpire at a desk: a name and a Control role (Map Control at one table).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedIn {
    /// The umpire's name.
    pub name: String,
    /// The Control role.
    pub role: ControlRole,
    /// The map table, for Map Control.
    pub table: Option<String>,
}

impl SignedIn {
    /// Reads `NAME:ROLE[:TABLE]`, e.g. `Anna:map:east`, `Ben:political`.
    pub fn parse(text: &str) -> Result<SignedIn, String> {
        let mut parts = text.splitn(3, ':').map(str::trim);
        let name = parts.next().unwrap_or_default();
        let role = parts.next().unwrap_or_default();
        let table = parts.next().filter(|t| !t.is_empty()).map(str::to_string);
        let roles: Vec<&str> = ControlRole::ALL.iter().map(|r| r.id()).collect();
        if name.is_empty() || role.is_empty() {
            return Err(format!(
                "sign in as NAME:ROLE[:TABLE] (e.g. Anna:map:east) — roles: {}",
                roles.join(", ")
            ));
        }
        let Some(role) = ControlRole::ALL.into_iter().find(|r| r.id() == role) else {
            return Err(format!(
                "'{role}' is not a Control role — roles: {}",
                roles.join(", ")
            ));
        };
        if role == ControlRole::Map && table.is_none() {
            return Err(format!(
                "Map Control works at a map table: sign in as {name}:map:TABLE (e.g. {name}:map:east)"
            ));
        }
        Ok(SignedIn {
            name: name.to_string(),
            role,
            table,
        })
    }

    /// The umpire a server login belongs to (as `add-umpire` recorded it on the server).
    pub fn from_login(login: &crate::game::journal::Login) -> Result<SignedIn, String> {
        let text = match &login.table {
            Some(t) => format!("{}:{}:{t}", login.name, login.role),
            None => format!("{}:{}", login.name, login.role),
        };
        SignedIn::parse(&text)
    }

    /// The actor at a desk signed in as this umpire: held to the role's remit, recorded by
    /// name and role.
    pub fn actor(self) -> Actor {
        Actor::gated(Arc::new(self))
    }

    /// How the journal records who made an event: `Anna (Map Control, east)`.
    pub fn by(&self) -> String {
        match &self.table {
            Some(t) => format!("{} ({}, {t})", self.name, self.role.label()),
            None => format!("{} ({})", self.name, self.role.label()),
        }
    }
}

/// Why who acts could not be settled ([`who_acts`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActorError {
    /// The server's login does not read as an umpire with a Control role.
    #[error("{location}: {problem}")]
    Login {
        /// Where the game is kept.
        location: String,
        /// What is wrong with the login.
        problem: String,
    },
    /// The desk claimed to be another umpire than the one it logged in as (the command line
    /// shows it after `--as `).
    #[error("{claimed}: on a shared game you are who you log in as — {user} is {login}")]
    NotTheLogin {
        /// Who was claimed, as the journal records them.
        claimed: String,
        /// The login's user name.
        user: String,
        /// The login's umpire, as the journal records them.
        login: String,
    },
}

/// Who acts at a desk: on a server that knows its umpires, the `login`'s umpire (a `claimed`
/// sign-in must agree); else the `claimed` umpire (held to the role's remit), or the umpire
/// `named`, or the umpire of a game of their own. `reason` is recorded for what rests on
/// Control's discretion. `location` (where the game is kept) names the game in an error.
pub fn who_acts(
    login: Option<&Login>,
    location: &str,
    claimed: Option<SignedIn>,
    named: Option<&str>,
    reason: Option<String>,
) -> Result<Actor, ActorError> {
    let actor = match (login, claimed) {
        (Some(login), claimed) => {
            let who = SignedIn::from_login(login).map_err(|problem| ActorError::Login {
                location: location.to_string(),
                problem,
            })?;
            if let Some(c) = claimed
                && c != who
            {
                return Err(ActorError::NotTheLogin {
                    claimed: c.by(),
                    user: login.user.clone(),
                    login: who.by(),
                });
            }
            who.actor()
        }
        (None, Some(who)) => who.actor(),
        (None, None) => named.map_or_else(Actor::umpire, |n| Actor::named(n.to_string())),
    };
    Ok(actor.with_reason(reason))
}

/// One thing an action touches: a counter, the attribute changed (None: the counter as a
/// whole), and the procedure whose resolution it takes part in (for a part in a resolution).
pub type Touched = (String, Option<String>, Option<String>);

/// What the events of one action touch.
pub fn touched(kinds: &[EventKind]) -> BTreeSet<Touched> {
    let mut out = BTreeSet::new();
    for k in kinds {
        match k {
            EventKind::Changed { changes, .. } | EventKind::EffectsApplied { changes, .. } => {
                for c in changes {
                    let attribute = match c {
                        CounterChange::Attribute { attribute, .. }
                        | CounterChange::Adjust { attribute, .. } => Some(attribute.clone()),
                        _ => None,
                    };
                    out.insert((c.counter().to_string(), attribute, None));
                }
            }
            EventKind::Resolved {
                counters,
                resolution,
                ..
            } => {
                for ids in counters.values() {
                    for id in ids {
                        out.insert((id.clone(), None, Some(resolution.procedure.clone())));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The counters the events of one action add, as a state with them on the table (None when
/// the action adds none): what the remit over a new counter reads.
pub fn with_added(state: &GameState, kinds: &[EventKind]) -> Option<GameState> {
    let mut after: Option<GameState> = None;
    for k in kinds {
        let (EventKind::Changed { changes, .. } | EventKind::EffectsApplied { changes, .. }) = k
        else {
            continue;
        };
        for added in changes
            .iter()
            .filter_map(crate::game::state::CounterState::added)
        {
            after
                .get_or_insert_with(|| state.clone())
                .counters
                .insert(added.id.clone(), added);
        }
    }
    after
}

/// The remit over each counter (and attribute) an action's events touch: a counter they add
/// as [`People::add_remit_check`] answers, the others as [`People::remit_check`] does.
fn remit_checks(
    who: &SignedIn,
    scenario: &Scenario,
    state: &GameState,
    kinds: &[EventKind],
) -> Vec<(String, Option<String>, super::people::RemitCheck)> {
    let people = People::new(scenario, state);
    let after = with_added(state, kinds).map(|s| People::new(scenario, &s));
    touched(kinds)
        .into_iter()
        .map(|(counter, attribute, resolving)| {
            let check = match &after {
                Some(a) if !state.counters.contains_key(&counter) => {
                    a.add_remit_check(who.role, who.table.as_deref(), &counter)
                }
                _ => people.remit_check_for(
                    who.role,
                    who.table.as_deref(),
                    &counter,
                    attribute.as_deref(),
                    resolving.as_deref(),
                ),
            };
            (counter, attribute, check)
        })
        .collect()
}

impl Gate for SignedIn {
    fn by(&self) -> String {
        SignedIn::by(self)
    }

    fn permits(
        &self,
        scenario: &Scenario,
        action: &Action,
        events: &[Event],
    ) -> Result<(), Refusal> {
        permits(self, scenario, action, events)
    }

    fn judge(
        &self,
        scenario: &Scenario,
        state: &GameState,
        kinds: &[EventKind],
        reason: Option<&str>,
    ) -> Result<Option<EventKind>, Refusal> {
        judge(self, scenario, state, kinds, reason)
    }

    fn owns_all(
        &self,
        scenario: &Scenario,
        state: &GameState,
        kinds: &[EventKind],
    ) -> Result<(), String> {
        for (counter, _, check) in remit_checks(self, scenario, state, kinds) {
            if check.remit != Remit::Own {
                return Err(format!(
                    "{counter} is not {}'s own ({})",
                    self.by(),
                    check.why
                ));
            }
        }
        Ok(())
    }
}

/// The action over the whole game an action is, in the remits' words ([`ACTION_REMITS`]) and
/// the refusal's: stepping the Sequence of Play (a clock's step is the clock's, not the desk's),
/// revealing the seed, announcing to everyone, overriding a result another umpire made.
///
/// [`ACTION_REMITS`]: crate::rules::ACTION_REMITS
pub fn action_remit(action: &Action, events: &[Event], by: &str) -> Option<(&'static str, String)> {
    match action {
        Action::Next | Action::Back | Action::Enter { .. } => {
            Some(("step", "step the Sequence of Play".to_string()))
        }
        Action::RevealSeed => Some(("reveal", "reveal the app dice's seed".to_string())),
        Action::Announce {
            audience: Audience::Public,
            ..
        } => Some(("announce_public", "announce to everyone".to_string())),
        Action::Override { of, .. } => {
            let author = events
                .iter()
                .find(|e| e.seq == *of)
                .and_then(|e| e.by.as_deref());
            (author.is_some_and(|a| a != by)).then(|| {
                (
                    "override_others",
                    format!(
                        "override entry {of}, a result {} made",
                        author.unwrap_or("another umpire")
                    ),
                )
            })
        }
        _ => None,
    }
}

/// Whether the umpire's role may take an action over the whole game ([`action_remit`]), by the
/// ruleset's `remits: actions:`; without remits, only Game Control.
fn permits(
    who: &SignedIn,
    scenario: &Scenario,
    action: &Action,
    events: &[Event],
) -> Result<(), Refusal> {
    let Some((name, what)) = action_remit(action, events, &who.by()) else {
        return Ok(());
    };
    let refused = match scenario.remits.as_deref() {
        Some(r) => r.may(name, who.role.id()).err(),
        None if who.role == ControlRole::Game => None,
        None => Some(None),
    };
    let Some(remit) = refused else {
        return Ok(());
    };
    let (why, rule, roles) = match remit {
        Some(r) => (r.why.clone(), r.rule.clone(), r.roles.clone()),
        None => (
            "the ruleset's remits name nobody else for it".to_string(),
            "The Control Team › Game Control".to_string(),
            vec!["game".to_string()],
        ),
    };
    let whose: Vec<&str> = roles
        .iter()
        .filter_map(|r| ControlRole::ALL.into_iter().find(|c| c.id() == r))
        .map(|c| c.label())
        .collect();
    Err(Refusal::NotYourAction {
        who: who.by(),
        what,
        why,
        rule,
        whose: if whose.is_empty() {
            "Game Control".to_string()
        } else {
            whose.join(" or ")
        },
    })
}

/// Judges an action's events against the umpire's remit. Returns the note to record with them
/// when the action rests on Control's discretion (with `reason`), or why it is refused.
pub fn judge(
    who: &SignedIn,
    scenario: &Scenario,
    state: &GameState,
    kinds: &[EventKind],
    reason: Option<&str>,
) -> Result<Option<EventKind>, Refusal> {
    if who.role != ControlRole::Game && kinds.iter().any(|k| matches!(k, EventKind::Clock { .. })) {
        return Err(Refusal::ClockNotYours {
            who: who.by(),
            why: "only Game Control starts, holds, resumes, advances or sets it".into(),
            rule: "The Control Team › Game Control".into(),
        });
    }
    for k in kinds {
        if let EventKind::Record { fact } = k {
            let roles = scenario.records.roles(fact.kind(), fact.name());
            if who.role != ControlRole::Game && !roles.iter().any(|r| r == who.role.id()) {
                let whose: Vec<&str> = roles
                    .iter()
                    .filter_map(|r| ControlRole::ALL.into_iter().find(|c| c.id() == r))
                    .map(|c| c.label())
                    .collect();
                return Err(Refusal::OutsideRemit {
                    who: who.by(),
                    what: format!("the {} record", fact.kind()),
                    why: format!(
                        "it is kept by {}",
                        if whose.is_empty() {
                            "Game Control".to_string()
                        } else {
                            format!("{} (and Game Control)", whose.join(", "))
                        }
                    ),
                    rule: "The Control Team".into(),
                });
            }
        }
    }
    let mut discretion = Vec::new();
    for (counter, attribute, check) in remit_checks(who, scenario, state, kinds) {
        let what = match &attribute {
            Some(a) => format!("{counter} ({a})"),
            None => counter.clone(),
        };
        match check.remit {
            Remit::Own => {}
            Remit::ControlDiscretion => {
                discretion.push(format!("{what}: {} ({})", check.why, check.rule))
            }
            Remit::Outside => {
                return Err(Refusal::OutsideRemit {
                    who: who.by(),
                    what,
                    why: check.why,
                    rule: check.rule,
                });
            }
        }
    }
    if discretion.is_empty() {
        return Ok(None);
    }
    match reason.map(str::trim).filter(|r| !r.is_empty()) {
        Some(r) => Ok(Some(EventKind::Note {
            text: format!(
                "{}{}: {r} [{}]",
                crate::game::gate::DISCRETION_NOTE,
                who.by(),
                discretion.join("; ")
            ),
        })),
        None => Err(Refusal::DiscretionNeedsReason {
            who: who.by(),
            items: discretion,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signing_in_names_a_role_and_map_control_a_table() {
        let s = SignedIn::parse("Anna:map:east").expect("map");
        assert_eq!(s.role, ControlRole::Map);
        assert_eq!(s.by(), "Anna (Map Control, east)");
        assert_eq!(SignedIn::parse("Ben:political").expect("pol").table, None);
        assert!(
            SignedIn::parse("Anna:map")
                .unwrap_err()
                .contains("map table")
        );
        assert!(
            SignedIn::parse("Anna:pope")
                .unwrap_err()
                .contains("non_played_states")
        );
        assert!(SignedIn::parse("Anna").is_err());
    }

    #[test]
    fn who_acts_is_the_login_then_the_sign_in_then_the_name() {
        let login = Login {
            user: "anna".into(),
            name: "Anna".into(),
            role: "map".into(),
            table: Some("east".into()),
        };
        let anna = SignedIn::parse("Anna:map:east").expect("anna");
        let ben = SignedIn::parse("Ben:political").expect("ben");
        let why = Some(" rests on us ".to_string());
        let a = who_acts(Some(&login), "here", Some(anna.clone()), None, why).expect("agrees");
        assert!(a.gate.is_some());
        assert_eq!(a.reason.as_deref(), Some("rests on us"));
        let e = who_acts(Some(&login), "here", Some(ben.clone()), None, None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "Ben (Political Control): on a shared game you are who you log in as — anna is Anna (Map Control, east)"
        );
        let bad = Login {
            role: "pope".into(),
            ..login
        };
        let e = who_acts(Some(&bad), "here", None, Some("Cy"), None).unwrap_err();
        assert!(e.to_string().starts_with("here: 'pope'"), "{e}");
        let b = who_acts(None, "here", Some(ben), Some("Cy"), None).expect("ben");
        assert!(b.gate.is_some());
        let c = who_acts(None, "here", None, Some("Cy"), None).expect("cy");
        assert_eq!((c.by.as_deref(), c.gate.is_none()), (Some("Cy"), true));
        assert_eq!(
            who_acts(None, "here", None, None, None).expect("u").by,
            None
        );
    }
}
