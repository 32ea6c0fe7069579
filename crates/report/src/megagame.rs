//! The paper of a megagame (rr3 §6.2 of the digest; L204, L218, L220): a team's confidential
//! statement for a turn, the public announcements sheet, and the Control log for the debrief.
//!
//! Like the turn report ([`super::turn`]), each sheet shows only what its readers may know, as
//! the ruleset's `visibility:` section declares it ([`umpire_core::game::visibility`]). A team's
//! statement shows its own states' ledgers, armies, fleets and characters and the resolutions
//! that involved them — never another state's treasury, and only the counters of other teams it
//! may see. The announcements sheet shows announcements made public and the results the ruleset
//! makes open to all, under the headings of `templates/megagame.yaml` (battles, deaths,
//! marriages, births, revolts, conversions), naming only the counters the public sees. The
//! Control log shows everything, with who made each entry and when.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Local};
use serde::Deserialize;

use umpire_core::game::event::{Audience, Event, EventKind};
use umpire_core::game::people::Team;
use umpire_core::game::state::CounterState;
use umpire_core::game::visibility::{SideView, SightLevel};
use umpire_core::game::{Game, GameState};
use umpire_core::megagame::ledger::{DEBT, StateLedger, TREASURY, ledger};
use umpire_core::megagame::{LedgerItem, People};
use umpire_core::rules::Value;

use super::error::ReportError;
use super::font::Weight;
use super::pdf::{Grid, GridCell, PageStyle, TextStyle, Writer, mm};
use super::template::Template;

/// What the megagame paper lists as public results: `templates/megagame.yaml`, embedded.
pub const MEGAGAME_TEMPLATE: &str = include_str!("../../../templates/megagame.yaml");

/// What to print.
#[derive(Debug, Clone, PartialEq)]
pub struct PaperOptions {
    /// One turn (statements and announcements: the current turn when None; the Control log:
    /// the whole game).
    pub turn: Option<u32>,
    /// When it is printed (shown in the header).
    pub printed_at: DateTime<Local>,
}

/// A procedure whose results are public, with the heading they are printed under.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublicResult {
    /// Procedure id.
    pub procedure: String,
    /// Heading on the sheet ("Battles").
    pub heading: String,
    /// Only these outcomes are news (by code: a death roll's "dies", not "survives"); every
    /// outcome when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outcomes: Vec<String>,
}

impl PublicResult {
    /// Whether a result of this procedure with the outcome `code` that stands is news.
    pub fn is_news(&self, code: &str) -> bool {
        self.outcomes.is_empty() || self.outcomes.iter().any(|o| o == code)
    }
}

/// The template's outcome codes checked against the ruleset: an error names the file, the line
/// and column of the code, the procedure, and the codes it has.
fn check_outcomes(game: &Game, public: &[PublicResult]) -> Result<(), ReportError> {
    let ruleset = &game.ruleset().id;
    for (i, p) in public.iter().enumerate() {
        let Some(procedure) = game.ruleset().procedure(&p.procedure) else {
            continue;
        };
        for (j, code) in p.outcomes.iter().enumerate() {
            if procedure.outcome(code).is_none() {
                let known: Vec<&str> = procedure.outcomes.iter().map(|o| o.code.as_str()).collect();
                let path = umpire_core::rules::locate::YamlPath::root()
                    .key("public_results")
                    .key(ruleset)
                    .index(i)
                    .key("outcomes")
                    .index(j);
                let (line, column) =
                    umpire_core::rules::locate::YamlIndex::build(MEGAGAME_TEMPLATE).locate(&path);
                return Err(ReportError::Template(format!(
                    "{MEGAGAME_FILE}:{line}:{column}: public_results › {ruleset} › {}: no outcome \
                     '{code}' — its outcomes: {}",
                    p.procedure,
                    known.join(", ")
                )));
            }
        }
    }
    Ok(())
}

/// The megagame template's name in messages.
const MEGAGAME_FILE: &str = "templates/megagame.yaml (embedded)";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MegagamePaper {
    public_results: BTreeMap<String, Vec<PublicResult>>,
}

/// The procedures whose results are public in a ruleset, from `templates/megagame.yaml`.
pub fn public_results(ruleset: &str) -> Result<Vec<PublicResult>, ReportError> {
    let paper: MegagamePaper = yaml_serde::from_str(MEGAGAME_TEMPLATE).map_err(|e| {
        let file = umpire_core::rules::SourceFile {
            name: MEGAGAME_FILE.to_string(),
            text: MEGAGAME_TEMPLATE.to_string(),
        };
        ReportError::Template(umpire_core::rules::yaml_error(&file, &e).to_string())
    })?;
    Ok(paper
        .public_results
        .get(ruleset)
        .cloned()
        .unwrap_or_default())
}

/// The game's teams, (id, name), for choosing one and for error messages.
pub fn known_teams(game: &Game) -> Vec<(String, String)> {
    People::of(game)
        .teams
        .into_iter()
        .map(|t| (t.id, t.name))
        .collect()
}

fn cell(s: impl Into<String>) -> GridCell {
    GridCell::Text(s.into())
}

/// The page furniture every sheet shares.
struct Sheet {
    writer: Writer,
    style: PageStyle,
}

