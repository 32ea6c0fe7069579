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
details.quiet > summary { font-size: 0.9rem; }
details.quiet > details { margin-left: 14px; }
details.force { padding: 4px 0; }
details.force > summary { padding: 4px 0; }
details.force ul.counters { margin-left: 14px; }
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
.hash { font-family: ui-monospace, monospace; overflow-wrap: anywhere; word-break: break-all; }
code { overflow-wrap: anywhere; }
details.turn { padding: 2px 0; }
details.turn > summary h3.inline { display: inline; font-size: 1rem; color: var(--ink); margin: 0; }
details.turn > .entries { margin-left: 6px; }
ul.this-turn { list-style: none; padding: 0; margin: 0; }
ul.this-turn li { padding: 4px 0; border-bottom: 1px solid var(--rule); }
ul.this-turn a { color: inherit; text-decoration: none; }
form.filter { margin: 6px 0 4px; font-size: 0.95rem; display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; }
form.filter label { min-width: 0; max-width: 100%; }
form.filter select { font: inherit; max-width: 100%; }
main { overflow-wrap: anywhere; }
.js form.filter button { display: none; }
[hidden] { display: none !important; }
.due { margin: .4em 0; padding: .3em .6em; border-left: 3px solid var(--accent); }
"#;

/// Follows the game by Server-Sent Events: each `changes` event carries only what is new for
/// this side — the new entries' fragments (each put on top of its turn's fold, made when the
/// game enters a new turn, and shown or hidden by the journal's filter), new gazette lines, and the
/// parts that changed (header, statements, counters), replaced whole — keeping open the entries
/// the reader opened, and shut the parts the reader shut. A `refresh` event (after an undo or a redo, or a phone that missed more
/// than the server keeps) fetches the page's `main` once. No framework: a few dozen lines.
/// Served as `/live.js`, not inline, so the Content-Security-Policy allows scripts from the
/// server only (`script-src 'self'`).
pub const LIVE: &str = r#"
(function () {
  var here = location.pathname.replace(/\/$/, '');
  var badge = document.getElementById('live');
  function have() { var v = document.getElementById('v'); return v ? Number(v.dataset.v) : 0; }
  function keepingOpen(change) {
    var ids = function (sel) { return Array.prototype.map.call(document.querySelectorAll(sel), function (d) { return d.id; }); };
    var open = ids('details[open]'), shut = ids('details:not([open])');
    change();
    open.forEach(function (id) { var d = id && document.getElementById(id); if (d) { d.open = true; } });
    shut.forEach(function (id) { var d = id && document.getElementById(id); if (d) { d.open = false; } });
  }
  var auto = document.querySelector('#journal details[open].entry');
  document.documentElement.classList.add('js');
  function refresh() {
    fetch(here + '/main' + location.search, {cache: 'no-store'}).then(function (r) {
      if (!r.ok) { return; }
      return r.text().then(function (html) {
        keepingOpen(function () { document.querySelector('main').innerHTML = html; });
        auto = document.querySelector('#journal details[open].entry');
      });
    });
  }
  // The filter (the form #filter: a Force of the side's, or any of its counters; this turn
  // only), applied in the page from each entry's data attributes.
  function filter() {
    var form = document.getElementById('filter');
    if (!form) { return {force: '', turn: false}; }
    return {force: form.elements.force.value, turn: form.elements.turn.checked};
  }
  function shows(el, f, current) {
    if (f.force === 'yours' && !el.hasAttribute('data-mine')) { return false; }
    if (f.force && f.force !== 'yours' && (el.dataset.forces || '').split(' ').indexOf(f.force) < 0) { return false; }
    return !(f.turn && Number(el.dataset.turn) !== current);
  }
  function fold(d) { if (d) { d.hidden = !d.querySelector('details.entry:not([hidden])'); } }
  function applyTo(el, f, current) {
    el.hidden = !shows(el, f, current);
    fold(el.parentElement.closest('details.quiet'));
    fold(el.closest('details.turn'));
  }
  function apply() {
    var j = document.getElementById('journal');
    if (!j) { return; }
    var f = filter(), current = Number(j.dataset.turn);
    j.querySelectorAll('details.entry').forEach(function (el) { el.hidden = !shows(el, f, current); });
    j.querySelectorAll('details.quiet').forEach(fold);
    j.querySelectorAll('details.turn').forEach(fold);
  }
  document.addEventListener('change', function (ev) {
    if (!ev.target.form || ev.target.form.id !== 'filter') { return; }
    var f = filter(), q = [];
    if (f.force) { q.push('force=' + encodeURIComponent(f.force)); }
    if (f.turn) { q.push('turn=this'); }
    // A page the server filtered lacks what a wider filter shows: its main part again.
    var narrowed = location.search.length > 1;
    history.replaceState(null, '', here + (q.length ? '?' + q.join('&') : ''));
    if (narrowed) { refresh(); } else { apply(); }
  });
  // The turn's fold, made when the game enters a new turn (open: it is the current one).
  function turnBox(turn) {
    var box = document.getElementById('t' + turn);
    if (box) { return box; }
    var j = document.getElementById('journal');
    box = document.createElement('details');
    box.className = 'turn'; box.id = 't' + turn; box.dataset.turn = turn; box.open = true;
    box.innerHTML = '<summary><h3 class="inline"></h3></summary><div class="entries"></div>';
    box.querySelector('h3').textContent = 'Turn ' + turn;
    var first = j.querySelector('details.turn');
    if (first) { j.insertBefore(box, first); } else { j.appendChild(box); }
    return box;
  }
  function changes(ev) {
    if (Number(ev.lastEventId) <= have()) { return; }
    var c = JSON.parse(ev.data);
    keepingOpen(function () {
      Object.keys(c.parts || {}).forEach(function (id) {
        var part = document.getElementById(id);
        if (part) { part.outerHTML = c.parts[id]; }
      });
    });
    var gazette = document.getElementById('gazette');
    (c.gazette || []).forEach(function (line) {
      if (!gazette.querySelector('h2')) { gazette.insertAdjacentHTML('afterbegin', '<h2>The gazette</h2>'); }
      gazette.querySelector('h2').insertAdjacentHTML('afterend', line);
    });
    var j = document.getElementById('journal');
    var turned = c.turn && c.turn !== Number(j.dataset.turn);
    if (turned) { j.dataset.turn = c.turn; turnBox(c.turn); }
    var f = filter(), current = Number(j.dataset.turn);
    (c.entries || []).forEach(function (html) {
      var t = document.createElement('template');
      t.innerHTML = html.trim();
      var entry = t.content.firstElementChild;
      if (!entry) { return; }
      var list = turnBox(entry.dataset.turn).querySelector('.entries');
      list.insertBefore(entry, list.firstChild);
      applyTo(entry, f, current);
      if (entry.open) { if (auto && auto !== entry) { auto.open = false; } auto = entry; }
    });
    if (turned && f.turn) { apply(); }
    document.getElementById('v').dataset.v = ev.lastEventId;
  }
  // The phase clock of a megagame: counted down here from the phase's end.
  setInterval(function () {
    var clock = document.getElementById('clock');
    if (!clock || !clock.dataset.ends) { return; }
    var left = Math.max(0, Math.ceil((Date.parse(clock.dataset.ends) - Date.now()) / 1000));
    var m = Math.floor(left / 60), s = left % 60;
    clock.textContent = (m < 10 ? '0' : '') + m + ':' + (s < 10 ? '0' : '') + s;
  }, 1000);
  var events = new EventSource(here + '/events?from=' + have());
  events.addEventListener('changes', changes);
  events.addEventListener('refresh', refresh);
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

/// What a page is rendered from besides the game: the version of the changes it includes (the
/// event stream goes on from there) and its side's statements, rendered by the live state
/// (`crate::live`) as it takes entries in.
pub struct PageOf<'a> {
    /// Who it is for.
    pub audience: &'a Audience,
    /// Its link's token.
    pub token: &'a str,
    /// The last changes it includes.
    pub version: u64,
    /// The side's statements part (a megagame team's).
    pub statements: &'a str,
    /// What of the journal it shows (`?force=`, `?turn=this`).
    pub filter: &'a Filter,
}

/// What of the journal a page shows: the entries naming a counter of one of the side's own
/// Forces (`?force=ID`; `?force=yours`: any of its own counters), this turn's only
/// (`?turn=this`). The script applies the same filter in the page, from the same form.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Filter {
    /// A Force's id, or [`Filter::YOURS`].
    pub force: Option<String>,
    /// This turn's entries only.
    pub this_turn: bool,
}

