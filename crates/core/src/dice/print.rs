//! Exact odds as the command line prints them, and what printing them costs.

use std::io::Write;

use super::distribution::Distribution;
use super::exact::Output;
use super::expr::DiceExpr;

/// A float as JSON writes it (serde_json's shortest form).
fn json_number(x: f64) -> String {
    serde_json::to_string(&x).unwrap_or_else(|_| "null".into())
}

/// A string as JSON writes it.
fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// Writes exact odds as `umpire roll … --odds` prints them (text or JSON): each probability
/// reduced once ([`Distribution::reduced`]), each decimal built once, nothing built that is
/// not printed (a long fraction in text is its float).
pub fn write_odds(
    expr: &DiceExpr,
    dist: &Distribution,
    output: Output,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let rows = dist.reduced();
    let cases = dist.total().to_string();
    if output == Output::Json {
        // What `print_json` would give (pretty, keys in order), written row by row.
        writeln!(out, "{{")?;
        writeln!(out, "  \"cases\": \"{cases}\",")?;
        writeln!(out, "  \"distribution\": [")?;
        for (i, row) in rows.iter().enumerate() {
            let probability = json_number(row.to_f64());
            writeln!(out, "    {{")?;
            writeln!(out, "      \"fraction\": \"{}\",", row.fraction_text())?;
            writeln!(out, "      \"probability\": {probability},")?;
            writeln!(out, "      \"value\": {}", row.value)?;
            writeln!(out, "    }}{}", if i + 1 < rows.len() { "," } else { "" })?;
        }
        writeln!(out, "  ],")?;
        writeln!(out, "  \"exact\": true,")?;
        writeln!(out, "  \"expr\": {}", json_string(expr.source()))?;
        writeln!(out, "}}")?;
        return Ok(());
    }
    if cases.len() <= 24 {
        writeln!(out, "{}: {cases} equally likely cases", expr.source())?;
    } else {
        writeln!(
            out,
            "{}: exact odds over a {}-digit number of equally likely cases (fractions in --json)",
            expr.source(),
            cases.len()
        )?;
    }
    for row in &rows {
        let words = row.words();
        let percent = row.to_f64() * 100.0;
        if expr.is_opposed() {
            // Two sides against each other: who is higher, in words.
            let side = match row.value {
                1 => "the first side higher",
                0 => "a tie",
                _ => "the second side higher",
            };
            writeln!(out, "{side:>22}  {percent:>7.3}%  {words}")?;
        } else {
            writeln!(out, "{:>6}  {percent:>7.3}%  {words}", row.value)?;
        }
    }
    Ok(())
}
