//! Hostile files: a transcription, table, scenario or import made to crash, hang or exhaust the
//! loader (deep parentheses, long sign chains, deep dice notation, deep YAML, files of tens of
//! megabytes). Each is run through the real binary with the files where a user would have them
//! (the default transcription folder, `--rules DIR`, a scenario file), and the binary must either
//! refuse it with a sentence naming the file (with line and column where there is one) or, when
//! the file belongs to a ruleset the command does not need, not notice it at all: never a signal
//! or a panic, within a second of wall time and 100 MB of memory.
//!
//! Time and memory are measured in a separate process (this test binary run again as
//! `hostile::measure_child`), whose only child is the command: `getrusage(RUSAGE_CHILDREN)`
//! there is exactly the command's peak resident memory, untouched by the other tests' children.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The most a refusal (or an unrelated command) may take, wall clock, in a debug build.
const WALL_LIMIT: Duration = Duration::from_secs(1);
/// The most memory it may take: peak resident set, in KiB.
const MEMORY_LIMIT_KIB: i64 = 100 * 1024;

/// The command `hostile::measure_child` runs and measures, as JSON.
const MEASURE_ENV: &str = "UMPIRE_HOSTILE_MEASURE";
/// Makes `hostile::measure_child` hold this many MiB and exit (the measurement's own check).
const HOG_ENV: &str = "UMPIRE_HOSTILE_HOG_MIB";
/// The line `hostile::measure_child` prints its measurement on.
const MARK: &str = "HOSTILE-MEASURED ";

/// A command to measure: the program, its arguments, its environment and folder.
struct Spec {
    program: PathBuf,
    args: Vec<String>,
    env: BTreeMap<String, String>,
    dir: PathBuf,
}

/// What a measured run gave.
#[derive(Debug)]
struct Measured {
    what: String,
    code: Option<i32>,
    signal: Option<i32>,
    stdout: String,
    stderr: String,
    wall: Duration,
    peak_kib: i64,
}

impl Measured {
    fn show(&self) -> String {
        format!(
            "{} → exit {:?}, signal {:?}, {} ms, {} KiB peak\n--- stdout\n{}\n--- stderr\n{}",
            self.what,
            self.code,
            self.signal,
            self.wall.as_millis(),
            self.peak_kib,
            cut(&self.stdout),
            cut(&self.stderr)
        )
    }

    /// Exited on its own (no signal), said nothing of a panic or an overflow, and kept within
    /// the time and memory limits.
    fn is_sound(&self) -> &Self {
        assert!(
            self.code.is_some() && self.signal.is_none(),
            "killed by a signal:\n{}",
            self.show()
        );
        for crash in [
            "panicked",
            "stack overflow",
            "overflowed its stack",
            "RUST_BACKTRACE",
        ] {
            assert!(
                !self.stderr.contains(crash),
                "says {crash:?}:\n{}",
                self.show()
            );
        }
        assert!(
            self.wall < WALL_LIMIT,
            "took {} ms (limit {} ms):\n{}",
            self.wall.as_millis(),
            WALL_LIMIT.as_millis(),
            self.show()
        );
        assert!(
            self.peak_kib < MEMORY_LIMIT_KIB,
            "peak memory {} KiB (limit {MEMORY_LIMIT_KIB} KiB):\n{}",
            self.peak_kib,
            self.show()
        );
        eprintln!(
            "{}: {} ms, {:.1} MiB peak",
            self.what,
            self.wall.as_millis(),
            self.peak_kib as f64 / 1024.0
        );
        self
    }

    /// Failed with a message (on stderr) holding every phrase.
    fn fails_saying(&self, phrases: &[&str]) -> &Self {
        self.is_sound();
        assert!(self.code != Some(0), "expected a refusal:\n{}", self.show());
        for p in phrases {
            assert!(
                self.stderr.contains(p),
                "stderr does not say {p:?}:\n{}",
                self.show()
            );
        }
        self
    }

    /// Succeeded.
    fn succeeds(&self) -> &Self {
        self.is_sound();
        assert_eq!(self.code, Some(0), "expected success:\n{}", self.show());
        self
    }
}

