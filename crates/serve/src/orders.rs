//! Sealed orders from the players' phones (`umpire_core::game::sealed`): a side's link shows the
//! orders due at this step as a form built from the ruleset's declaration — the side's Forces
//! (or armies) on the table now, the choices the rules allow with their cost, areas by name —
//! and a Seal button. Sealing journals only a salted commitment; the orders are kept beside the
//! journal, shown to that side alone until the step reveals them.
//!
//! This is the only thing the players' view writes, and it writes nothing else:
//! - a side's link hands in that side's orders only (the public link none);
//! - every form carries a token made for that page alone, used once, and a POST without one
//!   (a page of another site, a replayed request) is refused, as is one a browser marks as
//!   cross-site (`Sec-Fetch-Site`) or whose `Origin` is another site's;
//! - a body is at most [`BODY_LIMIT`] bytes, and a link seals at most [`SEALS_PER_MINUTE`] times
//!   a minute.
//!
//! The writing is done on a thread of its own with a game handle of its own (the watcher that
//! follows the journal for the pages never waits on it): the new entry reaches every page as any
//! other entry does.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use maud::{DOCTYPE, Markup, html};

use umpire_core::game::Game;
use umpire_core::game::orders::{FormInput, OrderForm};
use umpire_core::game::sealed::{self, OrderValue, Orders};
use umpire_core::game::words::side_words;
use umpire_core::rules::Library;

/// The most a POST of orders may carry.
pub const BODY_LIMIT: usize = 32 * 1024;
/// How many times one link may seal in a minute.
pub const SEALS_PER_MINUTE: usize = 6;
/// How long a form's token stays good.
const FORM_LIFE: Duration = Duration::from_secs(3 * 3600);
/// Form tokens kept per link (the oldest go first).
const FORMS_PER_LINK: usize = 32;

/// The script of the orders page: it checks the form as it is typed (areas by name and no more
/// than allowed, the cost of the orders chosen) and keeps the Seal button off while it is wrong.
pub const SCRIPT: &str = r#"
(function () {
  document.querySelectorAll('form.orders').forEach(function (form) {
    var known = {};
    form.querySelectorAll('datalist option').forEach(function (o) { known[o.value.toLowerCase()] = true; });
    var anyKnown = Object.keys(known).length > 0;
    function check() {
      var problems = 0, total = 0, unknownCost = false;
      form.querySelectorAll('select').forEach(function (s) {
        var o = s.options[s.selectedIndex];
        if (o && o.dataset.cost !== undefined) {
          if (o.dataset.cost === '') unknownCost = true; else total += parseInt(o.dataset.cost, 10);
        }
      });
      form.querySelectorAll('input.areas').forEach(function (i) {
        var names = i.value.split(',').map(function (x) { return x.trim(); }).filter(function (x) { return x; });
        var max = parseInt(i.dataset.max, 10);
        var bad = '';
        if (names.length > max) bad = 'At most ' + max + (max === 1 ? ' area.' : ' areas.');
        names.forEach(function (n) { if (anyKnown && !known[n.toLowerCase()]) bad = bad || ('"' + n + '" is not an area of the map.'); });
        i.setCustomValidity(bad);
        var note = i.parentNode.querySelector('.problem');
        if (note) note.textContent = bad;
        if (bad) problems += 1;
      });
      var cost = form.querySelector('.cost');
      if (cost) cost.textContent = total + (unknownCost ? ' + ? (read off the chart)' : '');
      var seal = form.querySelector('button[type=submit]');
      if (seal) seal.disabled = problems > 0;
    }
    form.addEventListener('input', check);
    form.addEventListener('change', check);
    check();
  });
})();
"#;

