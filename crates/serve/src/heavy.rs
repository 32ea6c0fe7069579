//! The heavy downloads — a side's report as PDF, its journal verified, its journal itself — made
//! off the update path (issue 28). Each walks the whole journal (the PDF renders all of it), and
//! one link flooding them used to hold the watcher, which answered them between its looks at the
//! journal: every phone's updates stopped for more than 85 s.
//!
//! Now they are made on a thread of their own, one at a time, from a copy of the game it opens
//! itself (and brings up to date before each), with at most [`QUEUED`] waiting: past that, 503.
//! The watcher never waits on them. Each answer is kept per link and journal head (the version
//! of the changes the watcher has taken in: it moves with every new head), so asking again
//! before the next entry answers from what was kept, and several phones asking at once wait on
//! the one made. Each link may ask at [`crate::guard::Limits::heavy`]'s rate (kept answers
//! included: a kept PDF is still a megabyte to send); past it, 429.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use axum::body::Bytes;
use axum::http::StatusCode;

use umpire_core::game::Game;
use umpire_core::rules::Library;

use crate::guard::{Bucket, Rate};
use crate::page::{self, Audience};

/// How many heavy downloads may wait to be made.
pub const QUEUED: usize = 4;

/// Which heavy download.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// The side's report as PDF.
    Report,
    /// The side's journal verified, as a page.
    Verify,
    /// The side's journal (JSON lines).
    Journal,
}

/// A heavy download as made: what is sent, every time it is asked for at the same head.
#[derive(Debug)]
pub struct Made {
    /// 200, or 404 when there is nothing of the kind for the audience.
    pub status: StatusCode,
    /// Its content type.
    pub content_type: &'static str,
    /// Its Content-Disposition, for the files.
    pub disposition: Option<&'static str>,
    /// Its body.
    pub body: Bytes,
}

/// What came of asking for a heavy download.
pub enum Outcome {
    /// The answer; true when it was kept from an earlier ask at the same head.
    Made(Arc<Made>, bool),
    /// The link asked too often: 429.
    TooOften,
    /// Too many are waiting to be made, or it took too long: 503.
    Busy,
}

struct Job {
    kind: Kind,
    token: String,
    audience: Audience,
    version: u64,
}

type Waiters = Vec<tokio::sync::oneshot::Sender<Arc<Made>>>;

#[derive(Default)]
struct State {
    /// (kind, token) → the version it was made at, and the answer.
    kept: BTreeMap<(Kind, String), (u64, Arc<Made>)>,
    /// (kind, token, version) → the asks waiting for it to be made.
    waiting: BTreeMap<(Kind, String, u64), Waiters>,
    /// Token → its bucket.
    buckets: BTreeMap<String, Bucket>,
}

/// The heavy downloads' maker and what it keeps.
pub struct Heavy {
    jobs: SyncSender<Job>,
    state: Mutex<State>,
    rate: Rate,
}

impl Heavy {
    /// Starts the maker's thread; it opens the game at `location` when first asked, and ends
    /// once `stop` is set.
    pub fn start(
        location: String,
        library: Library,
        rate: Rate,
        stop: Arc<AtomicBool>,
    ) -> Result<(Arc<Heavy>, JoinHandle<()>), String> {
        let (jobs, queue) = std::sync::mpsc::sync_channel::<Job>(QUEUED);
        let heavy = Arc::new(Heavy {
            jobs,
            state: Mutex::new(State::default()),
            rate,
        });
        let maker = heavy.clone();
        let thread = std::thread::Builder::new()
            .name("players-view-heavy".into())
            .spawn(move || maker.work(&location, &library, &queue, &stop))
            .map_err(|e| e.to_string())?;
        Ok((heavy, thread))
    }