/// The start and end of a long text (messages must not echo a hostile file whole either).
fn cut(text: &str) -> String {
    if text.chars().count() <= 3000 {
        return text.to_string();
    }
    let head: String = text.chars().take(1500).collect();
    let tail: String = text.chars().skip(text.chars().count() - 1500).collect();
    format!("{head}\n[… {} characters …]\n{tail}", text.chars().count())
}

/// Runs `spec` in a fresh process of this test binary and reads its measurement.
fn measure(what: &str, spec: &Spec) -> Measured {
    let encoded = json!({
        "program": spec.program,
        "args": spec.args,
        "env": spec.env,
        "dir": spec.dir,
    });
    let out = Command::new(std::env::current_exe().expect("the test binary's path"))
        .args([
            "hostile::measure_child",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(MEASURE_ENV, encoded.to_string())
        .env_remove(HOG_ENV)
        .output()
        .expect("the test binary runs again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let Some(line) = stdout
        .lines()
        .find_map(|l| l.split_once(MARK).map(|(_, m)| m))
    else {
        panic!(
            "{what}: no measurement from the measuring process:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let v: Value = serde_json::from_str(line).expect("the measurement is JSON");
    let text = |key: &str| v[key].as_str().unwrap_or_default().to_string();
    Measured {
        what: what.to_string(),
        code: v["code"].as_i64().map(|c| c as i32),
        signal: v["signal"].as_i64().map(|c| c as i32),
        stdout: text("stdout"),
        stderr: text("stderr"),
        wall: Duration::from_micros(v["wall_us"].as_u64().unwrap_or(u64::MAX)),
        peak_kib: v["peak_kib"].as_i64().unwrap_or(i64::MAX),
    }
}

/// Not a test of Umpire: the measuring process. Run directly, it checks the measurement itself
/// (a child that holds 150 MiB is measured at 150 MiB or more).
#[test]
fn measure_child() {
    use std::os::unix::process::ExitStatusExt;

    if let Ok(mib) = std::env::var(HOG_ENV) {
        let mib: usize = mib.parse().expect("MiB");
        let hog = vec![1u8; mib * 1024 * 1024];
        std::hint::black_box(&hog);
        return;
    }
    let Ok(encoded) = std::env::var(MEASURE_ENV) else {
        let hog = Spec {
            program: std::env::current_exe().expect("the test binary's path"),
            args: ["hostile::measure_child", "--exact", "--test-threads=1"]
                .map(String::from)
                .to_vec(),
            env: BTreeMap::from([(HOG_ENV.to_string(), "150".to_string())]),
            dir: std::env::temp_dir(),
        };
        let m = measure("a child holding 150 MiB", &hog);
        assert_eq!(m.code, Some(0), "{}", m.show());
        assert!(m.peak_kib >= 150 * 1024, "{}", m.show());
        return;
    };
    let v: Value = serde_json::from_str(&encoded).expect("a measure spec");
    let mut command = Command::new(v["program"].as_str().expect("program"));
    // The caller's own rules folders and sign-in are not the test's.
    for setting in ["UMPIRE_RULES", "UMPIRE_USER_RULES", "UMPIRE_AS"] {
        command.env_remove(setting);
    }
    for a in v["args"].as_array().expect("args") {
        command.arg(a.as_str().expect("arg"));
    }
    for (k, value) in v["env"].as_object().expect("env") {
        command.env(k, value.as_str().expect("env value"));
    }
    command.current_dir(v["dir"].as_str().expect("dir"));
    let start = Instant::now();
    let out = command.output().expect("the measured command runs");
    let wall = start.elapsed();
    let usage = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)
        .expect("getrusage");
    let measured = json!({
        "code": out.status.code(),
        "signal": out.status.signal(),
        "stdout": String::from_utf8_lossy(&out.stdout),
        "stderr": String::from_utf8_lossy(&out.stderr),
        "wall_us": wall.as_micros() as u64,
        // Linux gives ru_maxrss in KiB.
        "peak_kib": usage.max_rss(),
    });
    println!("\n{MARK}{measured}");
}

/// A scratch home for the binary: HOME and the XDG folders inside it, so the default
/// transcription folder (read by every command) is `<home>/config/umpire/rules`.
struct Home {
    dir: PathBuf,
}

impl Home {
    fn new(name: &str) -> Home {
        let dir =
            std::env::temp_dir().join(format!("umpire-hostile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch home");
        Home { dir }
    }

    /// The default transcription folder.
    fn user_rules(&self) -> PathBuf {
        self.dir.join("config/umpire/rules")
    }

    fn write(&self, path: &Path, text: &str) -> PathBuf {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("folder");
        }
        std::fs::write(path, text).expect("write");
        path.to_path_buf()
    }

    fn spec(&self, args: &[&str]) -> Spec {
        let env = [
            ("HOME", self.dir.clone()),
            ("XDG_CONFIG_HOME", self.dir.join("config")),
            ("XDG_DATA_HOME", self.dir.join("data")),
            ("XDG_CACHE_HOME", self.dir.join("cache")),
        ];
        Spec {
            program: PathBuf::from(env!("CARGO_BIN_EXE_umpire")),
            args: args.iter().map(|a| a.to_string()).collect(),
            env: env
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.display().to_string()))
                .collect(),
            dir: self.dir.clone(),
        }
    }

    /// Runs the binary, measured. The caller's UMPIRE_* settings are not passed on.
    fn run(&self, args: &[&str]) -> Measured {
        measure(&format!("umpire {}", args.join(" ")), &self.spec(args))
    }

    /// Runs the binary unmeasured (setting up).
    fn setup(&self, args: &[&str]) {
        let spec = self.spec(args);
        let out = Command::new(&spec.program)
            .args(&spec.args)
            .envs(&spec.env)
            .env_remove("UMPIRE_RULES")
            .env_remove("UMPIRE_USER_RULES")
            .current_dir(&spec.dir)
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "umpire {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// A new ailsh game in the scratch home (made before any hostile file is in place).
    fn ailsh_game(&self) -> String {
        let game = self.dir.join("agnadello.umpire").display().to_string();
        self.setup(&[
            "game",
            "new",
            "ailsh_1_venice_at_bay_1509",
            "-o",
            &game,
            "--seed",
            "1509",
        ]);
        game
    }
}

impl Drop for Home {
    /// Removes the scratch home (tens of megabytes), unless the test failed: then it is kept to
    /// look at.
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// The shipped retreat table of qrs with its result's effect written out in block style, the
/// effect's `amount` expression replaced; with the line and column where that expression starts.
fn retreat_with_amount(amount: &str) -> (String, usize, usize) {
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/qrs/retreat.yaml"),
    )
    .expect("shipped table");
    let head = shipped
        .split("    effects:")
        .next()
        .expect("the table has effects");
    let text = format!(
        "{head}    effects:\n      - kind: retreat\n        text: BU\n        amount: \"{amount}\"\n"
    );
    let line = text.lines().count();
    (text, line, "        amount: ".len() + 1)
}

/// A qrs command that needs the qrs ruleset (and only it).
const QRS_ODDS: [&str; 5] = ["odds", "qrs", "discipline_test", "-i", "discipline=B"];
/// An ailsh command that needs the ailsh ruleset (and only it).
const AILSH_DESCRIBE: [&str; 3] = ["describe", "ailsh", "discipline_check"];

#[test]
fn deeply_nested_parentheses_in_a_transcription_are_refused_with_their_place() {
    let home = Home::new("parens");
    let depth = 13_000;
    let amount = format!("{}n{}", "(".repeat(depth), ")".repeat(depth));
    let (text, line, column) = retreat_with_amount(&amount);
    let file = home.write(&home.user_rules().join("qrs/retreat.yaml"), &text);
    home.run(&QRS_ODDS).fails_saying(&[
        &format!("{}:{line}:{column}:", file.display()),
        "expression is nested 13000 deep; the limit is 64",
        "ruleset 'qrs' does not load",
    ]);
    // Every command reads the transcription folder: one about another ruleset does not notice.
    home.run(&AILSH_DESCRIBE).succeeds();
}

#[test]
fn a_long_chain_of_signs_in_a_transcription_is_refused_with_its_place() {
    let home = Home::new("signs");
    let amount = format!("{}n", "-".repeat(10_000));
    let (text, line, column) = retreat_with_amount(&amount);
    let file = home.write(&home.user_rules().join("qrs/retreat.yaml"), &text);
    let run = home.run(&["describe", "qrs", "retreat"]);
    run.fails_saying(&[
        &format!("{}:{line}:{column}:", file.display()),
        "expression has 10000 signs (- or !) in a row; the limit is 8",
    ]);
    // The message names the problem; it does not echo ten thousand signs back.
    assert!(run.stderr.len() < 2_000, "{}", run.show());
    home.run(&AILSH_DESCRIBE).succeeds();
}

#[test]
fn deeply_nested_dice_notation_is_refused_in_a_transcription_and_on_the_command_line() {
    let home = Home::new("dice");
    let depth = 13_000;
    let roll = format!("{}d6{}", "⌈".repeat(depth), "/2⌉".repeat(depth));
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/qrs/retreat.yaml"),
    )
    .expect("shipped table");
    let text = shipped.replace("roll: d6", &format!("roll: \"{roll}\""));
    let line = text
        .lines()
        .position(|l| l.starts_with("roll:"))
        .expect("roll line")
        + 1;
    let file = home.write(&home.user_rules().join("qrs/retreat.yaml"), &text);
    let run = home.run(&QRS_ODDS);
    run.fails_saying(&[
        &format!("{}:{line}:7:", file.display()),
        "nested 13000 deep; the limit is 8",
    ]);
    assert!(run.stderr.len() < 2_000, "{}", run.show());

    // Typed on the command line (a single argument stays under Linux's 128 KiB).
    let typed = format!("{}d6{}", "⌈".repeat(10_000), "/2⌉".repeat(10_000));
    home.run(&["roll", &typed])
        .fails_saying(&["dice notation", "nested 10000 deep; the limit is 8"]);
    let long = "d6+".repeat(5_000) + "1";
    home.run(&["roll", "--odds", &long])
        .fails_saying(&["15001 characters long; the limit is 200"]);
}

/// About 42 MB of table rows that parse (slowly): what made an unrelated `game status` take
/// 23 s and 2.9 GB.
fn huge_table(id: &str) -> String {
    let mut text = format!("id: {id}\ntitle: Huge\nroll: d6\nrows:\n");
    let row = "  - {key: 1, cells: [a_result_code_that_is_long_enough_to_fill_the_file]}\n";
    while text.len() < 42 * 1024 * 1024 {
        text.push_str(row);
    }
    text
}

/// A table just under the size limit whose rows take seconds to read and refuse (each repeats
/// the first row's key): only a command that loads its ruleset may pay for it, so a command
/// about another ruleset staying fast shows that it was not loaded.
fn slow_table(id: &str) -> String {
    let mut text = format!("id: {id}\ntitle: Slow\nroll: d6\nrows:\n");
    let row = "  - {key: 1, cells: [a, b, c, d]}\n";
    while text.len() + row.len() < 1024 * 1024 {
        text.push_str(row);
    }
    text
}

#[test]
fn a_huge_transcription_of_another_ruleset_costs_an_unrelated_game_nothing() {
    let home = Home::new("huge-layer");
    let game = home.ailsh_game();
    let file = home.write(
        &home.user_rules().join("rr3/timetable.yaml"),
        &huge_table("timetable"),
    );
    // The ruleset it belongs to is refused before the file is read, naming file, size and limit.
    home.run(&["describe", "rr3"]).fails_saying(&[
        &file.display().to_string(),
        "the file is 42.0 MB; the limit is 1.0 MB",
    ]);
    // The commands about every ruleset list it as not loading, and the others as loading.
    let list = home.run(&["rules", "list"]);
    list.succeeds();
    assert!(
        list.stdout.contains("rr3        DOES NOT LOAD"),
        "{}",
        list.show()
    );
    assert!(
        list.stdout.contains("qrs        Renaissance"),
        "{}",
        list.show()
    );
    home.run(&["rules", "check"]).fails_saying(&[
        "rr3: does not load",
        "the file is 42.0 MB; the limit is 1.0 MB",
    ]);
    // With a slow file in a third ruleset's transcriptions too, a command about one game or
    // one ruleset reads neither.
    home.write(
        &home.user_rules().join("gradisca/cards.yaml"),
        &slow_table("cards"),
    );
    home.run(&["game", "status", &game]).succeeds();
    home.run(&AILSH_DESCRIBE).succeeds();
    home.run(&QRS_ODDS).succeeds();
    home.run(&[
        "resolve",
        "qrs",
        "discipline_test",
        "-i",
        "discipline=B",
        "--roll",
        "4",
    ])
    .succeeds();
}

/// A `--rules` folder with copies of some shipped rulesets.
fn rules_copy(home: &Home, rulesets: &[&str]) -> PathBuf {
    let root = home.dir.join("rules");
    for id in rulesets {
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tables")
            .join(id);
        let to = root.join(id);
        std::fs::create_dir_all(&to).expect("folder");
        for entry in std::fs::read_dir(&from).expect("shipped folder") {
            let path = entry.expect("entry").path();
            std::fs::copy(&path, to.join(path.file_name().expect("name"))).expect("copy");
        }
    }
    root
}

#[test]
fn a_huge_table_in_another_rules_folder_costs_an_unrelated_game_nothing() {
    let home = Home::new("huge-rules");
    let root = rules_copy(&home, &["ailsh", "arquebus", "qrs"]);
    let rules = root.display().to_string();
    let game = home.ailsh_game();
    let file = home.write(&root.join("qrs/retreat.yaml"), &huge_table("retreat"));
    let list = home.run(&["--rules", &rules, "rules", "list"]);
    list.succeeds();
    assert!(
        list.stdout.contains("qrs        DOES NOT LOAD"),
        "{}",
        list.show()
    );
    assert!(
        list.stdout.contains("ailsh      All is lost"),
        "{}",
        list.show()
    );
    // With a slow file in a third folder too, a command about one game or one ruleset reads
    // neither, and the one about the broken ruleset names its file.
    home.write(
        &root.join("arquebus/charge_crt.yaml"),
        &slow_table("charge_crt"),
    );
    home.run(&["--rules", &rules, "game", "status", &game])
        .succeeds();
    home.run(&["--rules", &rules, "describe", "ailsh", "discipline_check"])
        .succeeds();
    home.run(&["--rules", &rules, "odds", "qrs", "discipline_test"])
        .fails_saying(&[
            "ruleset 'qrs' does not load",
            &format!(
                "{}:0:0: the file is 42.0 MB; the limit is 1.0 MB",
                file.display()
            ),
        ]);
}

#[test]
fn a_huge_scenario_file_is_refused_before_it_is_read() {
    let home = Home::new("huge-scenario");
    let mut text = String::from("id: huge\nruleset: ailsh\nnotes: |\n");
    while text.len() < 42 * 1024 * 1024 {
        text.push_str("  A very long note that someone pasted into a scenario file, again.\n");
    }
    let file = home.write(&home.dir.join("huge.yaml"), &text);
    let path = file.display().to_string();
    let game = home.dir.join("huge.umpire").display().to_string();
    let refusal = format!("{path}:0:0: the file is 42.0 MB; the limit is 1.0 MB");
    home.run(&["game", "new", &path, "-o", &game])
        .fails_saying(&[&refusal]);
    assert!(!Path::new(&game).exists(), "no game file is made");
    let pdf = home.dir.join("huge.pdf").display().to_string();
    home.run(&["sheet", &path, "-o", &pdf])
        .fails_saying(&[&refusal]);
}

#[test]
fn an_import_with_a_huge_scenario_or_of_a_huge_size_is_refused() {
    let home = Home::new("import");
    let game = home.ailsh_game();
    let export = home.dir.join("export.jsonl");
    let export_path = export.display().to_string();
    home.setup(&["game", "export", &game, "--jsonl", "-o", &export_path]);
    let jsonl = std::fs::read_to_string(&export).expect("export");
    let (header, events) = jsonl.split_once('\n').expect("a header line");
    // The scenario kept in the export (as in a game file) is measured before it is parsed.
    let mut header: Value = serde_json::from_str(header).expect("header");
    let scenario = header["game"]["scenario_text"]
        .as_str()
        .expect("scenario text")
        .to_string();
    let mut padded = scenario.clone();
    while padded.len() < 2 * 1024 * 1024 {
        padded.push_str("# padding\n");
    }
    header["game"]["scenario_text"] = Value::String(padded);
    let scenario_file = header["game"]["scenario_file"]
        .as_str()
        .expect("scenario file")
        .to_string();
    let hostile = home.write(
        &home.dir.join("padded.jsonl"),
        &format!("{header}\n{events}"),
    );
    let copy = home.dir.join("copy.umpire").display().to_string();
    home.run(&[
        "game",
        "import",
        &hostile.display().to_string(),
        "-o",
        &copy,
    ])
    .fails_saying(&[&format!(
        "{scenario_file}:0:0: the file is 2.0 MB; the limit is 1.0 MB"
    )]);
    assert!(!Path::new(&copy).exists(), "nothing is written");

    // A file far larger than any export is refused unread.
    let huge = home.dir.join("huge.jsonl");
    std::fs::File::create(&huge)
        .and_then(|f| f.set_len(300 * 1024 * 1024))
        .expect("a sparse file");
    home.run(&["game", "import", &huge.display().to_string(), "-o", &copy])
        .fails_saying(&[&huge.display().to_string(), "300.0 MB", "the limit is"]);
}

#[test]
fn deeply_nested_yaml_is_refused_with_its_place() {
    let home = Home::new("yaml");
    let depth = 100_000;
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/qrs/retreat.yaml"),
    )
    .expect("shipped table");
    let head = shipped.split("rows:").next().expect("rows");
    let line = head.lines().count() + 1;
    // Flow sequences and flow mappings, nested a hundred thousand deep.
    for (name, nested) in [
        (
            "sequences",
            format!("{}1{}", "[".repeat(depth), "]".repeat(depth)),
        ),
        (
            "mappings",
            format!("{}1{}", "{a: ".repeat(depth), "}".repeat(depth)),
        ),
    ] {
        let text = format!("{head}rows: {nested}\nresults: {{}}\n");
        let file = home.write(&home.user_rules().join("qrs/retreat.yaml"), &text);
        let run = home.run(&QRS_ODDS);
        run.fails_saying(&[
            &format!("{}:{line}:", file.display()),
            "deep; the limit is 100",
        ]);
        assert!(run.stderr.len() < 2_000, "{name}: {}", run.show());
    }
    // Block mappings, each a level deeper than the last (500 levels: 250 KB of indentation),
    // and block sequences opened on one line (`- - - …`, 400,000 deep in 800 KB).
    let mut block = format!("{head}rows:\n");
    for level in 0..500 {
        block.push_str(&" ".repeat(2 * level + 2));
        block.push_str("a:\n");
    }
    let compact = format!("{head}rows:\n  {}1\n", "- ".repeat(400_000));
    for text in [block, compact] {
        let file = home.write(&home.user_rules().join("qrs/retreat.yaml"), &text);
        home.run(&QRS_ODDS)
            .fails_saying(&[&file.display().to_string(), "deep; the limit is 100"]);
    }
    home.run(&AILSH_DESCRIBE).succeeds();

    // A scenario nested as deep.
    let scenario = format!(
        "id: deep\nruleset: ailsh\nsides: {}1{}\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let file = home.write(&home.dir.join("deep.yaml"), &scenario);
    let game = home.dir.join("deep.umpire").display().to_string();
    home.run(&["game", "new", &file.display().to_string(), "-o", &game])
        .fails_saying(&[&format!("{}:3:", file.display()), "deep; the limit is 100"]);
}

#[test]
fn yaml_aliases_that_multiply_are_refused() {
    let home = Home::new("aliases");
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/qrs/retreat.yaml"),
    )
    .expect("shipped table");
    let head = shipped.split("rows:").next().expect("rows");
    // Each level refers to the one before ten times: 10^20 nodes once expanded.
    let mut text = format!("{head}x0: &x0 [lol]\n");
    for i in 1..=20 {
        let refs = vec![format!("*x{}", i - 1); 10].join(", ");
        text.push_str(&format!("x{i}: &x{i} [{refs}]\n"));
    }
    text.push_str("rows: *x20\n");
    let file = home.write(&home.user_rules().join("qrs/retreat.yaml"), &text);
    home.run(&QRS_ODDS).fails_saying(&[
        &format!("{}:1:1:", file.display()),
        "aliases (*name) repeat parts of the file too many times",
    ]);
}

/// The limits leave no room for a crash either: the worst expressions and notations within them
/// compile, evaluate and drop on a thread with half the stack a spawned thread gets by default
/// (1 MiB of 2 MiB; the desk loads rulesets on such threads).
#[test]
fn the_worst_shapes_within_the_limits_run_on_a_small_stack() {
    use umpire::dice::{DiceExpr, DieSet, MAX_NOTATION_CHARS, MAX_NOTATION_DEPTH};
    use umpire::rules::expr::{MAX_EXPR_CHARS, MAX_EXPR_DEPTH, MAX_EXPR_SIGNS};
    use umpire::rules::{Expr, Scope, Value};

    let signs = "-".repeat(MAX_EXPR_SIGNS);
    let fill = |unit: &str, end: &str| {
        let mut s = String::new();
        while s.chars().count() + unit.chars().count() + end.chars().count() <= MAX_EXPR_CHARS {
            s.push_str(unit);
        }
        s + end
    };
    let nested = format!(
        "{}n{}",
        format!("{signs}(").repeat(MAX_EXPR_DEPTH),
        ")".repeat(MAX_EXPR_DEPTH)
    );
    let expressions = [
        // As deep as allowed, with as many signs as allowed at every level.
        nested,
        // Binary chains as long as allowed: trees as deep as they are long.
        fill("n+", "n"),
        fill("n^", "n"),
        fill("n^-", "n"),
        fill("!!!!!!!!true&&", "true"),
        // Conditionals nested as deep as allowed.
        format!(
            "{}1{}",
            "if(true,".repeat(MAX_EXPR_DEPTH),
            ",0)".repeat(MAX_EXPR_DEPTH)
        ),
    ];
    let notations = [format!(
        "{}d6{}",
        "⌈".repeat(MAX_NOTATION_DEPTH),
        "/2⌉".repeat(MAX_NOTATION_DEPTH)
    )];
    std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(move || {
            let mut scope = Scope::new();
            scope.set("n", Value::Int(1));
            for source in &expressions {
                assert!(source.chars().count() <= MAX_EXPR_CHARS, "{source}");
                // Within the limits, so evalexpr reads it; evaluating may fail (an overflow),
                // never crash.
                let expr = Expr::compile(source).unwrap_or_else(|e| panic!("{source}: {e}"));
                let _ = expr.eval(&scope);
            }
            for notation in &notations {
                assert!(notation.chars().count() <= MAX_NOTATION_CHARS);
                let dice = DiceExpr::parse(notation, &DieSet::new()).expect("parses");
                assert!(dice.distribution().is_ok());
            }
        })
        .expect("thread")
        .join()
        .expect("no crash on a small stack");
}

/// The YAML nesting scan counts real files far from its limit, and never shallower than they
/// are: every shipped table, scenario and template, and every test fixture.
#[test]
fn real_yaml_files_are_far_within_the_nesting_limit() {
    use umpire::rules::limits::{MAX_YAML_DEPTH, yaml_depth};

    fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                yaml_files(&path, out);
            } else if path.extension().is_some_and(|x| x == "yaml" || x == "yml") {
                out.push(path);
            }
        }
    }
    /// The true depth: collections nested in collections, the document's top one counting 1.
    fn true_depth(v: &yaml_serde::Value) -> usize {
        match v {
            yaml_serde::Value::Sequence(items) => {
                1 + items.iter().map(true_depth).max().unwrap_or(0)
            }
            yaml_serde::Value::Mapping(map) => 1 + map.values().map(true_depth).max().unwrap_or(0),
            yaml_serde::Value::Tagged(t) => true_depth(&t.value),
            _ => 0,
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tables", "scenarios", "templates", "tests/fixtures"] {
        yaml_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "{files:?}");
    let mut deepest = (0, PathBuf::new());
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read");
        let counted = yaml_depth(&text);
        if let Ok(value) = yaml_serde::from_str::<yaml_serde::Value>(&text) {
            assert!(
                counted >= true_depth(&value),
                "{}: counted {counted}, nested {}",
                file.display(),
                true_depth(&value)
            );
        }
        if counted > deepest.0 {
            deepest = (counted, file.clone());
        }
    }
    eprintln!("deepest count: {} in {}", deepest.0, deepest.1.display());
    assert!(
        deepest.0 * 4 <= MAX_YAML_DEPTH,
        "{} counts {}",
        deepest.1.display(),
        deepest.0
    );
}
