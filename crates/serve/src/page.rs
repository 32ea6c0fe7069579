//! The pages of the players' view, rendered on the server with `maud` (every text from the YAML,
//! the scenario and the umpire is escaped by construction: a unit named `<script>` shows as text).

use maud::{DOCTYPE, Markup, PreEscaped, html};

use umpire_core::game::Game;
use umpire_core::game::describe::Words;
use umpire_core::game::visibility::{CounterSight, EntrySight, SideView, Sight};
use umpire_core::game::words::{attribute_words, position_words, status_words};

/// Who a page is for.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Audience {
    /// One side of the scenario (a megagame team is one).
    Side(String),
    /// Everyone: what the rules make public.
    Public,
}

/// The stylesheet: one column, large type, readable on a phone in a hall.
pub const STYLE: &str = r#"
:root { color-scheme: light dark; --ink: #1d1b16; --paper: #f7f3ea; --rule: #c9bfa7; --weak: #6b6453; --accent: #7a2e14; }
@media (prefers-color-scheme: dark) { :root { --ink: #ece6d8; --paper: #1e1c18; --rule: #4a4438; --weak: #a49b86; --accent: #e39a72; } }
* { box-sizing: border-box; }
body { margin: 0; font: 17px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--paper); }
header { padding: 12px 16px 8px; border-bottom: 2px solid var(--rule); }
header h1 { font-size: 1.2rem; margin: 0 0 2px; }
header .when { font-weight: 600; }
header .side { color: var(--accent); font-weight: 600; }
main { padding: 8px 16px 40px; max-width: 760px; margin: 0 auto; }
h2 { font-size: 1.05rem; margin: 18px 0 6px; border-bottom: 1px solid var(--rule); }
h2.inline { display: inline; border: none; }
details.counters { margin-top: 18px; border-bottom: none; }
.weak { color: var(--weak); font-size: 0.9rem; }
ul.counters { list-style: none; padding: 0; margin: 0; }
ul.counters li { padding: 6px 0; border-bottom: 1px solid var(--rule); }
ul.counters .name { font-weight: 600; }
details { border-bottom: 1px solid var(--rule); padding: 6px 0; }
summary { cursor: pointer; }
summary .n { color: var(--weak); font-variant-numeric: tabular-nums; margin-right: 4px; }
details p { margin: 4px 0 4px 14px; }
.live { position: fixed; right: 10px; top: 10px; font-size: 0.8rem; color: var(--weak); }
nav { margin-top: 6px; }
h3 { font-size: 0.95rem; margin: 12px 0 2px; color: var(--weak); }
table.statement { border-collapse: collapse; width: 100%; font-size: 0.92rem; }
table.statement th, table.statement td { text-align: left; padding: 3px 4px; border-bottom: 1px solid var(--rule); vertical-align: top; }
table.statement td.n { text-align: right; font-variant-numeric: tabular-nums; }
.clock { font-weight: 600; font-variant-numeric: tabular-nums; }
#clock { font-size: 1.3rem; color: var(--accent); }
form.code { margin: 12px 0; }
form.code input { font: inherit; padding: 6px; width: 9em; }
a { color: var(--accent); }
.ok { font-weight: 600; }
.bad { font-weight: 600; color: var(--accent); }
"#;

/// Re-renders the page's `main` when the server says the game moved on (Server-Sent Events),
/// keeping open the entries the reader opened. No framework: a dozen lines.
const LIVE: &str = r#"
(function () {
  var here = location.pathname.replace(/\/$/, '');
  var badge = document.getElementById('live');
  function refresh() {
    fetch(here + '/main', {cache: 'no-store'}).then(function (r) {
      if (!r.ok) { return; }
      return r.text().then(function (html) {
        var open = Array.prototype.map.call(document.querySelectorAll('details[open]'), function (d) { return d.id; });
        document.querySelector('main').innerHTML = html;
        open.forEach(function (id) { var d = document.getElementById(id); if (d) { d.open = true; } });
      });
    });
  }
  // The megagame phase clock: counted down here from the phase's end.
  setInterval(function () {
    var clock = document.getElementById('clock');
    if (!clock || !clock.dataset.ends) { return; }
    var left = Math.max(0, Math.ceil((Date.parse(clock.dataset.ends) - Date.now()) / 1000));
    var m = Math.floor(left / 60), s = left % 60;
    clock.textContent = (m < 10 ? '0' : '') + m + ':' + (s < 10 ? '0' : '') + s;
  }, 1000);
  var events = new EventSource(here + '/events');
  events.addEventListener('update', refresh);
  events.onopen = function () { badge.textContent = 'live'; };
  events.onerror = function () { badge.textContent = 'reconnecting…'; };
})();
"#;

/// The name of an audience in words.
pub fn audience_name(game: &Game, audience: &Audience) -> String {
    match audience {
        Audience::Side(id) => umpire_core::game::words::side_words(game.scenario(), id),
        Audience::Public => "Everyone".to_string(),
    }
}

/// A whole page: head, live script, and the main part.
pub fn page(game: &Game, audience: &Audience, token: &str, odds: &mut OddsCache) -> String {
    let title = game.scenario().title.clone();
    let markup: Markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " — " (audience_name(game, audience)) }
                link rel="stylesheet" href="/style.css";
            }
            body {
                span #live .live { "…" }
                main { (main(game, audience, token, odds)) }
                script { (PreEscaped(LIVE)) }
            }
        }
    };
    markup.into_string()
}

