//! Sealed orders (issue 29, item 2; `game::sealed`): a side's written orders go into the journal
//! as a salted commitment only, every side sees that they were sealed, a side may replace them
//! until the step reveals them, the reveal is held to the commitment, `game verify` checks it
//! and catches orders changed after sealing, a late order is refused with the rules' own
//! consequence, and each side sees the reveal as the ruleset says: the Venetian sees only the
//! French Orders the rules show (a Retreat Order, 5.2); an rr3 team sees that an Intention Card
//! was revealed to Map Control, not what it says.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use umpire::serve::{Audience, ServeOptions, Server};

use umpire::game::sealed::{OrderValue, Orders, Shown, parse_assignments};
use umpire::game::visibility::{SideView, Sight};
use umpire::game::{Action, Actor, EventKind, Game};
use umpire::rules::Library;

fn scratch(tag: &str) -> PathBuf {
    crate::common::scratch_game("sealed", tag)
}

fn umpire(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("--no-user-rules")
        .args(args)
        .output()
        .expect("umpire runs");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// "Venice at bay, 1509" at the Command Phase's "Issue or re-issue Orders" (turn 4), in a game
/// file at `path`.
fn venice_at_orders(path: &Path) -> Game {
    let mut game = crate::kit::venice(path);
    step_to(&mut game, "b2d_issue_orders");
    game
}

/// The token of the players' view's link for `audience`.
fn token_of(server: &Server, audience: &Audience) -> String {
    crate::serve::link(server, audience).to_string()
}

/// Walks the Sequence of Play to the step `id`, skipping what is pending on the way.
fn step_to(game: &mut Game, id: &str) {
    for _ in 0..400 {
        if game.steps()[game.state().cursor.step].id == id {
            return;
        }
        for p in game.pending() {
            if p.mandatory && !p.done {
                game.act(
                    &Actor::umpire(),
                    Action::Skip {
                        item: p.key.clone(),
                        reason: "not under test".into(),
                    },
                )
                .expect("skip");
            }
        }
        game.act(&Actor::umpire(), Action::Next).expect("next");
    }
    panic!("never reached {id}");
}

/// A new rr3 game of `scenario` (an id or a file) at `path` on `seed`, made with the command
/// line and walked to its first movement step (Phase 2, step 1), where Intention Cards are due.
fn rr3_at_its_first_movement_step(scenario: &str, path: &Path, seed: &str) {
    rr3_raised_then_at_its_first_movement_step(scenario, path, seed, &[]);
}

/// As [`rr3_at_its_first_movement_step`], the armies `raised` (side, army, area, who) raised at
/// Phase 1's "Raise armies" first: an army raised in the movement phase itself may not move
/// (The Campaign System › Raising an army).
fn rr3_raised_then_at_its_first_movement_step(
    scenario: &str,
    path: &Path,
    seed: &str,
    raised: &[(&str, &str, &str, &str)],
) {
    let file = path.to_str().expect("utf-8");
    let (ok, out) = umpire(&["game", "new", scenario, "-o", file, "--seed", seed]);
    assert!(ok, "{out}");
    if !raised.is_empty() {
        let mut game = Game::open(path, &Library::shipped()).expect("open");
        step_to(&mut game, "raise_armies_phase_1");
        drop(game);
        for (side, army, at, who) in raised {
            let (ok, out) = umpire(&[
                "game", "raise", file, side, army, "--at", at, "--blocks", "2", "--as", who,
            ]);
            assert!(ok, "{out}");
        }
    }
    let mut game = Game::open(path, &Library::shipped()).expect("open");
    step_to(&mut game, "phase_2_step_1");
}

fn orders(game: &Game, side: &str, typed: &[&str]) -> Orders {
    let form = game.order_form("orders", side).expect("form");
    let typed: Vec<String> = typed.iter().map(|t| t.to_string()).collect();
    parse_assignments(&form, &typed).unwrap_or_else(|e| panic!("{typed:?}: {e}"))
}

fn sight_of(game: &Game, side: &str, seq: u64) -> Sight {
    SideView::new(game.ruleset(), game.scenario(), side)
        .expect("side")
        .journal(game.events())
        .expect("journal")
        .into_iter()
        .find(|s| s.seq == seq)
        .expect("entry")
        .sight
}

fn journal_text(path: &Path) -> String {
    let (ok, out) = umpire(&["game", "export", path.to_str().expect("utf-8"), "--jsonl"]);
    assert!(ok, "{out}");
    out
}

#[test]
fn venice_seals_replaces_and_reveals_its_orders_and_verify_holds_them_to_the_commitment() {
    let path = scratch("ailsh");
    let mut game = crate::kit::venice(&path);
    // Before the step: not due yet.
    let early = game
        .seal_orders(&Actor::umpire(), "orders", "french", Orders::new(), None)
        .expect_err("not due yet");
    assert!(early.to_string().contains("not there yet"), "{early}");

    step_to(&mut game, "b2d_issue_orders");
    // A choice the rules do not have is refused, in words, and nothing is written.
    let before = game.events().len();
    let form = game.order_form("orders", "french").expect("form");
    let bad = parse_assignments(&form, &["Chaumont.Order=Charge".to_string()])
        .expect_err("no such Order");
    assert!(bad.contains("Chaumont") && bad.contains("Attack"), "{bad}");
    assert_eq!(game.events().len(), before);

    let first = orders(
        &game,
        "french",
        &[
            "Chaumont.Order=Attack",
            "Louis XII=Stand",
            "Roquebertin=Stand",
        ],
    );
    let sealed_first = game
        .seal_orders(
            &Actor::umpire(),
            "orders",
            "french",
            first,
            Some("from the French phone".into()),
        )
        .expect("sealed");
    let venice = orders(
        &game,
        "venetian",
        &[
            "Alviano=Retreat",
            "Pitigliano=Garrison",
            "Naldi=Stand",
            "Vitelli=Stand",
        ],
    );
    let sealed_venice = game
        .seal_orders(&Actor::umpire(), "orders", "venetian", venice.clone(), None)
        .expect("sealed");
    // Replaced before the deadline: a new commitment.
    let french = orders(
        &game,
        "french",
        &["Chaumont=Manoeuvre", "Louis XII=Stand", "Roquebertin=Stand"],
    );
    let sealed_french = game
        .seal_orders(&Actor::umpire(), "orders", "french", french.clone(), None)
        .expect("sealed again");
    assert!(sealed_french > sealed_first);

    // The journal holds commitments only: no Order is written in it before the reveal.
    for seq in [sealed_first, sealed_venice, sealed_french] {
        let e = &game.events()[seq as usize - 1];
        let EventKind::OrdersSealed { commitment, .. } = &e.kind else {
            panic!("entry {seq} is not a sealing: {:?}", e.kind);
        };
        assert_eq!(commitment.len(), 64);
        let json = serde_json::to_string(&e.kind).expect("json");
        for secret in ["attack", "manoeuvre", "retreat", "garrison"] {
            assert!(!json.contains(secret), "entry {seq} shows {secret}: {json}");
        }
        // Every side sees that the orders were sealed.
        assert_eq!(sight_of(&game, "venetian", seq), Sight::Open);
        assert_eq!(sight_of(&game, "french", seq), Sight::Open);
    }
    // The export's first line is the game's description (the scenario's set-up Orders); the
    // entries follow it.
    let export = journal_text(&path);
    // The AP turn's removal of every Order (5.3.4) names the set-up Orders it takes off, as the
    // description does; nothing else does before the reveal.
    let entries: String = export
        .lines()
        .skip(1)
        .filter(|l| !l.contains("5.3.4"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        !entries.contains("manoeuvre") && !entries.contains("retreat"),
        "{entries}"
    );

    // The game does not move on with orders still sealed.
    let next = game
        .act(&Actor::umpire(), Action::Next)
        .expect_err("reveal first");
    assert!(
        next.to_string().contains("Reveal the French Orders"),
        "{next}"
    );
    // A reveal that does not match the commitment is refused.
    let kept = game
        .sealed_content(sealed_french)
        .expect("read")
        .expect("kept");
    let mut changed = kept.orders.clone();
    changed
        .values_mut()
        .next()
        .expect("an entry")
        .insert("order".into(), OrderValue::Choice("attack".into()));
    let forged = game
        .act(
            &Actor::umpire(),
            Action::RevealOrders {
                sealed: sealed_french,
                salt: kept.salt.clone(),
                orders: changed,
            },
        )
        .expect_err("not the sealed orders");
    assert!(
        forged.to_string().contains("do not match its commitment"),
        "{forged}"
    );
    // The replaced orders are not the ones revealed.
    let old = game
        .sealed_content(sealed_first)
        .expect("read")
        .expect("kept");
    let stale = game
        .act(
            &Actor::umpire(),
            Action::RevealOrders {
                sealed: sealed_first,
                salt: old.salt,
                orders: old.orders,
            },
        )
        .expect_err("replaced");
    assert!(stale.to_string().contains("replaced"), "{stale}");

    let entries = game.reveal_orders(&Actor::umpire()).expect("revealed");
    let (revealed, put_on): (Vec<u64>, Vec<u64>) = entries.iter().partition(|s| {
        matches!(
            game.events()[**s as usize - 1].kind,
            EventKind::OrdersRevealed { .. }
        )
    });
    assert_eq!(revealed.len(), 2, "the last French and the Venetian orders");
    // Each reveal puts its Orders on the counters in an entry of its own, which the other side
    // sees as far as the visibility rules show Orders (the Retreat Order only).
    assert_eq!(put_on.len(), 2, "{entries:?}");
    for seq in &put_on {
        let EventKind::Changed { changes, .. } = &game.events()[*seq as usize - 1].kind else {
            panic!("not a change of counters");
        };
        assert!(
            changes
                .iter()
                .any(|c| matches!(c, umpire::game::CounterChange::Attribute { attribute, .. } if attribute == "order")),
            "{changes:?}"
        );
        let EventKind::OrdersRevealed { side: whose, .. } = &game.events()[*seq as usize - 2].kind
        else {
            panic!("not after its reveal");
        };
        let other = if whose == "french" {
            "venetian"
        } else {
            "french"
        };
        assert_eq!(sight_of(&game, whose, *seq), Sight::Open);
        match sight_of(&game, other, *seq) {
            Sight::Summary(lines) => {
                let all = lines.join("\n");
                assert!(!all.contains("Manoeuvre"), "{other} sees {all}");
            }
            seen => assert_ne!(seen, Sight::Open, "{other} sees {whose}'s Orders whole"),
        }
    }
    for seq in &revealed {
        let EventKind::OrdersRevealed { shown, .. } = &game.events()[*seq as usize - 1].kind else {
            panic!("not a reveal");
        };
        assert!(matches!(shown, Shown::Visibility { .. }), "{shown:?}");
    }
    let french_reveal = revealed
        .iter()
        .copied()
        .find(|s| matches!(&game.events()[*s as usize - 1].kind, EventKind::OrdersRevealed { side, .. } if side == "french"))
        .expect("the French reveal");
    let venetian_reveal = revealed
        .iter()
        .copied()
        .find(|s| *s != french_reveal)
        .expect("the Venetian reveal");
    // Each side sees its own whole; the French see of the Venetian orders only the Retreat
    // Order (on the map, 5.2), the Venetian none of the French (no Retreat among them).
    assert_eq!(sight_of(&game, "french", french_reveal), Sight::Open);
    let Sight::Summary(lines) = sight_of(&game, "french", venetian_reveal) else {
        panic!("the French see the Venetian reveal in part");
    };
    let all = lines.join("\n");
    assert!(all.contains("Retreat"), "{all}");
    assert!(!all.contains("Garrison"), "{all}");
    let Sight::Summary(lines) = sight_of(&game, "venetian", french_reveal) else {
        panic!("the Venetian see the French reveal in part");
    };
    let all = lines.join("\n");
    assert!(
        !all.contains("Manoeuvre") && !all.contains("Stand"),
        "{all}"
    );

    // Late: the step has revealed the orders.
    let late = game
        .seal_orders(&Actor::umpire(), "orders", "french", french, None)
        .expect_err("late");
    assert!(late.to_string().contains("Too late"), "{late}");
    assert!(
        late.to_string().contains("5.3.1"),
        "the rules' own words: {late}"
    );

    // Verify holds each reveal to its commitment.
    let (ok, out) = umpire(&["game", "verify", path.to_str().expect("utf-8")]);
    assert!(ok, "{out}");
    assert!(out.contains("2 sets of sealed orders revealed"), "{out}");
    let v = game.verify(None).expect("verify");
    assert_eq!(v.orders, 2);
    assert!(v.is_sound(), "{:?}", v.problems);

    // An export whose revealed orders were changed after sealing fails `import` and `verify-side`.
    let export = journal_text(&path);
    let tampered: String = export
        .lines()
        .map(|l| {
            if l.contains("\"orders_revealed\"") && l.contains("\"french\"") {
                l.replace("\"manoeuvre\"", "\"attack\"")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(
        tampered.trim(),
        export.trim(),
        "the French reveal was found"
    );
    let file = path.with_file_name("tampered.jsonl");
    std::fs::write(&file, tampered + "\n").expect("write");
    let (ok, out) = umpire(&["game", "verify-side", file.to_str().expect("utf-8")]);
    assert!(!ok, "a changed reveal verifies: {out}");
    assert!(out.contains(&format!("entry {french_reveal}")), "{out}");
}

#[test]
fn an_rr3_intention_card_is_revealed_to_map_control_and_an_army_without_one_misses_the_step() {
    let path = scratch("rr3");
    let file = path.to_str().expect("utf-8").to_string();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/scenarios/rr3_examples.yaml")
        .to_string_lossy()
        .to_string();
    rr3_raised_then_at_its_first_movement_step(
        &fixture,
        &path,
        "7",
        &[
            (
                "austria",
                "Ferdinand's army",
                "Upper Austria",
                "Anna:map:the_east",
            ),
            (
                "austria",
                "Charles's army",
                "Upper Austria",
                "Anna:map:the_east",
            ),
        ],
    );
    // Paper orders entered at the desk: one army's card, the other not ready.
    let (ok, out) = umpire(&[
        "game",
        "orders",
        "seal",
        &file,
        "--side",
        "habsburgs",
        "--order",
        "Intention Card",
        "Ferdinand's army.Move=Move 1 area",
        "Ferdinand's army.Area(s) to be moved through=Bohemia",
        "Ferdinand's army.Intention to engage=yes",
    ]);
    assert!(ok, "{out}");
    assert!(out.contains("Intention Card sealed"), "{out}");
    // The other armies handed in nothing: the reveal asks first, naming them and the rules'
    // consequence, and records nothing.
    let (ok, out) = umpire(&["game", "orders", "reveal", &file]);
    assert!(!ok, "{out}");
    assert!(
        out.contains("nothing revealed")
            && out.contains("were not handed in")
            && out.contains("--anyway"),
        "{out}"
    );
    let (ok, out) = umpire(&["game", "orders", "reveal", &file, "--anyway"]);
    assert!(ok, "{out}");
    assert!(out.contains("Revealed to Map Control"), "{out}");
    assert!(
        out.contains("Move — Move 1 area; Area(s) to be moved through — Bohemia"),
        "{out}"
    );
    assert!(
        out.contains("No order for Charles's army") && out.contains("miss that step"),
        "the rules' consequence: {out}"
    );
    let game = Game::open(&path, &Library::shipped()).expect("open");
    let reveal = game.events().last().expect("an entry").seq;
    let Sight::Summary(lines) = sight_of(&game, "france", reveal) else {
        panic!("France sees only that the card was revealed");
    };
    let all = lines.join("\n");
    assert!(all.contains("revealed to Map Control"), "{all}");
    assert!(!all.contains("Bohemia"), "{all}");
    assert_eq!(sight_of(&game, "habsburgs", reveal), Sight::Open);
}

// ── From the phone ───────────────────────────────────────────────────────────────────────────

/// A request over a plain socket: (status, body).
fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[&str],
    body: &str,
) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    let extra: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

fn form_token(addr: SocketAddr, token: &str) -> String {
    let (status, page) = request(addr, "GET", &format!("/s/{token}/orders"), &[], "");
    assert_eq!(status, 200, "{page}");
    let at = page
        .find("name=\"csrf\" value=\"")
        .expect("the form carries its token")
        + 19;
    page[at..].chars().take_while(|c| *c != '"').collect()
}

fn sealings(path: &Path) -> Vec<(String, String)> {
    Game::open(path, &Library::shipped())
        .expect("open")
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::OrdersSealed {
                side, commitment, ..
            } => Some((side.clone(), commitment.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_phone_seals_its_sides_orders_and_nothing_else_gets_through() {
    let path = scratch("phone");
    drop(venice_at_orders(&path));
    let server = Server::start(
        &path.to_string_lossy(),
        Library::shipped(),
        &ServeOptions {
            bind: "127.0.0.1:0".parse().expect("addr"),
            max_connections: 16,
        },
    )
    .expect("serves");
    let token = |a: &Audience| token_of(&server, a);
    let (french, venetian, public) = (
        token(&Audience::Side("french".into())),
        token(&Audience::Side("venetian".into())),
        token(&Audience::Public),
    );
    let addr = server.addr;
    let post = |link: &str, headers: &[&str], body: &str| {
        request(addr, "POST", &format!("/s/{link}/orders"), headers, body)
    };

    // The form: the side's Forces with the Orders the rules allow, their AP cost.
    let (status, page) = request(addr, "GET", &format!("/s/{french}/orders"), &[], "");
    assert_eq!(status, 200);
    for needle in ["Chaumont — hex 2832", "Louis XII", "Attack — 1 AP", "Seal"] {
        assert!(page.contains(needle), "{needle} missing from {page}");
    }
    // Sealed from the French page.
    let csrf = form_token(addr, &french);
    let body = format!(
        "csrf={csrf}&order=orders&f%3Afr-chaumont%3Aorder=attack&f%3Afr-louis%3Aorder=stand&f%3Afr-roquebertin%3Aorder=stand"
    );
    let (status, page) = post(
        &french,
        &["Origin: null", "Sec-Fetch-Site: same-origin"],
        &body,
    );
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("French Orders for turn"), "{page}");
    assert!(
        page.contains("Chaumont: Order — Attack"),
        "the side sees its own orders: {page}"
    );
    assert_eq!(sealings(&path).len(), 1);
    // The same form sent again is refused: its token was used.
    let (status, _) = post(&french, &[], &body);
    assert_eq!(status, 403);
    // A cross-site POST is refused, even with a good token.
    let csrf = form_token(addr, &french);
    let forged = format!("csrf={csrf}&order=orders&f%3Afr-chaumont%3Aorder=retreat");
    let (status, page) = post(
        &french,
        &["Sec-Fetch-Site: cross-site", "Origin: http://evil.example"],
        &forged,
    );
    assert_eq!(status, 403, "{page}");
    assert!(page.contains("another site"), "{page}");
    let (status, _) = post(&french, &["Origin: http://evil.example"], &forged);
    assert_eq!(status, 403, "another origin");
    // No token, or another link's token: refused.
    let (status, _) = post(&french, &[], "order=orders&f%3Afr-chaumont%3Aorder=retreat");
    assert_eq!(status, 403);
    let other = form_token(addr, &venetian);
    let (status, _) = post(
        &french,
        &[],
        &format!("csrf={other}&order=orders&f%3Afr-chaumont%3Aorder=retreat"),
    );
    assert_eq!(
        status, 403,
        "a Venetian page's token does not seal French orders"
    );
    // A link seals only its own side's orders: a Venetian POST naming French Forces is refused.
    let csrf = form_token(addr, &venetian);
    let (status, page) = post(
        &venetian,
        &[],
        &format!("csrf={csrf}&order=orders&f%3Afr-chaumont%3Aorder=retreat"),
    );
    assert_eq!(status, 422, "{page}");
    assert!(page.contains("nothing to seal"), "{page}");
    assert!(
        !sealings(&path).iter().any(|(side, _)| side == "venetian"),
        "a French Force in a Venetian hand-in"
    );
    // The public link hands in nothing.
    let (status, _) = request(addr, "GET", &format!("/s/{public}/orders"), &[], "");
    assert_eq!(status, 403);
    let (status, _) = post(&public, &[], "csrf=x&order=orders");
    assert_eq!(status, 403);
    // Too big a body.
    let csrf = form_token(addr, &french);
    let big = format!(
        "csrf={csrf}&order=orders&pad={}",
        "x".repeat(umpire::serve::orders::BODY_LIMIT + 10)
    );
    let (status, _) = post(&french, &[], &big);
    assert_eq!(status, 413);
    // The Venetian page does not show what the French sealed.
    let (_, venetian_page) = request(addr, "GET", &format!("/s/{venetian}/orders"), &[], "");
    assert!(
        !venetian_page.contains("Chaumont: Order"),
        "{venetian_page}"
    );
    let (_, venetian_main) = request(addr, "GET", &format!("/s/{venetian}"), &[], "");
    assert!(
        !venetian_main.contains("Chaumont: Order"),
        "{venetian_main}"
    );
    // At most six seals a minute from one link.
    let before = sealings(&path).len();
    let mut statuses = Vec::new();
    for _ in 0..7 {
        let csrf = form_token(addr, &french);
        let (status, _) = post(
            &french,
            &[],
            &format!("csrf={csrf}&order=orders&f%3Afr-chaumont%3Aorder=manoeuvre"),
        );
        statuses.push(status);
    }
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    assert!(sealings(&path).len() - before <= umpire::serve::orders::SEALS_PER_MINUTE);
    server.stop();

    // Revealed at the desk; a phone's order after that is refused with the rules' consequence.
    let mut game = Game::open(&path, &Library::shipped()).expect("open");
    game.reveal_orders(&Actor::umpire()).expect("revealed");
    drop(game);
    let server = Server::start(
        &path.to_string_lossy(),
        Library::shipped(),
        &ServeOptions {
            bind: "127.0.0.1:0".parse().expect("addr"),
            max_connections: 16,
        },
    )
    .expect("serves again");
    let (status, page) = request(server.addr, "GET", &format!("/s/{french}/orders"), &[], "");
    assert_eq!(status, 200, "the link still works after a restart");
    assert!(page.contains("it takes no more"), "{page}");
    server.stop();
}

// ── At the desk ──────────────────────────────────────────────────────────────────────────────

/// Orders handed in on paper are typed into the desk's Sealed orders panel and sealed as a
/// phone seals them (a commitment in the journal, the orders kept apart); the panel shows that
/// they were sealed, not what, and its Reveal button reveals them.
#[test]
fn paper_orders_are_sealed_and_revealed_at_the_desk() {
    use crate::kit::{click, labels_containing};
    use eframe::egui;
    use egui_kittest::Harness;
    use umpire::app::{DeskApp, GameDesk, ProcedureDesk, SEAL_LABEL, SEALED_ORDERS_HEADING};

    let path = scratch("desk");
    drop(venice_at_orders(&path));
    let g = GameDesk::open(&path, &Library::shipped()).expect("opens");
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_eframe(|cc| {
            DeskApp::with_game(cc, ProcedureDesk::with_seed(Library::shipped(), 1), g)
        });
    harness.run();
    assert!(!labels_containing(&harness, SEALED_ORDERS_HEADING).is_empty());
    assert!(!labels_containing(&harness, "French: not handed in").is_empty());
    click(&mut harness, "Enter Orders handed in on paper");
    {
        let g = harness.state_mut().game.as_mut().expect("game");
        g.orders.side = Some("french".into());
        // Every French Force: a Force may never remain without an Order (5.2, 5.3.4).
        for (force, order) in [
            ("fr-chaumont", "manoeuvre"),
            ("fr-louis", "stand"),
            ("fr-roquebertin", "stand"),
        ] {
            g.orders
                .typed
                .insert(format!("orders|french|f:{force}:order"), order.into());
        }
    }
    harness.run();
    let seal = format!("{SEAL_LABEL} French Orders");
    click(&mut harness, &seal);
    let game = Game::open(&path, &Library::shipped()).expect("open");
    let last = game.events().last().expect("an entry");
    let EventKind::OrdersSealed { side, via, .. } = &last.kind else {
        panic!("not sealed: {:?}", last.kind);
    };
    assert_eq!(side, "french");
    assert!(
        via.as_deref().is_some_and(|v| v.contains("paper")),
        "{via:?}"
    );
    drop(game);
    harness.run();
    assert!(
        labels_containing(&harness, "French: sealed at").len() == 1,
        "the panel says they were sealed"
    );
    assert!(
        labels_containing(&harness, "Manoeuvre")
            .iter()
            .all(|l| !l.contains("Chaumont")),
        "the umpire's panel does not show the sealed orders"
    );
    // The Venetians handed in nothing: the panel says so, with the rules' consequence, and the
    // button asks to reveal anyway.
    assert!(
        !labels_containing(&harness, "The Venetian Orders were not handed in").is_empty(),
        "the side that handed in nothing is named"
    );
    assert!(labels_containing(&harness, "Reveal the sealed orders").is_empty());
    click(&mut harness, umpire::app::REVEAL_ANYWAY_LABEL);
    let game = Game::open(&path, &Library::shipped()).expect("open");
    let orders = game
        .events()
        .iter()
        .rev()
        .find_map(|e| match &e.kind {
            EventKind::OrdersRevealed { orders, .. } => Some(orders.clone()),
            _ => None,
        })
        .expect("revealed");
    assert_eq!(
        orders.get("fr-chaumont").and_then(|f| f.get("order")),
        Some(&OrderValue::Choice("manoeuvre".into()))
    );
    // The Order reached the counter: Chaumont's Force manoeuvres.
    assert_eq!(
        game.state().counters["chaumont"].attributes.get("order"),
        Some(&umpire::rules::Value::Text("manoeuvre".into()))
    );
}

// ── In a real browser ────────────────────────────────────────────────────────────────────────

/// Serves one page at `/` on a port of its own (another site), as often as asked; stops with
/// the test.
fn other_site(html: String) -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{html}",
                html.len()
            );
        }
    });
    addr
}

fn start_on(path: &Path, bind: SocketAddr) -> Server {
    Server::start(
        &path.to_string_lossy(),
        Library::shipped(),
        &ServeOptions {
            bind,
            max_connections: 32,
        },
    )
    .expect("serves")
}

/// Issue 29's phone test, in Debian's Chromium at 390×844 through WebDriver, on the Command
/// Phase of "Venice at bay": both sides seal their Orders on their phones; neither page shows
/// the other's before the reveal; the French replace theirs; a page of another site posting to
/// the orders page is refused; the umpire reveals; each side's page shows what the rules show
/// (the French Retreat Order is in view on the map, 5.2), and the verify page passes; an order
/// sealed after the reveal is refused with the rules' words; the players' view restarts and
/// the open page carries on live.
#[test]
fn two_phones_seal_their_orders_and_the_reveal_verifies() {
    use crate::common::browser::{choose, click, main_text, phone, wait_for};
    use umpire::game::event::Audience as Heard;

    let path = scratch("browser");
    let mut game = venice_at_orders(&path);
    let server = start_on(&path, "127.0.0.1:0".parse().expect("addr"));
    let bind = server.addr;
    let link = |side: &str| {
        let token = token_of(&server, &Audience::Side(side.into()));
        format!("http://{bind}/s/{token}")
    };
    let (french, venetian) = (link("french"), link("venetian"));
    // Another site's page that posts to the French orders page (with a good form token, which
    // a real attacker could not even read).
    let csrf = form_token(bind, french.rsplit('/').next().expect("token"));
    let evil = other_site(format!(
        "<!DOCTYPE html><html><body><form method=\"post\" action=\"{french}/orders\">\
         <input name=\"csrf\" value=\"{csrf}\"><input name=\"order\" value=\"orders\">\
         <input name=\"f:fr-louis:order\" value=\"attack\"></form>\
         <script>document.forms[0].submit()</script></body></html>"
    ));
    let profile = path.with_file_name("chromium-profile");
    let mut server = Some(server);
    let shots = phone(&profile, async |c| {
        let e = |e: fantoccini::error::CmdError| e.to_string();
        // The French page says the step takes Orders; its link opens the form.
        c.goto(&french).await.map_err(e)?;
        let top = wait_for(&c, "Orders due at this step", Duration::from_secs(5)).await?;
        assert!(top.contains("Orders — not handed in"), "{top}");
        click(&c, "p.due a").await?;
        // The French seal on their phone…
        wait_for(&c, "Orders — French", Duration::from_secs(5)).await?;
        choose(&c, "f:fr-chaumont:order", "attack").await?;
        choose(&c, "f:fr-louis:order", "retreat").await?;
        choose(&c, "f:fr-roquebertin:order", "stand").await?;
        let form_png = c.screenshot().await.map_err(e)?;
        click(&c, "form.orders button[type=submit]").await?;
        let sealed = wait_for(&c, "French Orders for turn", Duration::from_secs(5)).await?;
        assert!(sealed.contains("Chaumont: Order — Attack"), "{sealed}");
        // …then replace them before the reveal.
        choose(&c, "f:fr-chaumont:order", "manoeuvre").await?;
        click(&c, "form.orders button[type=submit]").await?;
        let replaced = wait_for(&c, "Chaumont: Order — Manoeuvre", Duration::from_secs(5)).await?;
        assert!(replaced.contains("Seal again"), "{replaced}");
        // A page from another site posting here is refused.
        c.goto(&format!("http://{evil}/")).await.map_err(e)?;
        let refused = wait_for(&c, "another site", Duration::from_secs(5)).await?;
        assert!(refused.contains("Orders not sealed"), "{refused}");
        // The Venetian phone: its own orders; nothing of the French ones.
        c.goto(&format!("{venetian}/orders")).await.map_err(e)?;
        let theirs = main_text(&c).await?;
        assert!(!theirs.contains("Chaumont: Order"), "{theirs}");
        assert!(!theirs.contains("Louis XII: Order"), "{theirs}");
        choose(&c, "f:ve-alviano:order", "manoeuvre").await?;
        choose(&c, "f:ve-pitigliano:order", "garrison").await?;
        choose(&c, "f:ve-naldi:order", "stand").await?;
        choose(&c, "f:ve-vitelli:order", "stand").await?;
        click(&c, "form.orders button[type=submit]").await?;
        wait_for(&c, "Venetian Orders for turn", Duration::from_secs(5)).await?;
        // The Venetian game page: the commitments, not the orders.
        c.goto(&venetian).await.map_err(e)?;
        let before = wait_for(&c, "Orders sealed", Duration::from_secs(5)).await?;
        assert!(!before.contains("Retreat"), "{before}");
        // The French orders page stays open on a phone while the umpire reveals.
        c.goto(&format!("{french}/orders")).await.map_err(e)?;
        let reveals = game
            .reveal_orders(&Actor::umpire())
            .map_err(|e| e.to_string())?;
        let revealed = reveals
            .iter()
            .filter(|s| {
                matches!(
                    game.events()[**s as usize - 1].kind,
                    EventKind::OrdersRevealed { .. }
                )
            })
            .count();
        assert_eq!(revealed, 2, "each side's orders revealed once: {reveals:?}");
        // A late order (the form loaded before the reveal) is refused with the rules' words.
        choose(&c, "f:fr-chaumont:order", "attack").await?;
        click(&c, "form.orders button[type=submit]").await?;
        let late = wait_for(&c, "Not sealed", Duration::from_secs(5)).await?;
        assert!(
            late.contains("Too late") && late.contains("5.3.1"),
            "{late}"
        );
        // The Venetian page shows the French reveal as the rules show it: the Retreat Order.
        c.goto(&venetian).await.map_err(e)?;
        wait_for(&c, "Orders revealed", Duration::from_secs(5)).await?;
        for summary in c
            .find_all(fantoccini::Locator::XPath(
                "//details[not(@open)]/summary[contains(., 'Orders revealed')]",
            ))
            .await
            .map_err(e)?
        {
            summary.click().await.map_err(e)?;
        }
        let after = main_text(&c).await?;
        assert!(after.contains("Louis XII's Force: Retreat"), "{after}");
        assert!(!after.contains("Chaumont: Order"), "{after}");
        let reveal_png = c.screenshot().await.map_err(e)?;
        c.goto(&format!("{venetian}/verify")).await.map_err(e)?;
        let verified = main_text(&c).await?;
        assert!(verified.contains("Verified"), "{verified}");
        assert!(
            verified.contains("1 set of sealed orders revealed and held to the commitment"),
            "Venice checks its own reveal: {verified}"
        );
        // The players' view restarts; the open French page carries on live.
        c.goto(&french).await.map_err(e)?;
        wait_for(&c, "Orders revealed", Duration::from_secs(5)).await?;
        if let Some(s) = server.take() {
            s.stop();
        }
        let again = start_on(&path, bind);
        game.act(
            &Actor::umpire(),
            Action::Announce {
                audience: Heard::Public,
                team: None,
                text: "The umpire's table moves to the next room".into(),
            },
        )
        .map_err(|e| e.to_string())?;
        let carried = wait_for(&c, "next room", Duration::from_secs(15)).await;
        again.stop();
        carried?;
        Ok((form_png, reveal_png))
    });
    let (form_png, reveal_png) = shots;
    for png in [&form_png, &reveal_png] {
        assert_eq!(&png[1..4], b"PNG");
        let width = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
        assert_eq!(width, 780, "390 CSS pixels at a pixel ratio of 2");
    }
    std::fs::write(path.with_file_name("orders-form.png"), &form_png).expect("png");
    std::fs::write(path.with_file_name("orders-revealed.png"), &reveal_png).expect("png");
    // The journal holds both sides' commitments, the replacement, both reveals; it verifies.
    let game = Game::open(&path, &Library::shipped()).expect("open");
    let sealed = game
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::OrdersSealed { .. }))
        .count();
    assert_eq!(sealed, 3, "French, French again, Venetian");
    let (ok, out) = umpire(&["game", "verify", path.to_str().expect("utf-8")]);
    assert!(ok && out.contains("2 sets of sealed orders"), "{out}");
}

