//! The system tools some tests run, each with the Debian package that has it. A test asks for its
//! tool here first, so a machine without it fails in one line naming the package and the command
//! that installs it (`scripts/test`), never with a bare "No such file or directory".

use std::path::Path;
use std::process::Command;

/// Each tool the tests run, and the Debian package it comes in (the list `scripts/test` installs).
const TOOLS: &[(&str, &str)] = &[
    ("pdftotext", "poppler-utils"),
    ("pdffonts", "poppler-utils"),
    ("pdftoppm", "poppler-utils"),
    ("qpdf", "qpdf"),
    ("psql", "postgresql-client"),
    ("chromedriver", "chromium-driver"),
    ("man", "man-db"),
    ("desktop-file-validate", "desktop-file-utils"),
    ("update-desktop-database", "desktop-file-utils"),
    ("xmllint", "libxml2-utils"),
    ("update-mime-database", "shared-mime-info"),
    ("xdg-mime", "xdg-utils"),
    ("dpkg-deb", "dpkg"),
    ("runuser", "util-linux"),
    ("appstreamcli", "appstream"),
    ("lintian", "lintian"),
    ("bash", "bash"),
];

/// The Debian package `tool` comes in.
pub fn package_of(tool: &str) -> &'static str {
    TOOLS
        .iter()
        .find(|(t, _)| *t == tool)
        .map(|(_, p)| *p)
        .unwrap_or_else(|| panic!("tests/it/common/tool.rs does not list the tool {tool:?}"))
}

/// Whether `tool` is on this machine's PATH.
pub fn found(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| is_executable(&dir.join(tool))))
}

fn is_executable(file: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    file.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Fails the test in one line when `tool` is missing, naming its package.
pub fn need(tool: &str) {
    let package = package_of(tool);
    assert!(
        found(tool),
        "this test needs `{tool}` (Debian package {package}): run scripts/test, which installs it, or apt-get install {package}"
    );
}

/// `Command::new(tool)`, after making sure the tool is there.
pub fn command(tool: &str) -> Command {
    need(tool);
    Command::new(tool)
}

#[test]
fn a_missing_tool_is_named_with_its_package() {
    assert_eq!(package_of("pdftotext"), "poppler-utils");
    assert!(found("sh"), "sh is on every PATH");
    assert!(!found("umpire-no-such-tool"));
    let refused = std::panic::catch_unwind(|| {
        let _ = TOOLS; // the list is read, not the PATH, for an unlisted tool
        package_of("umpire-no-such-tool")
    });
    assert!(
        refused.is_err(),
        "an unlisted tool is a mistake in the test"
    );
}