/// The orders page's own stylesheet (beside `/style.css`): a form one column wide, fields the
/// width of the phone, a Seal button a thumb can find.
pub const STYLE: &str = r#"
form.orders fieldset { border: 1px solid var(--rule); border-radius: 6px; margin: .8em 0; padding: .4em .7em .6em; min-width: 0; }
form.orders legend { font-weight: 600; padding: 0 .3em; }
form.orders label { display: block; margin: .45em 0; }
form.orders label > span { display: block; color: var(--weak); font-size: .9em; }
form.orders select, form.orders input[type=text] { display: block; width: 100%; max-width: 100%; font: inherit; padding: .4em; }
form.orders input[type=checkbox] { width: 1.4em; height: 1.4em; vertical-align: middle; }
form.orders button { font: inherit; font-weight: 600; padding: .7em 1.6em; margin: .6em 0; }
.orders .problem { color: #b3261e; display: block; }
.orders ul.rules { padding-left: 1.1em; color: var(--weak); font-size: .9em; }
.orders details { margin: .5em 0; color: var(--weak); }
.orders .hash, .hash { overflow-wrap: anywhere; word-break: break-all; font-family: ui-monospace, monospace; font-size: .85em; }
"#;

/// What the orders thread is asked.
enum Job {
    /// The orders page of a side, with a notice on top (after a seal).
    Page {
        side: String,
        token: String,
        csrf: String,
        notice: Option<(bool, String)>,
        reply: tokio::sync::oneshot::Sender<String>,
    },
    /// Seal a side's orders of one kind from the fields of a form.
    Seal {
        side: String,
        order: String,
        fields: Vec<(String, String)>,
        reply: tokio::sync::oneshot::Sender<Result<String, String>>,
    },
}

/// The players' view's hand-in of orders: its thread, the forms' tokens and the links' seals.
pub struct Desk {
    jobs: Mutex<mpsc::Sender<Job>>,
    /// Form token → (link token, made at).
    forms: Mutex<BTreeMap<String, (String, Instant)>>,
    /// Link token → when it sealed, within the last minute.
    seals: Mutex<BTreeMap<String, VecDeque<Instant>>>,
}

impl Desk {
    /// Opens a game handle of its own on `location` and starts the thread that writes with it.
    pub fn start(
        location: &str,
        library: &Library,
        stop: std::sync::Arc<AtomicBool>,
    ) -> Result<(Desk, JoinHandle<()>), String> {
        let game = umpire_server::open_at(location, library).map_err(|e| e.to_string())?;
        let (tx, rx) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("players-view-orders".into())
            .spawn(move || work(game, &rx, &stop))
            .map_err(|e| e.to_string())?;
        Ok((
            Desk {
                jobs: Mutex::new(tx),
                forms: Mutex::new(BTreeMap::new()),
                seals: Mutex::new(BTreeMap::new()),
            },
            thread,
        ))
    }

    /// A fresh form token for a page of `link`.
    pub fn form_token(&self, link: &str) -> String {
        // As random as a link's own token (about 103 bits).
        let csrf = crate::token();
        if let Ok(mut forms) = self.forms.lock() {
            forms.retain(|_, (_, at)| at.elapsed() < FORM_LIFE);
            // The link's oldest form goes when it holds its share.
            let mine = forms.values().filter(|(l, _)| l == link).count();
            if mine >= FORMS_PER_LINK
                && let Some(oldest) = forms
                    .iter()
                    .filter(|(_, (l, _))| l == link)
                    .min_by_key(|(_, (_, at))| *at)
                    .map(|(k, _)| k.clone())
            {
                forms.remove(&oldest);
            }
            forms.insert(csrf.clone(), (link.to_string(), Instant::now()));
        }
        csrf
    }

    /// Takes a form token back (used once): whether it was made for a page of `link`.
    pub fn redeem(&self, link: &str, csrf: &str) -> bool {
        self.forms
            .lock()
            .ok()
            .is_some_and(|mut forms| match forms.remove(csrf) {
                Some((l, at)) => l == link && at.elapsed() < FORM_LIFE,
                None => false,
            })
    }

    /// Counts a seal of `link`: false when it has sealed [`SEALS_PER_MINUTE`] times already in
    /// the last minute.
    pub fn may_seal(&self, link: &str) -> bool {
        let Ok(mut seals) = self.seals.lock() else {
            return false;
        };
        let times = seals.entry(link.to_string()).or_default();
        while times
            .front()
            .is_some_and(|t| t.elapsed() > Duration::from_secs(60))
        {
            times.pop_front();
        }
        if times.len() >= SEALS_PER_MINUTE {
            return false;
        }
        times.push_back(Instant::now());
        true
    }

    /// The orders page of `side` for `link`.
    pub async fn page(
        &self,
        side: &str,
        link: &str,
        notice: Option<(bool, String)>,
    ) -> Option<String> {
        let csrf = self.form_token(link);
        let (reply, rx) = tokio::sync::oneshot::channel();
        self.jobs
            .lock()
            .ok()?
            .send(Job::Page {
                side: side.to_string(),
                token: link.to_string(),
                csrf,
                notice,
                reply,
            })
            .ok()?;
        tokio::time::timeout(Duration::from_secs(20), rx)
            .await
            .ok()?
            .ok()
    }

    /// Seals `side`'s orders of `order` from a form's fields: the sentence to show, or why not.
    pub async fn seal(
        &self,
        side: &str,
        order: &str,
        fields: Vec<(String, String)>,
    ) -> Result<String, String> {
        let (reply, rx) = tokio::sync::oneshot::channel();
        self.jobs
            .lock()
            .map_err(|_| "the players' view is stopping".to_string())?
            .send(Job::Seal {
                side: side.to_string(),
                order: order.to_string(),
                fields,
                reply,
            })
            .map_err(|_| "the players' view is stopping".to_string())?;
        match tokio::time::timeout(Duration::from_secs(30), rx).await {
            Ok(Ok(r)) => r,
            _ => Err("the game did not answer in time: try again in a moment".to_string()),
        }
    }
}

fn work(mut game: Game, jobs: &mpsc::Receiver<Job>, stop: &AtomicBool) {
    while !stop.load(Ordering::Relaxed) {
        let Ok(job) = jobs.recv_timeout(Duration::from_millis(200)) else {
            continue;
        };
        let _ = game.refresh();
        match job {
            Job::Page {
                side,
                token,
                csrf,
                notice,
                reply,
            } => {
                let _ = reply.send(page(&mut game, &side, &token, &csrf, notice.as_ref()));
            }
            Job::Seal {
                side,
                order,
                fields,
                reply,
            } => {
                let _ = reply.send(seal(&mut game, &side, &order, &fields));
            }
        }
    }
}

fn seal(
    game: &mut Game,
    side: &str,
    order: &str,
    fields: &[(String, String)],
) -> Result<String, String> {
    let form = game.order_form(order, side).map_err(|e| e.to_string())?;
    let orders = sealed::orders_from_fields(&form, fields);
    sealed::check_against(&form, &orders)?;
    let actor =
        umpire_core::megagame::remit::who_acts(game.login(), &game.location(), None, None, None)
            .map_err(|e| e.to_string())?;
    let via = format!(
        "from the {} players' view",
        side_words(game.scenario(), side)
    );
    let seq = game
        .seal_orders(&actor, order, side, orders, Some(via))
        .map_err(|e| e.to_string())?;
    let e = game
        .events()
        .get(seq.saturating_sub(1) as usize)
        .ok_or_else(|| "the sealing was not found in the journal".to_string())?;
    Ok(sealed::sealed_words(game.ruleset(), game.scenario(), e).join(" "))
}

/// The orders page: the orders due at this step, each with its form and what the side has
/// sealed (its own orders shown back to it only).
fn page(
    game: &mut Game,
    side: &str,
    token: &str,
    csrf: &str,
    notice: Option<&(bool, String)>,
) -> String {
    let due: Vec<String> = game.orders_due_now().iter().map(|k| k.id.clone()).collect();
    let status = game.status();
    let side_name = side_words(game.scenario(), side);
    let mut parts: Vec<Markup> = Vec::new();
    for order in &due {
        parts.push(one_kind(game, side, token, csrf, order));
    }
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "Orders — " (side_name) }
                link rel="stylesheet" href="/style.css";
                link rel="stylesheet" href="/orders.css";
                script src="/orders.js" defer {}
            }
            body { main {
                h2 { "Orders — " (side_name) }
                p .weak { "Turn " (status.turn) " — " (status.step.path) }
                @if let Some((ok, text)) = notice {
                    p class=(if *ok { "ok" } else { "bad" }) { (text) }
                }
                @if due.is_empty() {
                    p { "No written orders are due at this step. This page shows the form when the game reaches a step that takes them." }
                }
                @for p in &parts { (p) }
                p { a href=(format!("/s/{token}")) { "Back to the game" } }
            } }
        }
    }
    .into_string()
}

