//! A real PostgreSQL server for the shared-game tests: a private cluster in a temp dir, made and
//! run by `scripts/control-server.sh` (Debian's `postgresql` package; `.ci/run` installs it), with
//! a login per umpire whose passwords the script writes to a password file of the test's own
//! (`PGPASSFILE`, never the tester's `~/.pgpass`). No mock: if the server programs are missing
//! the tests fail and say how to install them.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU16, Ordering};

/// A file of this repository (a fixture scenario) as a source file.
pub fn source(relative: &str) -> umpire::rules::SourceFile {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    umpire::rules::SourceFile {
        name: path.to_string_lossy().into_owned(),
        text: std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    }
}

/// A running server, stopped when dropped.
pub struct PgServer {
    dir: PathBuf,
    pgpass: PathBuf,
    _tmp: tempfile_dir::TempDir,
    /// Port on 127.0.0.1.
    pub port: u16,
}

/// The umpires every test server has: (name, role, table); the login is the name in lower case.
pub const UMPIRES: [(&str, &str, Option<&str>); 2] =
    [("Greta", "game", None), ("Anna", "map", Some("the_east"))];

/// A minimal temp dir (the tests carry no tempfile dependency).
mod tempfile_dir {
    use std::path::{Path, PathBuf};

    pub struct TempDir(PathBuf);

    impl TempDir {
        pub fn new(tag: &str) -> TempDir {
            let base = std::env::var_os("UMPIRE_PG_TEST_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("/tmp"));
            let dir = base.join(format!(
                "umpire-pg-{tag}-{}-{}",
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos())
                    .unwrap_or(0)
            ));
            std::fs::create_dir_all(&dir).expect("temp dir");
            TempDir(dir)
        }

