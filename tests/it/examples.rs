//! Every example of the README and of `docs/` runs, and prints what the page shows.
//!
//! A ` ```console ` block is a run of commands as typed at a shell prompt: a line starting `$ `
//! is a command (a trailing `\` continues it on the next line), and the lines after it, up to the
//! next `$ `, are what it prints (standard output and error, as a terminal shows them). Each
//! printed line is compared with the one shown, where `…` inside a line stands for any text and
//! a line that is only `…` for any number of lines; `⟨NAME⟩` stands for text that differs from
//! game to game (a hash, a secret seed) and sets the shell variable NAME to what was printed
//! there, for the commands after it (`--seed "$SEED"`). A command shown without output is only
//! held to succeed. A line starting `# ` is a comment. A command whose trailing comment starts
//! with `fails` (`# fails: …`) is held to
//! fail instead. ` ```console server ` blocks need the Control server: they run with Debian's
//! PostgreSQL (`scripts/control-server.sh`, as the page says to start it). Blocks fenced
//! otherwise (` ```sh `, ` ```text `) are not run: the desk, a server left running, a package.
//! A block fenced with `file=PATH` (` ```yaml file=my-rules/skirmish/ruleset.yaml `) is a file the
//! page has the reader write: it is written there, in the page's order (`part=2` and on add to
//! it), so the commands after it find it.
//!
//! The commands of one page run in its order, in one bash session (a variable an example sets is
//! there for the next, as in a terminal), in a folder of the page's own that starts empty but for
//! a `scripts` link (the Control server's script), with `umpire` the binary under test first on
//! the `PATH`, and a home of its own (no transcriptions, no `~/.pgpass` of the tester's). So an
//! example may use the files an earlier one on the same page wrote, and a command, an id or an
//! entry number that drifts fails here, naming the page and its line.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of a page and what the page shows it printing.
#[derive(Debug)]
struct Step {
    /// Line of the page where the command starts.
    line: usize,
    command: String,
    expected: Vec<String>,
    fails: bool,
}

/// A file the page has the reader write: its path in the page's folder, whether the block adds
/// to what an earlier block of the same file wrote (`part=2` and on), and its text.
#[derive(Debug)]
struct FileBlock {
    path: String,
    append: bool,
    text: String,
}

/// A block of a page the examples use: commands (needing the Control server or not), or a file.
#[derive(Debug)]
enum Block {
    Console { server: bool, steps: Vec<Step> },
    File(FileBlock),
}

/// A block fenced with `file=PATH` (and `part=N` where a file is written in parts): the file as
/// the page has the reader write it.
fn file_block<'a>(info: &str, lines: &mut impl Iterator<Item = (usize, &'a str)>) -> Option<Block> {
    let mut path = None;
    let mut part = 1;
    for word in info.split_whitespace() {
        if let Some(p) = word.strip_prefix("file=") {
            path = Some(p.to_string());
        } else if let Some(n) = word.strip_prefix("part=") {
            part = n.parse().unwrap_or(1);
        }
    }
    let path = path?;
    let mut text = String::new();
    for (_, line) in lines.by_ref() {
        if line.trim_end() == "```" {
            break;
        }
        text.push_str(line);
        text.push('\n');
    }
    Some(Block::File(FileBlock {
        path,
        append: part > 1,
        text,
    }))
}

/// The blocks of a page the examples use, in order.
fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((_, line)) = lines.next() {
        let fence = line.trim_start();
        if let Some(info) = fence.strip_prefix("```").filter(|i| i.contains("file=")) {
            blocks.extend(file_block(info, &mut lines));
            continue;
        }
        let Some(info) = fence.strip_prefix("```console") else {
            continue;
        };
        let server = info.trim() == "server";
        let mut steps: Vec<Step> = Vec::new();
        while let Some((n, line)) = lines.next() {
            if line.trim_start().starts_with("```") {
                break;
            }
            if let Some(command) = line.strip_prefix("$ ") {
                let mut command = command.to_string();
                while command.ends_with('\\') {
                    command.pop();
                    match lines.next() {
                        Some((_, more)) => {
                            command.push(' ');
                            command.push_str(more.trim());
                        }
                        None => break,
                    }
                }
                let fails = command
                    .rsplit_once(" # ")
                    .is_some_and(|(_, comment)| comment.trim().starts_with("fails"));
                steps.push(Step {
                    line: n + 1,
                    command,
                    expected: Vec::new(),
                    fails,
                });
            } else if line.starts_with("# ") {
                // A comment between commands: what the reader does by hand, not printed.
            } else if let Some(step) = steps.last_mut() {
                step.expected.push(line.trim_end().to_string());
            }
        }
        for step in &mut steps {
            while step.expected.last().is_some_and(String::is_empty) {
                step.expected.pop();
            }
        }
        blocks.push(Block::Console { server, steps });
    }
    blocks
}