fn one_kind(game: &mut Game, side: &str, token: &str, csrf: &str, order: &str) -> Markup {
    let Some(kind) = game.ruleset().order_kind(order).cloned() else {
        return html! {};
    };
    let form = match game.order_form(order, side) {
        Ok(f) => f,
        Err(e) => return html! { p .bad { (e.to_string()) } },
    };
    let cursor = game.state().cursor.clone();
    let mine = sealed::last_at(game.state(), &cursor)
        .into_iter()
        .find(|(_, s)| s.order == order && s.side == side)
        .map(|(seq, s)| (seq, s.clone()));
    let called = sealed::called(game.state(), order, &cursor);
    let kept = match &mine {
        Some((seq, _)) => game.sealed_content(*seq).ok().flatten(),
        None => None,
    };
    let prior = kept.as_ref().map(|k| k.orders.clone()).unwrap_or_default();
    html! {
        section .orders {
            h3 { (kind.name) " " span .weak { "(" (kind.rule) ")" } }
            @match &mine {
                Some((seq, s)) => {
                    p .ok {
                        "Sealed at " (s.at.with_timezone(&chrono::Local).format("%H:%M"))
                        " (entry " (seq) "), commitment " span .hash { (s.commitment) } "."
                        @if let Some(r) = s.revealed { " Revealed in entry " (r) "." }
                    }
                    @if let Some(k) = &kept {
                        ul { @for line in sealed::words(&form, &k.orders) { li { (line) } } }
                    }
                }
                None => { p { "Not handed in yet." } }
            }
            @if called {
                p .bad { "This step has revealed its orders: it takes no more. " (sealed::late_words_of(&kind)) }
            } @else {
                p .weak { "Sealed orders are seen by your side alone until the step reveals them; you may replace them until then." }
                details { summary { "If orders are late" } p { (sealed::late_words_of(&kind)) } }
                @let rules = restrictions(&form);
                @if !rules.is_empty() {
                    ul .rules { @for r in &rules { li { (r) } } }
                }
                @if let Some(note) = form.areas_unchecked() { p .weak { (note) } }
                (form_markup(&form, token, csrf, &prior, mine.is_some()))
            }
        }
    }
}

