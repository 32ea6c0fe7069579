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

fn build_package(scratch: &Path) -> PathBuf {
    let (ok, said) = run(Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/package.sh"))
        .env("BIN", env!("CARGO_BIN_EXE_umpire"))
        .env("CARGO_TARGET_DIR", scratch));
    assert!(ok, "{said}");
    let deb = PathBuf::from(said.lines().last().expect("the package's path").trim());
    assert!(deb.is_file(), "{said}");
    deb
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
    let (ok, said) = run(crate::common::tool::command("dpkg-deb")
        .arg("-x")
        .arg(&deb)
        .arg(&root));
    assert!(ok, "{said}");
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
    let (ok, offered) = run(Command::new("bash").arg("-c").arg(format!(
        "source '{}'; COMP_WORDS=(umpire game ''); COMP_CWORD=2; COMP_LINE='umpire game '; \
         COMP_POINT=12; _umpire umpire; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display()
    )));
    assert!(ok && offered.lines().any(|l| l == "deck"), "{offered}");
    let _ = std::fs::remove_dir_all(&scratch);
}
