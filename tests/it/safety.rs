//! Nothing half-written, nothing overwritten (issue 12, item 6): every `-o` refuses a game file
//! (even with `--force`) and any existing file without `--force`; a `game new` killed at any
//! moment leaves the whole game or nothing; the game file alone holds every acknowledged action;
//! a second writer waits, says so once, and gives up with a clear sentence.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use umpire::game::{Game, is_game_file};
use umpire::rules::Library;

fn scratch(name: &str) -> PathBuf {
    crate::common::scratch_dir("safety", name)
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/scenarios")
        .join(name)
        .display()
        .to_string()
}

fn umpire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("--no-user-rules")
        .args(args)
        .output()
        .expect("umpire runs")
}

fn ok(args: &[&str]) -> String {
    let out = umpire(args);
    assert!(
        out.status.success(),
        "umpire {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// A game of two teams (so the megagame statement has a team), with one note.
fn new_game(dir: &Path) -> PathBuf {
    let game = dir.join("game.umpire");
    let file = game.to_str().unwrap();
    ok(&[
        "game",
        "new",
        &fixture("megagame_two_teams.yaml"),
        "-o",
        file,
        "--seed",
        "1",
    ]);
    ok(&["game", "note", file, "the first note"]);
    game
}

/// Every command that takes `-o`, writing to `out` (reading `game` where it reads a game).
fn writers(game: &Path, out: &Path) -> Vec<(&'static str, Vec<String>)> {
    let game = game.display().to_string();
    let out = out.display().to_string();
    let with = |name: &'static str, args: &[&str]| {
        let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        all.extend(["-o".to_string(), out.clone()]);
        (name, all)
    };
    vec![
        with("report", &["report", &game]),
        with("charts", &["charts", "qrs", "--table", "retreat"]),
        with("sheet", &["sheet", &fixture("skirmish.yaml")]),
        with(
            "statement",
            &["megagame", "statement", &game, "--team", "france"],
        ),
        with("announcements", &["megagame", "announcements", &game]),
        with("log", &["megagame", "log", &game]),
        with("export", &["game", "export", &game, "--jsonl"]),
        with(
            "template",
            &["rules", "template", "ailsh", "administrative_points"],
        ),
    ]
}

/// Files in `dir` that are temporary (a `.NAME.…` left behind).
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.starts_with('.'))
        .collect()
}