/// The part of the page that changes as the game goes on.
pub fn main_part(game: &Game, audience: &Audience, token: &str, odds: &mut OddsCache) -> String {
    main(game, audience, token, odds).into_string()
}

/// The odds each resolution showed before its roll, by entry, worked out once.
pub type OddsCache = std::collections::BTreeMap<u64, Option<String>>;

/// The exact odds of a recorded resolution's outcomes, from its procedure and inputs — the same
/// odds the desk showed before the roll — in words: "D 33.3% (1/3), P 50.0% (1/2)…".
fn odds_words(game: &Game, e: &umpire_core::game::Event, cache: &mut OddsCache) -> Option<String> {
    let umpire_core::game::EventKind::Resolved { resolution, .. } = &e.kind else {
        return None;
    };
    cache
        .entry(e.seq)
        .or_insert_with(|| {
            let ruleset = game.ruleset();
            let procedure = ruleset.procedure(&resolution.procedure)?;
            let odds = umpire_core::resolve::odds(ruleset, procedure, &resolution.inputs).ok()?;
            if odds.outcomes.len() < 2 {
                return None;
            }
            let shown: Vec<String> = odds
                .outcomes
                .iter()
                .take(12)
                .map(|o| {
                    format!(
                        "{} {:.1}% ({})",
                        o.words(),
                        o.probability * 100.0,
                        o.fraction.words()
                    )
                })
                .collect();
            let more = odds.outcomes.len().saturating_sub(12);
            Some(format!(
                "Odds before the roll: {}{}",
                shown.join(", "),
                if more > 0 {
                    format!(", and {more} more")
                } else {
                    String::new()
                }
            ))
        })
        .clone()
}

fn main(game: &Game, audience: &Audience, token: &str, odds: &mut OddsCache) -> Markup {
    let scenario = game.scenario();
    let ruleset = game.ruleset();
    let view = match audience {
        Audience::Side(id) => SideView::new(ruleset, scenario, id).ok(),
        Audience::Public => Some(SideView::public(ruleset, scenario)),
    };
    let Some(view) = view else {
        return html! { p { "This side is not in the game." } };
    };
    // What the side sees of each entry, judged along the journal's timeline.
    let sights = game
        .timeline()
        .and_then(|timeline| view.sights(&timeline))
        .unwrap_or_default();
    let numbering = Numbering::new(game, &sights);
    html! {
        (header_part(game, audience, token, &view))
        // A megagame team: its states' statements, the treasury and debt line by line.
        @if let Audience::Side(team) = audience {
            (statements_part(game, team))
        }
        (gazette_part(game, &numbering))
        (journal_part(game, &sights, &numbering, odds))
        (counters_part(game, audience, &view))
        p .weak { "Read-only: nothing here changes the game. Entries your side may not see are left out." }
    }
}