impl Sheet {
    fn with(
        game: &Game,
        title: &str,
        facts: &[String],
        template: Option<Template>,
    ) -> Result<Sheet, ReportError> {
        let template = match template {
            Some(t) => t,
            None => Template::sheet_default()?,
        };
        let full = format!("{} — {title}", game.scenario().title);
        let writer = Writer::new(&full, &format!("Umpire · {full}"), template)?;
        let style = PageStyle::of(writer.template());
        let mut sheet = Sheet { writer, style };
        sheet.writer.paragraph(
            None,
            title,
            TextStyle {
                size: sheet.style.title_size * 1.4,
                weight: Weight::Bold,
                colour: sheet.style.ink,
            },
            0.0,
        );
        sheet
            .writer
            .paragraph(None, &facts.join(" · "), sheet.style.small, 0.0);
        // What a reader keeps to check later that the journal was not rewritten.
        let head = game.head();
        let trust = format!(
            "Journal: {} entries, head {} · {}",
            head.entries,
            head.hash,
            game.seed_statement()
        );
        sheet.writer.paragraph(None, &trust, sheet.style.small, 0.0);
        if let Some(words) = game.app_dice_before_reveal() {
            let keep = format!("{words} — this sheet's head ({}) is one", head.token());
            sheet.writer.paragraph(None, &keep, sheet.style.small, 0.0);
        }
        Ok(sheet)
    }

    fn heading(&mut self, text: &str) {
        self.writer.heading(
            text,
            self.style.title_size,
            self.style.accent,
            self.style.table_size * 6.0,
        );
    }

    fn line(&mut self, lead: Option<&str>, text: &str) {
        self.writer.paragraph(lead, text, self.style.body, 0.0);
    }

    fn note(&mut self, text: &str) {
        self.writer.paragraph(None, text, self.style.small, 0.0);
    }

    fn table(&mut self, header: &[&str], rows: Vec<Vec<GridCell>>, continued: &str) {
        if rows.is_empty() {
            self.note("None.");
            return;
        }
        self.writer.table(&Grid {
            header: vec![header.iter().map(|h| cell(*h)).collect()],
            rows,
            continued: continued.into(),
        });
    }

    fn finish(self) -> Vec<u8> {
        self.writer.finish()
    }
}

/// "turn 2 (1529 - 1532)".
fn turn_label(game: &Game, turn: u32) -> String {
    let years = game
        .ruleset()
        .clock()
        .and_then(|c| c.turn(turn))
        .and_then(|t| t.years.clone())
        .or_else(|| {
            game.scenario()
                .calendar
                .get((turn as usize).saturating_sub(1))
                .cloned()
        });
    match years {
        Some(y) => format!("Turn {turn} ({y})"),
        None => format!("Turn {turn}"),
    }
}

fn step_path(game: &Game, step: usize) -> String {
    game.steps()
        .get(step)
        .map_or_else(|| format!("step {}", step + 1), |s| s.path.clone())
}

/// A step's own name (the last level of its path), for narrow columns.
fn short_step(game: &Game, step: usize) -> String {
    let path = step_path(game, step);
    path.rsplit(" › ").next().unwrap_or(&path).to_string()
}

fn value_text(v: Option<&Value>) -> String {
    v.map_or_else(|| "—".to_string(), |v| v.to_string())
}

fn attr(item: &LedgerItem, name: &str) -> String {
    if item.unknown.iter().any(|u| u == name) {
        return "?".to_string();
    }
    value_text(item.attributes.get(name))
}

/// The outcome that stands for a resolution (an override wins).
fn outcome_of(game: &Game, e: &Event) -> Option<String> {
    let EventKind::Resolved { resolution, .. } = &e.kind else {
        return None;
    };
    Some(umpire_core::game::describe::Words::of(game).standing_outcome(Some(e.seq), resolution))
}

fn procedure_name(game: &Game, id: &str) -> String {
    game.ruleset()
        .procedure(id)
        .map_or_else(|| id.to_string(), |p| p.name.clone())
}

fn in_turn(e: &Event, turn: Option<u32>) -> bool {
    turn.is_none_or(|t| e.cursor.turn == t)
}

/// When an entry was made, as the megagame says it: "Turn 2 · Phase 3 (Military phase), 10:42"
/// ([`umpire_core::megagame::when`]; the step's own name in a game without a phase clock).
fn when_label(game: &Game, e: &Event) -> String {
    umpire_core::megagame::when::when_of(game, e).label()
}

/// [`when_label`] of journal entry `seq` (the step's name when the entry is not found).
fn when_of_entry(game: &Game, seq: u64, step: usize) -> String {
    game.events()
        .get(seq.saturating_sub(1) as usize)
        .filter(|e| e.seq == seq)
        .map_or_else(|| short_step(game, step), |e| when_label(game, e))
}