    /// The download of `kind` for the link `token` at `version`: kept, or made and waited for
    /// (`wait` at most).
    pub async fn get(
        &self,
        kind: Kind,
        token: &str,
        audience: &Audience,
        version: u64,
        wait: Duration,
    ) -> Outcome {
        let rx = {
            let Ok(mut state) = self.state.lock() else {
                return Outcome::Busy;
            };
            let rate = self.rate;
            let allowed = state
                .buckets
                .entry(token.to_string())
                .or_insert_with(|| Bucket::full(rate))
                .take(rate);
            if !allowed {
                return Outcome::TooOften;
            }
            if let Some((v, made)) = state.kept.get(&(kind, token.to_string()))
                && *v == version
            {
                return Outcome::Made(made.clone(), true);
            }
            let (tx, rx) = tokio::sync::oneshot::channel();
            let key = (kind, token.to_string(), version);
            if let Some(waiters) = state.waiting.get_mut(&key) {
                waiters.push(tx);
            } else {
                let job = Job {
                    kind,
                    token: token.to_string(),
                    audience: audience.clone(),
                    version,
                };
                match self.jobs.try_send(job) {
                    Ok(()) => {
                        state.waiting.insert(key, vec![tx]);
                    }
                    Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                        return Outcome::Busy;
                    }
                }
            }
            rx
        };
        match tokio::time::timeout(wait, rx).await {
            Ok(Ok(made)) => Outcome::Made(made, false),
            _ => Outcome::Busy,
        }
    }

    /// The maker's thread: one job at a time, from its own copy of the game.
    fn work(&self, location: &str, library: &Library, queue: &Receiver<Job>, stop: &AtomicBool) {
        let mut game: Option<Game> = None;
        while !stop.load(Ordering::Relaxed) {
            let job = match queue.recv_timeout(Duration::from_millis(200)) {
                Ok(job) => job,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            if game.is_none() {
                game = umpire_server::open_at(location, library).ok();
            }
            let made = Arc::new(match game.as_mut() {
                Some(game) => {
                    // The game as the watcher last saw it, or further on.
                    let _ = game.refresh();
                    make(game, library, job.kind, &job.audience, &job.token)
                }
                None => Made {
                    status: StatusCode::SERVICE_UNAVAILABLE,
                    content_type: "text/html; charset=utf-8",
                    disposition: None,
                    body: Bytes::from(page::message(
                        "Not now",
                        "The game could not be opened for this just now; try again in a moment.",
                    )),
                },
            });
            let Ok(mut state) = self.state.lock() else {
                continue;
            };
            if made.status != StatusCode::SERVICE_UNAVAILABLE {
                state
                    .kept
                    .insert((job.kind, job.token.clone()), (job.version, made.clone()));
            }
            for waiter in state
                .waiting
                .remove(&(job.kind, job.token, job.version))
                .unwrap_or_default()
            {
                let _ = waiter.send(made.clone());
            }
        }
    }
}

/// Makes one heavy download.
fn make(game: &mut Game, library: &Library, kind: Kind, audience: &Audience, token: &str) -> Made {
    let html = |status, body: String| Made {
        status,
        content_type: "text/html; charset=utf-8",
        disposition: None,
        body: Bytes::from(body),
    };
    match kind {
        Kind::Report => match report_pdf(game, audience) {
            Ok(pdf) => Made {
                status: StatusCode::OK,
                content_type: "application/pdf",
                disposition: Some("inline; filename=\"report.pdf\""),
                body: Bytes::from(pdf),
            },
            Err(e) => html(StatusCode::NOT_FOUND, page::message("No report", &e)),
        },
        Kind::Journal => match side_export(game, audience) {
            Ok(text) => Made {
                status: StatusCode::OK,
                content_type: "application/jsonl; charset=utf-8",
                disposition: Some("attachment; filename=\"journal.jsonl\""),
                body: Bytes::from(text),
            },
            Err(e) => html(StatusCode::NOT_FOUND, page::message("No journal", &e)),
        },
        Kind::Verify => {
            let checked = side_export(game, audience).and_then(|text| {
                let export = umpire_core::game::export::read_export("the journal", &text)
                    .map_err(|e| e.to_string())?;
                umpire_core::game::export::verify_export(&export, library, None, None)
                    .map_err(|e| e.to_string())
            });
            let page = match checked {
                Ok(v) => page::verification(game, audience, token, &v),
                Err(e) => page::verification_failed(&e),
            };
            html(StatusCode::OK, page)
        }
    }
}

/// The whole game's report as the side may see it, as PDF (the public has none).
fn report_pdf(game: &Game, audience: &Audience) -> Result<Vec<u8>, String> {
    let Audience::Side(id) = audience else {
        return Err("the public has no report of its own".into());
    };
    let template = umpire_report::Template::sheet_default().map_err(|e| e.to_string())?;
    umpire_report::turn_report_pdf(
        game,
        &umpire_report::ReportOptions {
            turn: None,
            side: Some(id.clone()),
            printed_at: chrono::Local::now(),
        },
        template,
    )
    .map_err(|e| e.to_string())
}

/// The journal as the audience may see it (sealed where it may not), as `game export --side`.
fn side_export(game: &mut Game, audience: &Audience) -> Result<String, String> {
    let Audience::Side(side) = audience else {
        return Err("the public has no journal of its own: ask for a side's link".into());
    };
    umpire_core::game::export::export_text(
        game,
        &umpire_core::game::export::ExportOptions {
            side: Some(side.clone()),
            with_seed: false,
        },
    )
    .map_err(|e| e.to_string())
}