        pub fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/control-server.sh")
}

fn run(args: &[&str], pgpass: &Path) -> String {
    let out = Command::new("bash")
        .arg(script())
        .args(args)
        .env("PGPASSFILE", pgpass)
        .env("UMPIRE_BIN", env!("CARGO_BIN_EXE_umpire"))
        .output()
        .expect("run scripts/control-server.sh");
    assert!(
        out.status.success(),
        "scripts/control-server.sh {}: {}{}\n(the shared-game tests need Debian's postgresql package: `apt-get install postgresql`; .ci/run installs it)",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn free_port() -> u16 {
    // Distinct per test in this process; bound briefly to make sure it is free.
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let base = 20000 + (std::process::id() % 2000) as u16 * 10;
    loop {
        let p = base + NEXT.fetch_add(1, Ordering::Relaxed) % 10_000;
        if std::net::TcpListener::bind(("127.0.0.1", p)).is_ok() {
            return p;
        }
    }
}

impl PgServer {
    /// Initialises and starts a private server with the [`UMPIRES`].
    pub fn start(tag: &str) -> PgServer {
        let tmp = tempfile_dir::TempDir::new(tag);
        let dir = tmp.path().join("cluster");
        let pgpass = tmp.path().join("pgpass");
        let port = free_port();
        let d = dir.to_string_lossy().to_string();
        run(&["init", "--dir", &d, "--port", &port.to_string()], &pgpass);
        run(&["start", "--dir", &d], &pgpass);
        let server = PgServer {
            dir,
            pgpass,
            _tmp: tmp,
            port,
        };
        for (name, role, table) in UMPIRES {
            server.add_umpire(name, role, table);
        }
        server
    }

    /// Adds an umpire (`control-server.sh add-umpire NAME ROLE [TABLE] --pgpass`); the login is
    /// the name in lower case, spaces made `_`.
    pub fn add_umpire(&self, name: &str, role: &str, table: Option<&str>) {
        let d = self.dir.to_string_lossy().to_string();
        let mut args = vec!["add-umpire", name, role];
        args.extend(table);
        args.extend(["--pgpass", "--dir", &d]);
        run(&args, &self.pgpass);
    }

    /// Runs the script on this server (`fingerprint`, `list-umpires`…), returning what it printed.
    pub fn script(&self, args: &[&str]) -> String {
        let d = self.dir.to_string_lossy().to_string();
        let mut all = args.to_vec();
        all.extend(["--dir", &d]);
        run(&all, &self.pgpass)
    }

    /// Runs the script on this server with another password file, success or not: (success,
    /// stdout and stderr).
    pub fn try_script(&self, args: &[&str], pgpass: &Path) -> (bool, String) {
        let d = self.dir.to_string_lossy().to_string();
        let out = Command::new("bash")
            .arg(script())
            .args(args)
            .args(["--dir", &d])
            .env("PGPASSFILE", pgpass)
            .env("UMPIRE_BIN", env!("CARGO_BIN_EXE_umpire"))
            .output()
            .expect("run scripts/control-server.sh");
        (
            out.status.success(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        )
    }

    /// The password file the script wrote the logins' passwords to (mode 0600).
    pub fn pgpass(&self) -> &Path {
        &self.pgpass
    }

    /// The cluster's folder (its Unix socket is there).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A login's password, as the script wrote it.
    pub fn password(&self, login: &str) -> String {
        let text = std::fs::read_to_string(&self.pgpass).expect("pgpass");
        text.lines()
            .find_map(|l| {
                let fields: Vec<&str> = l.splitn(5, ':').collect();
                (fields.get(3) == Some(&login)).then(|| fields[4].to_string())
            })
            .unwrap_or_else(|| panic!("no password for {login}"))
    }

    /// The URL of a game on this server for `login`, password and all (for this process: the
    /// tests cannot point this process's PGPASSFILE at their password file).
    pub fn url(&self, login: &str, game: &str) -> String {
        format!(
            "postgres://{login}:{}@127.0.0.1:{}/umpire?game={game}",
            self.password(login),
            self.port
        )
    }

    /// The URL of a game for `login` without a password: the password comes from the password
    /// file (give the process `PGPASSFILE`, see [`PgServer::pgpass`]).
    pub fn bare_url(&self, login: &str, game: &str) -> String {
        format!(
            "postgres://{login}@127.0.0.1:{}/umpire?game={game}",
            self.port
        )
    }

    /// Runs psql as `login` over loopback TCP (password from the password file), or as the
    /// server's administrator over its socket when `login` is None; `vars` become psql
    /// variables (`:'name'` in the SQL). Returns (success, stdout and stderr).
    pub fn psql(&self, login: Option<&str>, sql: &str, vars: &[(&str, &str)]) -> (bool, String) {
        use std::io::Write as _;
        let mut cmd = match login {
            Some(l) => {
                let mut c = super::tool::command("psql");
                c.arg(format!("postgres://{l}@127.0.0.1:{}/umpire", self.port));
                c
            }
            None => {
                let mut c = if running_as_root() {
                    let mut c = super::tool::command("runuser");
                    c.args(["-u", "postgres", "--", "psql"]);
                    c
                } else {
                    super::tool::command("psql")
                };
                c.args([
                    "-h",
                    &self.dir.to_string_lossy(),
                    "-p",
                    &self.port.to_string(),
                ])
                .args(["-d", "umpire"]);
                c
            }
        };
        if login.is_some() {
            cmd.env("PGPASSFILE", &self.pgpass);
        }
        cmd.args(["-X", "-w", "-v", "ON_ERROR_STOP=1", "-tA"])
            .env_remove("PGPASSWORD")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        for (name, value) in vars {
            cmd.args(["-v", &format!("{name}={value}")]);
        }
        let mut child = cmd.spawn().expect("psql (Debian's postgresql-client)");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(sql.as_bytes())
            .expect("write SQL");
        let out = child.wait_with_output().expect("psql output");
        (
            out.status.success(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        )
    }

    /// Restarts it (fast).
    pub fn restart(&self) {
        run(
            &["restart", "--dir", &self.dir.to_string_lossy()],
            &self.pgpass,
        );
    }
}

/// Whether the tests run as root (CI does): the server then runs as `postgres`.
fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

impl Drop for PgServer {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(script())
            .args(["stop", "--dir", &self.dir.to_string_lossy()])
            .output();
    }
}

/// A link to the server that a test can cut and restore: a TCP forwarder on loopback. Cutting
/// closes every connection through it and turns new ones away, as a pulled cable would.
pub struct Link {
    /// The port desks connect to.
    pub port: u16,
    up: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// While set, the server's answers are swallowed (the request gets through and commits;
    /// its answer is lost on the way back).
    hold: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// Armed with a size: the answers are held from the first request larger than it on.
    hold_after: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    /// How many such large requests still go through answered first (the proposal).
    skip_first: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    open: std::sync::Arc<std::sync::Mutex<Vec<std::net::TcpStream>>>,
}

impl Link {
    /// A link to the server on `target` port.
    pub fn new(target: u16) -> Link {
        use std::net::{TcpListener, TcpStream};
        use std::sync::atomic::AtomicBool;
        use std::sync::{Arc, Mutex};
        let listener = TcpListener::bind(("127.0.0.1", 0)).expect("bind link");
        let port = listener.local_addr().expect("addr").port();
        let up = Arc::new(AtomicBool::new(true));
        let hold = Arc::new(AtomicBool::new(false));
        let open: Arc<Mutex<Vec<TcpStream>>> = Arc::new(Mutex::new(Vec::new()));
        let hold_after = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (up2, open2, hold2) = (Arc::clone(&up), Arc::clone(&open), Arc::clone(&hold));
        let after2 = Arc::clone(&hold_after);
        let skip_first = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let skip2 = Arc::clone(&skip_first);
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                if !up2.load(Ordering::SeqCst) {
                    drop(client);
                    continue;
                }
                let Ok(server) = TcpStream::connect(("127.0.0.1", target)) else {
                    continue;
                };
                let pairs = [
                    (client.try_clone(), server.try_clone()),
                    (server.try_clone(), client.try_clone()),
                ];
                if let Ok(mut list) = open2.lock() {
                    list.extend(client.try_clone());
                    list.extend(server.try_clone());
                }
                for (answers, (from, to)) in [false, true].into_iter().zip(pairs) {
                    if let (Ok(mut from), Ok(mut to)) = (from, to) {
                        let hold = Arc::clone(&hold2);
                        let after = Arc::clone(&after2);
                        let skip = Arc::clone(&skip2);
                        std::thread::spawn(move || {
                            use std::io::{Read as _, Write as _};
                            let mut buf = [0u8; 16 * 1024];
                            while let Ok(n) = from.read(&mut buf) {
                                if n == 0 {
                                    break;
                                }
                                if answers && hold.load(Ordering::SeqCst) {
                                    continue;
                                }
                                let armed = after.load(Ordering::SeqCst);
                                // The write itself: the first large request is its proposal
                                // to the referee, which is answered.
                                if !answers && armed > 0 && n > armed {
                                    if skip.load(Ordering::SeqCst) > 0 {
                                        skip.fetch_sub(1, Ordering::SeqCst);
                                    } else {
                                        after.store(0, Ordering::SeqCst);
                                        hold.store(true, Ordering::SeqCst);
                                    }
                                }
                                if to.write_all(&buf[..n]).is_err() {
                                    break;
                                }
                            }
                            let _ = to.shutdown(std::net::Shutdown::Both);
                        });
                    }
                }
            }
        });
        Link {
            port,
            up,
            hold,
            hold_after,
            skip_first,
            open,
        }
    }

    /// Whether the answers are being swallowed.
    pub fn holding(&self) -> bool {
        self.hold.load(Ordering::SeqCst)
    }

    /// Swallows the answers from the first append larger than `bytes` on (the one that carries
    /// an entry's text, when the entry is long; not its proposal to the referee): everything
    /// before it is answered.
    pub fn hold_answers_from_a_request_over(&self, bytes: usize) {
        self.skip_first.store(1, Ordering::SeqCst);
        self.hold_after.store(bytes, Ordering::SeqCst);
    }

    /// Swallows the server's answers from now on (or lets them through again).
    pub fn hold_answers(&self, on: bool) {
        self.hold.store(on, Ordering::SeqCst);
    }

    /// The URL of a game through this link, for `login` with its password (see
    /// [`PgServer::url`]).
    pub fn url(&self, pg: &PgServer, login: &str, game: &str) -> String {
        format!(
            "postgres://{login}:{}@127.0.0.1:{}/umpire?game={game}&connect_timeout=2",
            pg.password(login),
            self.port
        )
    }

    /// Pulls the cable.
    pub fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        if let Ok(mut list) = self.open.lock() {
            for s in list.drain(..) {
                let _ = s.shutdown(std::net::Shutdown::Both);
            }
        }
    }

    /// Plugs it back in.
    pub fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }
}
