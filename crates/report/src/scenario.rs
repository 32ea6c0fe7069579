//! The organiser's scenario sheet (`umpire sheet`): title, historical note, sides, set-up,
//! reinforcements, schedules, victory conditions, special rules and a turn track to tick off.

use umpire_core::game::describe::{and_list, attribute_value_words, attribute_words, side_words};
use umpire_core::game::scenario::{CounterKind, CounterSpec, Scenario, TextItem};
use umpire_core::rules::Ruleset;

use super::error::ReportError;
use super::font::Weight;
use super::pdf::{Grid, GridCell, TextStyle, Writer, mm};
use super::template::{Template, parse_colour};

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

/// The scenario sheet as a PDF.
pub fn scenario_pdf(
    scenario: &Scenario,
    ruleset: &Ruleset,
    side: Option<&str>,
    template: Template,
) -> Result<Vec<u8>, ReportError> {
    let title = format!("{} — scenario sheet", scenario.title);
    let mut writer = Writer::new(&title, &format!("Umpire · {title}"), template)?;
    let t = writer.template().clone();
    let ink = parse_colour(&t.colours.text).unwrap_or((0.0, 0.0, 0.0));
    let muted = parse_colour(&t.colours.muted).unwrap_or((0.3, 0.3, 0.3));
    let accent = parse_colour(&t.colours.title_fill).unwrap_or(ink);
    let body = TextStyle {
        size: t.fonts.body,
        weight: Weight::Regular,
        colour: ink,
    };
    let small = TextStyle {
        size: t.fonts.subtitle,
        weight: Weight::Regular,
        colour: muted,
    };
    let heading =
        |w: &mut Writer, s: &str| w.heading(s, t.fonts.title, accent, t.fonts.table * 6.0);

    writer.paragraph(
        None,
        &scenario.title,
        TextStyle {
            size: t.fonts.title * 1.5,
            weight: Weight::Bold,
            colour: ink,
        },
        0.0,
    );
    let mut facts = vec![format!("Ruleset {}", ruleset.name)];
    if let Some(d) = &scenario.date {
        facts.push(format!("starts {d}"));
    }
    facts.push(format!("{} turns", scenario.turns));
    if let Some(first) = &scenario.first_player {
        facts.push(format!("first player {}", side_words(scenario, first)));
    }
    writer.paragraph(None, &facts.join(" · "), small, 0.0);
    if let Some(source) = &scenario.source {
        writer.paragraph(Some("Source:"), source, small, 0.0);
    }
    if let Some(map) = &scenario.map {
        writer.paragraph(Some("Map:"), map, small, 0.0);
    }
    if let Some(notes) = &scenario.notes {
        heading(&mut writer, "Historical note");
        writer.paragraph(None, notes, body, 0.0);
    }

    heading(&mut writer, "Sides");
    let sides = Grid {
        header: vec![vec![
            text("Side"),
            text("Army"),
            text("Capitani"),
            text("Note"),
        ]],
        rows: scenario
            .sides
            .iter()
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
                            capitani.push_str(&format!("; minor: {minor}"));
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
    writer.table(&sides);

    // Set-up: each side's Forces, one line a stack ("Cassano (hex 2832) — Chaumont, Attack:
    // French Gendarmes 6, Italian Infantry (French service) 6 + 6"), loose counters by place.
    let lead = TextStyle {
        size: t.fonts.body,
        weight: Weight::Bold,
        colour: ink,
    };
    let shown_sides: Vec<&umpire_core::game::scenario::SideSpec> = scenario
        .sides
        .iter()
        .filter(|sd| side.is_none_or(|x| x == sd.id))
        .collect();
    if !scenario.counters.is_empty() {
        heading(&mut writer, "Set-up");
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

    if !scenario.reinforcements.is_empty() || !scenario.conditional_reinforcements.is_empty() {
        heading(&mut writer, "Reinforcements");
        // One arrival: its lead ("Turn 3 (May, 1):" or "When …:"), where it enters, then its
        // stacks, one line each.
        let arrival = |writer: &mut Writer,
                       lead: String,
                       entry: &umpire_core::game::scenario::Position,
                       note: &Option<String>,
                       all: &[CounterSpec]| {
            let counters: Vec<&CounterSpec> = all
                .iter()
                .filter(|c| side.is_none_or(|x| x == c.side))
                .collect();
            if counters.is_empty() {
                return;
            }
            let mut line = format!("enter at {entry}");
            if let Some(note) = note {
                line.push_str(&format!(" — {note}"));
            }
            writer.paragraph(Some(&lead), &line, body, 0.0);
            for (_, stack) in stack_lines(scenario, ruleset, &counters) {
                writer.paragraph(None, &stack, body, mm(3.0));
            }
        };
        for r in &scenario.reinforcements {
            let turn = scenario.turn_label(r.turn).map_or_else(
                || format!("Turn {}", r.turn),
                |l| format!("Turn {} ({l})", r.turn),
            );
            arrival(
                &mut writer,
                format!("{turn}:"),
                &r.entry,
                &r.note,
                &r.counters,
            );
        }
        for r in &scenario.conditional_reinforcements {
            let rule = scenario
                .special_rules
                .iter()
                .find(|s| s.id == r.rule)
                .map_or_else(|| r.rule.clone(), |s| s.title.clone());
            arrival(
                &mut writer,
                format!("When {rule}:"),
                &r.entry,
                &r.note,
                &r.counters,
            );
        }
    }

    // Supply sources, regions, holdings at start and Capitano cards: what the victory
    // conditions and the set-up depend on.
    let shown_army = |army: &str| {
        side.is_none_or(|x| {
            scenario.armies.iter().any(|a| a.id == army && a.side == x) || army == x
        })
    };
    // One line per army and note: "French: hex 1227, hex 1527 … — +30 hexes to the LOC".
    let mut grouped: Vec<(String, String, Vec<String>)> = Vec::new();
    for s in scenario
        .supply_sources
        .iter()
        .filter(|s| shown_army(&s.army))
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
        heading(&mut writer, "Supply sources");
        for l in supplies {
            writer.paragraph(None, &l, body, 0.0);
        }
    }
    if !scenario.regions.is_empty() {
        heading(&mut writer, "Regions");
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
        writer.paragraph(None, &line.join("; "), body, 0.0);
    }
    if !scenario.holdings.is_empty() {
        heading(&mut writer, "Holdings at start");
        for h in &scenario.holdings {
            writer.paragraph(
                None,
                &format!(
                    "{} ({}): {} — {}",
                    h.place,
                    h.position,
                    side_words(scenario, &h.side),
                    h.status
                ),
                body,
                0.0,
            );
        }
    }
    let cards: Vec<&umpire_core::game::scenario::CapitanoCard> = scenario
        .capitano_cards
        .iter()
        .filter(|c| shown_army(&c.army))
        .collect();
    if !cards.is_empty() {
        heading(&mut writer, "Capitano cards");
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
            writer.paragraph(
                Some(&format!("{}:", side_words(scenario, army))),
                &list.join(", "),
                body,
                0.0,
            );
        }
    }

    // A megagame's people: the cast (teams, their states and characters, and the players),
    // the Control roster, and the timetable of the real-time turns.
    if let Some(mega) = &scenario.megagame {
        heading(&mut writer, "Cast");
        let name_of = |id: &str| {
            scenario
                .counters
                .iter()
                .find(|c| c.id == id)
                .map_or_else(|| id.replace(['_', '-'], " "), |c| c.name.clone())
        };
        for sd in &shown_sides {
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
                writer.paragraph(Some(&format!("{}:", sd.name)), &line.join(" — "), body, 0.0);
            }
        }
        if !mega.umpires.is_empty() {
            heading(&mut writer, "Control");
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
                writer.paragraph(None, &format!("{}{role}{table}{note}", u.name), body, 0.0);
            }
        }
        if let Some(clock) = ruleset.clock() {
            heading(&mut writer, "Timetable");
            for turn in &clock.turns {
                let mut line = format!("Turn {}", turn.turn);
                if let Some(y) = &turn.years {
                    line.push_str(&format!(" ({y})"));
                }
                if let Some(s) = &turn.starts {
                    line.push_str(&format!(", starts {s}"));
                }
                writer.paragraph(None, &line, body, 0.0);
            }
        }
    }

    if !scenario.schedules.is_empty() {
        heading(&mut writer, "Schedules");
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
                .map(|s| {
                    let turns = if s.amounts.is_empty() {
                        s.turns
                            .iter()
                            .map(u32::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    } else {
                        s.amounts
                            .iter()
                            .map(|(t, a)| format!("{t}: {a}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    };
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
        writer.table(&grid);
    }

    if !scenario.victory.is_empty() {
        heading(&mut writer, "Victory conditions");
        items(scenario, &mut writer, &scenario.victory, body);
    }
    if !scenario.special_rules.is_empty() {
        heading(&mut writer, "Special rules");
        items(scenario, &mut writer, &scenario.special_rules, body);
    }
    if !scenario.rulings.is_empty() {
        heading(&mut writer, "Rulings");
        items(scenario, &mut writer, &scenario.rulings, body);
    }

    heading(&mut writer, "Turn track");
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
        let mut row = vec![text("Done")];
        row.extend(chunk.iter().map(|_| GridCell::Blank));
        writer.table(&Grid {
            header: vec![header],
            rows: vec![row],
            continued: "Turn track (continued)".into(),
        });
        writer.space(mm(2.0));
    }
    Ok(writer.finish())
}