/// The side's own numbers for the entries it sees: no gap counts the entries it may not see.
struct Numbering {
    numbers: std::collections::BTreeMap<u64, u64>,
    /// Steps, unnumbered, counted among the steps.
    steps: std::collections::BTreeMap<u64, usize>,
}

impl Numbering {
    fn new(game: &Game, sights: &[EntrySight]) -> Numbering {
        let numbers = umpire_core::game::visibility::side_numbers(sights, game.events());
        let steps = sights
            .iter()
            .filter(|s| s.sight.seen() && !numbers.contains_key(&s.seq))
            .enumerate()
            .map(|(k, s)| (s.seq, k + 1))
            .collect();
        Numbering { numbers, steps }
    }

    /// "#3 " (nothing for an entry without a number).
    fn num(&self, seq: u64) -> String {
        self.numbers
            .get(&seq)
            .map_or_else(String::new, |n| format!("#{n} "))
    }

    /// An entry's anchor (kept open across live updates) by the side's number too: the page's
    /// source says no more than its text.
    fn anchor(&self, seq: u64) -> String {
        match (self.numbers.get(&seq), self.steps.get(&seq)) {
            (Some(n), _) => format!("e{n}"),
            (None, Some(k)) => format!("s{k}"),
            (None, None) => String::new(),
        }
    }
}

/// The page's header: the scenario, the turn and step, whose view it is, the phase clock, the
/// app dice, and a side's links.
fn header_part(game: &Game, audience: &Audience, token: &str, view: &SideView) -> Markup {
    let status = game.status();
    let ruleset = game.ruleset();
    let when = match &status.date {
        Some(date) => format!("Turn {} of {} — {date}", status.turn, status.turns),
        None => format!("Turn {} of {}", status.turn, status.turns),
    };
    html! {
        header {
            h1 { (game.scenario().title) }
            div .when { (when) }
            div { (status.step.path) }
            div .side { "Seen as: " (view.side_name()) }
            @if let Some(line) = victory_line(game, &status.victory) {
                div .victory { strong { (line) } }
            }
            @if let Some(clock) = umpire_core::megagame::clock::clock_status(ruleset, game.events(), chrono::Utc::now()).filter(|c| c.started && !c.finished) {
                // The phase clock: counted down on the phone from when the phase ends.
                div .clock {
                    (clock.headline()) " · " (clock.phase_name) ": "
                    span #clock
                        data-ends=[clock.ends_at.filter(|_| !clock.held).map(|t| t.to_rfc3339())]
                    { (clock.countdown()) }
                    @if clock.held { " (held)" }
                }
            }
            div .weak { "App dice: " (game.seed_statement()) }
            @if let Audience::Side(_) = audience {
                nav {
                    a href=(format!("/s/{token}/verify")) { "Verify the journal" }
                    " · "
                    a href=(format!("/s/{token}/report.pdf")) { "The report (PDF)" }
                }
            }
        }
    }
}

/// The game's result once it has ended (a public fact); while it goes on, who would win if it
/// ended now — only where every side sees where the others' counters are (the conditions read
/// the counters' places, which a side may not see otherwise).
fn victory_line(game: &Game, standing: &umpire_core::game::victory::Standing) -> Option<String> {
    if standing.ended.is_some() {
        return standing.headline();
    }
    let open = game.ruleset().visibility.enemy >= umpire_core::rules::SightLevel::Identity
        && game.ruleset().visibility.counters.is_empty();
    open.then(|| standing.headline()).flatten()
}

