//! Raw scenario → validated [`Scenario`], checked against its ruleset, with located errors.
//! This file holds the context problems are collected in and the reading order
//! ([`load_scenario`]); [`places`], [`counters`], [`sections`] and [`megagame`] check the rest.

mod counters;
mod megagame;
mod places;
mod sections;
mod values;
mod victory;

use counters::*;
use megagame::*;
use places::*;
use sections::*;
use values::*;
use victory::*;

use std::collections::{BTreeMap, BTreeSet, HashSet};

use saphyr_parser::{Event, Parser, ScalarStyle};

use super::model::*;
use super::raw::*;
use crate::rules::locate::YamlPath;
use crate::rules::validate::Problems;
use crate::rules::{
    AttributeKind, AttributeSpec, GeometryKind, Library, LoadError, LoadErrors, Ruleset,
    SourceFile, Value,
};

/// Month names of the 5-day turn calendar.
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The scenario validator's context: the file's problems (the collector the ruleset validator
/// uses too), and which scalars were written without quotes (a hex id must be quoted).
struct Ctx<'a> {
    problems: Problems<'a>,
    /// Start positions of plain (unquoted) scalars.
    plain: HashSet<(usize, usize)>,
}

impl<'a> std::ops::Deref for Ctx<'a> {
    type Target = Problems<'a>;
    fn deref(&self) -> &Problems<'a> {
        &self.problems
    }
}

impl std::ops::DerefMut for Ctx<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.problems
    }
}

impl<'a> Ctx<'a> {
    fn new(file: &'a SourceFile) -> Ctx<'a> {
        let mut plain = HashSet::new();
        for item in Parser::new_from_str(&file.text) {
            let Ok((event, span)) = item else { break };
            if let Event::Scalar(_, ScalarStyle::Plain, ..) = event {
                plain.insert((span.start.line(), span.start.col() + 1));
            }
        }
        Ctx {
            problems: Problems::new(file),
            plain,
        }
    }

    /// Whether the scalar at `path` was written without quotes.
    fn is_plain(&self, path: &YamlPath) -> bool {
        self.plain.contains(&self.locate(path))
    }
}

/// The same deserialisation, with the same located errors, as ruleset files.
fn parse_yaml<T: serde::de::DeserializeOwned>(file: &SourceFile) -> Result<T, LoadError> {
    crate::rules::validate::parse_yaml(file)
}

/// Labels of a 5-day-turn calendar: "<Month>, <n>", six turns to a month, the year shown on
/// turn 1 and when it changes ("January, 1 (1525)"). ailsh digest §6.3; L1703–1704.
pub fn five_day_calendar(
    month: usize,
    turn: u32,
    year: i32,
    turns_per_month: u32,
    count: u32,
) -> Vec<String> {
    let (mut m, mut t, mut y) = (month, turn, year);
    let mut out = Vec::new();
    for i in 0..count {
        let label = format!("{}, {t}", MONTHS[m % 12]);
        if i == 0 || (m % 12 == 0 && t == 1) {
            out.push(format!("{label} ({y})"));
        } else {
            out.push(label);
        }
        t += 1;
        if t > turns_per_month {
            t = 1;
            m += 1;
            if m == 12 {
                m = 0;
                y += 1;
            }
        }
    }
    out
}

/// Splits `sp` Strength Points over counters of the given maximum strengths, as evenly as
/// possible: each SP goes to the counter holding least that still has room, larger counters
/// first on ties. `None` if the SPs do not fit (`count ≤ sp ≤ Σ max`).
pub fn distribute_sp(sp: u32, maxima: &[u32]) -> Option<Vec<u32>> {
    let total: u32 = maxima.iter().sum();
    if maxima.is_empty() || sp < maxima.len() as u32 || sp > total {
        return None;
    }
    let mut order: Vec<usize> = (0..maxima.len()).collect();
    order.sort_by(|&a, &b| maxima[b].cmp(&maxima[a]).then(a.cmp(&b)));
    let mut held = vec![0u32; maxima.len()];
    for _ in 0..sp {
        let next = order
            .iter()
            .copied()
            .filter(|&i| held[i] < maxima[i])
            .min_by_key(|&i| held[i])?;
        held[next] += 1;
    }
    Some(held)
}

/// Every counter's ids by name (a name may be on several counters).
fn counter_ids_by_name(
    start: &[CounterSpec],
    reinforcements: &[Reinforcement],
    conditional: &[ConditionalReinforcement],
) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let all = start
        .iter()
        .chain(reinforcements.iter().flat_map(|r| &r.counters))
        .chain(conditional.iter().flat_map(|r| &r.counters));
    for c in all {
        out.entry(c.name.clone()).or_default().push(c.id.clone());
    }
    out
}

fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// The regions' alignments at start, as printed.
fn regions(raw: &RawScenario) -> Vec<RegionAlignment> {
    raw.regions
        .iter()
        .map(|r| RegionAlignment {
            region: r.region.clone(),
            alignment: r.alignment.clone(),
            alternative: r.alternative.clone(),
            note: r.note.clone(),
        })
        .collect()
}

/// Every counter of the scenario: at start, arriving, and brought by a result.
fn every_counter<'c>(
    start: &'c mut [CounterSpec],
    reinforcements: &'c mut [Reinforcement],
    conditional: &'c mut [ConditionalReinforcement],
) -> Vec<&'c mut CounterSpec> {
    start
        .iter_mut()
        .chain(
            reinforcements
                .iter_mut()
                .flat_map(|r| r.counters.iter_mut()),
        )
        .chain(conditional.iter_mut().flat_map(|r| r.counters.iter_mut()))
        .collect()
}

/// Loads and validates a scenario against the loaded rulesets. Either everything loads or
/// nothing does.
pub fn load_scenario(file: &SourceFile, rulesets: &Library) -> Result<Scenario, LoadErrors> {
    let raw: RawScenario = parse_yaml(file).map_err(|e| LoadErrors(vec![e]))?;
    let mut ctx = Ctx::new(file);
    let root = YamlPath::root();
    let ruleset = scenario_ruleset(&mut ctx, &raw, rulesets)?;
    let calendar = calendar(&mut ctx, &raw);
    let (sides, side_ids) = sides(&mut ctx, &raw);
    let (armies, army_sides) = armies(&mut ctx, &raw, &side_ids);
    let strength = strength(&mut ctx, &raw, ruleset);
    let defaults = unknown_defaults(&mut ctx, &raw, ruleset);
    let mut refs = Refs {
        ruleset,
        sides: side_ids,
        armies: army_sides,
        strength,
        ids: BTreeSet::new(),
        calendar: calendar.clone(),
        turns: raw.turns,
        notes: Vec::new(),
        unknown_units: defaults.units,
        unknown_leaders: defaults.leaders,
        map_tables: Vec::new(),
        qualifiers: BTreeMap::new(),
    };
    if let Some(fp) = &raw.first_player {
        check_side(&mut ctx, &refs, &root.key("first_player"), fp);
    }
    let (forces, mut start_counters) = start_forces(&mut ctx, &mut refs, &raw);
    let reinforcements = reinforcements(&mut ctx, &mut refs, &raw);
    let special_rules = text_items(
        &mut ctx,
        &refs,
        &root.key("special_rules"),
        &raw.special_rules,
    );
    let conditional = conditional_reinforcements(&mut ctx, &mut refs, &raw, &special_rules);
    let schedules = schedules(&mut ctx, &refs, &raw);
    let supply_sources = supply_sources(&mut ctx, &refs, &raw);
    let holdings = holdings(&mut ctx, &refs, &raw);
    let capitano_cards = capitano_cards(&mut ctx, &refs, &raw);
    let regions = regions(&raw);
    let mut victory = text_items(&mut ctx, &refs, &root.key("victory"), &raw.victory);
    let vrefs = VictoryRefs {
        counters: counter_ids_by_name(&start_counters, &reinforcements, &conditional),
        items: raw.victory.iter().map(|t| t.id.as_str()).collect(),
        special_rules: raw.special_rules.iter().map(|t| t.id.as_str()).collect(),
    };
    victory_checks(&mut ctx, &refs, &vrefs, &raw.victory, &mut victory);
    let rulings = text_items(&mut ctx, &refs, &root.key("rulings"), &raw.rulings);
    let megagame = raw.megagame.as_ref().map(|m| {
        let leaders = leader_ids(&start_counters, &reinforcements, &conditional);
        megagame_section(
            &mut ctx,
            &mut refs,
            &root.key("megagame"),
            m,
            &leaders,
            &mut start_counters,
        )
    });

    let mut reinforcements = reinforcements;
    let mut conditional = conditional;
    counter_values(
        &mut ctx,
        refs.ruleset,
        &raw.counter_values,
        every_counter(&mut start_counters, &mut reinforcements, &mut conditional),
    );
    if !ctx.errors.is_empty() {
        return Err(LoadErrors(std::mem::take(&mut ctx.errors)));
    }
    unique_names(
        &refs.qualifiers,
        every_counter(&mut start_counters, &mut reinforcements, &mut conditional),
    );
    Ok(Scenario {
        id: raw.id,
        ruleset: raw.ruleset,
        title: raw.title,
        source: raw.source,
        date: raw.date,
        turns: raw.turns,
        calendar,
        sides,
        armies,
        first_player: raw.first_player,
        map: raw.map,
        forces,
        counters: start_counters,
        counter_notes: refs.notes,
        reinforcements,
        conditional_reinforcements: conditional,
        schedules,
        supply_sources,
        regions,
        holdings,
        capitano_cards,
        victory,
        special_rules,
        rulings,
        notes: raw.notes,
        megagame,
        remits: refs.ruleset.remits.clone().map(std::sync::Arc::new),
        records: std::sync::Arc::new(refs.ruleset.records.clone()),
        organiser_setup: raw.organiser_setup.map(|o| super::model::OrganiserSetup {
            text: o.text,
            rule: o.rule,
            steps: o.steps,
        }),
        places: place_kinds(&mut ctx, refs.ruleset, &raw.place_kinds)?,
    })
}