impl Filter {
    /// The filter's value for "any of your counters".
    pub const YOURS: &'static str = "yours";

    /// The filter a page's query asks for (anything else in it ignored).
    pub fn from_query(query: &std::collections::BTreeMap<String, String>) -> Filter {
        Filter {
            force: query
                .get("force")
                .map(|f| f.trim())
                .filter(|f| !f.is_empty() && f.len() <= 100)
                .map(str::to_string),
            this_turn: query.get("turn").is_some_and(|t| t == "this"),
        }
    }

    /// Whether it shows everything.
    pub fn is_all(&self) -> bool {
        self.force.is_none() && !self.this_turn
    }

    /// Whether it shows an entry of these tags, in the game's current turn.
    fn shows(&self, tags: &Tags, current: u32) -> bool {
        let force = match self.force.as_deref() {
            None => true,
            Some(Filter::YOURS) => tags.mine,
            Some(f) => tags.forces.iter().any(|g| g == f),
        };
        force && (!self.this_turn || tags.turn == current)
    }
}

/// The side's own counters, each with its Force (None: in no Force), as `state` has them: what
/// an entry's marks, the "This turn" section and the filter by Force read. None for the public.
pub type OwnCounters = std::collections::BTreeMap<String, Option<String>>;

/// The side's own counters in `state` (none for the public).
pub fn own_counters(
    state: &umpire_core::game::GameState,
    audience: &Audience,
    view: &SideView,
) -> OwnCounters {
    if matches!(audience, Audience::Public) {
        return OwnCounters::new();
    }
    view.at(state)
        .counters()
        .into_iter()
        .filter(|c| c.own)
        .map(|c| {
            let force = state.counters.get(&c.id).and_then(|s| s.force.clone());
            (c.id, force)
        })
        .collect()
}

