//! Estimated against measured: for each notation, the cost model's seconds for computing and
//! for printing (text, JSON), beside the time each takes here. Release build:
//! `cargo run --release -p umpire-core --example estimates [NOTATION …]`.

use std::time::Instant;

use umpire_core::dice::{Budget, DiceExpr, DieSet, Output};

const GRID: &[&str] = &[
    "100d6",
    "500d6",
    "1000d6",
    "2000d6",
    "5000d6",
    "200d20",
    "1000d20",
    "12d1000",
    "24d1000",
    "12d1000+12d1000",
    "200d{1,5}",
    "300d{1,1,2,3,5,8}",
    "100d6kh50",
    "200d6kh100",
    "500d6kh250",
    "1000d6kh500",
    "1000d6kh3",
    "20d20kh1",
    "100d20kh10",
    "1000d6>=5",
    "10000d6>=5",
    "500d6 > 500d6",
    "max(300d6,300d6)",
    "min(300d6,300d6)",
    "200d6!",
    "50d10!",
    "12d1000+12d999",
    "300d6+200d8",
    "1000d6+1000d5",
    "100d100+100d99",
    "4d6kh3",
    "2d6+3d8-d4+2",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let list: Vec<&str> = if args.is_empty() {
        GRID.to_vec()
    } else {
        args.iter().map(String::as_str).collect()
    };
    let unlimited = Budget {
        seconds: 1.0e9,
        bytes: 1.0e15,
    };
    println!(
        "{:<22} {:>10} {:>10} {:>6}   {:>10} {:>10} {:>6}   {:>10} {:>10} {:>6}",
        "notation", "est", "compute", "×", "est text", "text", "×", "est json", "json", "×"
    );
    for notation in list {
        let expr = match DiceExpr::parse(notation, &DieSet::new()) {
            Ok(e) => e,
            Err(e) => {
                println!("{notation}: {e}");
                continue;
            }
        };
        let est = expr.cost().seconds();
        let start = Instant::now();
        let dist = expr.distribution_within(&unlimited).expect("computes");
        let compute = start.elapsed().as_secs_f64();
        let text_est = expr.cost_printed(Output::Text).seconds() - est;
        let start = Instant::now();
        let mut sink = Vec::new();
        umpire_core::dice::write_odds(&expr, &dist, Output::Text, &mut sink).expect("writes");
        let text = start.elapsed().as_secs_f64();
        let json_est = expr.cost_printed(Output::Json).seconds() - est;
        let start = Instant::now();
        let mut sink = Vec::new();
        umpire_core::dice::write_odds(&expr, &dist, Output::Json, &mut sink).expect("writes");
        let json = start.elapsed().as_secs_f64();
        println!(
            "{notation:<22} {:>10} {:>10} {:>6.2}   {:>10} {:>10} {:>6.2}   {:>10} {:>10} {:>6.2}",
            ms(est),
            ms(compute),
            est / compute,
            ms(text_est),
            ms(text),
            text_est / text,
            ms(json_est),
            ms(json),
            json_est / json
        );
    }
}

fn ms(s: f64) -> String {
    format!("{:.3} ms", s * 1000.0)
}