/// A megagame team's states' statements: the treasury and debt line by line.
fn statements_part(game: &Game, team: &str) -> Markup {
    let ruleset = game.ruleset();
    html! {
        @for state in umpire_core::megagame::ledger::ledgers(game).into_iter().filter(|l| l.teams.iter().any(|t| t == team)) {
            h2 { (state.name) ": the statement" }
            p {
                "Treasury: " (state.treasury().map_or_else(|| "not set yet".to_string(), |t| format!("{t} florins")))
                @if let Some(debt) = state.int("national_debt") { " · National debt: " (debt) }
            }
            @if !state.history.is_empty() {
                table .statement {
                    tr { th { "Turn" } th { "" } th { "Change" } th { "Balance" } th { "Why" } }
                    @for line in state.history.iter().rev().take(40) {
                        tr {
                            td { (line.turn) }
                            td { (attribute_words(ruleset, &line.attribute)) }
                            td .n { @if line.set { "= " } @else { (format!("{:+}", line.delta)) } }
                            td .n { (line.balance.map_or_else(|| "?".to_string(), |b| b.to_string())) }
                            td { (line.reason) }
                        }
                    }
                }
            }
        }
    }
}

/// The public gazette: what was announced to everyone, newest first.
fn gazette_part(game: &Game, numbering: &Numbering) -> Markup {
    let gazette: Vec<(u64, u32, String)> = game
        .events()
        .iter()
        .filter(|e| game.state().effective.contains(&e.seq))
        .filter_map(|e| match &e.kind {
            umpire_core::game::EventKind::Announced {
                audience: umpire_core::game::event::Audience::Public,
                text,
                ..
            } => Some((e.seq, e.cursor.turn, text.clone())),
            _ => None,
        })
        .rev()
        .collect();
    html! {
        @if !gazette.is_empty() {
            h2 { "The gazette" }
            @for (seq, turn, text) in &gazette {
                p { span .n .weak { "Turn " (turn) " · " (numbering.num(*seq)) } (text) }
            }
        }
    }
}

/// The journal as the side sees it, newest first.
fn journal_part(
    game: &Game,
    sights: &[EntrySight],
    numbering: &Numbering,
    odds: &mut OddsCache,
) -> Markup {
    let words = Words::of(game);
    html! {
        h2 { "The journal, newest first" }
        // The newest entry the side sees whole is open: its explanation at a glance.
        @let newest = sights.iter().rev().find(|s| s.sight == Sight::Open).map(|s| s.seq);
        @for s in sights.iter().rev() {
            @let e = &game.events()[(s.seq - 1) as usize];
            @match &s.sight {
                Sight::Open => {
                    details id=(numbering.anchor(s.seq)) open[newest == Some(s.seq)] {
                        summary { span .n { (numbering.num(s.seq)) } (words.line(e)) }
                        p .weak { "Turn " (e.cursor.turn) " · " (e.at.format("%H:%M:%S")) }
                        @for line in words.detail(e) { p { (line) } }
                        @if let Some(o) = odds_words(game, e, odds) { p .weak { (o) } }
                    }
                }
                Sight::Summary(lines) => {
                    details id=(numbering.anchor(s.seq)) {
                        summary { span .n { (numbering.num(s.seq)) } (lines.join(" ")) }
                        p .weak { "Only what your side may know of this entry." }
                    }
                }
                Sight::Hidden => {}
            }
        }
    }
}

/// The side's counters (every counter on the table, for the public) by Force ("Chaumont's
/// Force"), those in none last.
fn counters_part(game: &Game, audience: &Audience, view: &SideView) -> Markup {
    let (scenario, ruleset) = (game.scenario(), game.ruleset());
    let seen = view.at(game.state());
    let mut counters = seen.counters();
    counters.retain(|c| c.own || matches!(audience, Audience::Public));
    counters.sort_by(|a, b| a.label.cmp(&b.label));
    let mut groups: Vec<(String, Vec<&CounterSight>)> = Vec::new();
    for c in &counters {
        let force = game
            .state()
            .counters
            .get(&c.id)
            .and_then(|s| s.force.as_deref())
            .map_or_else(
                || "Not in a Force".to_string(),
                |f| umpire_core::game::words::force_words(scenario, f),
            );
        match groups.iter_mut().find(|(f, _)| *f == force) {
            Some((_, members)) => members.push(c),
            None => groups.push((force, vec![c])),
        }
    }
    groups.sort_by_key(|(f, _)| (f == "Not in a Force", f.clone()));
    html! {
        @if !counters.is_empty() {
            details #counters .counters {
                summary { h2 .inline {
                    @if matches!(audience, Audience::Public) { "Counters on the table" } @else { "Your counters" }
                    " (" (counters.len()) ")"
                } }
                @for (force, members) in &groups {
                h3 { (force) }
                ul .counters {
                    @for c in members {
                        li {
                            span .name { (c.label) }
                            " — " (position_words(scenario, &c.position))
                            @if let Some(r) = &c.removed { " (off the table: " (r) ")" }
                            @if !c.statuses.is_empty() {
                                br;
                                span .weak {
                                    (c.statuses.iter().map(|s| status_words(ruleset, s)).collect::<Vec<_>>().join(", "))
                                }
                            }
                            @if !c.attributes.is_empty() {
                                br;
                                span .weak {
                                    (c.attributes.iter().map(|(k, v)| format!("{}: {}", attribute_words(ruleset, k), umpire_core::game::words::attribute_value_words(v))).collect::<Vec<_>>().join("; "))
                                }
                            }
                        }
                    }
                }
                }
            }
        }
    }
}

