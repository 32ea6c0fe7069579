//! Long work off the UI thread: opening a game (a replay of its whole journal), creating one,
//! verifying one, exporting its journal, and the desk's start-up. Each runs on a worker thread
//! and sends its result back over a channel; the window keeps drawing, with a spinner, and
//! collects the result on the first frame after it arrives. Also the native file dialogs, which
//! run on a thread of their own for the same reason.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Instant;

use umpire_core::game::Game;
use umpire_core::game::output::{Existing, write_output};
use umpire_core::rules::{Library, SourceFile};

use super::underlay::{Restored, restore};

/// A game opened (or created) on a worker thread, with its underlay.
pub struct OpenedGame {
    /// The game.
    pub game: Game,
    /// Its file.
    pub path: PathBuf,
    /// Its map underlay, restored from the config folder.
    pub underlay: Option<Restored>,
    /// Whether the desk made this game on its first start (no recent game to open): the desk
    /// then says what it opened and how to start another.
    pub first_start: bool,
}

impl std::fmt::Debug for OpenedGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenedGame")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// What a job hands back.
#[derive(Debug)]
pub enum JobDone {
    /// A game to show.
    Game(Box<OpenedGame>),
    /// A message for the umpire (verify, export).
    Message(String),
}

/// A running job.
#[derive(Debug)]
pub struct Job {
    /// What it does, for the spinner ("Opening game.umpire").
    pub what: String,
    /// When it started.
    pub started: Instant,
    rx: Receiver<Result<JobDone, String>>,
}

impl Job {
    /// Runs `work` on a worker thread.
    pub fn spawn(
        what: impl Into<String>,
        work: impl FnOnce() -> Result<JobDone, String> + Send + 'static,
    ) -> Job {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let _ = tx.send(work());
        });
        Job {
            what: what.into(),
            started: Instant::now(),
            rx,
        }
    }

    /// The result, once the work is done.
    pub fn poll(&self) -> Option<Result<JobDone, String>> {
        match self.rx.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                Some(Err(format!("{}: the work stopped", self.what)))
            }
        }
    }
}

fn with_underlay(game: Game, path: &Path, config_dir: Option<&Path>) -> JobDone {
    let underlay = config_dir.and_then(|d| restore(d, path));
    JobDone::Game(Box::new(OpenedGame {
        game,
        path: path.to_path_buf(),
        underlay,
        first_start: false,
    }))
}

/// Opens a game file (the journal is replayed on the worker).
pub fn open_game(path: PathBuf, library: Library, config_dir: Option<PathBuf>) -> Job {
    let what = format!("Opening {}", path.display());
    Job::spawn(what, move || {
        // A game file, or a game on a server (a postgres:// URL typed in the Open dialog).
        let game = umpire_server::open_at(&path.to_string_lossy(), &library)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(with_underlay(game, &path, config_dir.as_deref()))
    })
}

/// Creates a game file on a scenario.
pub fn create_game(
    path: PathBuf,
    scenario: SourceFile,
    library: Library,
    seed: Option<u64>,
) -> Job {
    let what = format!("Starting {}", path.display());
    Job::spawn(what, move || {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let game = Game::create(&path, &scenario, &library, seed).map_err(|e| e.to_string())?;
        Ok(with_underlay(game, &path, None))
    })
}

/// Verifies a game file: SQLite's integrity check, every app roll re-derived from the seed and
/// its draw index, every result from its inputs and dice (a second connection: WAL lets it read
/// alongside the desk).
pub fn verify_game(path: PathBuf, library: Library) -> Job {
    let what = format!("Verifying {}", path.display());
    Job::spawn(what, move || {
        let mut game =
            Game::open(&path, &library).map_err(|e| format!("{}: {e}", path.display()))?;
        let integrity = game
            .integrity_check()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let verification = game
            .verify(None)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if verification.is_sound() && integrity == "ok" {
            return Ok(JobDone::Message(format!(
                "verified {}: {}; the hash chain is whole, every app roll matches its draw \
                 index and every result its inputs and dice",
                path.display(),
                verification.head
            )));
        }
        let mut all: Vec<String> = verification
            .problems
            .iter()
            .map(|p| p.to_string())
            .collect();
        if integrity != "ok" {
            all.insert(0, format!("SQLite integrity: {integrity}"));
        }
        Err(format!(
            "{}: {} problems: {}",
            path.display(),
            all.len(),
            all.join("; ")
        ))
    })
}

/// Exports a game's journal as JSON lines (the `umpire game export --jsonl` format), written
/// whole (temp file, then rename), never over a game file, over another file only when
/// `existing` says so.
pub fn export_game(path: PathBuf, library: Library, out: PathBuf, existing: Existing) -> Job {
    let what = format!("Exporting {}", path.display());
    Job::spawn(what, move || {
        let mut game =
            Game::open(&path, &library).map_err(|e| format!("{}: {e}", path.display()))?;
        // The whole journal, without the seed: what players may be given.
        let text = umpire_core::game::export::export_text(
            &mut game,
            &umpire_core::game::export::ExportOptions::default(),
        )
        .map_err(|e| e.to_string())?;
        write_output(&out, text.as_bytes(), existing).map_err(|e| e.to_string())?;
        Ok(JobDone::Message(format!(
            "exported {} journal entries to {}",
            game.events().len(),
            out.display()
        )))
    })
}

/// What a file dialog is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Browse {
    /// A game file to open.
    OpenGame,
    /// A scenario file for a new game.
    Scenario,
    /// A map image for the underlay.
    Underlay,
    /// Where to export the journal.
    Export,
}

/// A native file dialog running on its own thread.
#[derive(Debug)]
pub struct FileDialog {
    /// What it is for.
    pub purpose: Browse,
    rx: Receiver<Option<PathBuf>>,
}

impl FileDialog {
    /// Opens the platform's file dialog (the XDG desktop portal on Linux, zenity if there is
    /// none) without blocking the window.
    pub fn spawn(purpose: Browse, start: Option<PathBuf>) -> FileDialog {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut dialog = rfd::FileDialog::new();
            if let Some(dir) = start.filter(|d| d.is_dir()) {
                dialog = dialog.set_directory(dir);
            }
            let picked = match purpose {
                Browse::OpenGame => dialog
                    .set_title("Open game")
                    .add_filter("Umpire game", &["umpire"])
                    .pick_file(),
                Browse::Scenario => dialog
                    .set_title("Scenario file")
                    .add_filter("Scenario", &["yaml", "yml"])
                    .pick_file(),
                Browse::Underlay => dialog
                    .set_title("Map image")
                    .add_filter("PNG or JPEG", &["png", "jpg", "jpeg"])
                    .pick_file(),
                Browse::Export => dialog
                    .set_title("Export the journal as")
                    .add_filter("JSON lines", &["jsonl"])
                    .save_file(),
            };
            let _ = tx.send(picked);
        });
        FileDialog { purpose, rx }
    }

    /// The dialog's answer once it is closed: Some(None) when nothing was picked.
    pub fn poll(&self) -> Option<Option<PathBuf>> {
        match self.rx.try_recv() {
            Ok(p) => Some(p),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(None),
        }
    }
}

/// What the umpire is told when a file dialog gave nothing back.
pub const NO_DIALOG_MESSAGE: &str = "No file chosen. If no dialog appeared, this desktop has no \
     file-chooser portal (or zenity): type the path in the field instead.";
