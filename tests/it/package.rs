//! The Debian package (issue 18): `scripts/package.sh` run on this build's binary, the package
//! taken apart with `dpkg-deb` (installing would change the machine), and what it holds checked
//! as a user's system would use it: the binary answers from a folder outside the checkout, the
//! menu entry and the MIME type validate, the manual page renders, bash completes from the
//! installed script, and a game file opens with Umpire's entry. `.ci/run` installs
//! desktop-file-utils, libxml2-utils, shared-mime-info, xdg-utils and libfile-mimeinfo-perl.

use std::path::{Path, PathBuf};
use std::process::Command;

fn run(command: &mut Command) -> (bool, String) {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// Unpacks the package into `root`, as dpkg would.
fn unpack(deb: &Path, root: &Path) {
    let (ok, said) = run(crate::common::tool::command("dpkg-deb")
        .arg("-x")
        .arg(deb)
        .arg(root));
    assert!(ok, "{said}");
}

fn build_package(scratch: &Path) -> PathBuf {
    build_package_with(scratch, &[]).0
}

/// Builds the package with the given settings in the environment; returns it and what the
/// script said.
fn build_package_with(scratch: &Path, settings: &[(&str, &str)]) -> (PathBuf, String) {
    let mut command = Command::new("bash");
    command
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/package.sh"))
        .env("BIN", env!("CARGO_BIN_EXE_umpire"))
        .env("CARGO_TARGET_DIR", scratch);
    for (key, value) in settings {
        command.env(key, value);
    }
    let (ok, said) = run(&mut command);
    assert!(ok, "{said}");
    // Its last line on standard output is the package's path (notes go to standard error).
    let deb = PathBuf::from(
        said.lines()
            .rfind(|l| l.trim_end().ends_with(".deb"))
            .expect("the package's path")
            .trim(),
    );
    assert!(deb.is_file(), "{said}");
    (deb, said)
}

/// The software-centre listing and the control file's addresses, with the project's settings
/// given as the environment may give them (Cargo.toml has none until the project has a public
/// address; the documentation domain example.org stands for it here): AppStream's validator and
/// lintian pass the package, and the listing carries the README's pictures, the MIME type it
/// opens and CHANGELOG.md's release notes.
#[test]
fn the_package_has_a_software_centre_listing_that_validates() {
    let scratch = std::env::temp_dir().join(format!("umpire-listing-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch");
    let (deb, _) = build_package_with(
        &scratch,
        &[
            ("UMPIRE_LISTING_ID", "org.example.umpire"),
            ("UMPIRE_HOMEPAGE", "https://example.org/umpire"),
            ("UMPIRE_REPOSITORY", "https://example.org/umpire/source"),
            ("UMPIRE_BUGS", "https://example.org/umpire/issues"),
            ("UMPIRE_SCREENSHOTS", "https://example.org/umpire/docs/"),
        ],
    );
    let (ok, control) = run(crate::common::tool::command("dpkg-deb")
        .arg("--field")
        .arg(&deb));
    assert!(ok, "{control}");
    assert!(
        control.contains("Homepage: https://example.org/umpire\n"),
        "{control}"
    );
    assert!(
        control.contains("Bugs: https://example.org/umpire/issues\n"),
        "{control}"
    );
    let root = scratch.join("root");
    unpack(&deb, &root);
    let metainfo = root.join("usr/share/metainfo/org.example.umpire.metainfo.xml");
    let listing = std::fs::read_to_string(&metainfo)
        .unwrap_or_else(|e| panic!("{}: {e}", metainfo.display()));
    let (ok, said) = run(crate::common::tool::command("appstreamcli")
        .args(["validate", "--no-net", "--pedantic"])
        .arg(&metainfo));
    assert!(ok, "appstreamcli validate:\n{said}\n{listing}");
    for part in [
        "<summary>Adjudication assistant",
        "<launchable type=\"desktop-id\">umpire.desktop</launchable>",
        "<mediatype>application/x-umpire-game</mediatype>",
        "<category>Game</category>",
        "<url type=\"homepage\">https://example.org/umpire</url>",
        "<url type=\"bugtracker\">https://example.org/umpire/issues</url>",
        "<image>https://example.org/umpire/docs/desk.png</image>",
    ] {
        assert!(
            listing.contains(part),
            "{part} not in the listing:\n{listing}"
        );
    }
    // Every picture the listing shows is one the README's docs folder has.
    for image in listing.split("<image>").skip(1) {
        let file = image.split('<').next().unwrap_or_default();
        let name = file.rsplit('/').next().unwrap_or_default();
        assert!(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("docs")
                .join(name)
                .is_file(),
            "the listing shows {file}, not in docs/"
        );
    }
    // The release notes are CHANGELOG.md's: its newest version, and each of its bullets.
    let changelog =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("CHANGELOG.md"))
            .expect("CHANGELOG.md");
    let newest = changelog
        .lines()
        .find_map(|l| l.strip_prefix("## "))
        .expect("a version in CHANGELOG.md");
    let version = newest.split_whitespace().next().expect("version");
    assert_eq!(
        version,
        env!("CARGO_PKG_VERSION"),
        "CHANGELOG.md's newest version"
    );
    assert!(
        listing.contains(&format!("<release version=\"{version}\"")),
        "{listing}"
    );
    let bullets = changelog.lines().filter(|l| l.starts_with("- ")).count();
    assert_eq!(listing.matches("<li>").count() - 5, bullets, "{listing}");
    // lintian, on the package as built (the listing included).
    let (_, said) = run(crate::common::tool::command("lintian")
        .args(["--fail-on", "error,warning", "--tag-display-limit", "0"])
        .arg(&deb));
    let problems: Vec<&str> = said
        .lines()
        .filter(|l| l.starts_with("E:") || l.starts_with("W:"))
        .collect();
    assert!(problems.is_empty(), "lintian:\n{said}");
    // Without an id the package has no listing, and the script says why.
    let bare = scratch.join("bare");
    std::fs::create_dir_all(&bare).expect("dir");
    let (deb, said) = build_package_with(&bare, &[("UMPIRE_LISTING_ID", "")]);
    assert!(said.contains("no software-centre listing"), "{said}");
    let (ok, contents) = run(crate::common::tool::command("dpkg-deb")
        .arg("--contents")
        .arg(&deb));
    assert!(ok && !contents.contains("metainfo"), "{contents}");
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn the_package_holds_a_working_umpire_its_menu_entry_mime_type_completions_and_manual() {
    let scratch = std::env::temp_dir().join(format!("umpire-package-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch");
    let deb = build_package(&scratch);
    let (ok, contents) = run(crate::common::tool::command("dpkg-deb")
        .arg("--contents")
        .arg(&deb));
    assert!(ok, "{contents}");
    for path in [
        "./usr/bin/umpire",
        "./usr/share/applications/umpire.desktop",
        "./usr/share/mime/packages/umpire.xml",
        "./usr/share/icons/hicolor/scalable/apps/umpire.svg",
        "./usr/share/icons/hicolor/16x16/apps/umpire.png",
        "./usr/share/icons/hicolor/256x256/apps/umpire.png",
        "./usr/share/bash-completion/completions/umpire",
        "./usr/share/zsh/vendor-completions/_umpire",
        "./usr/share/fish/vendor_completions.d/umpire.fish",
        "./usr/share/man/man1/umpire.1.gz",
        "./usr/share/man/man1/umpire-game-deck-draw.1.gz",
        "./usr/share/doc/umpire/copyright",
    ] {
        assert!(
            contents.contains(path),
            "{path} not in the package:\n{contents}"
        );
    }
    let (ok, control) = run(crate::common::tool::command("dpkg-deb")
        .arg("--field")
        .arg(&deb));
    assert!(ok, "{control}");
    assert!(control.contains("Package: umpire"), "{control}");
    assert!(control.contains("Depends: libc6"), "{control}");
    assert!(control.contains("Suggests: postgresql-client"), "{control}");
    // Unpacked as dpkg would, and used from a folder that is not the checkout.
    let root = scratch.join("root");
    unpack(&deb, &root);
    let umpire = root.join("usr/bin/umpire");
    let elsewhere = scratch.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("dir");
    let in_elsewhere = |args: &[&str]| {
        run(Command::new(&umpire)
            .args(args)
            .current_dir(&elsewhere)
            .env_remove("UMPIRE_RULES"))
    };
    let (ok, version) = in_elsewhere(&["--version"]);
    assert!(
        ok && version.starts_with(&format!("umpire {} (", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
    let (ok, rules) = in_elsewhere(&["--no-user-rules", "rules", "list"]);
    assert!(
        ok && rules.contains("ailsh") && rules.contains("gradisca"),
        "{rules}"
    );
    let (ok, odds) = in_elsewhere(&["roll", "2d6", "--odds"]);
    assert!(ok && odds.contains("1/36"), "{odds}");
    // A printed sheet from outside the checkout: templates and fonts are in the binary.
    let (ok, sheet) = in_elsewhere(&["--no-user-rules", "charts", "qrs", "-o", "qrs.pdf"]);
    assert!(ok, "{sheet}");
    assert!(elsewhere.join("qrs.pdf").is_file(), "{sheet}");
    // The menu entry and the MIME type validate.
    let (ok, said) = run(crate::common::tool::command("desktop-file-validate")
        .arg(root.join("usr/share/applications/umpire.desktop")));
    assert!(ok && said.trim().is_empty(), "{said}");
    let (ok, said) = run(crate::common::tool::command("xmllint")
        .arg("--noout")
        .arg(root.join("usr/share/mime/packages/umpire.xml")));
    assert!(ok, "{said}");
    let desktop =
        std::fs::read_to_string(root.join("usr/share/applications/umpire.desktop")).expect("entry");
    assert!(
        desktop.contains("MimeType=application/x-umpire-game;"),
        "{desktop}"
    );
    assert!(desktop.contains("Exec=umpire %f"), "{desktop}");
    // A double-click: the MIME type installed as a desktop would (into an XDG data folder of
    // its own here), a game file is recognised and opens with Umpire's entry.
    let xdg = scratch.join("xdg");
    let data = xdg.join("data");
    for (from, to) in [
        (
            "usr/share/applications/umpire.desktop",
            "applications/umpire.desktop",
        ),
        (
            "usr/share/mime/packages/umpire.xml",
            "mime/packages/umpire.xml",
        ),
    ] {
        std::fs::create_dir_all(data.join(to).parent().expect("folder")).expect("dir");
        std::fs::copy(root.join(from), data.join(to)).expect("copy");
    }
    let (ok, said) =
        run(crate::common::tool::command("update-mime-database").arg(data.join("mime")));
    assert!(ok, "{said}");
    let (ok, said) =
        run(crate::common::tool::command("update-desktop-database").arg(data.join("applications")));
    assert!(ok, "{said}");
    let (ok, said) = in_elsewhere(&[
        "--no-user-rules",
        "game",
        "new",
        "ailsh_1_venice_at_bay_1509",
        "-o",
        "venice.umpire",
        "--seed",
        "1",
    ]);
    assert!(ok, "{said}");
    let xdg_mime = |args: &[&str]| {
        run(crate::common::tool::command("xdg-mime")
            .args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", &xdg)
            .env("XDG_DATA_HOME", &data)
            .env("XDG_CONFIG_HOME", xdg.join("config"))
            .env("XDG_DATA_DIRS", format!("{}:/usr/share", data.display())))
    };
    let (ok, kind) = xdg_mime(&[
        "query",
        "filetype",
        elsewhere.join("venice.umpire").to_str().expect("utf-8"),
    ]);
    assert!(ok && kind.trim() == "application/x-umpire-game", "{kind}");
    let (ok, opener) = xdg_mime(&["query", "default", "application/x-umpire-game"]);
    assert!(ok && opener.trim() == "umpire.desktop", "{opener}");
    // The manual page renders.
    let (ok, page) = run(crate::common::tool::command("man")
        .args(["-l", "-P", "cat"])
        .arg(root.join("usr/share/man/man1/umpire-game-deck-draw.1.gz")));
    let words = page.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(ok && words.contains("umpire game deck draw"), "{page}");
    // Bash completes `umpire game <TAB>` from the installed script.
    let script = root.join("usr/share/bash-completion/completions/umpire");
    // The script asks the installed `umpire` itself (dynamic completion).
    let path = format!(
        "{}:{}",
        root.join("usr/bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (ok, offered) = run(Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source '{}'; COMP_WORDS=(umpire game ''); COMP_CWORD=2; COMP_TYPE=9; \
             _clap_complete_umpire umpire '' game; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            script.display()
        ))
        .env("PATH", path));
    assert!(ok && offered.lines().any(|l| l == "deck"), "{offered}");
    let _ = std::fs::remove_dir_all(&scratch);
}
