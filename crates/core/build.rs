//! Rebuild when the shipped rulesets and scenarios change: they are embedded in the binary
//! (`tables/` and `scenarios/` at the workspace root). Also records the
//! git commit the binary is built from (`umpire --version`, Help → About), or "unknown" outside
//! a git checkout (a source tarball).
fn main() {
    println!("cargo:rerun-if-changed=../../tables");
    println!("cargo:rerun-if-changed=../../scenarios");
    println!("cargo:rerun-if-changed=build.rs");
    // A new commit moves the branch's ref (or HEAD itself when detached).
    println!("cargo:rerun-if-changed=../../.git/HEAD");
    println!("cargo:rerun-if-changed=../../.git/refs/heads");
    println!("cargo:rerun-if-env-changed=UMPIRE_COMMIT");
    let commit = std::env::var("UMPIRE_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(|| {
            std::process::Command::new("git")
                .args(["rev-parse", "--short=12", "HEAD"])
                .output()
                .ok()
                .filter(|o| o.status.success())
                .and_then(|o| String::from_utf8(o.stdout).ok())
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
        })
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=UMPIRE_COMMIT={commit}");
}