/// The commands of a page's blocks.
fn steps(blocks: &[Block]) -> impl Iterator<Item = &Step> {
    blocks.iter().flat_map(|b| match b {
        Block::Console { steps, .. } => steps.as_slice(),
        Block::File(_) => &[],
    })
}

/// What the page showed a command printing, after it matched: the values of the `⟨NAME⟩`s.
type Captures = Vec<(String, String)>;

/// A shown line in pieces: text to match as it is, `…` (any text) and `⟨NAME⟩` (any text,
/// remembered as NAME).
enum Piece<'a> {
    Text(&'a str),
    Any,
    Capture(&'a str),
}

fn pieces(shown: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = shown;
    while !rest.is_empty() {
        let any = rest.find('…');
        let capture = rest.find('⟨').filter(|&at| rest[at..].contains('⟩'));
        match (any, capture) {
            (Some(a), c) if c.is_none_or(|c| a < c) => {
                out.push(Piece::Text(&rest[..a]));
                out.push(Piece::Any);
                rest = &rest[a + '…'.len_utf8()..];
            }
            (_, Some(c)) => {
                let end = c + rest[c..].find('⟩').unwrap_or_default();
                out.push(Piece::Text(&rest[..c]));
                out.push(Piece::Capture(&rest[c + '⟨'.len_utf8()..end]));
                rest = &rest[end + '⟩'.len_utf8()..];
            }
            _ => {
                out.push(Piece::Text(rest));
                rest = "";
            }
        }
    }
    out
}

fn pieces_match(pieces: &[Piece], actual: &str, captures: &mut Captures) -> bool {
    match pieces.split_first() {
        None => actual.is_empty(),
        Some((Piece::Text(text), rest)) => actual
            .strip_prefix(text)
            .is_some_and(|more| pieces_match(rest, more, captures)),
        Some((piece, rest)) => {
            let ends = actual
                .char_indices()
                .map(|(i, _)| i)
                .chain(std::iter::once(actual.len()));
            for end in ends {
                let kept = captures.len();
                if let Piece::Capture(name) = piece {
                    captures.push(((*name).to_string(), actual[..end].to_string()));
                }
                if pieces_match(rest, &actual[end..], captures) {
                    return true;
                }
                captures.truncate(kept);
            }
            false
        }
    }
}

/// Whether one line matches a shown line, `…` standing for any text and `⟨NAME⟩` for any text
/// the page names.
fn line_matches(shown: &str, actual: &str, captures: &mut Captures) -> bool {
    pieces_match(&pieces(shown), actual, captures)
}

/// Whether the printed lines match the shown ones, a line `…` standing for any number of lines.
fn output_matches(shown: &[String], actual: &[&str], captures: &mut Captures) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "…" => {
            (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..], captures))
        }
        Some((first, rest)) => actual.split_first().is_some_and(|(a, more)| {
            let kept = captures.len();
            let matched = line_matches(first, a, captures) && output_matches(rest, more, captures);
            if !matched {
                captures.truncate(kept);
            }
            matched
        }),
    }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The pages whose examples run: the README and every page under `docs/`.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut pages = vec![repo().join("README.md")];
    walk(&repo().join("docs"), &mut pages);
    pages
}

/// A folder of the page's own, removed when the page is done.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(page: &Path) -> Scratch {
    let stem = page.file_stem().unwrap_or_default().to_string_lossy();
    let dir = std::env::temp_dir().join(format!("umpire-examples-{stem}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["work", "home", "bin"] {
        std::fs::create_dir_all(dir.join(sub)).expect("scratch folder");
    }
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_umpire"), dir.join("bin/umpire"))
        .expect("link umpire");
    std::os::unix::fs::symlink(repo().join("scripts"), dir.join("work/scripts"))
        .expect("link scripts");
    // The Control server runs as the `postgres` user when the tests run as root: it must reach
    // its folder under this one.
    let _ = std::process::Command::new("chmod")
        .args(["-R", "a+rwx"])
        .arg(&dir)
        .status();
    Scratch(dir)
}

/// The shell a page's commands run in, one for the whole page, as a reader's terminal is: a
/// variable set by one example is there for the next.
struct Shell {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    out: std::io::BufReader<std::process::ChildStdout>,
    work: String,
    home: String,
}

/// What ends each command's output: the marker and the command's exit status.
const DONE: &str = "__umpire_example_done__";