/// What an entry is to the side, as data attributes on it: its turn, the side's own Forces
/// whose counters it names, whether it names any of the side's own counters.
#[derive(Debug, Clone, Default)]
pub struct Tags {
    /// The turn it was recorded in.
    pub turn: u32,
    /// The ids of the side's own Forces it names a counter of.
    pub forces: Vec<String>,
    /// Whether it names one of the side's own counters.
    pub mine: bool,
}

impl Tags {
    /// An entry's tags for a side with these counters.
    pub fn of(e: &umpire_core::game::Event, own: &OwnCounters) -> Tags {
        let mut tags = Tags {
            turn: e.cursor.turn,
            ..Tags::default()
        };
        for c in e.kind.counters() {
            if let Some(force) = own.get(c) {
                tags.mine = true;
                if let Some(f) = force
                    && !tags.forces.contains(f)
                {
                    tags.forces.push(f.clone());
                }
            }
        }
        tags
    }
}

/// A whole page: head, live script, and the main part.
pub fn page(game: &Game, of: &PageOf, odds: &mut OddsCache) -> String {
    let title = game.scenario().title.clone();
    let markup: Markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " — " (audience_name(game, of.audience)) }
                link rel="stylesheet" href="/style.css";
            }
            body {
                span #live .live { "…" }
                main { (main(game, of, odds)) }
                script src="/live.js" {}
            }
        }
    };
    markup.into_string()
}