/// A movement step of the rr3 handbook game from a team's phone: the Intention Card's form for
/// each of the team's armies (the move options as printed, the areas by name, the box), sealed;
/// revealed to Map Control when the step is called, so another team's page says only that.
#[test]
fn an_rr3_team_hands_in_its_intention_card_from_a_phone() {
    let path = scratch("rr3-phone");
    let file = path.to_str().expect("utf-8").to_string();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/scenarios/rr3_examples.yaml")
        .to_string_lossy()
        .to_string();
    rr3_raised_then_at_its_first_movement_step(
        &fixture,
        &path,
        "7",
        &[(
            "austria",
            "Ferdinand's army",
            "Upper Austria",
            "Anna:map:the_east",
        )],
    );
    let server = start_on(&path, "127.0.0.1:0".parse().expect("addr"));
    let token = |side: &str| token_of(&server, &Audience::Side(side.into()));
    let (habsburgs, france) = (token("habsburgs"), token("france"));
    let (status, page) = request(
        server.addr,
        "GET",
        &format!("/s/{habsburgs}/orders"),
        &[],
        "",
    );
    assert_eq!(status, 200);
    for needle in [
        "Intention Card",
        "Ferdinand's army",
        "Move 2 areas but gain 1 Fatigue marker",
        "Area(s) to be moved through",
        "Intention to engage",
        "list=\"areas-intention_card\"",
        "miss that step",
    ] {
        assert!(page.contains(needle), "{needle} missing: {page}");
    }
    let army = game_counter(&path, "Ferdinand's army");
    let csrf = form_token(server.addr, &habsburgs);
    let body = format!(
        "csrf={csrf}&order=intention_card&f%3A{army}%3Amove=move_1_area&f%3A{army}%3Aareas=Bohemia&f%3A{army}%3Aintention_to_engage=yes"
    );
    let (status, page) = request(
        server.addr,
        "POST",
        &format!("/s/{habsburgs}/orders"),
        &[],
        &body,
    );
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains("Intention Card for turn 1, sealed at"),
        "{page}"
    );
    assert!(
        page.contains("Move 1 area") && page.contains("Bohemia"),
        "{page}"
    );
    // Too many areas for the field are refused with the field's words.
    let csrf = form_token(server.addr, &habsburgs);
    let body = format!(
        "csrf={csrf}&order=intention_card&f%3A{army}%3Amove=move_2_areas&f%3A{army}%3Aareas=Bohemia%2C+Upper+Austria%2C+Bohemia"
    );
    let (status, page) = request(
        server.addr,
        "POST",
        &format!("/s/{habsburgs}/orders"),
        &[],
        &body,
    );
    assert_eq!(status, 422, "{page}");
    assert!(page.contains("at most 2"), "{page}");
    server.stop();
    let (ok, out) = umpire(&["game", "orders", "reveal", &file, "--anyway"]);
    assert!(ok, "{out}");
    let server = start_on(&path, "127.0.0.1:0".parse().expect("addr"));
    let (_, theirs) = request(server.addr, "GET", &format!("/s/{france}"), &[], "");
    assert!(theirs.contains("revealed to Map Control"), "{theirs}");
    assert!(!theirs.contains("Bohemia"), "{theirs}");
    server.stop();
}