fn form_markup(
    form: &OrderForm,
    token: &str,
    csrf: &str,
    prior: &Orders,
    replacing: bool,
) -> Markup {
    let has_cost = form.entries.iter().flat_map(|e| &e.fields).any(|f| {
        matches!(&f.input, FormInput::Choose { choices, .. } if choices.iter().any(|c| c.cost.is_some()))
    });
    if form.entries.is_empty() {
        return html! { p .weak { "Nothing to hand in: your side has none of what the " (form.name) " is written for." } };
    }
    html! {
        form .orders method="post" action=(format!("/s/{token}/orders")) {
            input type="hidden" name="csrf" value=(csrf);
            input type="hidden" name="order" value=(form.order);
            @let list = format!("areas-{}", form.order);
            @if !form.areas.is_empty() {
                datalist id=(list) { @for a in &form.areas { option value=(a) {} } }
            }
            @for entry in &form.entries {
                fieldset {
                    legend {
                        (entry.name) " — " (entry.place)
                        @if let Some(s) = entry.strength { ", strength " (s) }
                    }
                    @for field in &entry.fields {
                        @let name = sealed::field_name(&entry.id, &field.field);
                        @let had = prior.get(&entry.id).and_then(|f| f.get(&field.field));
                        label {
                            span { (field.label) @if field.required { " " small .bad { "(must be given: it holds none now)" } } }
                            @match &field.input {
                                FormInput::Choose { choices, .. } => {
                                    select name=(name) {
                                        option value="" { "— no order —" }
                                        @for c in choices {
                                            @let chosen = matches!(had, Some(OrderValue::Choice(v)) if *v == c.id);
                                            @let cost = c.cost.as_ref().map(|x| x.amount.map(|a| a.to_string()).unwrap_or_default());
                                            @let words = match &c.cost { Some(x) => format!("{} — {}", c.label, x.words()), None => c.label.clone() };
                                            @if let Some(why) = &c.refused {
                                                // Not allowed for this Force now: shown, not offered.
                                                option value=(c.id) disabled title=(why) { (words) " — not allowed: " (why) }
                                            } @else if let Some(cost) = cost {
                                                option value=(c.id) selected[chosen] data-cost=(cost) { (words) }
                                            } @else {
                                                option value=(c.id) selected[chosen] { (words) }
                                            }
                                        }
                                    }
                                }
                                FormInput::Areas { max } => {
                                    @let value = match had { Some(OrderValue::Areas(a)) => a.join(", "), _ => String::new() };
                                    input .areas type="text" name=(name) value=(value) list=(list) data-max=(max)
                                        placeholder=(format!("up to {max}, separated by commas")) autocomplete="off";
                                    small .problem {}
                                }
                                FormInput::Flag => {
                                    input type="checkbox" name=(name) value="yes" checked[matches!(had, Some(OrderValue::Flag(true)))];
                                }
                            }
                        }
                    }
                }
            }
            @if has_cost { p { "Cost of these orders: " strong .cost { "—" } } }
            button type="submit" { @if replacing { "Seal again (replaces the orders sealed)" } @else { "Seal" } }
        }
    }
}