impl Shell {
    fn start(dir: &Path) -> Shell {
        let path = format!(
            "{}:{}",
            dir.join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut child = Command::new("bash")
            .args(["--noprofile", "--norc"])
            .current_dir(dir.join("work"))
            .env("PATH", path)
            .env("HOME", dir.join("home"))
            .env("XDG_CONFIG_HOME", dir.join("home/.config"))
            .env("XDG_DATA_HOME", dir.join("home/.local/share"))
            .env("UMPIRE_BIN", env!("CARGO_BIN_EXE_umpire"))
            .env("NO_COLOR", "1")
            .env("COLUMNS", "100")
            .env_remove("UMPIRE_RULES")
            .env_remove("UMPIRE_USER_RULES")
            .env_remove("UMPIRE_AS")
            .env_remove("UMPIRE_SERVER_DIR")
            .env_remove("PGPASSFILE")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("start bash");
        let mut stdin = child.stdin.take().expect("bash's input");
        let out = std::io::BufReader::new(child.stdout.take().expect("bash's output"));
        // What the terminal shows: standard error too, in order.
        std::io::Write::write_all(&mut stdin, b"exec 2>&1\n").expect("write to bash");
        Shell {
            child,
            stdin,
            out,
            work: format!("{}/", dir.join("work").display()),
            home: dir.join("home").display().to_string(),
        }
    }

    /// Runs one command; returns (succeeded, what it printed), the page's folder left out of
    /// the paths it printed and its home written `~`, as the page shows them. A command still running after two minutes is stopped (the shell
    /// with it) and counts as failed.
    fn run(&mut self, command: &str) -> (bool, String) {
        use std::io::BufRead;
        let script = format!("{{ {command}\n}} </dev/null\nprintf '\\n%s %s\\n' {DONE} $?\n");
        if self.stdin.write_all(script.as_bytes()).is_err() {
            return (false, "(the shell has stopped)".into());
        }
        let _ = self.stdin.flush();
        let pid = self.child.id();
        let (done, finished) = std::sync::mpsc::channel::<()>();
        let watchdog = std::thread::spawn(move || {
            if finished
                .recv_timeout(std::time::Duration::from_secs(120))
                .is_err()
            {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            }
        });
        let mut printed = String::new();
        let mut status = None;
        let mut line = String::new();
        loop {
            line.clear();
            match self.out.read_line(&mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if let Some(code) = line.trim_end().strip_prefix(DONE) {
                status = code.trim().parse::<i32>().ok();
                break;
            }
            printed.push_str(&line);
        }
        let _ = done.send(());
        let _ = watchdog.join();
        let printed = printed.replace(&self.work, "").replace(&self.home, "~");
        (status == Some(0), printed)
    }
}

impl Drop for Shell {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"exit\n");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The pages that start the Control server run one at a time: it listens on its default port.
static SERVER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs a page's examples; returns what drifted, each naming the page and line.
fn run_page(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
    let blocks = blocks(&text);
    if blocks.is_empty() {
        return Vec::new();
    }
    let name = page
        .strip_prefix(repo())
        .unwrap_or(page)
        .display()
        .to_string();
    let needs_server = blocks
        .iter()
        .any(|b| matches!(b, Block::Console { server: true, .. }));
    let _server = needs_server.then(|| SERVER.lock().unwrap_or_else(|e| e.into_inner()));
    let dir = scratch(page);
    let mut shell = Shell::start(&dir.0);
    let mut drifted = Vec::new();
    for block in &blocks {
        let steps = match block {
            Block::Console { steps, .. } => steps,
            Block::File(file) => {
                // The file the page has the reader write, where it says.
                let path = dir.0.join("work").join(&file.path);
                if let Some(folder) = path.parent() {
                    std::fs::create_dir_all(folder).expect("the file's folder");
                }
                let mut text = if file.append {
                    std::fs::read_to_string(&path).unwrap_or_default()
                } else {
                    String::new()
                };
                text.push_str(&file.text);
                std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                continue;
            }
        };
        for step in steps {
            let (ok, printed) = shell.run(&step.command);
            let lines: Vec<&str> = printed.lines().map(str::trim_end).collect();
            let mut lines = lines.as_slice();
            while lines.last().is_some_and(|l| l.is_empty()) {
                lines = &lines[..lines.len() - 1];
            }
            let status_right = ok != step.fails;
            let mut captures = Captures::new();
            let output_right =
                step.expected.is_empty() || output_matches(&step.expected, lines, &mut captures);
            // What the page named in the output is the shell's to use in the next commands.
            for (name, value) in captures {
                shell.run(&format!("{name}='{}'", value.replace('\'', r"'\''")));
            }
            if !(status_right && output_right) {
                drifted.push(format!(
                    "{name}:{}: $ {}\n  {}\n  shown:\n{}\n  printed:\n{}",
                    step.line,
                    step.command,
                    if status_right {
                        "printed what the page does not show"
                    } else if step.fails {
                        "succeeded, but the page says it fails"
                    } else {
                        "failed"
                    },
                    indent(&step.expected.join("\n")),
                    indent(&lines.join("\n")),
                ));
            }
        }
    }
    if needs_server {
        // The page started the Control server in its folder: stop it.
        shell.run("scripts/control-server.sh stop >/dev/null 2>&1 || true");
    }
    drifted
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    | {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_example_of_the_readme_and_docs_runs_and_prints_what_it_shows() {
    crate::common::tool::need("bash");
    let pages = pages();
    let run: Vec<(PathBuf, usize, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = pages
            .iter()
            .map(|page| {
                s.spawn(move || {
                    let text = std::fs::read_to_string(page).unwrap_or_default();
                    let count = steps(&blocks(&text)).count();
                    (page.clone(), count, run_page(page))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("page thread"))
            .collect()
    });
    let commands: usize = run.iter().map(|(_, n, _)| n).sum();
    let drifted: Vec<&String> = run.iter().flat_map(|(_, _, d)| d).collect();
    assert!(
        drifted.is_empty(),
        "{} of {commands} examples drifted:\n\n{}",
        drifted.len(),
        drifted
            .iter()
            .map(|d| d.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    // The pages hold examples: a parser that found none would pass everything.
    assert!(commands >= 80, "only {commands} example commands found");
    for page in ["README.md", "docs/command-line.md", "docs/megagame.md"] {
        assert!(
            run.iter().any(|(p, n, _)| p.ends_with(page) && *n > 0),
            "{page} has no example that runs"
        );
    }
}

#[test]
fn the_example_matcher_holds_lines_and_wildcards() {
    let shown = |s: &[&str]| s.iter().map(|l| (*l).to_string()).collect::<Vec<_>>();
    let mut c = Captures::new();
    assert!(line_matches("wrote 3 pages", "wrote 3 pages", &mut c));
    assert!(!line_matches("wrote 3 pages", "wrote 4 pages", &mut c));
    assert!(line_matches(
        "wrote … pages to …",
        "wrote 12 pages to a.pdf",
        &mut c
    ));
    assert!(!line_matches(
        "wrote … pages",
        "wrote 12 pages to a.pdf",
        &mut c
    ));
    assert!(line_matches("…a.pdf", "to a.pdf", &mut c));
    assert!(!line_matches("a…a", "a", &mut c));
    assert!(c.is_empty());
    assert!(line_matches("seed ⟨SEED⟩:⟨SALT⟩", "seed 141:8ebb", &mut c));
    assert_eq!(
        c,
        vec![
            ("SEED".to_string(), "141".to_string()),
            ("SALT".to_string(), "8ebb".to_string())
        ]
    );
    let mut c = Captures::new();
    assert!(output_matches(
        &shown(&["one", "…", "four"]),
        &["one", "two", "three", "four"],
        &mut c
    ));
    assert!(output_matches(&shown(&["one", "…"]), &["one"], &mut c));
    assert!(!output_matches(
        &shown(&["one", "…", "five"]),
        &["one", "two", "four"],
        &mut c
    ));
    assert!(!output_matches(&shown(&["one"]), &["one", "two"], &mut c));
    assert!(!output_matches(
        &shown(&["head ⟨H⟩", "x"]),
        &["head 12", "y"],
        &mut c
    ));
    assert!(c.is_empty(), "a capture of a failed match is dropped");
    let page = "text\n```console\n$ umpire a \\\n  --b\nout 1\n\n$ umpire c  # fails: no\n```\n```sh\n$ not run\n```\n```console server\n$ umpire d\n```\n";
    let found = blocks(page);
    assert_eq!(found.len(), 2);
    let (
        Block::Console {
            server: false,
            steps: first,
        },
        Block::Console { server: true, .. },
    ) = (&found[0], &found[1])
    else {
        panic!("{found:?}");
    };
    assert_eq!(first[0].command, "umpire a  --b");
    assert_eq!(first[0].expected, vec!["out 1"]);
    assert_eq!(first[0].line, 3);
    assert!(first[1].fails && !first[0].fails);
    let page = "```yaml file=a/b.yaml part=2\nx: 1\n```\n";
    let found = blocks(page);
    let [Block::File(file)] = found.as_slice() else {
        panic!("{found:?}");
    };
    assert_eq!(
        (file.path.as_str(), file.append, file.text.as_str()),
        ("a/b.yaml", true, "x: 1\n")
    );
}
