//! Files Umpire writes for people (a PDF, an exported journal, a template): never over a game
//! file, over another existing file only when asked, and never half-written — the bytes go to a
//! temporary file in the same folder, are flushed to disk, then renamed into place, so a crash or
//! a full disk leaves the old file (or none), not a torn one. New game files are published the
//! same way (see [`super::GameFile::create_with`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use thiserror::Error;

/// What to do about a file already at the output path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// Refuse to write (the default everywhere).
    Refuse,
    /// Replace it, whole and at once (`--force`, or the desk's "Replace it"). A game file is
    /// refused all the same.
    Replace,
}

impl Existing {
    /// [`Existing::Replace`] when `force`, else [`Existing::Refuse`].
    pub fn replace_if(force: bool) -> Existing {
        if force {
            Existing::Replace
        } else {
            Existing::Refuse
        }
    }
}

/// Why an output file was not written.
#[derive(Debug, Error)]
pub enum OutputError {
    /// The path holds a game: never overwritten, `--force` or not.
    #[error(
        "{path} is an Umpire game file; choose another name — a game file is never overwritten"
    )]
    GameFile {
        /// The path.
        path: PathBuf,
    },
    /// Something is there and replacing it was not asked for.
    #[error("{path} already exists — choose another name, or pass --force to replace it")]
    Exists {
        /// The path.
        path: PathBuf,
    },
    /// The path is a folder.
    #[error("{path} is a folder — give a file name")]
    Folder {
        /// The path.
        path: PathBuf,
    },
    /// The disk refused (full, read-only, no such folder…); nothing was changed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// Whether `bytes` may be written to `path`: refuses a game file always, a folder always, and any
/// other existing file unless `existing` is [`Existing::Replace`]. Cheap (a stat and a 72-byte
/// read); call it before the work of making the bytes, so a refusal comes first.
pub fn check_output(path: &Path, existing: Existing) -> Result<(), OutputError> {
    if crate::game::is_game_file(path) {
        return Err(OutputError::GameFile {
            path: path.to_path_buf(),
        });
    }
    match std::fs::symlink_metadata(path) {
        Err(_) => Ok(()),
        Ok(m) if m.is_dir() => Err(OutputError::Folder {
            path: path.to_path_buf(),
        }),
        Ok(_) if existing == Existing::Refuse => Err(OutputError::Exists {
            path: path.to_path_buf(),
        }),
        Ok(_) => Ok(()),
    }
}

/// Writes `bytes` to `path` whole: to a temporary file in the same folder, flushed to disk, then
/// renamed into place (with [`Existing::Refuse`], by a rename that never replaces, so a file that
/// appeared meanwhile is kept). Refuses what [`check_output`] refuses; on any failure the old
/// file, if any, is untouched and no temporary file is left behind.
pub fn write_output(path: &Path, bytes: &[u8], existing: Existing) -> Result<(), OutputError> {
    check_output(path, existing)?;
    let io = |source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    };
    clear_stale_temps(path);
    let tmp = temp_beside(path, "tmp").map_err(io)?;
    let written = std::fs::File::create_new(&tmp).and_then(|mut f| {
        f.write_all(bytes)?;
        // A replaced file keeps its permissions.
        if existing == Existing::Replace
            && let Ok(old) = std::fs::metadata(path)
        {
            f.set_permissions(old.permissions())?;
        }
        f.sync_all()
    });
    let placed = written.map_err(io).and_then(|()| match existing {
        Existing::Refuse => rename_no_replace(&tmp, path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                // Appeared while the bytes were being made: say what is there now.
                check_output(path, Existing::Refuse)
                    .err()
                    .unwrap_or_else(|| io(e))
            } else {
                io(e)
            }
        }),
        Existing::Replace => {
            // Looked at again just before the rename: a game file may have been created there
            // while the bytes were made.
            check_output(path, Existing::Replace)?;
            std::fs::rename(&tmp, path).map_err(io)
        }
    });
    if placed.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    placed?;
    sync_folder(path);
    Ok(())
}

/// A fresh temporary path in `path`'s folder: `.NAME.KIND-PID-N` (hidden, and recognisable by
/// [`stale_temps`]; `kind` one of [`TEMP_KINDS`]).
pub(crate) fn temp_beside(path: &Path, kind: &str) -> std::io::Result<PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let Some(name) = path.file_name() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "the path has no file name",
        ));
    };
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    Ok(path.with_file_name(format!(
        ".{}.{kind}-{}-{n}",
        name.to_string_lossy(),
        std::process::id()
    )))
}

