//! The organiser's scenario sheet (`umpire sheet`): title, historical note, sides, set-up,
//! reinforcements, schedules, victory conditions, special rules and a turn track to tick off.

use umpire_core::game::describe::{and_list, attribute_value_words, attribute_words, side_words};
use umpire_core::game::scenario::{
    CounterKind, CounterSpec, MegagameSpec, Position, Scenario, SideSpec, TextItem,
};
use umpire_core::rules::Ruleset;

use super::error::ReportError;
use super::font::Weight;
use super::pdf::{Grid, GridCell, PageStyle, TextStyle, Writer, mm};
use super::template::Template;

fn text(s: impl Into<String>) -> GridCell {
    GridCell::Text(s.into())
}

/// The counters grouped into stacks, one line each: (where, "leaders, order: units"). A Force
/// is named by its place and position; loose counters by their position. Like units share a
/// name with their strengths added ("Italian Infantry (French service) 6 + 6").
fn stack_lines(
    scenario: &Scenario,
    ruleset: &Ruleset,
    counters: &[&CounterSpec],
) -> Vec<(String, String)> {
    let strength = ruleset.strength_attribute.as_deref();
    let mut groups: Vec<(Option<&str>, String, Vec<&CounterSpec>)> = Vec::new();
    for c in counters {
        let at = c.position.to_string();
        match groups
            .iter_mut()
            .find(|(f, p, _)| *f == c.force.as_deref() && *p == at)
        {
            Some(g) => g.2.push(c),
            None => groups.push((c.force.as_deref(), at, vec![c])),
        }
    }
    groups
        .into_iter()
        .map(|(force, at, list)| {
            let spec = force.and_then(|f| scenario.forces.iter().find(|x| x.id == f));
            let place = match spec.and_then(|f| f.place.as_ref()) {
                Some(p) => format!("{p} ({at})"),
                None => at,
            };
            let leaders: Vec<&str> = list
                .iter()
                .filter(|c| c.kind == CounterKind::Leader)
                .map(|c| c.name.as_str())
                .collect();
            let mut units: Vec<(String, Vec<String>)> = Vec::new();
            for c in list.iter().filter(|c| c.kind != CounterKind::Leader) {
                let name = &c.printed;
                let sp = strength
                    .and_then(|a| c.attributes.get(a))
                    .map(attribute_value_words);
                match units.iter_mut().find(|(n, _)| n == name) {
                    Some((_, sps)) => sps.extend(sp),
                    None => units.push((name.clone(), sp.into_iter().collect())),
                }
            }
            // Like counters without a strength (breakdown units, markers) are counted.
            let mut counts: Vec<(String, usize)> = Vec::new();
            for c in list.iter().filter(|c| c.kind != CounterKind::Leader) {
                match counts.iter_mut().find(|(n, _)| *n == c.printed) {
                    Some((_, k)) => *k += 1,
                    None => counts.push((c.printed.clone(), 1)),
                }
            }
            let units: Vec<String> = units
                .into_iter()
                .map(|(n, sps)| {
                    let times = counts.iter().find(|(x, _)| *x == n).map_or(1, |(_, k)| *k);
                    if !sps.is_empty() {
                        format!("{n} {}", sps.join(" + "))
                    } else if times > 1 {
                        format!("{n} ×{times}")
                    } else {
                        n
                    }
                })
                .collect();
            let mut line = leaders.join(", ");
            if let Some(order) = spec.and_then(|f| f.order.as_ref()) {
                line.push_str(&format!(", {order}"));
            }
            if !units.is_empty() {
                if !line.is_empty() {
                    line.push_str(": ");
                }
                line.push_str(&units.join(", "));
            }
            if let Some(note) = spec.and_then(|f| f.note.as_ref()) {
                line.push_str(&format!(" — {note}"));
            }
            (place, line)
        })
        .collect()
}