/// A public result as the gazette reports it, one sentence: what, who (by role, as the public
/// sees them), each side's score in an opposed roll, the result, and each side's losses.
fn gazette_sentence(
    game: &Game,
    resolution: &umpire_core::resolve::Resolution,
    counters: &BTreeMap<String, Vec<String>>,
    overridden: Option<&String>,
    public_name: &dyn Fn(&str) -> Option<String>,
) -> String {
    use umpire_core::game::describe::{and_list, capitalised};
    let role_names = |role: &str| -> String {
        and_list(
            counters
                .get(role)
                .into_iter()
                .flatten()
                .filter_map(|id| public_name(id))
                .collect(),
        )
    };
    let who: Vec<String> = counters
        .keys()
        .map(|role| (role, role_names(role)))
        .filter(|(_, names)| !names.is_empty())
        .map(|(role, names)| {
            if counters.len() > 1 {
                format!("{names} ({})", role.replace('_', " "))
            } else {
                names
            }
        })
        .collect();
    let mut s = procedure_name(game, &resolution.procedure);
    if !who.is_empty() {
        s.push_str(&format!(": {}", who.join(" against ")));
    }
    // Each side's score, in an opposed roll: never summed into one number.
    let scores: Vec<String> = resolution
        .scores
        .iter()
        .map(|n| {
            let names = role_names(&n.name);
            if names.is_empty() {
                format!("{} {}", n.name.replace('_', " "), n.value)
            } else {
                format!("{names} {}", n.value)
            }
        })
        .collect();
    if !scores.is_empty() {
        s.push_str(&format!(" — scores: {}", scores.join(", ")));
    }
    // Each side's losses, as the result's effects give them (an override's are not known).
    let losses: Vec<String> = if overridden.is_some() {
        Vec::new()
    } else {
        resolution
            .outcome
            .effects
            .iter()
            .filter(|x| x.kind == umpire_core::rules::EffectKind::SpLoss)
            .filter_map(|x| {
                let amount = x.amount?;
                let who = x
                    .side
                    .as_deref()
                    .map(role_names)
                    .filter(|n| !n.is_empty())
                    .unwrap_or_else(|| "the loser".into());
                let unit = x
                    .text
                    .as_deref()
                    .map(|t| t.split(" (").next().unwrap_or(t).to_string())
                    .unwrap_or_else(|| "SP".into());
                Some(format!("{who} loses {amount} {unit}"))
            })
            .collect()
    };
    let outcome = match overridden {
        Some(code) => {
            umpire_core::game::describe::Words::of(game).outcome_label(&resolution.procedure, code)
        }
        None => {
            // The result's number in the sentence ("Children (2)"), unless the losses say it.
            let v = resolution.outcome.value.map(|v| v.to_string());
            let said = v.as_ref().is_some_and(|v| {
                losses
                    .iter()
                    .any(|l| l.split_whitespace().any(|w| w == v.as_str()))
            });
            if said {
                resolution.outcome.label.clone()
            } else {
                umpire_core::game::describe::outcome(resolution)
            }
        }
    };
    s.push_str(&format!(". {}", capitalised(&outcome)));
    if !losses.is_empty() {
        s.push_str(&format!("; {}", losses.join(", ")));
    }
    s.push('.');
    s
}

/// A balance as a statement prints it: one below zero says so.
fn balance_words(b: i64) -> String {
    if b < 0 {
        format!("{b} (below 0)")
    } else {
        b.to_string()
    }
}

/// A ledger as it stood in `state` (its values, and what belonged to its state then); its
/// history is kept whole.
fn as_at(mut l: StateLedger, people: &People, state: &GameState) -> StateLedger {
    if let Some(c) = state.counters.get(&l.counter) {
        l.values = c.attributes.clone();
        l.unknown = c.unknown.clone();
        l.statuses = c.statuses.clone();
    }
    umpire_core::megagame::ledger::fill_items(&mut l, state, people);
    l
}

/// One team's confidential statement for a turn: the treasury's lines of that turn, and
/// everything else as it stood at the turn's end.
pub fn statement_pdf(
    game: &Game,
    team: &str,
    options: &PaperOptions,
    template: Template,
) -> Result<Vec<u8>, ReportError> {
    super::pdf::without_a_stray_page(&template, 0.9, |t| set_statement(game, team, options, t))
}

fn set_statement(
    game: &Game,
    team: &str,
    options: &PaperOptions,
    template: Template,
) -> Result<super::pdf::Writer, ReportError> {
    let turn = options.turn.unwrap_or(game.state().cursor.turn);
    // The game as it stood at the end of the turn (the treasury history is the whole journal's).
    let timeline = game.timeline().map_err(ReportError::Layout)?;
    let at_end = timeline
        .state_at(timeline.end_of_turn(turn))
        .map_err(ReportError::Layout)?;
    let people = People::new(game.scenario(), &at_end);
    let Some(team_spec) = people.teams.iter().find(|t| t.id == team) else {
        let known: Vec<&str> = people.teams.iter().map(|t| t.id.as_str()).collect();
        return Err(ReportError::Layout(format!(
            "no team '{team}' — teams: {}",
            known.join(", ")
        )));
    };
    let ledgers: Vec<StateLedger> = team_spec
        .states
        .iter()
        .filter_map(|s| ledger(game, s))
        .map(|l| as_at(l, &people, &at_end))
        .collect();
    // The team's own counters (its ledgers, what belongs to its states, its characters and
    // counters of its side), as the ruleset's visibility says a team owns them.
    let view = SideView::new(game.ruleset(), game.scenario(), team).map_err(ReportError::Layout)?;
    let own: BTreeSet<String> = {
        let sighted = view.at(&at_end);
        at_end
            .counters
            .keys()
            .filter(|id| sighted.owns(id))
            .cloned()
            .collect()
    };
    let st = Statement {
        game,
        team: team_spec,
        turn,
        at_end: &at_end,
        people: &people,
        ledgers: &ledgers,
        view: &view,
        own: &own,
    };

    let title = format!(
        "{} — confidential statement — {}",
        team_spec.name,
        turn_label(game, turn)
    );
    let facts = [
        format!("for {} only", team_spec.name),
        format!("printed {}", options.printed_at.format("%Y-%m-%d %H:%M")),
    ];
    let mut sheet = Sheet::with(game, &title, &facts, Some(template))?;
    if ledgers.is_empty() {
        sheet.heading("Treasury");
        sheet.note("This team plays no state with a ledger in this scenario.");
    }
    for l in &ledgers {
        write_treasury(&mut sheet, &st, l);
    }
    write_team_forces(&mut sheet, &st);
    write_characters(&mut sheet, &st);
    write_team_resolutions(&mut sheet, &st);
    write_team_records(&mut sheet, &st);
    write_team_announcements(&mut sheet, &st);
    write_next_turn(&mut sheet, &st);
    sheet.writer.space(mm(2.0));
    sheet.note(
        "Confidential: this statement shows this team's own states, forces and characters only; \
         other teams' counters only as far as the rules let a team see them.",
    );
    Ok(sheet.writer)
}