/// The kinds of temporary file Umpire writes beside its outputs: a game being created
/// (`new`), any other output (`tmp`), a game being imported (`importing`).
const TEMP_KINDS: [&str; 3] = ["new", "tmp", "importing"];

/// SQLite's files beside a database being built.
const SIDECARS: [&str; 3] = ["-wal", "-shm", "-journal"];

/// The process id of a hidden temporary file Umpire made: `.NAME.KIND-PID-N` (and SQLite's
/// `-wal`, `-shm`, `-journal` beside it), or the names of earlier versions, `.NAME.PID.tmp` and
/// `.NAME.PID.importing`. None for any other file.
fn temp_pid(file_name: &str) -> Option<u32> {
    let name = file_name.strip_prefix('.')?;
    let name = SIDECARS
        .iter()
        .find_map(|s| name.strip_suffix(s))
        .unwrap_or(name);
    for kind in TEMP_KINDS {
        // `.NAME.KIND-PID-N`
        if let Some(i) = name.rfind(&format!(".{kind}-")) {
            let rest = &name[i + kind.len() + 2..];
            if let Some((pid, n)) = rest.split_once('-')
                && !pid.is_empty()
                && pid.chars().all(|c| c.is_ascii_digit())
                && !n.is_empty()
                && n.chars().all(|c| c.is_ascii_digit())
            {
                return pid.parse().ok();
            }
        }
        // `.NAME.PID.KIND` (before the temporary names were one scheme).
        if kind != "new"
            && let Some(rest) = name.strip_suffix(&format!(".{kind}"))
            && let Some((_, pid)) = rest.rsplit_once('.')
            && !pid.is_empty()
            && pid.chars().all(|c| c.is_ascii_digit())
        {
            return pid.parse().ok();
        }
    }
    None
}

/// Whether the process that made a temporary file is gone: its id no longer runs (a live
/// process, even another program that reused the id, keeps it). Where that cannot be told (no
/// `/proc`), whether the file is more than an hour old.
fn maker_gone(pid: u32, entry: &std::fs::DirEntry) -> bool {
    if pid == std::process::id() {
        return false;
    }
    if Path::new("/proc/self").exists() {
        return !Path::new("/proc").join(pid.to_string()).exists();
    }
    entry
        .metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age.as_secs() > 3600)
}

/// Umpire's temporary files in `path`'s folder (for any output, not only `path`) left by
/// processes that are gone: killed mid-way, they could not clear up. A temporary file of a run
/// still going is never among them (its process is alive).
pub(crate) fn stale_temps(path: &Path) -> Vec<PathBuf> {
    let Some(dir) = folder_of(path) else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let pid = temp_pid(&entry.file_name().to_string_lossy())?;
            let file = entry.file_type().ok()?.is_file();
            (file && maker_gone(pid, &entry)).then(|| entry.path())
        })
        .collect()
}

/// Removes what [`stale_temps`] finds (best effort: a file that cannot be removed stays). Every
/// writer calls it first, so the next run in a folder clears what a killed one left.
pub(crate) fn clear_stale_temps(path: &Path) {
    for stale in stale_temps(path) {
        let _ = std::fs::remove_file(stale);
    }
}

/// Renames `from` to `to` unless something is at `to` (then fails with `AlreadyExists` and
/// leaves both alone). A hard link then an unlink: atomic on every file system that has hard
/// links, and portable (`renameat2(RENAME_NOREPLACE)` is Linux-only and needs `unsafe` or a new
/// dependency). Where the file system has no hard links (FAT, exFAT on a USB stick), a look then
/// a plain rename: a file created in the instant between them would be replaced.
pub(crate) fn rename_no_replace(from: &Path, to: &Path) -> std::io::Result<()> {
    match std::fs::hard_link(from, to) {
        Ok(()) => {
            // Both names are the same file now; dropping the temporary one cannot lose it.
            let _ = std::fs::remove_file(from);
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(e),
        Err(_) => {
            if std::fs::symlink_metadata(to).is_ok() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "the file exists",
                ));
            }
            std::fs::rename(from, to)
        }
    }
}

/// The folder a path is in (`.` for a bare file name).
pub(crate) fn folder_of(path: &Path) -> Option<PathBuf> {
    match path.parent() {
        Some(p) if p.as_os_str().is_empty() => Some(PathBuf::from(".")),
        Some(p) => Some(p.to_path_buf()),
        None => None,
    }
}

/// Flushes the folder holding `path`, so a rename into it survives a power cut (best effort:
/// not every platform can open a folder to flush it).
pub(crate) fn sync_folder(path: &Path) {
    if let Some(dir) = folder_of(path)
        && let Ok(d) = std::fs::File::open(dir)
    {
        let _ = d.sync_all();
    }
}
