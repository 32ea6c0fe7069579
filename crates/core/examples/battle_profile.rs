//! Times the rr3 battle's odds at a given strength a side (up to the ruleset's 70 thousand),
//! many times, for a profiler (`perf record`): `cargo run --release -p umpire-core --example
//! battle_profile [THOUSANDS] [RUNS]`; with `PREPARE_ONLY=1`, only the preparing. The bench
//! `engine` holds the same battle, and at 200 thousand, against its floor.

use std::time::Instant;

use umpire_core::resolve::{odds, parse_inputs};
use umpire_core::rules::Library;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n = args.first().cloned().unwrap_or_else(|| "70".into());
    let runs: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(2000);
    let library = Library::shipped();
    let rs = library.get("rr3").expect("rr3 ships");
    let p = rs.procedure("battle").expect("battle");
    let pairs: Vec<(String, String)> = [
        ("attacker_thousands", n.as_str()),
        ("attacker_nationality", "other"),
        ("defender_thousands", n.as_str()),
        ("defender_nationality", "other"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    let typed = parse_inputs(p, &pairs).expect("inputs");
    if std::env::var_os("PREPARE_ONLY").is_some() {
        let start = Instant::now();
        for _ in 0..runs {
            std::hint::black_box(umpire_core::resolve::prepare(rs, p, &typed).expect("prepares"));
        }
        let each = start.elapsed().as_secs_f64() / runs as f64;
        println!("prepare {:.1} µs", each * 1e6);
        return;
    }
    let start = Instant::now();
    let mut outcomes = 0;
    for _ in 0..runs {
        outcomes += odds(rs, p, &typed).expect("odds").outcomes.len();
    }
    let each = start.elapsed().as_secs_f64() / runs as f64;
    println!("{} outcomes, {:.1} µs a run", outcomes / runs, each * 1e6);
}
