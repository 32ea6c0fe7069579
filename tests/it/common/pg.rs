//! A real PostgreSQL server for the shared-game tests: a private cluster in a temp dir, made and
//! run by `scripts/control-server.sh` (Debian's `postgresql` package; `.ci/run` installs it). No
//! mock: if the server programs are missing the tests fail and say how to install them.

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
    _tmp: tempfile_dir::TempDir,
    /// Port on 127.0.0.1.
    pub port: u16,
}

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

fn run(args: &[&str]) {
    let out = Command::new("bash")
        .arg(script())
        .args(args)
        .output()
        .expect("run scripts/control-server.sh");
    assert!(
        out.status.success(),
        "scripts/control-server.sh {}: {}{}\n(the shared-game tests need Debian's postgresql package: `apt-get install postgresql`; .ci/run installs it)",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
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
    /// Initialises and starts a private server.
    pub fn start(tag: &str) -> PgServer {
        let tmp = tempfile_dir::TempDir::new(tag);
        let dir = tmp.path().join("cluster");
        let port = free_port();
        let d = dir.to_string_lossy().to_string();
        run(&["init", "--dir", &d, "--port", &port.to_string()]);
        run(&["start", "--dir", &d]);
        PgServer {
            dir,
            _tmp: tmp,
            port,
        }
    }

    /// The URL of a game on this server.
    pub fn url(&self, game: &str) -> String {
        format!(
            "postgres://umpire@127.0.0.1:{}/umpire?game={game}",
            self.port
        )
    }

    /// Restarts it (fast).
    pub fn restart(&self) {
        run(&["restart", "--dir", &self.dir.to_string_lossy()]);
    }
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
        let open: Arc<Mutex<Vec<TcpStream>>> = Arc::new(Mutex::new(Vec::new()));
        let (up2, open2) = (Arc::clone(&up), Arc::clone(&open));
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
                for (from, to) in pairs {
                    if let (Ok(mut from), Ok(mut to)) = (from, to) {
                        std::thread::spawn(move || {
                            let _ = std::io::copy(&mut from, &mut to);
                            let _ = to.shutdown(std::net::Shutdown::Both);
                        });
                    }
                }
            }
        });
        Link { port, up, open }
    }

    /// The URL of a game through this link.
    pub fn url(&self, game: &str) -> String {
        format!(
            "postgres://umpire@127.0.0.1:{}/umpire?game={game}&connect_timeout=2",
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
