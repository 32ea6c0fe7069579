//! The players' view (issue 17): a read-only server, one link a side with a random token, each
//! page showing only what that side may see, live by Server-Sent Events; wrong tokens refused,
//! names escaped, open streams capped. Driven over real sockets, and the page in Debian's
//! headless Chromium at a phone's size.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use umpire::game::CounterId;

use crate::kit::scenario;
use umpire::game::{Action, Actor, Game};
use umpire::rules::{Library, SourceFile};
use umpire::serve::{Audience, ServeOptions, Server};

fn scratch(tag: &str) -> PathBuf {
    crate::common::scratch_game("serve", tag)
}

fn start(path: &std::path::Path, max_connections: usize) -> Server {
    Server::start(
        &path.to_string_lossy(),
        Library::shipped(),
        &ServeOptions {
            bind: "127.0.0.1:0".parse().expect("addr"),
            max_connections,
        },
    )
    .expect("serves")
}

/// A GET over a plain socket: (status, body).
pub(crate) fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read");
    let text = String::from_utf8_lossy(&raw).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("status");
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

/// The token of the players' view's link for `audience`.
pub(crate) fn link<'s>(server: &'s Server, audience: &Audience) -> &'s str {
    &server
        .links
        .iter()
        .find(|l| &l.audience == audience)
        .expect("a link")
        .token
}

fn side(id: &str) -> Audience {
    Audience::Side(id.into())
}

/// An Order's AP cost: the French side's business (hidden from Venice, ailsh 1.4).
fn order_cost() -> Action {
    Action::Resolve {
        procedure: "order_cost".into(),
        inputs: vec![
            ("force".into(), "minor".into()),
            ("order".into(), "stand".into()),
        ],
        physical: None,
        chart_result: Some("1".into()),
        chart_confirmed: false,
        counters: [("force".to_string(), vec![CounterId::from("chaumont")])].into(),
        item: None,
    }
}