/// What every section of a team's statement reads.
struct Statement<'a> {
    game: &'a Game,
    team: &'a Team,
    turn: u32,
    /// The game as it stood at the end of the turn.
    at_end: &'a GameState,
    people: &'a People,
    /// The team's states' ledgers, as they stood at the end of the turn.
    ledgers: &'a [StateLedger],
    view: &'a SideView<'a>,
    /// The team's own counters.
    own: &'a BTreeSet<String>,
}

impl Statement<'_> {
    /// A counter's name at the end of the turn (its id when it has none).
    fn name_of(&self, id: &str) -> String {
        self.at_end
            .counters
            .get(id)
            .map_or_else(|| id.to_string(), |c| c.name.clone())
    }
}

/// One state's treasury: its lines of the turn between the balances at its start and end, then
/// debt, cards and unrest as they stand.
fn write_treasury(sheet: &mut Sheet, st: &Statement, l: &StateLedger) {
    let (game, turn) = (st.game, st.turn);
    sheet.heading(&format!("{} — treasury", l.name));
    let start_value = game
        .scenario()
        .all_counters()
        .find(|c| c.id == l.counter)
        .and_then(|c| match c.attributes.get(TREASURY) {
            Some(Value::Int(v)) => Some(*v),
            _ => None,
        });
    let before: Option<i64> = l
        .history_of(TREASURY)
        .filter(|e| e.turn < turn)
        .last()
        .map_or(start_value, |e| e.balance);
    let mut rows = vec![vec![
        cell(""),
        cell(format!("Start of turn {turn}")),
        cell(""),
        cell(""),
        cell(before.map_or_else(|| "?".to_string(), |b| b.to_string())),
    ]];
    let mut end = before;
    for e in l.history_of(TREASURY).filter(|e| e.turn == turn) {
        let amount = if e.set {
            format!("set ({:+})", e.delta)
        } else {
            format!("{:+}", e.delta)
        };
        rows.push(vec![
            cell(e.seq.to_string()),
            cell(e.reason.clone()),
            cell(when_of_entry(game, e.seq, e.step)),
            cell(amount),
            cell(e.balance.map_or_else(|| "?".to_string(), balance_words)),
        ]);
        end = e.balance;
    }
    rows.push(vec![
        cell(""),
        cell(format!("End of turn {turn}")),
        cell(""),
        cell(""),
        cell(end.map_or_else(|| "?".to_string(), balance_words)),
    ]);
    sheet.writer.table(&Grid {
        header: vec![vec![
            cell("Entry"),
            cell("Income or expense"),
            cell("When"),
            cell("Florins"),
            cell("Balance"),
        ]],
        rows,
        continued: format!("{} — treasury", l.name),
    });
    write_ledger_facts(sheet, st, l);
}

/// Debt, cards and unrest as they stand, and the debt's lines of the turn.
fn write_ledger_facts(sheet: &mut Sheet, st: &Statement, l: &StateLedger) {
    let words = |k: &str| umpire_core::game::describe::attribute_words(st.game.ruleset(), k);
    let mut facts = vec![format!(
        "{} {}",
        words(DEBT),
        if l.unknown.iter().any(|u| u == DEBT) {
            "?".to_string()
        } else {
            value_text(l.values.get(DEBT))
        }
    )];
    for (k, v) in &l.values {
        if k == TREASURY || k == DEBT {
            continue;
        }
        if k.contains("card") || k.contains("unrest") || k.contains("prestige") {
            facts.push(format!("{} {v}", words(k)));
        }
    }
    for u in &l.unknown {
        if (u.contains("card") || u.contains("unrest")) && u != DEBT {
            facts.push(format!("{} ?", words(u)));
        }
    }
    sheet.writer.space(mm(1.0));
    sheet.line(Some("Ledger:"), &facts.join(" · "));
    let debt_lines: Vec<String> = l
        .history_of(DEBT)
        .filter(|e| e.turn == st.turn)
        .map(|e| format!("entry {}: {:+} — {}", e.seq, e.delta, e.reason))
        .collect();
    if !debt_lines.is_empty() {
        sheet.line(Some("Debt this turn:"), &debt_lines.join("; "));
    }
}

