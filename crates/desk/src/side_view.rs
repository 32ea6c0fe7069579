//! The desk's "As seen by" view (View menu): the map, the counter lists, the pending items and
//! the journal as one side may see them, decided by [`umpire_core::game::visibility`] — the umpire's
//! view, everything, by default. The desk never decides what a side sees itself.

use std::collections::BTreeMap;
use std::rc::Rc;

use umpire_core::game::sequence::Pending;
use umpire_core::game::side::{pending_seen, reveals_action};
use umpire_core::game::visibility::{CounterSight, EntrySight, SideView, SightLevel};

use super::game::GameDesk;

/// A side's view as last worked out (rebuilt when the journal grows or the side changes).
#[derive(Debug, Clone)]
pub struct SideCache {
    /// The side.
    pub side: String,
    /// The journal length it was built for.
    pub revision: usize,
    /// Each entry's sight.
    pub sights: Rc<Vec<EntrySight>>,
    /// The counters the side sees at all, by id.
    pub counters: BTreeMap<String, CounterSight>,
}

impl GameDesk {
    /// The side whose view is shown (None: the umpire's).
    pub fn seen_by(&self) -> Option<&str> {
        self.seen_by.as_deref()
    }

    /// Who the view is for, in words ("the umpire", "Venetian: the Republic of Venice").
    pub fn seen_by_name(&self) -> String {
        match &self.seen_by {
            None => "the umpire".to_string(),
            Some(id) => self
                .game()
                .scenario()
                .sides
                .iter()
                .find(|s| s.id == *id)
                .map_or_else(|| id.clone(), |s| s.name.clone()),
        }
    }

    /// Shows the game as a side sees it (None: as the umpire does). Refused for a side the
    /// scenario does not have.
    pub fn see_as(&mut self, side: Option<&str>) -> bool {
        if let Some(s) = side
            && !self.game().scenario().sides.iter().any(|x| x.id == s)
        {
            return self.refuse(&format!("no side '{s}' in this scenario"));
        }
        self.seen_by = side.map(str::to_string);
        self.side_cache = None;
        self.refresh_side();
        // The map's stacks and the journal follow.
        self.revision = usize::MAX;
        self.restack();
        true
    }

    /// Shows the game as the scenario's `index`-th side sees it.
    pub fn see_side_at(&mut self, index: usize) -> bool {
        let Some(id) = self
            .game()
            .scenario()
            .sides
            .get(index)
            .map(|s| s.id.clone())
        else {
            return self.refuse("no such side");
        };
        self.see_as(Some(&id))
    }

    /// The umpire's view, then each side's in turn.
    pub fn see_next_side(&mut self) -> bool {
        let sides: Vec<String> = self
            .game()
            .scenario()
            .sides
            .iter()
            .map(|s| s.id.clone())
            .collect();
        let next = match &self.seen_by {
            None => sides.first().cloned(),
            Some(now) => sides
                .iter()
                .position(|s| s == now)
                .and_then(|i| sides.get(i + 1).cloned()),
        };
        self.see_as(next.as_deref())
    }

    /// Works the side's view out again if the journal has grown since.
    pub(crate) fn refresh_side(&mut self) {
        let Some(side) = self.seen_by.clone() else {
            self.side_cache = None;
            return;
        };
        let revision = self.game().events().len();
        if self
            .side_cache
            .as_ref()
            .is_some_and(|c| c.side == side && c.revision == revision)
        {
            return;
        }
        let built = {
            let game = self.game();
            SideView::new(game.ruleset(), game.scenario(), &side).and_then(|view| {
                let sights = view.journal(game.events())?;
                let counters = view
                    .at(game.state())
                    .counters()
                    .into_iter()
                    .map(|c| (c.id.clone(), c))
                    .collect();
                Ok((sights, counters))
            })
        };
        match built {
            Ok((sights, counters)) => {
                self.side_cache = Some(SideCache {
                    side,
                    revision,
                    sights: Rc::new(sights),
                    counters,
                });
            }
            Err(e) => {
                // Show nothing rather than too much.
                self.side_cache = Some(SideCache {
                    side,
                    revision,
                    sights: Rc::new(Vec::new()),
                    counters: BTreeMap::new(),
                });
                self.refuse(&e);
            }
        }
    }

    /// How the side shown sees a counter (None in the umpire's view, or when it sees nothing).
    pub fn side_counter(&self, id: &str) -> Option<&CounterSight> {
        self.seen_by.as_ref()?;
        self.side_cache.as_ref()?.counters.get(id)
    }

    /// Whether the view shows a counter at all (the umpire's shows every one).
    pub fn shows(&self, id: &str) -> bool {
        self.seen_by.is_none()
            || self
                .side_counter(id)
                .is_some_and(|c| c.level > SightLevel::Hidden)
    }

    /// Whether the view shows a counter in full as its own side's.
    pub fn shows_as_own(&self, id: &str) -> bool {
        self.seen_by.is_none() || self.side_counter(id).is_some_and(|c| c.own)
    }

    /// A counter as the view names it: its name, or what the side sees of it ("a face-down
    /// Capitano (French)").
    pub fn display_name(&self, id: &str) -> String {
        match self.side_counter(id) {
            Some(c) => c.label.clone(),
            None => self.counter_name(id).to_string(),
        }
    }

    /// The pending items the view shows.
    pub fn pending_shown(&self) -> Vec<Pending> {
        let pending = &self.status().pending;
        match (&self.seen_by, &self.side_cache) {
            (Some(_), Some(cache)) => pending_seen(pending, &cache.sights),
            _ => pending.clone(),
        }
    }

    /// Records the reveals the ruleset calls for at this step (ailsh D.1) as one entry.
    /// Returns whether anything was recorded.
    pub fn reveal_contacts(&mut self) -> bool {
        match reveals_action(self.game()) {
            Some(action) => self.act(action),
            None => self.refuse("nothing to reveal at this step"),
        }
    }
}
