//! Where the desk keeps game files and the list of recent ones. The journal is the save: a game
//! file is written as the umpire acts, so there is nothing to save and nothing to lose.

use std::path::{Path, PathBuf};

use umpire_core::game::scenario::{load_scenario, shipped_scenarios};
use umpire_core::rules::{Library, SourceFile};

/// How many recent game files are remembered.
pub const RECENT_LIMIT: usize = 10;

fn dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("org", "umpire", "umpire")
}

/// The folder new games go to: `games` under the platform data folder, or under the temp
/// folder when there is none.
pub fn games_dir() -> PathBuf {
    dirs().map_or_else(
        || std::env::temp_dir().join("umpire-games"),
        |d| d.data_dir().join("games"),
    )
}

/// The file that lists recent games, one path a line, newest first.
pub fn recent_file() -> Option<PathBuf> {
    dirs().map(|d| d.config_dir().join("recent-games.txt"))
}

/// The recent games listed in `file` that still exist (files) or may (games on a server),
/// newest first.
pub fn read_recent(file: &Path) -> Vec<PathBuf> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(PathBuf::from)
        .filter(|p| {
            p.exists() || umpire_core::game::journal::location::is_server(&p.to_string_lossy())
        })
        .take(RECENT_LIMIT)
        .collect()
}

/// Puts `game` first in the list in `file` (best effort: a list that cannot be written is
/// only a convenience lost).
pub fn remember(file: &Path, game: &Path) -> Vec<PathBuf> {
    let game = game.canonicalize().unwrap_or_else(|_| game.to_path_buf());
    let mut list = read_recent(file);
    list.retain(|p| p.canonicalize().map_or(p != &game, |c| c != game));
    list.insert(0, game);
    list.truncate(RECENT_LIMIT);
    if let Some(dir) = file.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let text: String = list.iter().map(|p| format!("{}\n", p.display())).collect();
    let _ = std::fs::write(file, text);
    list
}

/// A fresh game file name in `dir` for a scenario id (`<id>-<UTC time>.umpire`).
pub fn new_game_path(dir: &Path, scenario_id: &str) -> PathBuf {
    let stamp = chrono::Utc::now().format("%Y%m%d-%H%M%S");
    let mut path = dir.join(format!("{scenario_id}-{stamp}.umpire"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{scenario_id}-{stamp}-{n}.umpire"));
        n += 1;
    }
    path
}

/// The scenario a new desk opens on: the first "All is lost save Honour" scenario that loads,
/// else the first shipped scenario that loads, else None.
pub fn default_scenario(library: &Library) -> Option<(SourceFile, String)> {
    let files = shipped_scenarios();
    let loads = |f: &SourceFile| load_scenario(f, library).ok().map(|s| s.id);
    let ailsh = files
        .iter()
        .filter(|f| f.name.contains("/ailsh/"))
        .find_map(|f| loads(f).map(|id| (f.clone(), id)));
    ailsh.or_else(|| {
        files
            .iter()
            .find_map(|f| loads(f).map(|id| (f.clone(), id)))
    })
}

/// The platform's config folder (`~/.config/umpire` on Linux): recent games, map underlays.
pub fn config_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "umpire", "umpire").map(|d| d.config_dir().to_path_buf())
}