/// The part of the page that changes as the game goes on.
pub fn main_part(game: &Game, of: &PageOf, odds: &mut OddsCache) -> String {
    main(game, of, odds).into_string()
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

/// The view of an audience (None: a side no longer in the scenario).
pub fn view_of<'g>(game: &'g Game, audience: &Audience) -> Option<SideView<'g>> {
    match audience {
        Audience::Side(id) => SideView::new(game.ruleset(), game.scenario(), id).ok(),
        Audience::Public => Some(SideView::public(game.ruleset(), game.scenario())),
    }
}

fn main(game: &Game, of: &PageOf, odds: &mut OddsCache) -> Markup {
    let Some(view) = view_of(game, of.audience) else {
        return html! { p { "This side is not in the game." } };
    };
    // What the side sees of each entry, judged along the journal's timeline.
    let sights = game
        .timeline()
        .and_then(|timeline| view.sights(&timeline))
        .unwrap_or_default();
    let numbering = Numbering::new(game, &sights);
    let now = Now::of(game, game.events());
    let own = own_counters(game.state(), of.audience, &view);
    let this_turn = this_turn_items(game, &sights, &numbering, &own);
    html! {
        // The changes this page includes: the event stream goes on from there.
        span #v hidden data-v=(of.version) {}
        (header_part(game, of.audience, of.token, &view, &now))
        // First what is the player's own (issue 29): their counters, by Force, where they are
        // and their strength, open on the first screen; then the team's statements, the gazette
        // and the journal.
        (counters_part(game, of.audience, &view))
        // Then what this turn did to them, in the journal's words.
        (this_turn_part(of.audience, &this_turn))
        // A megagame team: its states' statements, the treasury and debt line by line.
        (PreEscaped(of.statements))
        (gazette_part(game, &numbering))
        (journal_part(game, &Journal { sights: &sights, numbering: &numbering, own: &own, filter: of.filter, audience: of.audience }, odds))
        p .weak { "Nothing here changes the game but the sealed orders your side hands in. Entries your side may not see are left out." }
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

    /// The entry's number and its step count, as [`Mark`] takes them.
    fn mark(&self, seq: u64) -> Mark {
        Mark {
            number: self.numbers.get(&seq).copied(),
            step: self.steps.get(&seq).copied(),
        }
    }
}

/// An entry's place among those the side sees: its number (none for a step of the Sequence of
/// Play), or its count among the steps.
#[derive(Debug, Clone, Copy, Default)]
pub struct Mark {
    /// The side's number for it.
    pub number: Option<u64>,
    /// Its count among the steps the side sees (a step has no number).
    pub step: Option<usize>,
}

impl Mark {
    /// "#3 " (nothing for an entry without a number).
    fn num(&self) -> String {
        self.number.map_or_else(String::new, |n| format!("#{n} "))
    }

    /// An entry's anchor (kept open across live updates) by the side's number too: the page's
    /// source says no more than its text.
    fn anchor(&self) -> String {
        match (self.number, self.step) {
            (Some(n), _) => format!("e{n}"),
            (None, Some(k)) => format!("s{k}"),
            (None, None) => String::new(),
        }
    }
}

/// What the header reads of the game as it stands, worked out once for every audience.
pub struct Now {
    status: umpire_core::game::Status,
    clock: Option<umpire_core::megagame::clock::ClockStatus>,
}

impl Now {
    /// The game as it stands; `clock_events` the entries the phase clock reads (the whole
    /// journal, or its first entry and its clock entries: the same clock).
    pub fn of(game: &Game, clock_events: &[umpire_core::game::Event]) -> Now {
        Now {
            status: game.status(),
            clock: umpire_core::megagame::clock::clock_status(
                game.ruleset(),
                clock_events,
                chrono::Utc::now(),
            )
            .filter(|c| c.started && !c.finished),
        }
    }
}

/// The page's header: the scenario, the turn and step, whose view it is, the phase clock, the
/// app dice, and a side's links.
pub fn header_part(
    game: &Game,
    audience: &Audience,
    token: &str,
    view: &SideView,
    now: &Now,
) -> Markup {
    let status = &now.status;
    let when = match &status.date {
        Some(date) => format!("Turn {} of {} — {date}", status.turn, status.turns),
        None => format!("Turn {} of {}", status.turn, status.turns),
    };
    html! {
        header #top {
            h1 { (game.scenario().title) }
            div .when { (when) }
            div { (status.step.path) }
            @if let Audience::Side(side) = audience {
                @if let Some(due) = crate::orders::due_line(game, Some(side), token) { (due) }
            }
            div .side { "Seen as: " (view.side_name()) }
            @if let Some(line) = victory_line(game, &status.victory) {
                div .victory { strong { (line) } }
            }
            @if let Some(clock) = &now.clock {
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

/// One state's statement as a team's page shows it.
pub struct Statement<'a> {
    /// The state's name.
    pub name: &'a str,
    /// Its ledger's values (treasury, national debt).
    pub values: Option<&'a std::collections::BTreeMap<String, umpire_core::rules::Value>>,
    /// Its latest history lines, oldest first (the page shows the last 40, newest first).
    pub lines: &'a [umpire_core::megagame::ledger::LedgerEntry],
}

/// How many lines of a state's history a statement shows.
pub const STATEMENT_LINES: usize = 40;

/// A megagame team's states' statements: the treasury and debt line by line.
pub fn statements_part(game: &Game, statements: &[Statement]) -> Markup {
    let ruleset = game.ruleset();
    let int = |values: Option<&std::collections::BTreeMap<String, umpire_core::rules::Value>>,
               key: &str| match values.and_then(|v| v.get(key)) {
        Some(umpire_core::rules::Value::Int(n)) => Some(*n),
        _ => None,
    };
    html! {
        div #statements {
            @for state in statements {
                h2 { (state.name) ": the statement" }
                p {
                    "Treasury: " (int(state.values, umpire_core::megagame::ledger::TREASURY).map_or_else(|| "not set yet".to_string(), |t| format!("{t} florins")))
                    @if let Some(debt) = int(state.values, umpire_core::megagame::ledger::DEBT) { " · National debt: " (debt) }
                }
                @if !state.lines.is_empty() {
                    table .statement {
                        tr { th { "Turn" } th { "" } th { "Change" } th { "Balance" } th { "Why" } }
                        @for line in state.lines.iter().rev().take(STATEMENT_LINES) {
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
}

/// An announcement to everyone, as a gazette line.
pub fn gazette_line(mark: Mark, turn: u32, text: &str) -> Markup {
    html! {
        p { span .n .weak { "Turn " (turn) " · " (mark.num()) } (text) }
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
        div #gazette {
            @if !gazette.is_empty() {
                h2 { "The gazette" }
                @for (seq, turn, text) in &gazette {
                    (gazette_line(numbering.mark(*seq), *turn, text))
                }
            }
        }
    }
}

/// How the side sees one entry, for [`entry_part`].
pub struct EntryOf<'a> {
    /// What the side sees of it.
    pub sight: &'a Sight,
    /// Its place among what the side sees.
    pub mark: Mark,
    /// What it is to the side (data attributes the filter reads).
    pub tags: &'a Tags,
    /// Open: the newest entry seen whole, its explanation at a glance.
    pub open: bool,
    /// The phase of the Sequence of Play it was recorded in.
    pub phase: &'a str,
}

/// The phases of the Sequence of Play by leaf step (an entry's `cursor.step`): the first part of
/// each leaf step's path ("Phase › Segment › Step").
pub fn phases(game: &Game) -> Vec<String> {
    umpire_core::game::steps::leaf_steps(game.ruleset())
        .into_iter()
        .map(|l| l.path.split(" › ").next().unwrap_or_default().to_string())
        .collect()
}

/// An entry's phase among [`phases`] ("" for a step not in the ruleset).
pub fn phase_of<'p>(phases: &'p [String], e: &umpire_core::game::Event) -> &'p str {
    phases.get(e.cursor.step).map_or("", String::as_str)
}

/// One journal entry as the side sees it (nothing when it does not), marked with its turn and
/// the side's own Forces it names (`data-turn`, `data-forces`, `data-mine`) for the filter.
pub fn entry_part(
    game: &Game,
    words: &Words,
    e: &umpire_core::game::Event,
    of: &EntryOf,
    odds: &mut OddsCache,
) -> Markup {
    let (mark, tags) = (of.mark, of.tags);
    let forces = tags.forces.join(" ");
    html! {
        @match of.sight {
            Sight::Open => {
                details .entry id=(mark.anchor()) data-turn=(tags.turn) data-forces=(forces) data-mine[tags.mine] open[of.open] {
                    summary { span .n { (mark.num()) } (words.line(e)) }
                    p .weak {
                        "Turn " (e.cursor.turn) " · "
                        @if !of.phase.is_empty() { (of.phase) " · " }
                        (e.at.format("%H:%M:%S"))
                    }
                    @for line in words.detail(e) { p { (line) } }
                    @if let Some(o) = odds_words(game, e, odds) { p .weak { (o) } }
                }
            }
            Sight::Summary(lines) => {
                details .entry id=(mark.anchor()) data-turn=(tags.turn) data-forces=(forces) data-mine[tags.mine] {
                    summary { span .n { (mark.num()) } (lines.join(" ")) }
                    p .weak { "Only what your side may know of this entry." }
                }
            }
            Sight::Hidden => {}
        }
    }
}

/// An entry's line as the side sees it: the journal's words, or what it may know of it.
pub fn entry_line(words: &Words, e: &umpire_core::game::Event, sight: &Sight) -> Option<String> {
    match sight {
        Sight::Open => Some(words.line(e)),
        Sight::Summary(lines) => Some(lines.join(" ")),
        Sight::Hidden => None,
    }
}

/// This turn's entries that touched the side's own counters (resolutions, effects, changes),
/// newest first: each one's place and line.
fn this_turn_items(
    game: &Game,
    sights: &[EntrySight],
    numbering: &Numbering,
    own: &OwnCounters,
) -> Vec<(Mark, String)> {
    if own.is_empty() {
        return Vec::new();
    }
    let words = Words::of(game);
    let current = game.state().cursor.turn;
    sights
        .iter()
        .rev()
        .filter_map(|s| {
            let e = game.events().get((s.seq as usize).checked_sub(1)?)?;
            if e.cursor.turn != current || !Tags::of(e, own).mine {
                return None;
            }
            Some((numbering.mark(s.seq), entry_line(&words, e, &s.sight)?))
        })
        .collect()
}

/// This turn's entries that touched the side's own counters, for the live state to go on from
/// (the side's sights of the whole journal, as [`SideView::sights`] judged them).
pub fn this_turn_of(
    game: &Game,
    audience: &Audience,
    view: &SideView,
    sights: &[EntrySight],
) -> Vec<(Mark, String)> {
    let own = own_counters(game.state(), audience, view);
    this_turn_items(game, sights, &Numbering::new(game, sights), &own)
}

/// How many lines "This turn" shows (the newest; a link to the journal filtered for the rest),
/// so a busy turn keeps the section short and the part sent on each change small.
const THIS_TURN_LINES: usize = 8;

/// The "This turn" section: this turn's results that touched the side's own counters, newest
/// first, each a link to its entry in the journal (nothing for the public).
pub fn this_turn_part(audience: &Audience, items: &[(Mark, String)]) -> Markup {
    html! {
        div #this-turn {
            @if matches!(audience, Audience::Side(_)) {
                h2 { "This turn" }
                @if items.is_empty() {
                    p .weak { "Nothing has touched your counters yet this turn." }
                } @else {
                    ul .this-turn {
                        @for (mark, line) in items.iter().take(THIS_TURN_LINES) {
                            li { a href=(format!("#{}", mark.anchor())) { span .n { (mark.num()) } (line) } }
                        }
                        @if items.len() > THIS_TURN_LINES {
                            li .weak {
                                "And " (items.len() - THIS_TURN_LINES) " more this turn: "
                                a href="?force=yours&turn=this" { "all of them" }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// What the journal part is rendered from.
struct Journal<'a> {
    sights: &'a [EntrySight],
    numbering: &'a Numbering,
    own: &'a OwnCounters,
    filter: &'a Filter,
    audience: &'a Audience,
}

/// The journal as the side sees it, newest first, folded by turn: one `details` a turn, the
/// current one open; within a turn, runs of quiet entries folded into one line. Only the
/// entries the filter shows.
fn journal_part(game: &Game, j: &Journal, odds: &mut OddsCache) -> Markup {
    let words = Words::of(game);
    let events = game.events();
    let event = |seq: u64| &events[(seq - 1) as usize];
    let current = game.state().cursor.turn;
    // The newest entry the side sees whole is open: its explanation at a glance.
    let newest = j
        .sights
        .iter()
        .rev()
        .find(|s| s.sight == Sight::Open)
        .map(|s| s.seq);
    // Runs of quiet entries — steps of the Sequence of Play and items skipped — fold into one
    // line ("5 steps of the Sequence of Play: … to …"), so what happened stands out.
    let quiet = |s: &EntrySight| {
        matches!(
            event(s.seq).kind,
            umpire_core::game::EventKind::Stepped { .. }
                | umpire_core::game::EventKind::Skipped { .. }
        )
    };
    let turn_of = |s: &EntrySight| event(s.seq).cursor.turn;
    let shown = j.sights.iter().rev().filter(|s| {
        s.sight != Sight::Hidden && j.filter.shows(&Tags::of(event(s.seq), j.own), current)
    });
    // Turns, newest first, each its runs.
    let mut turns: Vec<(u32, Vec<Vec<&EntrySight>>)> = Vec::new();
    for s in shown {
        let turn = turn_of(s);
        if turns.last().is_none_or(|(t, _)| *t != turn) {
            turns.push((turn, Vec::new()));
        }
        let Some((_, runs)) = turns.last_mut() else {
            continue;
        };
        match runs.last_mut() {
            Some(run) if quiet(s) && run.last().is_some_and(|l| quiet(l)) => run.push(s),
            _ => runs.push(vec![s]),
        }
    }
    let phases = phases(game);
    let entry = |s: &EntrySight, open: bool, odds: &mut OddsCache| {
        let tags = Tags::of(event(s.seq), j.own);
        let of = EntryOf {
            sight: &s.sight,
            mark: j.numbering.mark(s.seq),
            tags: &tags,
            open,
            phase: phase_of(&phases, event(s.seq)),
        };
        entry_part(game, &words, event(s.seq), &of, odds)
    };
    html! {
        div #journal data-turn=(current) {
            h2 { "The journal, newest first" }
            (filter_form(game, j))
            @if turns.is_empty() && !j.filter.is_all() {
                p .weak { "No entry fits this filter yet." }
            }
            @for (turn, runs) in &turns {
                details .turn id=(format!("t{turn}")) data-turn=(turn) open[*turn == current] {
                    summary { h3 .inline { "Turn " (turn) } }
                    div .entries {
                        @for run in runs {
                            @if run.len() >= 3 {
                                @let (newest_line, oldest_line) = (
                                    words.line(event(run[0].seq)),
                                    words.line(event(run[run.len() - 1].seq)),
                                );
                                details .quiet id=(format!("q{}", j.numbering.mark(run[run.len() - 1].seq).anchor())) data-turn=(turn) {
                                    summary .weak { "Turn " (turn) ": " (run.len()) " steps of the Sequence of Play — " (oldest_line) " … " (newest_line) }
                                    @for s in run { (entry(s, false, odds)) }
                                }
                            } @else {
                                @for s in run { (entry(s, newest == Some(s.seq), odds)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The journal's filter: one of the side's own Forces (or any of its counters), and this turn
/// only. A plain form (a GET with `?force=` and `?turn=`), so it works without the script; the
/// script applies it in the page as it changes.
fn filter_form(game: &Game, j: &Journal) -> Markup {
    if matches!(j.audience, Audience::Public) {
        return html! {};
    }
    let mut forces: Vec<(String, String)> = j
        .own
        .values()
        .flatten()
        .map(|f| {
            (
                umpire_core::game::words::force_words(game.scenario(), f),
                f.clone(),
            )
        })
        .collect();
    forces.sort();
    forces.dedup();
    let chosen = j.filter.force.as_deref().unwrap_or("");
    html! {
        form #filter .filter method="get" {
            label {
                "Show "
                select name="force" {
                    option value="" selected[chosen.is_empty()] { "every entry" }
                    option value=(Filter::YOURS) selected[chosen == Filter::YOURS] { "your counters' entries" }
                    @for (name, id) in &forces {
                        option value=(id) selected[chosen == id] { (name) }
                    }
                }
            }
            " "
            label { input type="checkbox" name="turn" value="this" checked[j.filter.this_turn]; " This turn only" }
            " "
            button type="submit" { "Show" }
        }
    }
}

/// The side's counters (every counter on the table, for the public) by Force ("Chaumont's
/// Force"), those in none last.
pub fn counters_part(game: &Game, audience: &Audience, view: &SideView) -> Markup {
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
        div #counters-part {
        @if !counters.is_empty() {
            details #counters .counters open[matches!(audience, Audience::Side(_))] {
                summary { h2 .inline {
                    @if matches!(audience, Audience::Public) { "Counters on the table" } @else { "Your counters" }
                    " (" (counters.len()) ")"
                } }
                @for (force, members) in &groups {
                @let places = {
                    let mut p: Vec<String> = members.iter().map(|c| position_words(scenario, &c.position)).collect();
                    p.sort();
                    p.dedup();
                    p
                };
                details .force id=(force_anchor(force)) {
                summary {
                    span .name { (force) }
                    " — " (if places.len() == 1 { places[0].clone() } else { format!("{} places", places.len()) })
                    span .weak { " · " (members.len()) (if members.len() == 1 { " counter" } else { " counters" }) }
                }
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
    }
}

/// A Force's anchor on the page (kept open or shut across live updates): its name, in letters
/// and digits.
fn force_anchor(force: &str) -> String {
    let slug: String = force
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("force-{slug}")
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
                p { (count(v.entries - v.sealed, "entry", "entries")) " shown, " (v.sealed) " sealed (their hashes keep the chain checkable). " (count(v.resolutions as u64, "resolution", "resolutions")) " re-resolved." @if v.orders > 0 { " " (count(v.orders as u64, "set", "sets")) " of sealed orders revealed and held to the commitment made when they were sealed." } }
                @if v.transcriptions > 0 { p { (count(v.transcriptions as u64, "table", "tables")) " transcribed from the umpire's chart sheet during the game: each result is held to the tables in force when it was made." } }
                p { (seed) }
                p .weak { "Head: " span .hash { (v.head.to_string()) } ". Note it: a later journal must begin with the same entries." }
                p { a href=(format!("/s/{token}/journal.jsonl")) { "Download this journal" } " to check it yourself with " code { "umpire game verify-side" } "." }
                p { a href=(format!("/s/{token}")) { "Back to the game" } }
            } }
        }
    }
    .into_string()
}

/// "1 entry", "3 entries".
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
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
                    input name="c" placeholder="abcd-efgh" autocomplete="off" autocapitalize="none";
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
