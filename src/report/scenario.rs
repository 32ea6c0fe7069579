//! The organiser's scenario sheet (`umpire sheet`): title, historical note, sides, set-up,
//! reinforcements, schedules, victory conditions, special rules and a turn track to tick off.

use crate::game::describe::{attribute_value_words, attribute_words, force_words, side_words};
use crate::game::scenario::{CounterSpec, Scenario, TextItem};
use crate::rules::Ruleset;

use super::error::ReportError;
use super::font::Weight;
use super::pdf::{Grid, GridCell, TextStyle, Writer, mm};
use super::template::{Template, parse_colour};

fn text(s: impl Into<String>) -> GridCell {
    GridCell::Text(s.into())
}

/// A counter's attributes as printed, in the ruleset's words; those the text does not give are
/// listed as unknown.
fn attributes(ruleset: &Ruleset, counter: &CounterSpec) -> String {
    let mut parts: Vec<String> = counter
        .attributes
        .iter()
        .map(|(k, v)| {
            format!(
                "{} {}",
                attribute_words(ruleset, k),
                attribute_value_words(v)
            )
        })
        .collect();
    if !counter.unknown.is_empty() {
        let unknown: Vec<String> = counter
            .unknown
            .iter()
            .map(|u| attribute_words(ruleset, u))
            .collect();
        parts.push(format!("not in the text: {}", unknown.join(", ")));
    }
    parts.join("; ")
}

fn counters_grid(
    scenario: &Scenario,
    ruleset: &Ruleset,
    counters: &[&CounterSpec],
    continued: &str,
) -> Grid {
    Grid {
        header: vec![vec![
            text("Counter"),
            text("Side"),
            text("Position"),
            text("Force"),
            text("Values"),
        ]],
        rows: counters
            .iter()
            .map(|c| {
                vec![
                    text(c.name.clone()),
                    text(side_words(scenario, &c.side)),
                    text(c.position.to_string()),
                    text(
                        c.force
                            .as_ref()
                            .map_or_else(String::new, |f| force_words(scenario, f)),
                    ),
                    text(attributes(ruleset, c)),
                ]
            })
            .collect(),
        continued: continued.to_string(),
    }
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

    let at_start: Vec<&CounterSpec> = scenario.counters.iter().collect();
    if !at_start.is_empty() || !scenario.forces.is_empty() {
        heading(&mut writer, "Set-up");
        for force in &scenario.forces {
            let mut line = format!(
                "{} ({}) at {}",
                force_words(scenario, &force.id),
                side_words(scenario, &force.side),
                force.position
            );
            if let Some(place) = &force.place {
                line.push_str(&format!(", {place}"));
            }
            if let Some(order) = &force.order {
                line.push_str(&format!("; order {order}"));
            }
            if let Some(note) = &force.note {
                line.push_str(&format!(" — {note}"));
            }
            writer.paragraph(Some("Force"), &line, body, 0.0);
        }
        writer.space(mm(1.5));
        writer.table(&counters_grid(
            scenario,
            ruleset,
            &at_start,
            "Set-up (continued)",
        ));
        for note in &scenario.counter_notes {
            let name = scenario
                .counters
                .iter()
                .find(|c| c.id == note.counter)
                .map_or_else(|| note.counter.clone(), |c| c.name.clone());
            writer.paragraph(Some(&format!("{name}:")), &note.text, small, 0.0);
        }
    }

    if !scenario.reinforcements.is_empty() || !scenario.conditional_reinforcements.is_empty() {
        heading(&mut writer, "Reinforcements");
        for r in &scenario.reinforcements {
            let turn = scenario.turn_label(r.turn).map_or_else(
                || format!("Turn {}", r.turn),
                |l| format!("Turn {} ({l})", r.turn),
            );
            let mut line = format!("enter at {}", r.entry);
            if let Some(note) = &r.note {
                line.push_str(&format!(" — {note}"));
            }
            writer.paragraph(Some(&format!("{turn}:")), &line, body, 0.0);
            let counters: Vec<&CounterSpec> = r.counters.iter().collect();
            if !counters.is_empty() {
                writer.table(&counters_grid(
                    scenario,
                    ruleset,
                    &counters,
                    "Reinforcements (continued)",
                ));
            }
            writer.space(mm(1.5));
        }
        for r in &scenario.conditional_reinforcements {
            let rule = scenario
                .special_rules
                .iter()
                .find(|s| s.id == r.rule)
                .map_or_else(|| r.rule.clone(), |s| s.title.clone());
            let mut line = format!("enter at {}", r.entry);
            if let Some(note) = &r.note {
                line.push_str(&format!(" — {note}"));
            }
            writer.paragraph(Some(&format!("When {rule}:")), &line, body, 0.0);
            let counters: Vec<&CounterSpec> = r.counters.iter().collect();
            if !counters.is_empty() {
                writer.table(&counters_grid(
                    scenario,
                    ruleset,
                    &counters,
                    "Reinforcements (continued)",
                ));
            }
            writer.space(mm(1.5));
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