#[test]
fn each_side_sees_its_own_page_live_and_a_wrong_token_is_refused() {
    let path = scratch("sides");
    let mut game =
        Game::create(&path, &scenario("s1_venice"), &Library::shipped(), Some(3)).expect("game");
    let server = start(&path, 64);
    let (french, venetian) = (
        link(&server, &side("french")),
        link(&server, &side("venetian")),
    );
    assert_ne!(french, venetian);
    assert!(french.len() >= 20, "a token of about 100 bits");
    let (status, page) = get(server.addr, &format!("/s/{french}"));
    assert_eq!(status, 200);
    assert!(page.contains("Seen as: French"), "{page}");
    assert!(
        page.contains("Chaumont"),
        "the French see their own counters"
    );
    assert!(page.contains("hex 2832 (Cassano)"), "places by name");
    assert!(
        page.contains(r#"<span class="name">Chaumont's Force</span> — hex 2832 (Cassano)"#),
        "counters by Force, each Force one line with where it is: {page}"
    );
    // The player's own counters come first, open, before the gazette and the journal.
    let (own, journal) = (
        page.find("Your counters").expect("own counters"),
        page.find("The journal, newest first").expect("the journal"),
    );
    assert!(own < journal, "own counters before the journal");
    assert!(
        page.contains(r#"<details class="counters" id="counters" open>"#),
        "own counters open on the first screen"
    );
    let (status, page) = get(server.addr, &format!("/s/{venetian}"));
    assert_eq!(status, 200);
    assert!(
        !page.contains("Chaumont"),
        "Venice does not see French counters at the start"
    );
    // Wrong or missing tokens: 403, and no page.
    for bad in ["/s/aaaaaaaaaaaaaaaaaaaa", "/s/", "/s/x/main", "/s/x/events"] {
        let (status, body) = get(server.addr, bad);
        assert!(status == 403 || status == 404, "{bad}: {status}");
        assert!(!body.contains("Chaumont"), "{bad}");
    }
    // No write endpoints: a POST is not allowed anywhere.
    let mut s = TcpStream::connect(server.addr).expect("connect");
    write!(
        s,
        "POST /s/{french} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut reply = String::new();
    s.read_to_string(&mut reply).expect("read");
    assert!(reply.starts_with("HTTP/1.1 405"), "{reply}");

    // Live: a French stream and a Venetian one open; the umpire records the Order's cost.
    let open = |token: &str| {
        let mut s = TcpStream::connect(server.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(3)))
            .expect("timeout");
        write!(s, "GET /s/{token}/events HTTP/1.1\r\nHost: x\r\n\r\n").expect("send");
        BufReader::new(s)
    };
    let mut french_stream = open(french);
    let mut line = String::new();
    french_stream.read_line(&mut line).expect("status line");
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
    let started = Instant::now();
    let seq = game.act(&Actor::umpire(), order_cost()).expect("recorded")[0];
    // The update arrives within a second.
    let mut seen = false;
    while started.elapsed() < Duration::from_secs(2) {
        line.clear();
        if french_stream.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        if line.starts_with("event: changes") {
            seen = true;
            break;
        }
    }
    assert!(seen, "no changes event");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    let (_, french_main) = get(server.addr, &format!("/s/{french}/main"));
    // The French number what they see, 1, 2, 3…: the cost is theirs, under their number.
    let french_sights =
        umpire::game::visibility::SideView::new(game.ruleset(), game.scenario(), "french")
            .expect("side")
            .journal(game.events())
            .expect("sights");
    let n = umpire::game::visibility::side_numbers(&french_sights, game.events())[&seq];
    assert!(
        french_main.contains(&format!("#{n} </span>AP cost of an Order")),
        "the French see their Order's cost: {french_main}"
    );
    let (_, venetian_main) = get(server.addr, &format!("/s/{venetian}/main"));
    assert!(
        !venetian_main.contains("AP cost of an Order"),
        "Venice does not: {venetian_main}"
    );
    // The page's anchors go by the side's numbers too, not the journal's.
    assert!(
        french_main.contains(&format!("id=\"e{n}\"")),
        "the cost is anchored by the French number: {french_main}"
    );

    // A resolution opens to the odds shown before its roll, worked out from its inputs.
    let fate = game
        .act(
            &Actor::umpire(),
            Action::Resolve {
                procedure: "capitano_fate".into(),
                inputs: Vec::new(),
                physical: Some(vec!["3".into()]),
                chart_result: None,
                chart_confirmed: false,
                counters: Default::default(),
                item: None,
            },
        )
        .expect("recorded")[0];
    let started = Instant::now();
    let french_main = loop {
        let (_, page) = get(server.addr, &format!("/s/{french}/main"));
        if page.contains(&format!("id=\"e{fate}\"")) || started.elapsed() > Duration::from_secs(2) {
            break page;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        french_main.contains("Odds before the roll"),
        "{french_main}"
    );
    assert!(french_main.contains("16.7% (1/6)"), "{french_main}");
    // Verification of the side's journal, its report and the journal itself to download.
    let (status, verified) = get(server.addr, &format!("/s/{french}/verify"));
    assert_eq!(status, 200);
    assert!(
        verified.contains("Verified: the hash chain is whole"),
        "{verified}"
    );
    assert!(
        verified.contains("sealed"),
        "the notes the French may not see are sealed"
    );
    let (status, pdf) = get(server.addr, &format!("/s/{french}/report.pdf"));
    assert_eq!(status, 200);
    assert!(pdf.starts_with("%PDF"), "a PDF");
    let (status, journal) = get(server.addr, &format!("/s/{french}/journal.jsonl"));
    assert_eq!(status, 200);
    assert!(
        journal.contains("\"side\":\"french\""),
        "{}",
        &journal[..200.min(journal.len())]
    );
    let public = link(&server, &Audience::Public);
    let (status, _) = get(server.addr, &format!("/s/{public}/journal.jsonl"));
    assert_eq!(status, 404, "the public has no journal of its own");
    let (status, _) = get(server.addr, "/s/nottoken/report.pdf");
    assert_eq!(status, 403);
    server.stop();
}

#[test]
fn names_are_escaped_and_open_streams_are_capped() {
    // A counter named like a script: shown as text.
    let mut file: SourceFile = scenario("s1_venice");
    file.text = file.text.replace(
        "{name: Chaumont, attributes",
        "{name: \"<script>alert(1)</script> Chaumont\", attributes",
    );
    assert!(
        file.text.contains("<script>"),
        "the scenario names Chaumont"
    );
    let path = scratch("escape");
    Game::create(&path, &file, &Library::shipped(), Some(3)).expect("game");
    let server = start(&path, 2);
    let french = link(&server, &side("french")).to_string();
    let (status, page) = get(server.addr, &format!("/s/{french}"));
    assert_eq!(status, 200);
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt; Chaumont"),
        "{page}"
    );
    assert!(!page.contains("<script>alert"), "{page}");
    // Two streams fit, one a link (each link holds at most half); a third is told to come
    // back (503), and the pages still answer.
    let venetian = link(&server, &side("venetian")).to_string();
    let hold = |token: &str| {
        let mut s = TcpStream::connect(server.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(3)))
            .expect("timeout");
        write!(s, "GET /s/{token}/events HTTP/1.1\r\nHost: x\r\n\r\n").expect("send");
        let mut r = BufReader::new(s);
        let mut line = String::new();
        r.read_line(&mut line).expect("status");
        (r, line)
    };
    let (_a, first) = hold(&french);
    let (_b, twice) = hold(&french);
    let (_c, second) = hold(&venetian);
    let (_d, third) = hold(&venetian);
    assert!(first.starts_with("HTTP/1.1 200"), "{first}");
    assert!(twice.starts_with("HTTP/1.1 503"), "a link's half: {twice}");
    assert!(second.starts_with("HTTP/1.1 200"), "{second}");
    assert!(third.starts_with("HTTP/1.1 503"), "{third}");
    let (status, _) = get(server.addr, &format!("/s/{french}"));
    assert_eq!(status, 200, "a page while the streams are full");
    server.stop();
}

/// In Debian's Chromium, at a phone's size (390×844), through chromedriver: the French page
/// shows its counters and, within a second and without a reload, the Order cost the umpire
/// just recorded, opening to its explanation; the Venetian page never shows it; a script in a
/// name is text and runs nothing; a wrong link says so. `.ci/run` installs chromium and
/// chromium-driver.
#[test]
fn in_a_real_browser_the_page_follows_the_game_live() {
    use fantoccini::Locator;
    let mut file: SourceFile = scenario("s1_venice");
    file.text = file.text.replace(
        "{name: Roquebertin, attributes",
        "{name: \"<script>document.title='owned'</script> Roquebertin\", attributes",
    );
    let path = scratch("browser");
    let mut game = Game::create(&path, &file, &Library::shipped(), Some(3)).expect("game");
    let server = start(&path, 64);
    let french = format!(
        "http://{}/s/{}",
        server.addr,
        link(&server, &side("french"))
    );
    let venetian = format!(
        "http://{}/s/{}",
        server.addr,
        link(&server, &side("venetian"))
    );
    let profile = path.with_file_name("chromium-profile");
    let outcome = crate::common::browser::phone(&profile, async |client| {
        let text = |c: fantoccini::Client| async move {
            let t = c
                .find(Locator::Css("main"))
                .await
                .map_err(|e| e.to_string())?
                .text()
                .await;
            t.map_err(|e| e.to_string())
        };
        client.goto(&french).await.map_err(|e| e.to_string())?;
        let page = text(client.clone()).await?;
        assert!(page.contains("Seen as: French"), "{page}");
        // The script in the name is shown, not run.
        let title = client.title().await.map_err(|e| e.to_string())?;
        assert_ne!(title, "owned");
        // The side's own Forces are on the first screen, one line each: open them all.
        for force in client
            .find_all(Locator::Css("details.force > summary"))
            .await
            .map_err(|e| e.to_string())?
        {
            force.click().await.map_err(|e| e.to_string())?;
        }
        let page = text(client.clone()).await?;
        assert!(
            page.contains("<script>document.title='owned'</script> Roquebertin"),
            "{page}"
        );
        // Wait for the live link, then the umpire records the Order's cost.
        let started = Instant::now();
        loop {
            let badge = client
                .find(Locator::Id("live"))
                .await
                .map_err(|e| e.to_string())?
                .text()
                .await
                .map_err(|e| e.to_string())?;
            if badge == "live" {
                break;
            }
            if started.elapsed() > Duration::from_secs(5) {
                return Err(format!("not live: {badge}"));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let recorded = Instant::now();
        let recorded_as = game
            .act(&Actor::umpire(), order_cost())
            .map_err(|e| e.to_string())?[0];
        // The French page numbers what the French see, 1, 2, 3…
        let sights =
            umpire::game::visibility::SideView::new(game.ruleset(), game.scenario(), "french")
                .map_err(|e| e.to_string())?
                .journal(game.events())?;
        let seq = umpire::game::visibility::side_numbers(&sights, game.events())[&recorded_as];
        let mark = format!("#{seq} ");
        loop {
            let page = text(client.clone()).await?;
            if page.contains(&mark) && page.contains("AP cost of an Order") {
                break;
            }
            if recorded.elapsed() > Duration::from_secs(3) {
                return Err(format!("entry {seq} not on the page: {page}"));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let took = recorded.elapsed();
        // The counters stay open across the update; the entry opens to its explanation.
        let open = client.find(Locator::Css("#counters[open]")).await;
        assert!(open.is_ok(), "the counters closed on update");
        // The newest entry is open by itself: its explanation at a glance.
        client
            .find(Locator::Css(&format!("#e{seq}[open]")))
            .await
            .map_err(|e| e.to_string())?;
        let opened = client
            .find(Locator::Css(&format!("#e{seq}")))
            .await
            .map_err(|e| e.to_string())?
            .text()
            .await
            .map_err(|e| e.to_string())?;
        // The filter, applied by the script: the side's own counters' entries only (the
        // game's first entry names none), and the address says so for a reload.
        client
            .find(Locator::Css("select[name=force]"))
            .await
            .map_err(|e| e.to_string())?
            .select_by_value("yours")
            .await
            .map_err(|e| e.to_string())?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let shown = |c: fantoccini::Client, id: String| async move {
            c.find(Locator::Id(&id))
                .await
                .map_err(|e| e.to_string())?
                .is_displayed()
                .await
                .map_err(|e| e.to_string())
        };
        let filtered = (
            shown(client.clone(), format!("e{seq}")).await?,
            shown(client.clone(), "e1".to_string()).await?,
            client
                .current_url()
                .await
                .map_err(|e| e.to_string())?
                .to_string(),
        );
        assert!(
            filtered.0 && !filtered.1,
            "the filter in the page: {filtered:?}"
        );
        assert!(filtered.2.ends_with("?force=yours"), "{filtered:?}");
        let png = client.screenshot().await.map_err(|e| e.to_string())?;
        // The page and the verify page fit the phone's width: nothing to scroll sideways.
        let width = |c: fantoccini::Client| async move {
            c.execute("return document.documentElement.scrollWidth;", Vec::new())
                .await
                .map_err(|e| e.to_string())
                .map(|v| v.as_u64().unwrap_or(u64::MAX))
        };
        let page_width = width(client.clone()).await?;
        client
            .goto(&format!("{french}/verify"))
            .await
            .map_err(|e| e.to_string())?;
        let verify_width = width(client.clone()).await?;
        let verify = text(client.clone()).await?;
        assert!(verify.contains("Verified"), "{verify}");
        assert!(
            page_width <= 390 && verify_width <= 390,
            "page {page_width} px, verify {verify_width} px wide"
        );
        // The Venetian page: nothing of it.
        client.goto(&venetian).await.map_err(|e| e.to_string())?;
        let theirs = text(client.clone()).await?;
        // A wrong link.
        client
            .goto(&format!("http://{}/s/not-a-token", server.addr))
            .await
            .map_err(|e| e.to_string())?;
        let wrong = text(client.clone()).await?;
        Ok((took, seq, opened, png, theirs, wrong))
    });
    let (took, seq, opened, png, theirs, wrong) = outcome;
    assert!(took < Duration::from_secs(1), "the update took {took:?}");
    assert!(opened.contains("Chaumont"), "{opened}");
    // Its explanation in the rulebook's words, each step with its rule number.
    assert!(
        opened.contains("Orders Table column = Minor force [5.2, 5.3.2]"),
        "{opened}"
    );
    assert!(
        !theirs.contains(&format!("#{seq}")),
        "Venice sees the French Order cost: {theirs}"
    );
    assert!(theirs.contains("Seen as: Venetian"), "{theirs}");
    assert!(wrong.contains("Not a link of this game"), "{wrong}");
    // A phone-sized PNG (the viewport's width, at any pixel ratio).
    assert_eq!(&png[1..4], b"PNG");
    let width = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
    assert_eq!(width, 780, "390 CSS pixels at a pixel ratio of 2");
    server.stop();
}

/// A short code read out by the umpire opens the side's page (a redirect; a wrong code gets
/// 403); a megagame team's page counts the phase clock down.
#[test]
fn a_short_code_opens_the_page_and_a_team_sees_the_phase_clock() {
    let path = scratch("rr3");
    let mut game = Game::create(
        &path,
        &scenario("handbook_1524"),
        &Library::shipped(),
        Some(3),
    )
    .expect("game");
    let start = umpire::megagame::clock::default_start(&game).expect("a phase clock");
    game.act(&Actor::umpire(), Action::Clock(start))
        .expect("started");
    let server = start_server(&path);
    let team = server
        .links
        .iter()
        .find(|l| matches!(l.audience, Audience::Side(_)))
        .expect("a team")
        .clone();
    let mut s = TcpStream::connect(server.addr).expect("connect");
    write!(
        s,
        "GET /code?c={} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        team.short_code().to_uppercase()
    )
    .expect("send");
    let mut reply = String::new();
    s.read_to_string(&mut reply).expect("read");
    assert!(reply.starts_with("HTTP/1.1 303"), "{reply}");
    assert!(
        reply.contains(&format!("location: /s/{}", team.token)),
        "{reply}"
    );
    let (status, _) = get(server.addr, "/code?c=zzz-zzz");
    assert_eq!(status, 403);
    let (status, landing) = get(server.addr, "/");
    assert_eq!(status, 200);
    assert!(
        landing.contains("action=\"/code\""),
        "the landing page asks for the code"
    );
    let (_, page) = get(server.addr, &format!("/s/{}", team.token));
    assert!(page.contains("id=\"clock\""), "the phase clock");
    assert!(
        page.contains("data-ends=\""),
        "counting down from the phase's end"
    );
    // The team's statement: its state's treasury, line by line, live.
    let Audience::Side(team_id) = &team.audience else {
        unreachable!()
    };
    let state = umpire::megagame::ledger::ledgers(&game)
        .into_iter()
        .find(|l| l.teams.contains(team_id))
        .expect("the team's state");
    game.act(
        &Actor::umpire(),
        Action::SetAttribute {
            counter: state.counter.clone().into(),
            attribute: "treasury".into(),
            value: "40".into(),
            seen: umpire::game::Seen::Unchecked,
        },
    )
    .expect("set");
    game.act(
        &Actor::umpire(),
        Action::Adjust {
            counter: state.counter.clone().into(),
            attribute: "treasury".into(),
            by: 7,
            reason: "a subsidy paid".into(),
        },
    )
    .expect("adjusted");
    let started = Instant::now();
    let page = loop {
        let (_, page) = get(server.addr, &format!("/s/{}/main", team.token));
        if page.contains("a subsidy paid") || started.elapsed() > Duration::from_secs(2) {
            break page;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        page.contains(&format!("{}: the statement", state.name)),
        "{page}"
    );
    assert!(page.contains("Treasury: 47 florins"), "{page}");
    assert!(page.contains("a subsidy paid"), "{page}");
    // The public gazette, on every team's page.
    game.act(
        &Actor::umpire(),
        Action::Announce {
            audience: umpire::game::event::Audience::Public,
            team: None,
            text: "The Diet of Worms is summoned".into(),
        },
    )
    .expect("announced");
    let started = Instant::now();
    let page = loop {
        let (_, page) = get(server.addr, &format!("/s/{}/main", team.token));
        if page.contains("The gazette") || started.elapsed() > Duration::from_secs(2) {
            break page;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(page.contains("The Diet of Worms is summoned"), "{page}");
    server.stop();
}

fn start_server(path: &std::path::Path) -> Server {
    start(path, 64)
}

/// A page's event stream over a plain socket.
struct Stream {
    reader: BufReader<TcpStream>,
}

impl Stream {
    fn open(addr: SocketAddr, token: &str) -> Stream {
        let mut s = TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_millis(200)))
            .expect("timeout");
        write!(s, "GET /s/{token}/events HTTP/1.1\r\nHost: x\r\n\r\n").expect("send");
        let mut reader = BufReader::new(s);
        let mut line = String::new();
        reader.read_line(&mut line).expect("status line");
        assert!(line.starts_with("HTTP/1.1 200"), "{line}");
        Stream { reader }
    }

    /// The events (name, data) and the bytes of their data read until `done` says so or
    /// `wait` has passed.
    fn read(
        &mut self,
        wait: Duration,
        done: impl Fn(&[(String, String)]) -> bool,
    ) -> (Vec<(String, String)>, usize) {
        let started = Instant::now();
        let (mut events, mut bytes) = (Vec::new(), 0usize);
        let mut name = String::new();
        let mut line = String::new();
        while started.elapsed() < wait && !done(&events) {
            line.clear();
            match self.reader.read_line(&mut line) {
                Ok(0) => break,
                Ok(_) => {}
                Err(_) => continue,
            }
            let text = line.trim_end_matches(['\r', '\n']);
            if let Some(n) = text.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(d) = text.strip_prefix("data: ") {
                bytes += d.len();
                events.push((name.clone(), d.to_string()));
            }
        }
        (events, bytes)
    }
}

/// Two teams of an rr3 megagame whose states are each one team's: (team, its state's ledger
/// counter) twice.
fn two_teams(game: &Game) -> [(String, String); 2] {
    let ledgers = umpire::megagame::ledger::ledgers(game);
    let mine = ledgers
        .iter()
        .find(|l| l.teams.len() == 1)
        .expect("a state of one team");
    let theirs = ledgers
        .iter()
        .find(|l| l.teams.len() == 1 && l.teams[0] != mine.teams[0])
        .expect("another team's state");
    [
        (mine.teams[0].clone(), mine.counter.clone()),
        (theirs.teams[0].clone(), theirs.counter.clone()),
    ]
}

fn adjust(game: &mut Game, counter: &str, reason: &str) {
    game.act(
        &Actor::umpire(),
        Action::Adjust {
            counter: counter.into(),
            attribute: "treasury".into(),
            by: 1,
            reason: reason.into(),
        },
    )
    .expect("adjusted");
}

/// Issue 27: a new entry costs the players' view the entry, not the journal. A team's phone is
/// sent the new entry and the parts it changed — about as many bytes at 1,000 entries as at
/// 100, and far fewer than the page — and a ledger change of its own state, never another
/// team's.
/// The bytes of the entries' fragments in a phone's `changes` events, and the mean bytes of the
/// parts (header, statements, counters, this turn) sent with one such event.
fn split_bytes(events: &[(String, String)]) -> (usize, f64) {
    let mut entries = 0;
    let mut parts = 0;
    let mut updates = 0;
    for (name, data) in events {
        if name != "changes" {
            continue;
        }
        let Ok(json) = serde_json::from_str::<serde_json::Value>(data) else {
            continue;
        };
        updates += 1;
        entries += json["entries"].as_array().map_or(0, |a| {
            a.iter().filter_map(|e| e.as_str()).map(str::len).sum()
        });
        parts += json["parts"].as_object().map_or(0, |o| {
            o.values().filter_map(|v| v.as_str()).map(str::len).sum()
        });
    }
    (entries, parts as f64 / f64::from(updates.max(1)))
}

#[test]
fn a_new_entry_sends_about_the_same_bytes_at_100_and_1000_entries() {
    let path = scratch("incremental");
    let mut game = Game::create(
        &path,
        &scenario("handbook_1524"),
        &Library::shipped(),
        Some(3),
    )
    .expect("game");
    let [(mine, my_state), (theirs, their_state)] = two_teams(&game);
    // Grows the journal to `to` entries: the last of the first team's growth lines.
    let grow = |game: &mut Game, to: usize| {
        let mut k = game.events().len();
        let mut last = String::new();
        while game.events().len() < to {
            let state = if k.is_multiple_of(2) {
                &my_state
            } else {
                &their_state
            };
            let reason = format!("growth {k}");
            adjust(game, state, &reason);
            if state == &my_state {
                last = reason;
            }
            k += 1;
        }
        last
    };
    grow(&mut game, 100);
    let server = start_server(&path);
    let (my_token, their_token) = (
        link(&server, &side(&mine)).to_string(),
        link(&server, &side(&theirs)).to_string(),
    );
    // Ten ledger changes, five of each team's state: the bytes the first team's phone is sent.
    let measure = |game: &mut Game, tag: &str, grown: &str| {
        let mut me = Stream::open(server.addr, &my_token);
        let mut them = Stream::open(server.addr, &their_token);
        // The server has taken the growth in.
        if !grown.is_empty() {
            let grown = format!("{grown}<");
            let started = Instant::now();
            let (caught_up, _) = me.read(Duration::from_secs(120), |events| {
                events.iter().any(|(_, d)| d.contains(&grown))
            });
            assert!(
                caught_up.iter().any(|(_, d)| d.contains(&grown)),
                "the growth not taken in"
            );
            eprintln!("{tag}: the growth taken in after {:?}", started.elapsed());
            them.read(Duration::from_millis(300), |_| false);
        }
        for k in 0..5 {
            adjust(game, &my_state, &format!("{tag} ours {k}"));
            adjust(game, &their_state, &format!("{tag} theirs {k}"));
        }
        let last = format!("{tag} ours 4");
        let (events, bytes) = me.read(Duration::from_secs(5), |events| {
            events.iter().any(|(_, d)| d.contains(&last))
        });
        // Whatever else comes within a moment.
        let (more, more_bytes) = me.read(Duration::from_millis(500), |_| false);
        let (theirs_seen, _) = them.read(Duration::from_secs(5), |events| {
            events
                .iter()
                .any(|(_, d)| d.contains(&format!("{tag} theirs 4")))
        });
        let all: Vec<(String, String)> = events.into_iter().chain(more).collect();
        (all, bytes + more_bytes, theirs_seen)
    };
    // At 100 entries the server started with the journal as it is: nothing to wait for.
    let (at_100, bytes_100, theirs_100) = measure(&mut game, "at100", "");
    assert!(
        at_100
            .iter()
            .any(|(name, d)| name == "changes" && d.contains("at100 ours 0")),
        "the team's phone is sent its own state's ledger change: {at_100:?}"
    );
    assert!(
        at_100.iter().all(|(_, d)| !d.contains("at100 theirs")),
        "the team's phone is sent another team's ledger change: {at_100:?}"
    );
    assert!(
        theirs_100.iter().any(|(_, d)| d.contains("at100 theirs 4")),
        "the other team's phone is sent its own: {theirs_100:?}"
    );
    assert!(
        theirs_100.iter().all(|(_, d)| !d.contains("at100 ours")),
        "{theirs_100:?}"
    );
    let grown = grow(&mut game, 1000);
    let (at_1000, bytes_1000, _) = measure(&mut game, "at1000", &grown);
    assert!(
        at_1000.iter().any(|(_, d)| d.contains("at1000 ours 4")),
        "{at_1000:?}"
    );
    assert!(at_1000.iter().all(|(_, d)| !d.contains("at1000 theirs")));
    // The same work for an entry at 1,000 entries as at 100 (the entries' numbers grow a digit):
    // the entries' own fragments, and the parts sent with each update (how many updates the ten
    // entries fall into depends on the moment, so the parts are compared per update).
    let (entries_100, parts_100) = split_bytes(&at_100);
    let (entries_1000, parts_1000) = split_bytes(&at_1000);
    let ratio = entries_1000 as f64 / entries_100 as f64;
    assert!(
        (0.8..1.25).contains(&ratio),
        "10 entries: {entries_100} bytes of entries at 100 entries, {entries_1000} at 1,000 ({bytes_100} and {bytes_1000} bytes in all)"
    );
    let ratio = parts_1000 / parts_100;
    assert!(
        (0.7..1.4).contains(&ratio),
        "the parts sent with an update: {parts_100:.0} bytes at 100 entries, {parts_1000:.0} at 1,000"
    );
    assert!(
        at_1000.iter().all(|(name, _)| name == "changes"),
        "no page fetched again: {at_1000:?}"
    );
    let (_, page) = get(server.addr, &format!("/s/{my_token}"));
    assert!(
        bytes_1000 / 10 < page.len() / 20,
        "an entry's changes ({} bytes) against the page ({} bytes)",
        bytes_1000 / 10,
        page.len()
    );
    assert!(page.contains("at1000 ours 4"), "the page has it too");
    server.stop();
}

/// A phone back from a drop is sent the changes it missed (from the version its page
/// includes); an undo tells every page to fetch itself again, and the page then shows the
/// journal as it stands.
#[test]
fn a_phone_catches_up_and_an_undo_refreshes_the_page() {
    let path = scratch("catch-up");
    let mut game = Game::create(
        &path,
        &scenario("handbook_1524"),
        &Library::shipped(),
        Some(3),
    )
    .expect("game");
    let [(mine, my_state), _] = two_teams(&game);
    let server = start_server(&path);
    let token = link(&server, &side(&mine)).to_string();
    let (_, page) = get(server.addr, &format!("/s/{token}"));
    let version: u64 = page
        .split("data-v=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .and_then(|v| v.parse().ok())
        .expect("the page's version");
    // Changes made while the phone was away.
    adjust(&mut game, &my_state, "while away");
    std::thread::sleep(Duration::from_millis(600));
    let mut s = TcpStream::connect(server.addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_millis(200)))
        .expect("timeout");
    write!(
        s,
        "GET /s/{token}/events?from={version} HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .expect("send");
    let mut back = Stream {
        reader: BufReader::new(s),
    };
    let (events, _) = back.read(Duration::from_secs(3), |e| {
        e.iter().any(|(_, d)| d.contains("while away"))
    });
    assert!(
        events
            .iter()
            .any(|(n, d)| n == "changes" && d.contains("while away")),
        "{events:?}"
    );
    // An undo: the rare case, a whole page again.
    let last = game.events().len() as u64;
    game.act(&Actor::umpire(), Action::Undo).expect("undone");
    let (events, _) = back.read(Duration::from_secs(3), |e| {
        e.iter().any(|(n, _)| n == "refresh")
    });
    assert!(events.iter().any(|(n, _)| n == "refresh"), "{events:?}");
    let (_, main) = get(server.addr, &format!("/s/{token}/main"));
    assert!(
        main.contains(&format!("Undid entry {last}")),
        "entry {last} undone: {main}"
    );
    server.stop();
}

/// A restart of the players' view keeps every link: the tokens are kept in the game file, so a
/// phone's page (and its live stream) carries on at the same address. New links are made only
/// when asked for (`--new-links`, the desk's "New links"), and then the old ones are refused. A
/// game file opened for reading only keeps none, and says so.
#[test]
fn a_restart_keeps_every_link_and_new_links_are_made_only_when_asked() {
    let path = scratch("kept");
    Game::create(&path, &scenario("s1_venice"), &Library::shipped(), Some(3)).expect("game");
    let first = start(&path, 64);
    assert!(first.links_kept, "kept in the game file");
    let addr = first.addr;
    let before: Vec<(Audience, String)> = first
        .links
        .iter()
        .map(|l| (l.audience.clone(), l.token.clone()))
        .collect();
    let french = link(&first, &side("french")).to_string();
    assert_eq!(get(addr, &format!("/s/{french}")).0, 200);
    first.stop();
    // Served again on the same address: the same links, and the French page answers.
    let again = Server::start(
        &path.to_string_lossy(),
        Library::shipped(),
        &ServeOptions {
            bind: addr,
            max_connections: 64,
        },
    )
    .expect("serves again");
    let after: Vec<(Audience, String)> = again
        .links
        .iter()
        .map(|l| (l.audience.clone(), l.token.clone()))
        .collect();
    assert_eq!(before, after, "every link kept");
    let (status, page) = get(addr, &format!("/s/{french}"));
    assert_eq!(status, 200);
    assert!(page.contains("Seen as: French"), "{page}");
    again.stop();
    // New links, asked for: the old French link is refused.
    umpire::serve::forget_links(&path.to_string_lossy(), &Library::shipped()).expect("forget");
    let fresh = start(&path, 64);
    let renewed = link(&fresh, &side("french")).to_string();
    assert_ne!(renewed, french, "a new French link");
    let (status, body) = get(fresh.addr, &format!("/s/{french}"));
    assert!(status == 403 || status == 429, "the old link: {status}");
    assert!(!body.contains("Chaumont"));
    assert_eq!(get(fresh.addr, &format!("/s/{renewed}")).0, 200);
    fresh.stop();
    // A read-only copy keeps none, and says so.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = path.parent().expect("dir").join("ro");
        std::fs::create_dir_all(&dir).expect("dir");
        let copy = dir.join("copy.umpire");
        std::fs::copy(&path, &copy).expect("copy");
        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o444)).expect("chmod");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).expect("chmod");
        // Root writes anyway: the test means something only for an ordinary user.
        let root = std::fs::OpenOptions::new().write(true).open(&copy).is_ok();
        let ro = start(&copy, 64);
        assert_eq!(ro.links_kept, root, "a read-only file keeps no links");
        ro.stop();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
}

/// The quiet part of the journal folds: the steps of the Sequence of Play and the items skipped
/// on the way are one line a turn ("Turn 1: 9 steps of the Sequence of Play — …"), with the
/// steps inside it, so what happened stands out (issue 29: after turn 1, 58 of 85 entries were
/// steps or skips).
#[test]
fn quiet_steps_fold_into_one_line_a_turn() {
    let path = scratch("quiet");
    let mut game =
        Game::create(&path, &scenario("s1_venice"), &Library::shipped(), Some(3)).expect("game");
    let umpire = Actor::umpire();
    // Walk into turn 2, skipping what is pending.
    while game.state().cursor.turn < 2 {
        if game.act(&umpire, Action::Next).is_err() {
            let item = umpire::game::check::pending_items(&game.view())
                .into_iter()
                .find(|p| p.mandatory && !p.done)
                .expect("something pending")
                .key;
            game.act(
                &umpire,
                Action::Skip {
                    item,
                    reason: "at the table".into(),
                },
            )
            .expect("skipped");
        }
    }
    let server = start(&path, 64);
    let (status, page) = get(
        server.addr,
        &format!("/s/{}", link(&server, &side("french"))),
    );
    assert_eq!(status, 200);
    let folds = page.matches(r#"<details class="quiet""#).count();
    assert_eq!(folds, 1, "turn 1's quiet entries, one line: {page}");
    assert!(
        page.contains("Turn 1: ") && page.contains(" steps of the Sequence of Play — "),
        "{page}"
    );
    let shown = page.matches("<details").count();
    let quiet = game
        .events()
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                umpire::game::EventKind::Stepped { .. } | umpire::game::EventKind::Skipped { .. }
            )
        })
        .count();
    assert!(quiet >= 3, "a run to fold: {quiet}");
    assert!(
        shown > quiet,
        "the steps are inside the fold, not gone: {shown} details"
    );
    server.stop();
}

/// A GET with `Accept-Encoding: gzip` over a plain socket: (status, the head lower-cased, the
/// body as transferred, chunked transfer undone).
fn get_gzip(addr: SocketAddr, path: &str) -> (u16, String, Vec<u8>) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("status");
    let mut body = raw[split + 4..].to_vec();
    if head.contains("transfer-encoding: chunked") {
        body = dechunk(&body).0;
    }
    (status, head, body)
}

/// Chunked transfer undone: the data of the whole chunks, and the bytes used.
fn dechunk(raw: &[u8]) -> (Vec<u8>, usize) {
    let (mut out, mut at) = (Vec::new(), 0);
    while let Some(end) = raw[at..].windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&raw[at..at + end])
            .ok()
            .and_then(|h| usize::from_str_radix(h.split(';').next().unwrap_or("").trim(), 16).ok())
            .expect("a chunk size");
        let data = at + end + 2;
        if size == 0 || raw.len() < data + size + 2 {
            break;
        }
        out.extend_from_slice(&raw[data..data + size]);
        at = data + size + 2;
    }
    (out, at)
}