/// The measured bug: `report G -o G` (and every other `-o`) wrote over the game. Refused, with
/// `--force` too; the game file is byte for byte what it was.
#[test]
fn no_output_ever_writes_over_a_game_file() {
    let dir = scratch("game-file");
    let game = new_game(&dir);
    let before = std::fs::read(&game).expect("game bytes");
    assert!(is_game_file(&game), "the probe knows a game file");
    for (name, args) in writers(&game, &game) {
        for force in [false, true] {
            let mut args = args.clone();
            if force {
                args.push("--force".into());
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = umpire(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{name} (force {force}) wrote");
            assert!(
                stderr.contains(&format!(
                    "{} is an Umpire game file; choose another name — a game file is never overwritten",
                    game.display()
                )),
                "{name} (force {force}) said:\n{stderr}"
            );
            assert_eq!(
                std::fs::read(&game).expect("game bytes"),
                before,
                "{name} (force {force}) changed the game file"
            );
        }
    }
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
    let reopened = Game::open(&game, &Library::shipped()).expect("the game still opens");
    assert_eq!(reopened.events().len(), 2);
    // `game new -o` over a game refuses as before.
    let out = umpire(&[
        "game",
        "new",
        &fixture("skirmish.yaml"),
        "-o",
        game.to_str().unwrap(),
        "--seed",
        "2",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("a game file is never overwritten"));
    assert_eq!(std::fs::read(&game).expect("game bytes"), before);
}

/// Another existing file: refused without `--force` (naming it, keeping it); replaced whole
/// with `--force`; nothing temporary left behind.
#[test]
fn an_existing_file_is_replaced_only_with_force() {
    let dir = scratch("existing");
    let game = new_game(&dir);
    for (name, args) in writers(&game, &dir.join(format!("{}.out", "x"))) {
        let out_path = dir.join(format!("taken-{name}.out"));
        std::fs::write(&out_path, b"keep me").expect("seed file");
        let args: Vec<String> = args
            .into_iter()
            .map(|a| {
                if a.ends_with("x.out") {
                    out_path.display().to_string()
                } else {
                    a
                }
            })
            .collect();
        let refused: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = umpire(&refused);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{name} replaced without --force");
        assert!(
            stderr.contains(&out_path.display().to_string()) && stderr.contains("--force"),
            "{name} did not name the file and the way out:\n{stderr}"
        );
        assert_eq!(
            std::fs::read(&out_path).expect("kept"),
            b"keep me",
            "{name}"
        );
        let mut forced = refused.clone();
        forced.push("--force");
        ok(&forced);
        let written = std::fs::read(&out_path).expect("written");
        assert_ne!(written, b"keep me", "{name} did not replace the file");
        if name != "export" && name != "template" {
            assert!(written.starts_with(b"%PDF"), "{name} wrote a PDF");
        }
    }
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
}

/// A small xorshift: random delays without a dependency.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn new_game_command(path: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_umpire"));
    cmd.args([
        "--no-user-rules",
        "game",
        "new",
        &fixture("skirmish.yaml"),
        "-o",
        path.to_str().unwrap(),
        "--seed",
        "5",
    ])
    .stdout(Stdio::null())
    .stderr(Stdio::null());
    cmd
}

/// `game new` killed with SIGKILL at random moments (many runs, delays spread over its whole
/// run): each time, either the complete game (its start in the journal) or nothing is at the
/// path, and a retry succeeds and leaves no temporary file.
#[test]
fn a_killed_game_new_leaves_the_whole_game_or_nothing() {
    let dir = scratch("killed-new");
    let path = dir.join("game.umpire");
    let lib = Library::shipped();
    // How long a whole run takes here, to spread the kills over it.
    let started = Instant::now();
    assert!(new_game_command(&path).status().expect("runs").success());
    let whole = started.elapsed();
    std::fs::remove_file(&path).expect("clear");
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let (mut whole_games, mut nothing, mut temps_seen) = (0, 0, 0);
    for run in 0..40 {
        let mut child = new_game_command(&path).spawn().expect("spawn");
        // Between a third of a run and a little past its end: most kills land in or near the
        // creation itself, which comes last.
        let micros = whole.as_micros() as u64;
        let delay = micros / 3 + next(&mut rng) % (micros * 5 / 6).max(1);
        std::thread::sleep(Duration::from_micros(delay));
        let _ = child.kill();
        let _ = child.wait();
        if !temporaries(&dir).is_empty() {
            temps_seen += 1;
        }
        if path.exists() {
            let game = Game::open(&path, &lib)
                .unwrap_or_else(|e| panic!("run {run}: a file is there but does not open: {e}"));
            assert_eq!(game.events().len(), 1, "run {run}: the game's start");
            drop(game);
            whole_games += 1;
            std::fs::remove_file(&path).expect("clear");
        } else {
            nothing += 1;
        }
        // The retry succeeds and clears what the killed one left.
        let status = new_game_command(&path).status().expect("retry runs");
        assert!(status.success(), "run {run}: the retry failed");
        assert_eq!(
            Game::open(&path, &lib).expect("retry opens").events().len(),
            1
        );
        assert!(
            temporaries(&dir).is_empty(),
            "run {run}: left behind {:?}",
            temporaries(&dir)
        );
        std::fs::remove_file(&path).expect("clear");
    }
    eprintln!(
        "game new killed 40 times: {whole_games} whole games, {nothing} nothing, {temps_seen} killed mid-creation (temporary file left, cleared by the retry)"
    );
    assert_eq!(whole_games + nothing, 40);
}

/// An action through the command line, with another connection holding the game open (as a
/// desk does, so SQLite's own checkpoint at the last close does not happen): copying only the
/// game file, without its `-wal`, keeps every acknowledged action.
#[test]
fn the_game_file_alone_holds_every_acknowledged_action() {
    let dir = scratch("copy");
    let game = new_game(&dir);
    let lib = Library::shipped();
    let desk = Game::open(&game, &lib).expect("a desk holds it open");
    for i in 0..3 {
        ok(&["game", "note", game.to_str().unwrap(), &format!("note {i}")]);
    }
    let stick = scratch("copy-stick").join("game.umpire");
    std::fs::copy(&game, &stick).expect("copy the main file only");
    let copy = Game::open(&stick, &lib).expect("the copy opens");
    assert_eq!(copy.events().len(), 5, "the start and four notes");
    drop(desk);
}

/// A desk keeps the game open for hours: once it has been idle for a moment, the game file
/// alone (copied without its `-wal`) holds its last action too.
#[test]
fn a_game_kept_open_is_whole_in_its_file_once_idle() {
    let dir = scratch("idle");
    let game = new_game(&dir);
    let lib = Library::shipped();
    let mut desk = Game::open(&game, &lib).expect("the desk opens it");
    desk.act(
        &umpire::game::Actor::umpire(),
        umpire::game::Action::Note {
            text: "the desk's note".into(),
        },
    )
    .expect("acknowledged");
    let stick = scratch("idle-stick").join("game.umpire");
    let started = Instant::now();
    let copied = loop {
        std::fs::copy(&game, &stick).expect("copy the main file only");
        // A copy taken while the checkpoint writes may be torn: look again.
        let n = Game::open(&stick, &lib).map_or(0, |g| g.events().len());
        std::fs::remove_file(&stick).expect("clear");
        if n == 3 || started.elapsed() > Duration::from_secs(5) {
            break n;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(copied, 3, "the copy has the desk's note");
    eprintln!(
        "the game file held the desk's note {} ms after it was acknowledged",
        started.elapsed().as_millis()
    );
    drop(desk);
}

/// Holds the game's write lock (as another process writing would) for `hold`, while `umpire
/// game note` tries to write; returns its output.
fn note_while_locked(game: &Path, hold: Duration) -> Output {
    let conn = rusqlite::Connection::open(game).expect("second connection");
    conn.execute_batch("BEGIN IMMEDIATE").expect("write lock");
    let child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args([
            "--no-user-rules",
            "game",
            "note",
            game.to_str().unwrap(),
            "written after the wait",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    std::thread::sleep(hold);
    conn.execute_batch("COMMIT").expect("release");
    child.wait_with_output().expect("wait")
}

#[test]
fn a_second_writer_says_it_waits_once_then_succeeds() {
    let dir = scratch("busy-ok");
    let game = new_game(&dir);
    let out = note_while_locked(&game, Duration::from_millis(2500));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the note failed:\n{stderr}");
    assert_eq!(
        stderr
            .matches("the game is being written by another process — retrying")
            .count(),
        1,
        "said once:\n{stderr}"
    );
    let events = Game::open(&game, &Library::shipped())
        .expect("opens")
        .events()
        .len();
    assert_eq!(events, 3, "the note landed after the wait");
}

/// Two commands writing one game at once: each waits its turn (takes in the other's entries and
/// goes on); neither fails, nothing is lost.
#[test]
fn two_writers_on_one_file_both_finish() {
    let dir = scratch("two-writers");
    let game = new_game(&dir);
    let soak = || {
        Command::new(env!("CARGO_BIN_EXE_umpire-soak"))
            .args([game.to_str().unwrap(), "--actions", "40", "--gentle"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn")
    };
    let (a, b) = (soak(), soak());
    let mut acks = 0;
    for child in [a, b] {
        let out = child.wait_with_output().expect("wait");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "a writer failed:\n{stderr}");
        assert!(!stderr.contains("database is locked"), "{stderr}");
        acks += String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.starts_with("ack "))
            .count();
    }
    let events = Game::open(&game, &Library::shipped())
        .expect("opens")
        .events()
        .len();
    assert_eq!(events, 2 + acks, "every acknowledged entry is there");
}

#[test]
fn a_writer_that_never_lets_go_gives_a_clear_error() {
    let dir = scratch("busy-fail");
    let game = new_game(&dir);
    let out = note_while_locked(&game, Duration::from_secs(14));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "it wrote under another's lock");
    assert!(
        stderr.contains(&format!(
            "{}: the game is being written by another process, which did not finish within 10 s — nothing was written",
            game.display()
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("database is locked"), "{stderr}");
    let events = Game::open(&game, &Library::shipped())
        .expect("opens")
        .events()
        .len();
    assert_eq!(events, 2, "nothing recorded");
}

/// Hidden temporary files a killed run left are cleared by the next run in the folder, for
/// any output (not only the same name): `game new`, `game import` and an output writer (the
/// journal export) each clear those whose process is gone — today's names, their SQLite
/// sidecars, and the names of earlier versions — and keep a temporary file whose process still
/// runs (a concurrent run's), and every other file.
#[test]
fn a_killed_runs_temporaries_are_cleared_by_the_next_run() {
    let dir = scratch("stale-temps");
    let dead = [
        ".other.umpire.new-99999999-0",
        ".other.umpire.new-99999999-0-wal",
        ".copy.umpire.importing-99999999-3",
        ".sheet.pdf.tmp-99999999-1",
        ".old.umpire.99999999.importing",
        "..old.umpire.99999999.importing.new-99999999-0",
        ".scenario.yaml.99999999.tmp",
    ];
    let me = std::process::id();
    let kept = [
        format!(".live.umpire.new-{me}-0"),
        format!(".live.pdf.tmp-{me}-2"),
        ".hidden-notes".to_string(),
        "notes.tmp".to_string(),
    ];
    let plant = || {
        for name in dead
            .iter()
            .map(|s| s.to_string())
            .chain(kept.iter().cloned())
        {
            std::fs::write(dir.join(name), b"left behind").expect("plant");
        }
    };
    let check = |after: &str| {
        for name in dead {
            assert!(!dir.join(name).exists(), "{after}: {name} was left");
        }
        for name in &kept {
            assert!(dir.join(name).exists(), "{after}: {name} was removed");
        }
    };
    plant();
    let game = new_game(&dir);
    check("game new");
    plant();
    let jsonl = dir.join("journal.jsonl");
    let file = game.to_str().unwrap();
    ok(&[
        "game",
        "export",
        file,
        "--jsonl",
        "-o",
        jsonl.to_str().unwrap(),
    ]);
    check("game export -o");
    plant();
    let copy = dir.join("copy.umpire");
    ok(&[
        "game",
        "import",
        jsonl.to_str().unwrap(),
        "-o",
        copy.to_str().unwrap(),
    ]);
    check("game import");
    assert!(is_game_file(&copy));
}

/// The command that runs umpire as a user file modes bind: as root (which ignores them), as
/// `nobody` through `setpriv`; None when neither can be had.
fn bound_by_modes() -> Option<Command> {
    let probe = scratch("root-probe").join("probe");
    std::fs::write(&probe, b"x").ok()?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o444)).ok()?;
    let privileged = std::fs::OpenOptions::new().write(true).open(&probe).is_ok();
    if !privileged {
        return Some(Command::new(env!("CARGO_BIN_EXE_umpire")));
    }
    let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"]
        .into_iter()
        .find(|p| Path::new(p).exists())?;
    let mut cmd = Command::new(setpriv);
    cmd.args([
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        env!("CARGO_BIN_EXE_umpire"),
    ]);
    Some(cmd)
}

/// A game file that may not be written (`chmod 444`, or a read-only folder) opens for reading:
/// `status`, `verify` and `report` work and say it is read-only; an action is refused with a
/// sentence saying why and what writing needs. It was "not an Umpire game file".
#[test]
fn a_read_only_game_opens_for_reading_and_refuses_writes_clearly() {
    use std::os::unix::fs::PermissionsExt;
    let Some(_) = bound_by_modes() else {
        eprintln!("skipped: running as root without setpriv, file modes cannot bind");
        return;
    };
    let mode = |p: &Path, m: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).expect("chmod")
    };
    for (case, why) in [
        ("file", "the file is read-only"),
        ("folder", "its folder is read-only"),
    ] {
        let dir = scratch(&format!("read-only-{case}"));
        mode(&dir, 0o755);
        let game = new_game(&dir);
        let file = game.to_str().unwrap();
        // The report goes to a folder anyone may write.
        let out_dir = scratch(&format!("read-only-{case}-out"));
        mode(&out_dir, 0o777);
        let pdf = out_dir.join("report.pdf");
        if case == "file" {
            mode(&game, 0o444);
        } else {
            // The file may be written by whoever runs umpire; its folder may not.
            if bound_by_modes().is_some_and(|c| c.get_program() != env!("CARGO_BIN_EXE_umpire")) {
                std::os::unix::fs::chown(&game, Some(65534), Some(65534)).expect("chown");
            }
            mode(&game, 0o666);
            mode(&dir, 0o555);
        }
        let run = |args: &[&str]| {
            let out = bound_by_modes()
                .expect("runner")
                .arg("--no-user-rules")
                .args(args)
                .output()
                .expect("umpire runs");
            (
                out.status.success(),
                String::from_utf8_lossy(&out.stdout).to_string(),
                String::from_utf8_lossy(&out.stderr).to_string(),
            )
        };
        let (ok, out, err) = run(&["game", "status", file]);
        assert!(ok && out.contains("Turn"), "{case}: status: {err}");
        assert!(
            err.contains("is read-only") && err.contains(why) && err.contains("opened for reading"),
            "{case}: {err}"
        );
        let (ok, out, err) = run(&["game", "verify", file]);
        assert!(ok && out.contains("verified"), "{case}: verify: {err}");
        if case == "file" {
            let (ok, _, err) = run(&["report", file, "-o", pdf.to_str().unwrap()]);
            assert!(ok, "{case}: report: {err}");
        }
        let (ok, _, err) = run(&["game", "note", file, "a note"]);
        assert!(!ok, "{case}: a write is refused");
        assert!(
            err.contains("is read-only")
                && err.contains("writing needs")
                && !err.contains("not an Umpire game file"),
            "{case}: {err}"
        );
        assert_eq!(
            err.matches("opened for reading").count(),
            1,
            "{case}: said once: {err}"
        );
        mode(&dir, 0o755);
        mode(&game, 0o644);
        let lib = Library::shipped();
        assert_eq!(
            Game::open(&game, &lib).expect("opens").events().len(),
            2,
            "{case}: the start and the first note, nothing more"
        );
    }
}