/// A counter's id by its name.
fn game_counter(path: &Path, name: &str) -> String {
    Game::open(path, &Library::shipped())
        .expect("open")
        .state()
        .counters
        .values()
        .find(|c| c.name == name)
        .map(|c| c.id.clone())
        .expect("the counter")
}

/// A movement step of the rr3 handbook game on the teams' phones (Chromium, 390×844): France's
/// army commander fills in the Intention Card (its move, the areas typed as on the paper card —
/// the handbook has no gazetteer — and the box) and seals it; England's page shows that France
/// sealed, not what; Map Control reveals it when the step is called; France sees it whole,
/// England only that Map Control has it.
#[test]
fn the_rr3_handbook_game_takes_an_intention_card_from_a_phone() {
    use crate::common::browser::{choose, click, main_text, phone, wait_for};

    let path = scratch("rr3-browser");
    let file = path.to_str().expect("utf-8").to_string();
    rr3_raised_then_at_its_first_movement_step(
        "rr3_handbook_1524",
        &path,
        "5",
        &[("France", "Army of Francis I", "Paris", "Anna:map:the_west")],
    );
    let army = game_counter(&path, "Army of Francis I");
    let server = start_on(&path, "127.0.0.1:0".parse().expect("addr"));
    let link = |side: &str| {
        let token = token_of(&server, &Audience::Side(side.into()));
        format!("http://{}/s/{token}", server.addr)
    };
    let (france, england) = (link("france"), link("england"));
    let profile = path.with_file_name("chromium-profile");
    phone(&profile, async |c| {
        let e = |e: fantoccini::error::CmdError| e.to_string();
        c.goto(&france).await.map_err(e)?;
        wait_for(&c, "Intention Card — not handed in", Duration::from_secs(5)).await?;
        click(&c, "p.due a").await?;
        wait_for(&c, "Army of Francis I", Duration::from_secs(5)).await?;
        choose(&c, &format!("f:{army}:move"), "move_2_areas").await?;
        let areas = c
            .find(fantoccini::Locator::Css(&format!(
                "input[name='f:{army}:areas']"
            )))
            .await
            .map_err(e)?;
        areas.send_keys("Burgundy, Savoy").await.map_err(e)?;
        click(&c, &format!("input[name='f:{army}:intention_to_engage']")).await?;
        click(&c, "form.orders button[type=submit]").await?;
        let sealed = wait_for(
            &c,
            "Intention Card for turn 1, sealed at",
            Duration::from_secs(5),
        )
        .await?;
        assert!(sealed.contains("Burgundy, Savoy"), "{sealed}");
        c.goto(&england).await.map_err(e)?;
        let theirs = wait_for(&c, "Intention Card sealed", Duration::from_secs(5)).await?;
        assert!(!theirs.contains("Burgundy"), "{theirs}");
        Ok(())
    });
    server.stop();
    let (ok, out) = umpire(&[
        "game",
        "orders",
        "reveal",
        &file,
        "--anyway",
        "--as",
        "Anna:map:the_west",
    ]);
    assert!(ok, "{out}");
    assert!(out.contains("Revealed to Map Control"), "{out}");
    let server = start_on(&path, "127.0.0.1:0".parse().expect("addr"));
    let england = format!(
        "http://{}/s/{}",
        server.addr,
        token_of(&server, &Audience::Side("england".into()))
    );
    phone(&path.with_file_name("chromium-profile-2"), async |c| {
        c.goto(&england).await.map_err(|e| e.to_string())?;
        let after = wait_for(&c, "revealed to Map Control", Duration::from_secs(5)).await?;
        assert!(!after.contains("Burgundy"), "{after}");
        let _ = main_text(&c).await?;
        Ok(())
    });
    server.stop();
}