/// The map's places, with the kinds the organiser reads off the map where the text gives none
/// (`place_kinds:`); a kind the text gives stays, and one given otherwise is refused.
fn place_kinds(
    ctx: &mut Ctx,
    ruleset: &Ruleset,
    raw: &[RawPlaceKindOf],
) -> Result<Vec<crate::rules::Place>, LoadErrors> {
    let mut places = ruleset
        .geometry
        .as_ref()
        .map(|g| g.places.clone())
        .unwrap_or_default();
    let root = YamlPath::root().key("place_kinds");
    for (i, k) in raw.iter().enumerate() {
        let at = root.index(i);
        let kind = k.kind.kind();
        match places.iter_mut().find(|p| p.answers_to(&k.place)) {
            Some(p) => match p.kind {
                Some(given) if given != kind => ctx.err(
                    &at.key("kind"),
                    format!(
                        "{} is a {} in the ruleset's gazetteer",
                        p.name,
                        crate::game::victory::place_kind_words(given)
                    ),
                    "give kinds only where the text says nothing",
                ),
                _ => p.kind = Some(kind),
            },
            None => ctx.err(
                &at.key("place"),
                format!("the map names no place '{}'", k.place),
                "name a place of the ruleset's `geometry.places` as printed",
            ),
        }
    }
    if ctx.errors.is_empty() {
        Ok(places)
    } else {
        Err(LoadErrors(std::mem::take(&mut ctx.errors)))
    }
}