/// Armies and fleets of the team's states, and of its side.
fn write_team_forces(sheet: &mut Sheet, st: &Statement) {
    let mut forces: Vec<&LedgerItem> = st
        .ledgers
        .iter()
        .flat_map(|l| l.armies.iter().chain(&l.fleets))
        .collect();
    let seen: BTreeSet<&str> = forces.iter().map(|i| i.id.as_str()).collect();
    let side_items: Vec<LedgerItem> = st
        .at_end
        .counters
        .values()
        .filter(|c| c.side == st.team.id && !seen.contains(c.id.as_str()))
        .filter(|c| {
            matches!(
                st.people.class_of(&c.id),
                Some(
                    umpire_core::megagame::CounterClass::Army
                        | umpire_core::megagame::CounterClass::Fleet
                )
            ) && c.kind != umpire_core::game::scenario::CounterKind::Leader
        })
        .map(|c| umpire_core::megagame::ledger::item(c, st.people))
        .collect();
    forces.extend(side_items.iter());
    sheet.heading("Armies and fleets");
    let strength = st
        .game
        .ruleset()
        .strength_attribute
        .clone()
        .unwrap_or_else(|| "strength".to_string());
    let rows: Vec<Vec<GridCell>> = forces
        .iter()
        .map(|i| {
            let place = match &i.removed {
                Some(r) => format!("removed: {r}"),
                None => i.position.clone(),
            };
            vec![
                cell(i.name.clone()),
                cell(format!("{:?}", i.class).to_lowercase()),
                cell(place),
                cell(attr(i, &strength)),
                cell(attr(i, "arrears")),
                cell(attr(i, "fatigue")),
                cell(
                    i.statuses
                        .iter()
                        .map(|s| umpire_core::game::words::status_words(st.game.ruleset(), s))
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
            ]
        })
        .collect();
    sheet.table(
        &[
            "Army or fleet",
            "Kind",
            "Location",
            "Strength",
            "Arrears",
            "Fatigue",
            "Status",
        ],
        rows,
        "Armies and fleets",
    );
}

/// The team's characters and those of its states.
fn write_characters(sheet: &mut Sheet, st: &Statement) {
    sheet.heading("Characters");
    let mut chars: Vec<&CounterState> = st
        .team
        .characters
        .iter()
        .filter_map(|id| st.at_end.counters.get(id))
        .collect();
    for l in st.ledgers {
        for c in &l.characters {
            if !chars.iter().any(|x| x.id == c.id)
                && let Some(cs) = st.at_end.counters.get(&c.id)
            {
                chars.push(cs);
            }
        }
    }
    let rows: Vec<Vec<GridCell>> = chars
        .iter()
        .map(|c| {
            let a = |k: &str| {
                if c.unknown.iter().any(|u| u == k) {
                    "?".to_string()
                } else {
                    match c.attributes.get(k) {
                        Some(Value::Text(t)) if !t.is_empty() => st.name_of(t),
                        other => value_text(other),
                    }
                }
            };
            let alive = match c.attributes.get("alive") {
                Some(Value::Bool(false)) => "dead".to_string(),
                _ if c.removed.is_some() => "removed".to_string(),
                _ => "alive".to_string(),
            };
            vec![
                cell(c.name.clone()),
                cell(a("age")),
                cell(a("spouse")),
                cell(a("heir")),
                cell(alive),
            ]
        })
        .collect();
    sheet.table(
        &["Character", "Age", "Spouse", "Heir", ""],
        rows,
        "Characters",
    );
}

/// Resolutions this turn that involved the team's counters, naming the counters as the team
/// sees them now.
fn write_team_resolutions(sheet: &mut Sheet, st: &Statement) {
    let game = st.game;
    sheet.heading(&format!("Resolutions involving {} this turn", st.team.name));
    let state = game.state();
    let seen_now = st.view.at(state);
    let mut rows = Vec::new();
    for e in game.events().iter().filter(|e| e.cursor.turn == st.turn) {
        let EventKind::Resolved {
            resolution,
            counters,
            ..
        } = &e.kind
        else {
            continue;
        };
        if !state.effective.contains(&e.seq) {
            continue;
        }
        let involved: Vec<&String> = counters.values().flatten().collect();
        if !involved.iter().any(|id| st.own.contains(*id)) {
            continue;
        }
        let shown: Vec<String> = counters
            .iter()
            .map(|(role, ids)| {
                let names: Vec<String> = ids
                    .iter()
                    .filter_map(|id| match seen_now.counter(id) {
                        Some(c) if c.level >= SightLevel::Identity => Some(st.name_of(id)),
                        Some(c) if c.level == SightLevel::Presence => Some(c.label),
                        Some(_) => None,
                        None => Some(id.clone()),
                    })
                    .collect();
                format!(
                    "{role}: {}",
                    if names.is_empty() {
                        "(not revealed)".to_string()
                    } else {
                        names.join(", ")
                    }
                )
            })
            .collect();
        let dice = umpire_core::resolve::dice_words(resolution);
        rows.push(vec![
            cell(e.seq.to_string()),
            cell(when_label(game, e)),
            cell(procedure_name(game, &resolution.procedure)),
            cell(shown.join("; ")),
            cell(format!(
                "{}{}",
                outcome_of(game, e).unwrap_or_default(),
                if dice.is_empty() {
                    String::new()
                } else {
                    format!(" — dice {}", dice.join("; "))
                }
            )),
        ]);
    }
    sheet.table(
        &["Entry", "When", "Procedure", "Counters", "Result"],
        rows,
        "Resolutions",
    );
}

/// The charts the team is on (where it stands), its treaties and grievances with Control's
/// rulings, and the bank access it gave or was given this turn (Control's records, as they
/// stood at the end of the turn; nothing when the ruleset keeps none).
fn write_team_records(sheet: &mut Sheet, st: &Statement) {
    let (game, records) = (st.game, &st.at_end.records);
    let declared = &game.ruleset().records;
    let team = |t: &str| umpire_core::game::records::team_name(game.scenario(), t);
    let me = st.team.id.as_str();
    let mut rows = Vec::new();
    for c in &declared.charts {
        let Some(s) = records.charts.get(&c.id) else {
            continue;
        };
        let Some(place) = s.ranking.iter().position(|t| t == me) else {
            continue;
        };
        let order: Vec<String> = s
            .ranking
            .iter()
            .enumerate()
            .map(|(i, t)| format!("{}. {}", i + 1, team(t)))
            .collect();
        rows.push(vec![
            cell(c.name.clone()),
            cell(format!(
                "{} of {} (turn {}: {}) — {}",
                place + 1,
                s.ranking.len(),
                s.turn,
                s.reason,
                order.join(", ")
            )),
        ]);
    }
    for r in records.entries_of(me) {
        let name = declared
            .register(&r.register)
            .map_or(r.register.clone(), |d| d.name.clone());
        let parties: Vec<String> = r.parties.iter().map(|p| team(p)).collect();
        rows.push(vec![
            cell(format!("{name} (turn {})", r.turn)),
            cell(format!(
                "{}: {}{}{}",
                parties.join(", "),
                r.terms,
                r.until
                    .map_or(String::new(), |u| format!(", until turn {u}")),
                r.ruling
                    .as_ref()
                    .map_or(String::new(), |x| format!(" — Control's ruling: {x}"))
            )),
        ]);
    }
    let banks = declared.banks.as_ref();
    for (turn, bank, to, _) in &records.bank_access {
        let bank_teams = st.people.teams_of_state(bank);
        if *turn != st.turn || (to != me && !bank_teams.iter().any(|t| t == me)) {
            continue;
        }
        let bank_name = st
            .people
            .state(bank)
            .map_or(bank.clone(), |s| s.name.clone());
        rows.push(vec![
            cell(banks.map_or("Bank".to_string(), |b| b.name.clone())),
            cell(format!(
                "{bank_name}'s bank: access for {} this turn",
                team(to)
            )),
        ]);
    }
    if !rows.is_empty() {
        sheet.heading("Charts, treaties and grievances");
        sheet.table(&["Record", "For this team"], rows, "Records");
    }
}

/// Announcements to the team this turn (nothing when there were none).
fn write_team_announcements(sheet: &mut Sheet, st: &Statement) {
    let state = st.game.state();
    let said: Vec<Vec<GridCell>> = st
        .game
        .events()
        .iter()
        .filter(|e| e.cursor.turn == st.turn && state.effective.contains(&e.seq))
        .filter_map(|e| match &e.kind {
            EventKind::Announced {
                audience: Audience::Team,
                team: Some(t),
                text,
            } if *t == st.team.id => Some(vec![
                cell(when_label(st.game, e)),
                cell(e.by.clone().unwrap_or_default()),
                cell(text.clone()),
            ]),
            _ => None,
        })
        .collect();
    if !said.is_empty() {
        sheet.heading("Announcements to the team");
        sheet.table(&["When", "By", "Announcement"], said, "Announcements");
    }
}

/// The next turn's phase ends, from the timetable (nothing when it has none).
fn write_next_turn(sheet: &mut Sheet, st: &Statement) {
    let (game, turn) = (st.game, st.turn);
    if let Some(next) = game.ruleset().clock().and_then(|c| c.turn(turn + 1))
        && !next.phase_ends.is_empty()
    {
        sheet.heading(&format!("Next: {}", turn_label(game, turn + 1)));
        let ends: Vec<String> = next
            .phase_ends
            .iter()
            .enumerate()
            .map(|(i, e)| format!("phase {} ends {e}", i + 1))
            .collect();
        sheet.line(Some("Timetable:"), &ends.join(" · "));
    }
}

/// The public announcements sheet for a turn.
pub fn announcements_pdf(
    game: &Game,
    options: &PaperOptions,
    template: Template,
) -> Result<Vec<u8>, ReportError> {
    let turn = options.turn.unwrap_or(game.state().cursor.turn);
    let state = game.state();
    let title = format!("Announcements — {}", turn_label(game, turn));
    let facts = [
        "public".to_string(),
        format!("printed {}", options.printed_at.format("%Y-%m-%d %H:%M")),
    ];
    let mut sheet = Sheet::with(game, &title, &facts, Some(template))?;
    let events: Vec<&Event> = game
        .events()
        .iter()
        .filter(|e| e.cursor.turn == turn && state.effective.contains(&e.seq))
        .collect();

    sheet.heading("Announcements");
    let rows: Vec<Vec<GridCell>> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Announced {
                audience: Audience::Public,
                text,
                ..
            } => Some(vec![
                cell(when_label(game, e)),
                cell(e.by.clone().unwrap_or_default()),
                cell(text.clone()),
            ]),
            _ => None,
        })
        .collect();
    sheet.table(&["When", "By", "Announcement"], rows, "Announcements");

    // The results the ruleset makes open to all, grouped under the template's headings in its
    // order (an open procedure the template does not place goes under "Other results").
    let vis = &game.ruleset().visibility;
    let mut public: Vec<PublicResult> = public_results(&game.ruleset().id)?
        .into_iter()
        .filter(|p| vis.open_result(&p.procedure).is_some())
        .collect();
    check_outcomes(game, &public)?;
    for o in &vis.open_results {
        for p in &o.procedures {
            if !public.iter().any(|x| x.procedure == *p) {
                public.push(PublicResult {
                    procedure: p.clone(),
                    heading: "Other results".to_string(),
                    outcomes: Vec::new(),
                });
            }
        }
    }
    let mut headings: Vec<&str> = Vec::new();
    for p in &public {
        if !headings.contains(&p.heading.as_str()) {
            headings.push(&p.heading);
        }
    }
    let everyone = SideView::public(game.ruleset(), game.scenario());
    let seen = everyone.at(state);
    let public_name = |id: &str| -> Option<String> {
        match seen.counter(id) {
            Some(c) if c.level >= SightLevel::Identity => Some(c.label),
            Some(c) if c.level == SightLevel::Presence => Some(c.label),
            Some(_) => None,
            None => Some(id.to_string()),
        }
    };
    let mut any = false;
    for heading in headings {
        let procs: Vec<&PublicResult> = public.iter().filter(|p| p.heading == heading).collect();
        let mut rows = Vec::new();
        for e in &events {
            let EventKind::Resolved {
                resolution,
                counters,
                ..
            } = &e.kind
            else {
                continue;
            };
            // What stands (an override's outcome) decides whether it is news: a survived death
            // roll is not.
            let code = state
                .overrides
                .get(&e.seq)
                .unwrap_or(&resolution.outcome.code);
            if !procs
                .iter()
                .any(|p| p.procedure == resolution.procedure && p.is_news(code))
            {
                continue;
            }
            rows.push(vec![
                cell(when_label(game, e)),
                cell(gazette_sentence(
                    game,
                    resolution,
                    counters,
                    state.overrides.get(&e.seq),
                    &public_name,
                )),
            ]);
        }
        if rows.is_empty() {
            continue;
        }
        any = true;
        sheet.heading(heading);
        sheet.table(&["When", "What happened"], rows, heading);
    }
    if !any {
        sheet.heading("Results");
        sheet.note("No public results this turn.");
    }
    write_public_records(&mut sheet, game, &events);
    Ok(sheet.finish())
}