/// The attributes the text leaves to the printed counters, once per kind: ("units", "Troop
/// Quality, Reliability Class …").
fn unknown_kinds(ruleset: &Ruleset, scenario: &Scenario) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for (kind, label) in [
        (CounterKind::Unit, "units"),
        (CounterKind::Leader, "leaders"),
    ] {
        let mut names: Vec<String> = Vec::new();
        for c in scenario.counters.iter().filter(|c| c.kind == kind) {
            for u in &c.unknown {
                let w = attribute_words(ruleset, u);
                if !names.contains(&w) {
                    names.push(w);
                }
            }
        }
        if !names.is_empty() {
            out.push((label, names.join(", ")));
        }
    }
    out
}

fn items(scenario: &Scenario, writer: &mut Writer, list: &[TextItem], body: TextStyle) {
    for item in list {
        let mut lead = item.title.clone();
        if let Some(side) = &item.side {
            lead.push_str(&format!(" ({})", side_words(scenario, side)));
        }
        let rule = item
            .rule
            .as_ref()
            .map_or_else(String::new, |r| format!(" [{r}]"));
        writer.paragraph(
            Some(&format!("{lead}:")),
            &format!("{}{rule}", item.text.trim()),
            body,
            0.0,
        );
        writer.space(mm(1.0));
    }
}