/// A small page with a heading and a sentence.
pub fn message(heading: &str, text: &str) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head { meta charset="utf-8"; meta name="viewport" content="width=device-width, initial-scale=1"; title { (heading) } link rel="stylesheet" href="/style.css"; }
            body { main { h2 { (heading) } p { (text) } } }
        }
    }
    .into_string()
}

/// What verifying the side's journal found, in words.
pub fn verification(
    game: &Game,
    audience: &Audience,
    token: &str,
    v: &umpire_core::game::Verification,
) -> String {
    use umpire_core::game::SeedCheck;
    let seed = match v.seed {
        SeedCheck::Checked => format!(
            "{} app dice re-derived from the seed, each from its draw index.",
            v.app_dice
        ),
        SeedCheck::Secret => {
            "The seed is still secret: the app dice can be checked once the umpire reveals it."
                .to_string()
        }
        SeedCheck::Mismatch => "The seed does not match the commitment made at the start.".into(),
    };
    html! {
        (DOCTYPE)
        html lang="en" {
            head { meta charset="utf-8"; meta name="viewport" content="width=device-width, initial-scale=1"; title { "Verification" } link rel="stylesheet" href="/style.css"; }
            body { main {
                h2 { "The journal as " (audience_name(game, audience)) " may see it" }
                @if v.is_sound() {
                    p .ok { "Verified: the hash chain is whole from the game's description to entry " (v.entries) ", and every result shown matches its inputs and dice." }
                } @else {
                    p .bad { "Problems found:" }
                    ul { @for p in &v.problems { li { (p.to_string()) } } }
                }
                p { (v.entries - v.sealed) " entries shown, " (v.sealed) " sealed (their hashes keep the chain checkable). " (v.resolutions) " resolutions re-resolved." }
                p { (seed) }
                p .weak { "Head: " (v.head.to_string()) ". Note it: a later journal must begin with the same entries." }
                p { a href=(format!("/s/{token}/journal.jsonl")) { "Download this journal" } " to check it yourself with " code { "umpire game verify-side" } "." }
                p { a href=(format!("/s/{token}")) { "Back to the game" } }
            } }
        }
    }
    .into_string()
}

/// Verification that could not be made.
pub fn verification_failed(problem: &str) -> String {
    message("Verification could not be made", problem)
}

/// The landing page, for a link without a token.
pub fn landing() -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "Umpire — players' view" }
                link rel="stylesheet" href="/style.css";
            }
            body { main {
                h2 { "Umpire — players' view" }
                p { "Scan your side's QR code, or type the code the umpire reads out:" }
                form .code method="get" action="/code" {
                    input name="c" placeholder="abc-def" autocomplete="off" autocapitalize="none";
                    " "
                    button type="submit" { "Open" }
                }
            } }
        }
    }
    .into_string()
}

/// The page for a refused link.
pub fn forbidden() -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head { meta charset="utf-8"; title { "Not a link of this game" } link rel="stylesheet" href="/style.css"; }
            body { main {
                h2 { "Not a link of this game" }
                p { "This link is not one the umpire gave out, or it was replaced. Ask the umpire for your side's link." }
            } }
        }
    }
    .into_string()
}