fn gunzip(bytes: &[u8]) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_string(&mut text)
        .expect("gzip");
    text
}

/// Issue 29: the pages, their `main` part, the stylesheet, the script and the journal come
/// gzip-compressed to a browser that asks, with the security headers and `no-store` kept; the
/// event stream too, each event flushed at once (it arrives within a second, decodable as it
/// comes); a browser that does not ask gets plain text.
#[test]
fn answers_are_gzipped_when_asked_and_the_stream_still_flushes_each_event() {
    let path = scratch("gzip");
    let mut game =
        Game::create(&path, &scenario("s1_venice"), &Library::shipped(), Some(3)).expect("game");
    let server = start(&path, 64);
    let french = link(&server, &side("french")).to_string();
    for (path, private) in [
        (format!("/s/{french}"), true),
        (format!("/s/{french}/main"), true),
        (format!("/s/{french}/journal.jsonl"), true),
        ("/style.css".to_string(), false),
        ("/live.js".to_string(), false),
    ] {
        let (status, head, body) = get_gzip(server.addr, &path);
        assert_eq!(status, 200, "{path}");
        assert!(head.contains("content-encoding: gzip"), "{path}: {head}");
        assert!(head.contains("content-security-policy: "), "{path}: {head}");
        assert!(head.contains("x-frame-options: deny"), "{path}: {head}");
        assert_eq!(
            head.contains("cache-control: no-store"),
            private,
            "{path}: {head}"
        );
        let text = gunzip(&body);
        let (_, plain) = get(server.addr, &path);
        assert!(
            body.len() < text.len(),
            "{path}: {} bytes compressed, {} plain",
            body.len(),
            text.len()
        );
        if path.ends_with("journal.jsonl") {
            assert!(text.contains("\"side\":\"french\""), "{path}");
        } else {
            assert_eq!(text, plain, "{path}: the same text, compressed");
        }
    }
    // The event stream, compressed and flushed at each event.
    let mut s = TcpStream::connect(server.addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_millis(100)))
        .expect("timeout");
    write!(
        s,
        "GET /s/{french}/events HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"
    )
    .expect("send");
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    let started = Instant::now();
    while !raw.windows(4).any(|w| w == b"\r\n\r\n") && started.elapsed() < Duration::from_secs(5) {
        if let Ok(n) = s.read(&mut buf) {
            raw.extend_from_slice(&buf[..n]);
        }
    }
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-encoding: gzip"), "{head}");
    assert!(head.contains("text/event-stream"), "{head}");
    assert!(head.contains("content-security-policy: "), "{head}");
    let mut body = raw[split + 4..].to_vec();
    let recorded = Instant::now();
    game.act(&Actor::umpire(), order_cost()).expect("recorded");
    let mut decoder = flate2::write::GzDecoder::new(Vec::new());
    let mut used = 0;
    let mut text = String::new();
    while recorded.elapsed() < Duration::from_secs(3) && !text.contains("AP cost of an Order") {
        if let Ok(n) = s.read(&mut buf) {
            body.extend_from_slice(&buf[..n]);
        }
        let (data, at) = dechunk(&body[used..]);
        if !data.is_empty() {
            decoder.write_all(&data).expect("gzip");
            decoder.flush().expect("gzip");
            used += at;
            text = String::from_utf8_lossy(decoder.get_ref()).to_string();
        }
    }
    let took = recorded.elapsed();
    assert!(
        text.contains("event: changes") && text.contains("AP cost of an Order"),
        "the event, decoded as it came: {text}"
    );
    assert!(took < Duration::from_secs(1), "the event took {took:?}");
    eprintln!("a compressed event arrived and decoded {took:?} after it was recorded");
    server.stop();
}