/// The gazette's charts (the public ones, as they stand) and this turn's votes of the Diet,
/// each tally with its outcome (Control's records; nothing when the ruleset keeps none).
fn write_public_records(sheet: &mut Sheet, game: &Game, events: &[&Event]) {
    let declared = &game.ruleset().records;
    let records = &game.state().records;
    let team = |t: &str| umpire_core::game::records::team_name(game.scenario(), t);
    let charts: Vec<Vec<GridCell>> = declared
        .charts
        .iter()
        .filter(|c| c.public)
        .filter_map(|c| {
            let s = records.charts.get(&c.id)?;
            let order: Vec<String> = s
                .ranking
                .iter()
                .enumerate()
                .map(|(i, t)| format!("{}. {}", i + 1, team(t)))
                .collect();
            Some(vec![
                cell(format!("{} (turn {})", c.name, s.turn)),
                cell(order.join(", ")),
            ])
        })
        .collect();
    if !charts.is_empty() {
        sheet.heading("Charts");
        sheet.table(&["Chart", "Standing, highest first"], charts, "Charts");
    }
    let votes: Vec<Vec<GridCell>> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Record {
                fact: fact @ umpire_core::game::records::RecordFact::Vote { .. },
            } => Some(vec![
                cell(when_label(game, e)),
                cell(format!(
                    "{}: {}",
                    umpire_core::game::records::title(game.ruleset(), fact),
                    umpire_core::game::records::words(game.ruleset(), game.scenario(), fact, &team)
                )),
            ]),
            _ => None,
        })
        .collect();
    if !votes.is_empty() {
        sheet.heading("Votes");
        sheet.table(&["When", "Vote"], votes, "Votes");
    }
}