/// A schedule's turns in words: "turns 4, 8, 12"; with amounts, "6 on turn 1, 5 on turn 5"
/// (or "5 on each of turns 3, 7" when the amount does not change; turn 0 is "at start").
fn schedule_words(s: &umpire_core::game::scenario::Schedule) -> String {
    let turn = |t: u32| {
        if t == 0 {
            "at start".to_string()
        } else {
            t.to_string()
        }
    };
    let list = |ts: &mut dyn Iterator<Item = u32>| ts.map(turn).collect::<Vec<_>>().join(", ");
    if s.amounts.is_empty() {
        let n = s.turns.len();
        return format!(
            "{} {}",
            if n == 1 { "turn" } else { "turns" },
            list(&mut s.turns.iter().copied())
        );
    }
    let first = s.amounts[0].1;
    if s.amounts.len() > 1 && s.amounts.iter().all(|(_, a)| *a == first) {
        return format!(
            "{first} on each of turns {}",
            list(&mut s.amounts.iter().map(|(t, _)| *t))
        );
    }
    s.amounts
        .iter()
        .map(|(t, a)| match *t {
            0 => format!("{a} at start"),
            t => format!("{a} on turn {t}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// "Side's handout: French" — whose a side's handout is, by the side's name as printed up to
/// its colon ("French: the Kingdom of France"), short enough for every page's footer.
fn handout_words(scenario: &Scenario, side: &str) -> String {
    let name = scenario
        .sides
        .iter()
        .find(|s| s.id == side)
        .map_or(side, |s| s.name.as_str());
    let short = name.split(':').next().unwrap_or(name).trim();
    format!("Side's handout: {short}")
}

/// The scenario sheet as a PDF.
pub fn scenario_pdf(
    scenario: &Scenario,
    ruleset: &Ruleset,
    side: Option<&str>,
    template: Template,
) -> Result<Vec<u8>, ReportError> {
    super::pdf::without_a_stray_page(&template, 0.9, |t| set_sheet(scenario, ruleset, side, t))
}

fn set_sheet(
    scenario: &Scenario,
    ruleset: &Ruleset,
    side: Option<&str>,
    template: Template,
) -> Result<super::pdf::Writer, ReportError> {
    let mut sheet = Sheet::new(scenario, ruleset, side, template)?;
    sheet.title();
    sheet.sides();
    sheet.organiser_setup();
    sheet.set_up();
    sheet.reinforcements();
    sheet.supply_sources();
    sheet.regions();
    sheet.holdings();
    sheet.capitano_cards();
    // A megagame's people: the cast (teams, their states and characters, and the players),
    // the Control roster, and the timetable of the real-time turns.
    if let Some(mega) = &scenario.megagame {
        sheet.cast(mega);
        sheet.control(mega);
        sheet.timetable();
    }
    sheet.schedules();
    for (title, list) in [
        ("Victory conditions", &scenario.victory),
        ("Special rules", &scenario.special_rules),
        ("Rulings", &scenario.rulings),
    ] {
        if !list.is_empty() {
            sheet.heading(title);
            items(scenario, &mut sheet.writer, list, sheet.style.body);
        }
    }
    sheet.turn_track();
    Ok(sheet.writer)
}

/// A scenario sheet being set: what it is of, and its page and styles.
struct Sheet<'a> {
    scenario: &'a Scenario,
    ruleset: &'a Ruleset,
    /// The one side it is for (None: every side).
    side: Option<&'a str>,
    writer: Writer,
    style: PageStyle,
}

impl<'a> Sheet<'a> {
    fn new(
        scenario: &'a Scenario,
        ruleset: &'a Ruleset,
        side: Option<&'a str>,
        template: Template,
    ) -> Result<Sheet<'a>, ReportError> {
        // A side's handout says whose it is, in its title and on every page's footer (first,
        // where a long footer is not cut).
        let whose = side.map(|s| handout_words(scenario, s));
        let (title, footer) = match &whose {
            Some(w) => (
                format!("{} — {w}", scenario.title),
                format!("{w} · Umpire · {}", scenario.title),
            ),
            None => {
                let t = format!("{} — scenario sheet", scenario.title);
                (t.clone(), format!("Umpire · {t}"))
            }
        };
        let writer = Writer::new(&title, &footer, template)?;
        let style = PageStyle::of(writer.template());
        Ok(Sheet {
            scenario,
            ruleset,
            side,
            writer,
            style,
        })
    }

    fn heading(&mut self, s: &str) {
        self.writer.heading(
            s,
            self.style.title_size,
            self.style.accent,
            self.style.table_size * 6.0,
        );
    }

    /// The sides the sheet shows.
    fn shown_sides(&self) -> Vec<&'a SideSpec> {
        self.scenario
            .sides
            .iter()
            .filter(|sd| self.side.is_none_or(|x| x == sd.id))
            .collect()
    }

    /// Whether the sheet shows an army's (or side's) things.
    fn shown_army(&self, army: &str) -> bool {
        let scenario = self.scenario;
        self.side.is_none_or(|x| {
            scenario.armies.iter().any(|a| a.id == army && a.side == x) || army == x
        })
    }

    /// The title, the facts under it, the source and map, and the historical note.
    fn title(&mut self) {
        let scenario = self.scenario;
        self.writer.paragraph(
            None,
            &scenario.title,
            TextStyle {
                size: self.style.title_size * 1.5,
                weight: Weight::Bold,
                colour: self.style.ink,
            },
            0.0,
        );
        let mut facts = vec![format!("Ruleset {}", self.ruleset.name)];
        if let Some(side) = self.side {
            facts.insert(0, handout_words(scenario, side));
        }
        if let Some(d) = &scenario.date {
            facts.push(format!("starts {d}"));
        }
        facts.push(format!("{} turns", scenario.turns));
        if let Some(first) = &scenario.first_player {
            facts.push(format!("first player {}", side_words(scenario, first)));
        }
        self.writer
            .paragraph(None, &facts.join(" · "), self.style.small, 0.0);
        if let Some(source) = &scenario.source {
            self.writer
                .paragraph(Some("Source:"), source, self.style.small, 0.0);
        }
        if let Some(map) = &scenario.map {
            self.writer
                .paragraph(Some("Map:"), map, self.style.small, 0.0);
        }
        if let Some(notes) = &scenario.notes {
            self.heading("Historical note");
            self.writer.paragraph(None, notes, self.style.body, 0.0);
        }
    }

    /// The sides, each army with its Capitani.
    fn sides(&mut self) {
        let scenario = self.scenario;
        self.heading("Sides");
        let sides = Grid {
            header: vec![vec![
                text("Side"),
                text("Army"),
                text("Capitani"),
                text("Note"),
            ]],
            rows: self
                .shown_sides()
                .into_iter()
                .flat_map(|side| {
                    let armies: Vec<_> = scenario
                        .armies
                        .iter()
                        .filter(|a| a.side == side.id)
                        .collect();
                    if armies.is_empty() {
                        return vec![vec![text(side.name.clone()), text(""), text(""), text("")]];
                    }
                    armies
                        .iter()
                        .map(|a| {
                            let mut capitani = a.capitani_generali.join(", ");
                            if let Some(minor) = &a.minor_capitani {
                                if !capitani.is_empty() {
                                    capitani.push_str("; ");
                                }
                                capitani.push_str(&format!("minor: {minor}"));
                            }
                            vec![
                                text(side.name.clone()),
                                text(a.name.clone()),
                                text(capitani),
                                text(a.note.clone().unwrap_or_default()),
                            ]
                        })
                        .collect()
                })
                .collect(),
            continued: "Sides (continued)".into(),
        };
        self.writer.table(&sides);
    }

    /// Set-up: each side's Forces, one line a stack ("Cassano (hex 2832) — Chaumont, Attack:
    /// French Gendarmes 6, Italian Infantry (French service) 6 + 6"), loose counters by place;
    /// the counters' notes; what the text leaves to the printed counters.
    fn set_up(&mut self) {
        let (scenario, ruleset) = (self.scenario, self.ruleset);
        if scenario.counters.is_empty() {
            return;
        }
        let lead = TextStyle {
            weight: Weight::Bold,
            ..self.style.body
        };
        let (body, small) = (self.style.body, self.style.small);
        let shown_sides = self.shown_sides();
        self.heading("Set-up");
        let writer = &mut self.writer;
        for sd in &shown_sides {
            let counters: Vec<&CounterSpec> = scenario
                .counters
                .iter()
                // Ledgers and markers (an AP marker on its track) are not pieces to set up.
                .filter(|c| {
                    c.side == sd.id && !matches!(c.kind, CounterKind::State | CounterKind::Marker)
                })
                .collect();
            if counters.is_empty() {
                continue;
            }
            writer.paragraph(None, &sd.name, lead, 0.0);
            for (place, line) in stack_lines(scenario, ruleset, &counters) {
                writer.paragraph(Some(&format!("{place} —")), &line, body, mm(3.0));
            }
            writer.space(mm(1.0));
        }
        // Notes, each once with every counter it is about.
        let mut notes: Vec<(&str, Vec<String>)> = Vec::new();
        for n in &scenario.counter_notes {
            let Some(c) = scenario.counters.iter().find(|c| c.id == n.counter) else {
                continue;
            };
            if !shown_sides.iter().any(|sd| sd.id == c.side) {
                continue;
            }
            match notes.iter_mut().find(|(t, _)| *t == n.text) {
                Some((_, who)) => who.push(c.name.clone()),
                None => notes.push((&n.text, vec![c.name.clone()])),
            }
        }
        for (text, who) in notes {
            writer.paragraph(Some(&format!("{}:", and_list(who))), text, small, 0.0);
        }
        // What the text leaves to the printed counters, said once per kind.
        for (kind, what) in unknown_kinds(ruleset, scenario) {
            writer.paragraph(
                Some("Not in the text:"),
                &format!("{what} of the {kind} (read them off the printed counters)"),
                small,
                0.0,
            );
        }
    }

    /// Set-up by the organiser: what the text leaves to the organiser (a deployment card, a
    /// gazetteer) and how to add it, one step a line.
    fn organiser_setup(&mut self) {
        let Some(o) = &self.scenario.organiser_setup else {
            return;
        };
        let (body, small) = (self.style.body, self.style.small);
        self.heading("Set-up by the organiser");
        let lead = o.rule.as_ref().map(|r| format!("({r})"));
        self.writer.paragraph(lead.as_deref(), &o.text, body, 0.0);
        for (n, step) in o.steps.iter().enumerate() {
            self.writer
                .paragraph(Some(&format!("{}.", n + 1)), step, small, mm(3.0));
        }
        self.writer.space(mm(1.0));
    }

    /// Reinforcements: each arrival by turn or by the rule that brings it.
    fn reinforcements(&mut self) {
        let scenario = self.scenario;
        if scenario.reinforcements.is_empty() && scenario.conditional_reinforcements.is_empty() {
            return;
        }
        self.heading("Reinforcements");
        for r in &scenario.reinforcements {
            let turn = scenario.turn_label(r.turn).map_or_else(
                || format!("Turn {}", r.turn),
                |l| format!("Turn {} ({l})", r.turn),
            );
            self.arrival(format!("{turn}:"), &r.entry, &r.note, &r.counters);
        }
        for r in &scenario.conditional_reinforcements {
            let rule = scenario
                .special_rules
                .iter()
                .find(|s| s.id == r.rule)
                .map_or_else(|| r.rule.clone(), |s| s.title.clone());
            self.arrival(format!("When {rule}:"), &r.entry, &r.note, &r.counters);
        }
    }

    /// One arrival: its lead ("Turn 3 (May, 1):" or "When …:"), where it enters, then its
    /// stacks, one line each.
    fn arrival(
        &mut self,
        lead: String,
        entry: &Position,
        note: &Option<String>,
        all: &[CounterSpec],
    ) {
        let counters: Vec<&CounterSpec> = all
            .iter()
            .filter(|c| self.side.is_none_or(|x| x == c.side))
            .collect();
        if counters.is_empty() {
            return;
        }
        let mut line = format!("enter at {entry}");
        if let Some(note) = note {
            line.push_str(&format!(" — {note}"));
        }
        self.writer
            .paragraph(Some(&lead), &line, self.style.body, 0.0);
        for (_, stack) in stack_lines(self.scenario, self.ruleset, &counters) {
            self.writer
                .paragraph(None, &stack, self.style.body, mm(3.0));
        }
    }

    /// Supply sources, one line per army and note: "French: hex 1227, hex 1527 … — +30 hexes
    /// to the LOC" (what the victory conditions and the set-up depend on, as the regions,
    /// holdings and Capitano cards are).
    fn supply_sources(&mut self) {
        let scenario = self.scenario;
        let mut grouped: Vec<(String, String, Vec<String>)> = Vec::new();
        for s in scenario
            .supply_sources
            .iter()
            .filter(|s| self.shown_army(&s.army))
        {
            let army = side_words(scenario, &s.army);
            let note = s.note.clone().unwrap_or_default();
            let at = match &s.label {
                Some(l) => format!("{} ({l})", s.position),
                None => s.position.to_string(),
            };
            match grouped
                .iter_mut()
                .find(|(a, n, _)| *a == army && *n == note)
            {
                Some((_, _, list)) => list.push(at),
                None => grouped.push((army, note, vec![at])),
            }
        }
        let supplies: Vec<String> = grouped
            .into_iter()
            .map(|(army, note, list)| {
                if note.is_empty() {
                    format!("{army}: {}", list.join(", "))
                } else {
                    format!("{army}: {} — {note}", list.join(", "))
                }
            })
            .collect();
        if !supplies.is_empty() {
            self.heading("Supply sources");
            for l in supplies {
                self.writer.paragraph(None, &l, self.style.body, 0.0);
            }
        }
    }

    /// The regions' alignments at the start.
    fn regions(&mut self) {
        let scenario = self.scenario;
        if !scenario.regions.is_empty() {
            self.heading("Regions");
            let line: Vec<String> = scenario
                .regions
                .iter()
                .map(|r| {
                    let mut s = format!("{} {}", r.region, r.alignment);
                    if let Some(alt) = &r.alternative {
                        s.push_str(&format!(" (or {alt})"));
                    }
                    if let Some(n) = &r.note {
                        s.push_str(&format!(" — {n}"));
                    }
                    s
                })
                .collect();
            self.writer
                .paragraph(None, &line.join("; "), self.style.body, 0.0);
        }
    }

    /// The holdings at the start.
    fn holdings(&mut self) {
        let scenario = self.scenario;
        if !scenario.holdings.is_empty() {
            self.heading("Holdings at start");
            for h in &scenario.holdings {
                self.writer.paragraph(
                    None,
                    &format!(
                        "{} ({}): {} — {}",
                        h.place,
                        h.position,
                        side_words(scenario, &h.side),
                        h.status
                    ),
                    self.style.body,
                    0.0,
                );
            }
        }
    }

    /// The Capitano cards, by army.
    fn capitano_cards(&mut self) {
        let scenario = self.scenario;
        let cards: Vec<&umpire_core::game::scenario::CapitanoCard> = scenario
            .capitano_cards
            .iter()
            .filter(|c| self.shown_army(&c.army))
            .collect();
        if !cards.is_empty() {
            self.heading("Capitano cards");
            let mut armies: Vec<&str> = Vec::new();
            for c in &cards {
                if !armies.contains(&c.army.as_str()) {
                    armies.push(&c.army);
                }
            }
            for army in armies {
                let list: Vec<String> = cards
                    .iter()
                    .filter(|c| c.army == army)
                    .map(|c| format!("{} (card {})", c.name, c.card))
                    .collect();
                self.writer.paragraph(
                    Some(&format!("{}:", side_words(scenario, army))),
                    &list.join(", "),
                    self.style.body,
                    0.0,
                );
            }
        }
    }

    /// A megagame's cast: each team's states, characters and players.
    fn cast(&mut self, mega: &MegagameSpec) {
        let scenario = self.scenario;
        self.heading("Cast");
        let name_of = |id: &str| {
            scenario
                .counters
                .iter()
                .find(|c| c.id == id)
                .map_or_else(|| id.replace(['_', '-'], " "), |c| c.name.clone())
        };
        for sd in self.shown_sides() {
            let states: Vec<String> = mega
                .states
                .iter()
                .filter(|s| s.teams.contains(&sd.id))
                .map(|s| s.name.clone())
                .collect();
            // The team's characters: its own (on its side) and those linked to it.
            let mut ids: Vec<&str> = scenario
                .counters
                .iter()
                .filter(|c| c.side == sd.id && c.kind == CounterKind::Leader)
                .map(|c| c.id.as_str())
                .collect();
            for l in mega.characters.iter().filter(|l| l.teams.contains(&sd.id)) {
                if !ids.contains(&l.character.as_str()) {
                    ids.push(&l.character);
                }
            }
            let characters: Vec<String> = ids.iter().map(|c| name_of(c)).collect();
            let players: Vec<String> = mega
                .players
                .iter()
                .filter(|p| p.characters.iter().any(|c| ids.contains(&c.as_str())))
                // A seat not yet given a person's name ("Player of Henry VIII") says nothing more.
                .filter(|p| !p.name.starts_with("Player of "))
                .map(|p| {
                    let plays: Vec<String> = p.characters.iter().map(|c| name_of(c)).collect();
                    format!("{} ({})", p.name, plays.join(", "))
                })
                .collect();
            let mut line = Vec::new();
            if !states.is_empty() {
                line.push(format!("states: {}", states.join(", ")));
            }
            if !characters.is_empty() {
                line.push(format!("characters: {}", characters.join("; ")));
            }
            if !players.is_empty() {
                line.push(format!("players: {}", players.join("; ")));
            }
            if !line.is_empty() {
                self.writer.paragraph(
                    Some(&format!("{}:", sd.name)),
                    &line.join(" — "),
                    self.style.body,
                    0.0,
                );
            }
        }
    }

    /// A megagame's Control roster.
    fn control(&mut self, mega: &MegagameSpec) {
        if !mega.umpires.is_empty() {
            self.heading("Control");
            for u in &mega.umpires {
                let table = u
                    .table
                    .as_ref()
                    .and_then(|t| mega.tables.iter().find(|x| x.id == *t))
                    .map_or_else(String::new, |t| format!(", {}", t.name));
                let note = u
                    .note
                    .as_ref()
                    .map_or_else(String::new, |n| format!(" — {n}"));
                // "Map Control (The East)" says its role already; a person's name does not.
                let role = if u.name.starts_with(u.role.label()) {
                    String::new()
                } else {
                    format!(": {}", u.role.label())
                };
                let table = if role.is_empty() {
                    String::new()
                } else {
                    table
                };
                self.writer.paragraph(
                    None,
                    &format!("{}{role}{table}{note}", u.name),
                    self.style.body,
                    0.0,
                );
            }
        }
    }

    /// A megagame's timetable of the real-time turns, from the ruleset's clock.
    fn timetable(&mut self) {
        if let Some(clock) = self.ruleset.clock() {
            self.heading("Timetable");
            for turn in &clock.turns {
                let mut line = format!("Turn {}", turn.turn);
                if let Some(y) = &turn.years {
                    line.push_str(&format!(" ({y})"));
                }
                if let Some(s) = &turn.starts {
                    line.push_str(&format!(", starts {s}"));
                }
                self.writer.paragraph(None, &line, self.style.body, 0.0);
            }
        }
    }

    /// The schedules (amounts credited by turn).
    fn schedules(&mut self) {
        let scenario = self.scenario;
        if !scenario.schedules.is_empty() {
            self.heading("Schedules");
            let grid = Grid {
                header: vec![vec![
                    text("Schedule"),
                    text("Side"),
                    text("Turns"),
                    text("Note"),
                ]],
                rows: scenario
                    .schedules
                    .iter()
                    .filter(|s| s.side.as_deref().is_none_or(|x| self.shown_army(x)))
                    .map(|s| {
                        let turns = schedule_words(s);
                        vec![
                            text(s.name.clone()),
                            text(
                                s.side
                                    .as_ref()
                                    .map_or_else(String::new, |x| side_words(scenario, x)),
                            ),
                            text(turns),
                            text(s.note.clone().unwrap_or_default()),
                        ]
                    })
                    .collect(),
                continued: "Schedules (continued)".into(),
            };
            self.writer.table(&grid);
        }
    }

    /// The turns a regular schedule with amounts falls on (Administrative Points turns), by the
    /// name of its procedure: a row of the turn track each.
    fn marked_turns(&self) -> Vec<(String, Vec<u32>)> {
        let mut marks: Vec<(String, Vec<u32>)> = Vec::new();
        for s in &self.scenario.schedules {
            let Some(procedure) = s
                .procedure
                .as_deref()
                .and_then(|p| self.ruleset.procedure(p))
            else {
                continue;
            };
            if s.amounts.is_empty() || !s.side.as_deref().is_none_or(|x| self.shown_army(x)) {
                continue;
            }
            let turns = s.amounts.iter().map(|(t, _)| *t).filter(|t| *t > 0);
            match marks.iter_mut().find(|(n, _)| *n == procedure.name) {
                Some((_, list)) => list.extend(turns),
                None => marks.push((procedure.name.clone(), turns.collect())),
            }
        }
        marks
    }

    /// A turn track to tick off, ten turns a row, with a row marking the turns of each regular
    /// schedule (the Administrative Points turns).
    fn turn_track(&mut self) {
        let scenario = self.scenario;
        self.heading("Turn track");
        let marks = self.marked_turns();
        let turns: Vec<u32> = (1..=scenario.turns).collect();
        for chunk in turns.chunks(10) {
            let mut header = vec![text("Turn")];
            header.extend(chunk.iter().map(|t| {
                text(
                    scenario
                        .turn_label(*t)
                        .map_or_else(|| t.to_string(), |l| format!("{t}\n{l}")),
                )
            }));
            let mut rows: Vec<Vec<GridCell>> = marks
                .iter()
                .map(|(name, on)| {
                    let mut row = vec![text(name.clone())];
                    row.extend(
                        chunk
                            .iter()
                            .map(|t| text(if on.contains(t) { "✓" } else { "" }.to_string())),
                    );
                    row
                })
                .collect();
            let mut row = vec![text("Done")];
            row.extend(chunk.iter().map(|_| GridCell::Blank));
            rows.push(row);
            self.writer.table(&Grid {
                header: vec![header],
                rows,
                continued: "Turn track (continued)".into(),
            });
            self.writer.space(mm(2.0));
        }
    }
}