/// "Armies may be raised but may not move this phase" (The Campaign System › Raising an army,
/// L216–219, L570): an army raised at the movement step itself is refused a move on its
/// Intention Card — from the command line and from a phone alike (the one check of
/// `Game::seal_orders`) — and may remain stationary; the phone's form shows the moves as not
/// allowed, with the reason.
#[test]
fn an_rr3_army_raised_this_phase_may_not_move() {
    let path = scratch("rr3-raised");
    let file = path.to_str().expect("utf-8").to_string();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/scenarios/rr3_examples.yaml")
        .to_string_lossy()
        .to_string();
    rr3_at_its_first_movement_step(&fixture, &path, "7");
    let (ok, out) = umpire(&[
        "game",
        "raise",
        &file,
        "austria",
        "Ferdinand's army",
        "--at",
        "Upper Austria",
        "--blocks",
        "2",
        "--as",
        "Anna:map:the_east",
    ]);
    assert!(ok, "{out}");
    let seal = |movement: &str| {
        umpire(&[
            "game",
            "orders",
            "seal",
            &file,
            "--side",
            "habsburgs",
            "--order",
            "Intention Card",
            &format!("Ferdinand's army.Move={movement}"),
        ])
    };
    let (ok, out) = seal("Move 1 area");
    assert!(!ok, "a move by an army raised this phase was sealed: {out}");
    assert!(
        out.contains("Ferdinand's army: Move 1 area is not allowed — raised this phase: An army raised this phase may not move."),
        "{out}"
    );
    assert!(sealings(&path).is_empty(), "nothing kept");
    // From a phone: the form shows the moves as not allowed; a forged post is refused the same.
    let server = start_on(&path, "127.0.0.1:0".parse().expect("addr"));
    let habsburgs = token_of(&server, &Audience::Side("habsburgs".into()));
    let (status, page) = request(
        server.addr,
        "GET",
        &format!("/s/{habsburgs}/orders"),
        &[],
        "",
    );
    assert_eq!(status, 200);
    assert!(
        page.contains("disabled") && page.contains("not allowed: raised this phase"),
        "{page}"
    );
    let army = game_counter(&path, "Ferdinand's army");
    let csrf = form_token(server.addr, &habsburgs);
    let body = format!("csrf={csrf}&order=intention_card&f%3A{army}%3Amove=move_1_area");
    let (status, page) = request(
        server.addr,
        "POST",
        &format!("/s/{habsburgs}/orders"),
        &[],
        &body,
    );
    assert_eq!(status, 422, "{page}");
    assert!(page.contains("raised this phase"), "{page}");
    server.stop();
    assert!(sealings(&path).is_empty(), "nothing kept");
    let (ok, out) = seal("Remain stationary and remove 1 Fatigue marker");
    assert!(ok, "{out}");
}