/// The Control log: every entry of the game (or of one turn) at the pace of a megagame —
/// grouped by turn and then by clock phase ("Turn 2 · Phase 3 (Military phase)"), one line per
/// routine entry (moves, changes, notes, clock, announcements: its number, time, who and what),
/// the full explanation (inputs, modifiers with their rules, dice with provenance, result) for
/// resolutions only, and the Sequence of Play's steps and skips collapsed into a line each.
pub fn control_log_pdf(
    game: &Game,
    options: &PaperOptions,
    template: Template,
) -> Result<Vec<u8>, ReportError> {
    let span = options
        .turn
        .map_or_else(|| "whole game".to_string(), |t| turn_label(game, t));
    let title = format!("Control log — {span}");
    let facts = [
        "Control only".to_string(),
        format!("printed {}", options.printed_at.format("%Y-%m-%d %H:%M")),
    ];
    let mut sheet = Sheet::with(game, &title, &facts, Some(template))?;
    // Each turn's entries in runs of one phase: the phase is said once, over its entries.
    type Run<'e> = (String, Vec<&'e Event>);
    let mut by_turn: BTreeMap<u32, Vec<Run>> = BTreeMap::new();
    for e in game.events().iter().filter(|e| in_turn(e, options.turn)) {
        // A step marker belongs with the step it went to.
        let cursor = match &e.kind {
            EventKind::Stepped { to, .. } if to.turn == e.cursor.turn => to,
            _ => &e.cursor,
        };
        let phase =
            umpire_core::megagame::when::when(game.ruleset(), game.steps(), cursor, e.at).place();
        let runs = by_turn.entry(e.cursor.turn).or_default();
        match runs.last_mut() {
            Some((last, entries)) if *last == phase => entries.push(e),
            _ => runs.push((phase, vec![e])),
        }
    }
    if by_turn.is_empty() {
        sheet.heading("Events");
        sheet.note("Nothing recorded.");
    }
    let log = LogStyle::of(&sheet);
    sheet.writer.set_leading(1.2);
    for (turn, runs) in by_turn {
        sheet.heading(&turn_label(game, turn));
        for (phase, entries) in runs {
            // The phase's name kept with its first lines.
            sheet.writer.ensure(log.line.size * 1.3 * 4.0);
            sheet.writer.space(mm(0.8));
            sheet.writer.paragraph(None, &phase, log.phase, 0.0);
            write_log_run(&mut sheet, game, &log, &entries);
        }
    }
    sheet.writer.set_leading(super::pdf::Writer::LEADING);
    sheet.writer.space(mm(2.0));
    sheet.note(
        "Each line: entry number, the desk's local time when it was recorded, who made it, what. \
         Undone entries stay in the journal, marked (undone). `umpire game verify` re-derives \
         every app roll from the seed.",
    );
    Ok(sheet.finish())
}

/// The Control log's type.
struct LogStyle {
    phase: TextStyle,
    line: TextStyle,
    explain: TextStyle,
}

