//! Rebuild when the shipped rulesets change: they are embedded in the binary.
fn main() {
    println!("cargo:rerun-if-changed=tables");
    println!("cargo:rerun-if-changed=build.rs");
}