/// The rules' restrictions on the choices, once for the whole form ("Garrison: Forces using a
/// Garrison order must be located in a Town, City or Fortress hex. (5.3)").
fn restrictions(form: &OrderForm) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in form.entries.iter().flat_map(|e| &e.fields) {
        if let FormInput::Choose { choices, .. } = &f.input {
            for c in choices {
                for r in &c.restrictions {
                    let line = format!("{}: {r}", c.label);
                    if !out.contains(&line) {
                        out.push(line);
                    }
                }
            }
        }
    }
    out
}

/// The line a side's page carries while its step takes written orders: what is due, whether
/// the side has sealed them, and the link to the orders page. None at other steps, and on the
/// public page.
pub fn due_line(game: &Game, side: Option<&str>, token: &str) -> Option<Markup> {
    let side = side?;
    let due = game.orders_due_now();
    if due.is_empty() {
        return None;
    }
    let cursor = game.state().cursor.clone();
    let here = sealed::last_at(game.state(), &cursor);
    let items: Vec<(String, Option<String>, bool)> = due
        .iter()
        .map(|k| {
            let mine = here
                .iter()
                .find(|(_, s)| s.order == k.id && s.side == side)
                .map(|(_, s)| {
                    s.at.with_timezone(&chrono::Local)
                        .format("%H:%M")
                        .to_string()
                });
            (
                k.name.clone(),
                mine,
                sealed::called(game.state(), &k.id, &cursor),
            )
        })
        .collect();
    Some(html! {
        p .due {
            strong { "Orders due at this step: " }
            @for (i, (name, at, called)) in items.iter().enumerate() {
                @if i > 0 { "; " }
                (name)
                @match (at, called) {
                    (_, true) => " — revealed",
                    (Some(at), false) => { " — sealed at " (at) }
                    (None, false) => " — not handed in",
                }
            }
            " · "
            a href=(format!("/s/{token}/orders")) {
                @if items.iter().all(|(_, _, called)| *called) { "See yours" } @else { "Hand them in" }
            }
        }
    })
}