impl LogStyle {
    fn of(sheet: &Sheet) -> LogStyle {
        let body = sheet.style.body;
        // Small type, as a register is printed, but never under the template's least size.
        let least = sheet.writer.template().fonts.min_table;
        let line = TextStyle {
            size: (body.size * 0.8).max(least),
            ..body
        };
        LogStyle {
            phase: TextStyle {
                weight: Weight::Bold,
                size: body.size,
                colour: sheet.style.accent,
            },
            line,
            explain: TextStyle {
                colour: sheet.style.small.colour,
                ..line
            },
        }
    }
}

/// One phase's entries: the steps passed and the items skipped in a line each, then every other
/// entry in a line, a resolution with its explanation under it.
fn write_log_run(sheet: &mut Sheet, game: &Game, log: &LogStyle, entries: &[&Event]) {
    let state = game.state();
    let words = umpire_core::game::describe::Words::of(game);
    let undone = |e: &Event| {
        if state.effective.contains(&e.seq) || !e.kind.is_undoable() {
            ""
        } else {
            " (undone)"
        }
    };
    let mut steps: Vec<String> = Vec::new();
    let mut skipped: Vec<(String, Vec<String>)> = Vec::new();
    for e in entries {
        match &e.kind {
            EventKind::Stepped { to, .. } => {
                steps.push(format!(
                    "{} ({}{})",
                    short_step(game, to.step),
                    e.seq,
                    undone(e)
                ));
            }
            EventKind::Skipped { item, reason } => {
                let what = format!("{} ({}{})", words.item(item), e.seq, undone(e));
                match skipped.iter_mut().find(|(r, _)| r == reason) {
                    Some((_, items)) => items.push(what),
                    None => skipped.push((reason.clone(), vec![what])),
                }
            }
            _ => {}
        }
    }
    let indent = mm(5.0);
    if !steps.is_empty() {
        sheet
            .writer
            .paragraph(Some("Steps:"), &steps.join(", "), log.explain, indent);
    }
    for (reason, items) in skipped {
        sheet.writer.paragraph(
            Some("Skipped:"),
            &format!("{} — {reason}", items.join(", ")),
            log.explain,
            indent,
        );
    }
    let mut folded: BTreeSet<u64> = BTreeSet::new();
    for (i, e) in entries.iter().enumerate() {
        if folded.contains(&e.seq)
            || matches!(
                e.kind,
                EventKind::Stepped { .. } | EventKind::Skipped { .. }
            )
        {
            continue;
        }
        let time = e.at.with_timezone(&Local).format("%H:%M").to_string();
        let by = e.by.as_deref().unwrap_or("—");
        let what = match &e.kind {
            EventKind::Resolved {
                resolution,
                counters,
                ..
            } => format!(
                "{} → {}",
                words.resolution_head(resolution, counters),
                words.standing_outcome(Some(e.seq), resolution)
            ),
            EventKind::Clock { action } => words.clock(action),
            EventKind::Announced { .. } | EventKind::Deck { .. } | EventKind::Victory { .. } => {
                format!("{}: {}", words.title(e), words.detail(e).join(" "))
            }
            _ => words.line(e),
        };
        let lead = e.seq.to_string();
        sheet.writer.paragraph(
            Some(&lead),
            &format!("{time} · {by} · {what}{}", undone(e)),
            log.line,
            0.0,
        );
        if let EventKind::Resolved {
            resolution,
            counters,
            ..
        } = &e.kind
        {
            // Its effects applied by the next entry are said with it.
            let applied = entries.get(i + 1).and_then(|next| match &next.kind {
                EventKind::EffectsApplied { of, changes } if *of == e.seq => {
                    folded.insert(next.seq);
                    Some(format!(
                        "Applied (entry {}{}): {}",
                        next.seq,
                        undone(next),
                        words.changes(changes, None)
                    ))
                }
                _ => None,
            });
            let overridden = state.overrides.contains_key(&e.seq);
            let mut lines = log_explanation(
                &words.resolution(resolution, counters),
                resolution,
                overridden,
            );
            lines.extend(applied);
            sheet
                .writer
                .paragraph(None, &lines.join(" · "), log.explain, indent);
        }
    }
}

/// A resolution's explanation for the log, whole but not said twice: the inputs, modifiers with
/// their rules, dice and arithmetic as explained; the result (already on the entry's line) by
/// its rule only, and its effects.
fn log_explanation(
    lines: &[String],
    r: &umpire_core::resolve::Resolution,
    overridden: bool,
) -> Vec<String> {
    let label = &r.outcome.label;
    lines
        .iter()
        .skip(1)
        .filter_map(|line| {
            if overridden {
                return Some(line.clone());
            }
            if let Some(rest) = line.strip_prefix("So: ")
                && rest.starts_with(label.as_str())
            {
                // "So: Subsidy collected (9) [The Financial System]" → its rule.
                return rest
                    .rfind(" [")
                    .filter(|_| rest.ends_with(']'))
                    .map(|at| format!("Result's rule: {}", &rest[at + 2..rest.len() - 1]));
            }
            if let Some(rest) = line
                .strip_prefix("Outcome: ")
                .and_then(|rest| rest.strip_prefix(label.as_str()))
            {
                // After the label: its number, if any, then its effects.
                let rest = match (r.outcome.value, rest.strip_prefix(" (")) {
                    (Some(v), Some(after)) => after.strip_prefix(&format!("{v})")).unwrap_or(rest),
                    _ => rest,
                };
                return rest
                    .strip_prefix(" — ")
                    .map(|effects| format!("Effects: {effects}"));
            }
            Some(line.clone())
        })
        .collect()
}