/// Walks the game one step of the Sequence of Play, skipping what is pending; false when it
/// cannot go on (the game over).
fn step(game: &mut Game) -> bool {
    let umpire = Actor::umpire();
    if game.act(&umpire, Action::Next).is_ok() {
        return true;
    }
    let Some(item) = umpire::game::check::pending_items(&game.view())
        .into_iter()
        .find(|p| p.mandatory && !p.done)
        .map(|p| p.key)
    else {
        return false;
    };
    game.act(
        &umpire,
        Action::Skip {
            item,
            reason: "at the table".into(),
        },
    )
    .is_ok()
}

/// The part of a page from `from` to the end of its element (`</div>` of a `div` with no `div`
/// inside).
fn section<'p>(page: &'p str, from: &str) -> &'p str {
    let at = page
        .find(from)
        .unwrap_or_else(|| panic!("{from} in {page}"));
    let rest = &page[at..];
    &rest[..rest.find("</div>").map_or(rest.len(), |e| e + 6)]
}

/// Issue 29: after the side's own Forces, "This turn": this turn's results that touched its
/// counters, in the journal's words; the journal folded by turn, the current turn open and the
/// older shut; a filter by Force and "this turn only", by query without the script, keeping the
/// side's own numbers; each entry marked for the script's filter, live entries too.
#[test]
fn this_turn_comes_first_the_journal_folds_by_turn_and_filters_by_force() {
    let path = scratch("this-turn");
    let mut game =
        Game::create(&path, &scenario("s1_venice"), &Library::shipped(), Some(3)).expect("game");
    let umpire = Actor::umpire();
    let first = game.act(&umpire, order_cost()).expect("recorded")[0];
    while game.state().cursor.turn < 2 {
        assert!(step(&mut game), "into turn 2");
    }
    let second = game.act(&umpire, order_cost()).expect("recorded")[0];
    let server = start(&path, 64);
    let french = link(&server, &side("french")).to_string();
    let venetian = link(&server, &side("venetian")).to_string();
    let sights = umpire::game::visibility::SideView::new(game.ruleset(), game.scenario(), "french")
        .expect("side")
        .journal(game.events())
        .expect("sights");
    let numbers = umpire::game::visibility::side_numbers(&sights, game.events());
    let (n1, n2) = (numbers[&first], numbers[&second]);
    let (status, page) = get(server.addr, &format!("/s/{french}"));
    assert_eq!(status, 200);
    // Own Forces, then this turn, then the journal.
    let (own, this, journal) = (
        page.find("Your counters").expect("own counters"),
        page.find("<h2>This turn</h2>").expect("this turn"),
        page.find("The journal, newest first").expect("the journal"),
    );
    assert!(own < this && this < journal, "{page}");
    let this_turn = section(&page, r#"<div id="this-turn">"#);
    assert!(
        this_turn.contains(&format!("#{n2} </span>AP cost of an Order")),
        "turn 2's Order cost, under the side's number: {this_turn}"
    );
    assert!(
        !this_turn.contains(&format!("#{n1} ")),
        "not turn 1's: {this_turn}"
    );
    assert!(
        this_turn.contains(&format!("href=\"#e{n2}\"")),
        "a link to the entry: {this_turn}"
    );
    // Folded by turn: the current turn open, the one before shut.
    assert!(
        page.contains(r#"<details class="turn" id="t2" data-turn="2" open>"#),
        "{page}"
    );
    assert!(
        page.contains(r#"<details class="turn" id="t1" data-turn="1">"#),
        "{page}"
    );
    assert!(
        page.find("id=\"t2\"") < page.find("id=\"t1\""),
        "newest first"
    );
    // Each entry marked with its turn and the side's own Forces it names (ids only there).
    assert!(
        page.contains(&format!(
            r#"<details class="entry" id="e{n2}" data-turn="2" data-forces="fr-chaumont" data-mine"#
        )),
        "{page}"
    );
    assert!(
        page.contains(r#"<form class="filter" id="filter" method="get">"#),
        "{page}"
    );
    assert!(page.contains("Chaumont's Force</option>"), "{page}");
    // The filter without the script: Chaumont's Force's entries, under the same numbers.
    let (status, only) = get(server.addr, &format!("/s/{french}?force=fr-chaumont"));
    assert_eq!(status, 200);
    let journal = &only[only.find("id=\"journal\"").expect("journal")..];
    assert!(journal.contains(&format!("#{n1} </span>AP cost of an Order")));
    assert!(journal.contains(&format!("#{n2} </span>AP cost of an Order")));
    assert_eq!(
        journal.matches(r#"<details class="entry""#).count(),
        2,
        "{journal}"
    );
    assert!(
        !journal.contains("steps of the Sequence of Play"),
        "{journal}"
    );
    assert!(
        only.contains(r#"<option value="fr-chaumont" selected>"#),
        "{only}"
    );
    let (_, mine) = get(
        server.addr,
        &format!("/s/{french}/main?force=yours&turn=this"),
    );
    let journal = &mine[mine.find("id=\"journal\"").expect("journal")..];
    assert_eq!(
        journal.matches(r#"<details class="entry""#).count(),
        1,
        "{journal}"
    );
    assert!(journal.contains(&format!("id=\"e{n2}\"")) && !journal.contains("id=\"t1\""));
    // A filter matching nothing says so; a strange one is only a filter.
    let (status, none) = get(server.addr, &format!("/s/{french}?force=%3Cb%3E"));
    assert_eq!(status, 200);
    assert!(none.contains("No entry fits this filter yet."), "{none}");
    assert!(!none.contains("<b>"), "{none}");
    // Venice: nothing of the French in its "This turn", no French Force to filter by.
    let (_, theirs) = get(server.addr, &format!("/s/{venetian}"));
    let this_turn = section(&theirs, r#"<div id="this-turn">"#);
    assert!(!this_turn.contains("AP cost"), "{this_turn}");
    assert!(!theirs.contains("fr-chaumont"), "{theirs}");
    // Live: a new entry is marked like the page's, and "This turn" is sent again.
    let mut stream = Stream::open(server.addr, &french);
    let third = game.act(&umpire, order_cost()).expect("recorded")[0];
    let sights = umpire::game::visibility::SideView::new(game.ruleset(), game.scenario(), "french")
        .expect("side")
        .journal(game.events())
        .expect("sights");
    let n3 = umpire::game::visibility::side_numbers(&sights, game.events())[&third];
    let (events, _) = stream.read(Duration::from_secs(5), |e| {
        e.iter().any(|(n, _)| n == "changes")
    });
    let data = events
        .iter()
        .find(|(n, _)| n == "changes")
        .map(|(_, d)| d.clone())
        .expect("changes");
    let changes: serde_json::Value = serde_json::from_str(&data).expect("json");
    let entry = changes["entries"][0].as_str().expect("an entry");
    assert!(
        entry.contains(&format!(
            r#"id="e{n3}" data-turn="2" data-forces="fr-chaumont" data-mine"#
        )),
        "{entry}"
    );
    assert_eq!(changes["turn"], 2);
    let part = changes["parts"]["this-turn"]
        .as_str()
        .expect("this turn sent");
    assert!(part.contains(&format!("#{n3} </span>AP cost")), "{part}");
    assert!(part.contains(&format!("#{n2} </span>AP cost")), "{part}");
    server.stop();
}

/// Issue 29: the page of a game of 900 entries and more is at most 60 KB as transferred
/// (gzip), its main part and the live script included in what a phone loads first.
#[test]
fn a_page_of_a_900_entry_game_is_at_most_60_kb_compressed() {
    let path = scratch("nine-hundred");
    let mut game =
        Game::create(&path, &scenario("s1_venice"), &Library::shipped(), Some(3)).expect("game");
    let umpire = Actor::umpire();
    // Short of the last turn, so the game is not over (and judged) before 900 entries.
    let last = game.status().turns.saturating_sub(1).max(2);
    let mut k = 0u32;
    while game.events().len() < 900 {
        // Resolutions and steps mixed, as a game goes: a step every fourth action.
        let stepping = k.is_multiple_of(4) && game.state().cursor.turn < last;
        if !stepping || !step(&mut game) {
            game.act(&umpire, order_cost()).expect("recorded");
        }
        k += 1;
    }
    let server = start(&path, 64);
    let french = link(&server, &side("french")).to_string();
    let (status, head, body) = get_gzip(server.addr, &format!("/s/{french}"));
    assert_eq!(status, 200);
    assert!(head.contains("content-encoding: gzip"), "{head}");
    let plain = gunzip(&body);
    eprintln!(
        "the French page of a {}-entry game in turn {}: {} bytes as transferred (gzip), {} bytes uncompressed",
        game.events().len(),
        game.state().cursor.turn,
        body.len(),
        plain.len()
    );
    assert!(plain.contains("Seen as: French"));
    assert!(
        body.len() <= 60_000,
        "{} bytes compressed ({} uncompressed)",
        body.len(),
        plain.len()
    );
    server.stop();
}
