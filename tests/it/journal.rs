//! The journal interface under a link that fails at the worst moment: an append that lands but
//! whose answer is lost, with the journal unreadable for a while after. A retry of the same
//! action must not record it twice; a different action goes ahead after it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use umpire::game::journal::Entry;
use umpire::game::{
    Action, Actor, EventKind, Game, GameError, GameFile, GameMeta, Store, StoreError,
};
use umpire::rules::{Library, SourceFile};

/// A game file whose link can be made to fail: `lose_answer` appends and then reports a dropped
/// link, after which the next `then_down` reads fail too; `down` fails the next calls.
struct Flaky {
    inner: GameFile,
    lose_answer: Arc<AtomicUsize>,
    then_down: usize,
    down: Arc<Mutex<usize>>,
}

fn link_error() -> StoreError {
    StoreError::Server {
        location: "flaky".into(),
        message: "the link dropped".into(),
    }
}

impl Flaky {
    fn check(&self) -> Result<(), StoreError> {
        let mut down = self.down.lock().expect("lock");
        if *down > 0 {
            *down -= 1;
            return Err(link_error());
        }
        Ok(())
    }
}

impl Store for Flaky {
    fn meta(&self) -> &GameMeta {
        self.inner.meta()
    }
    fn location(&self) -> String {
        "flaky".into()
    }
    fn entries_after(&mut self, after: u64) -> Result<Vec<Entry>, StoreError> {
        self.check()?;
        self.inner.entries_from(after)
    }
    fn append(&mut self, entries: &[Entry]) -> Result<(), StoreError> {
        self.check()?;
        self.inner.append_all(entries)?;
        if self.lose_answer.load(Ordering::SeqCst) > 0 {
            self.lose_answer.fetch_sub(1, Ordering::SeqCst);
            *self.down.lock().expect("lock") = self.then_down;
            return Err(link_error());
        }
        Ok(())
    }
    fn integrity_check(&mut self) -> Result<String, StoreError> {
        self.inner.integrity_check()
    }
}

fn fixture() -> SourceFile {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/scenarios/skirmish.yaml"
    );
    SourceFile {
        name: path.into(),
        text: std::fs::read_to_string(path).expect("fixture"),
    }
}

fn notes(game: &Game) -> Vec<String> {
    game.events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Note { text } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn an_append_whose_answer_was_lost_is_recorded_once_whatever_comes_next() {
    let dir = std::env::temp_dir().join(format!("umpire-journal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("flaky.umpire");
    let _ = std::fs::remove_file(&path);
    let lib = Library::shipped();
    drop(Game::create(&path, &fixture(), &lib, Some(5)).expect("create"));

    let lose_answer = Arc::new(AtomicUsize::new(0));
    let down = Arc::new(Mutex::new(0));
    let flaky = Flaky {
        inner: GameFile::open(&path).expect("open"),
        lose_answer: Arc::clone(&lose_answer),
        then_down: 1,
        down: Arc::clone(&down),
    };
    let mut game = Game::from_store(Box::new(flaky), &lib).expect("game");
    let note = |t: &str| Action::Note { text: t.into() };

    // It lands, the answer is lost and the look that follows fails: an error, in doubt.
    lose_answer.store(1, Ordering::SeqCst);
    let err = game
        .act(&Actor::umpire(), note("the rider arrives"))
        .expect_err("in doubt");
    assert!(
        matches!(err, GameError::Store(StoreError::InDoubt { .. })),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("may or may not have been recorded"),
        "{err}"
    );
    // The retry finds it landed: done, not recorded again.
    assert_eq!(
        game.act(&Actor::umpire(), note("the rider arrives"))
            .expect("retry"),
        vec![2]
    );
    assert_eq!(notes(&game), vec!["the rider arrives"]);

    // In doubt again, then a different action: the first is taken in, the second follows it.
    lose_answer.store(1, Ordering::SeqCst);
    game.act(&Actor::umpire(), note("the bridge is down"))
        .expect_err("in doubt");
    assert_eq!(
        game.act(&Actor::umpire(), note("night falls"))
            .expect("next"),
        vec![4]
    );
    assert_eq!(
        notes(&game),
        vec!["the rider arrives", "the bridge is down", "night falls"]
    );

    // Refused before anything was written: the look says so, and the retry records it once.
    *down.lock().expect("lock") = 1;
    game.act(&Actor::umpire(), note("dawn"))
        .expect_err("not written");
    assert_eq!(
        game.act(&Actor::umpire(), note("dawn")).expect("retry"),
        vec![5]
    );

    // The file agrees, entry for entry.
    let reopened = Game::open(&path, &lib).expect("reopen");
    assert_eq!(reopened.events(), game.events());
    assert_eq!(
        notes(&reopened),
        vec![
            "the rider arrives",
            "the bridge is down",
            "night falls",
            "dawn"
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Games recorded before effects were typed (`tests/fixtures/games/*-before-typed-effects.jsonl`,
/// exported by the build before: notes, losses, eliminations, a follow-up, a ledger set) still
/// import, verify whole and export byte for byte as they were: the journal's JSON did not change.
#[test]
fn games_recorded_before_typed_effects_still_open_and_verify() {
    let dir = std::env::temp_dir().join(format!("umpire-old-games-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/games");
    let mut kinds = std::collections::BTreeSet::new();
    for name in ["venice", "rr3", "qrs"] {
        let old = fixtures.join(format!("{name}-before-typed-effects.jsonl"));
        let text = std::fs::read_to_string(&old).expect("fixture");
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            if let Some(effects) = v.pointer("/entry/resolution/outcome/effects") {
                for e in effects.as_array().expect("effects") {
                    kinds.insert(e["kind"].as_str().expect("a kind").to_string());
                }
            }
        }
        let game = dir.join(format!("{name}.umpire"));
        let game = game.to_string_lossy().to_string();
        let r = crate::cli::umpire(&["game", "import", &old.to_string_lossy(), "-o", &game]);
        assert!(r.success, "{name}: {}", r.show());
        let r = crate::cli::umpire(&["game", "verify", &game]);
        assert!(
            r.success && r.stdout.contains("verified"),
            "{name}: {}",
            r.show()
        );
        let r = crate::cli::umpire(&["game", "export", &game, "--jsonl", "--with-seed"]);
        assert!(r.success, "{name}: {}", r.show());
        assert_eq!(r.stdout, text, "{name}: exported as it was recorded");
    }
    let kinds: Vec<&str> = kinds.iter().map(String::as_str).collect();
    assert_eq!(
        kinds,
        ["eliminate", "follow_up", "note", "set", "sp_loss"],
        "the fixtures hold these kinds"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
