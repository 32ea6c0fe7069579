//! The megagame's phase clock.

use super::*;

/// "HH:MM" → minutes after midnight.
pub(super) fn clock_minutes(text: &str) -> Option<u32> {
    let (h, m) = text.trim().split_once(':')?;
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60 && text.trim().len() == 5).then_some(h * 60 + m)
}

/// A timetable's `clock:` section (megagames): phase lengths per turn, checked against the
/// table's rows; the phase ids are checked against the Sequence of Play in [`load_ruleset`].
pub(super) fn validate_clock(
    ctx: &mut FileCtx,
    raw: &RawClock,
    rows: &[Row],
    lines: &[HeaderLine],
) -> Option<Clock> {
    let root = YamlPath::root().key("clock");
    let before = ctx.errors.len();
    if raw.phases.is_empty() {
        ctx.err(
            &root.key("phases"),
            "the clock has no phases",
            "list the Sequence-of-Play step ids that are the clock's phases, e.g. [phase_1, phase_2]",
        );
    }
    let mut seen = BTreeSet::new();
    for (i, p) in raw.phases.iter().enumerate() {
        ctx.once(
            &mut seen,
            p.as_str(),
            &root.key("phases").index(i),
            "phase",
            p,
        );
    }
    let years_at = raw.years_column.as_ref().and_then(|col| {
        let at = lines
            .first()
            .and_then(|l| l.keys.iter().position(|k| *k == Key::Name(col.clone())));
        if at.is_none() {
            ctx.err(
                &root.key("years_column"),
                format!("this table has no column '{col}'"),
                "name one of the table's columns, e.g. game_years",
            );
        }
        at
    });
    let mut turns: Vec<ClockTurn> = Vec::new();
    for (i, t) in raw.turns.iter().enumerate() {
        let path = root.key("turns").index(i);
        if t.turn == 0 || turns.iter().any(|x| x.turn == t.turn) {
            ctx.err(
                &path.key("turn"),
                format!("turn {} is not a new turn number", t.turn),
                "number the turns from 1, each once",
            );
        }
        let row = t.row.as_ref().and_then(|key| {
            let found = rows.iter().find(|r| r.key == Key::Name(key.clone()));
            if found.is_none() {
                let keys: Vec<String> = rows.iter().map(|r| r.key.to_string()).collect();
                ctx.err(
                    &path.key("row"),
                    format!("this table has no row '{key}'"),
                    format!("rows: {}", keys.join(", ")),
                );
            }
            found
        });
        let years = match (row, years_at) {
            (Some(r), Some(at)) => r.cells.get(at).map(|c| c.text().to_string()),
            _ => None,
        };
        let starts = t.starts.as_ref().map(|s| s.trim().to_string());
        let start_minutes = starts.as_ref().and_then(|s| {
            let m = clock_minutes(s);
            if m.is_none() {
                ctx.err(
                    &path.key("starts"),
                    format!("'{s}' is not a time of day"),
                    "write HH:MM on the 24-hour clock, e.g. \"10:15\"",
                );
            }
            m
        });
        let Some((phase_seconds, phase_ends)) =
            phase_lengths(ctx, &path, t, starts.is_some(), start_minutes)
        else {
            continue;
        };
        let given = t
            .phase_ends
            .as_ref()
            .map_or_else(|| t.phase_minutes.as_ref().map_or(0, Vec::len), Vec::len);
        if given != raw.phases.len() {
            ctx.err(
                &path,
                format!("{given} phase lengths for {} phases", raw.phases.len()),
                "give one end (or length) per phase listed in clock.phases",
            );
        }
        turns.push(ClockTurn {
            turn: t.turn,
            years,
            starts,
            phase_seconds,
            phase_ends,
            rule: t.rule.clone(),
            source_lines: t.source.clone(),
        });
    }
    if turns.is_empty() {
        ctx.err(
            &root.key("turns"),
            "the clock has no turns",
            "give each turn's phase_ends or phase_minutes",
        );
    }
    if ctx.errors.len() > before {
        return None;
    }
    Some(Clock {
        phases: raw.phases.clone(),
        warning_seconds: raw.warning_minutes.unwrap_or(2) * 60,
        turns,
        rule: raw.rule.clone(),
        source_lines: raw.source.clone(),
        notes: raw.notes.clone(),
    })
}

/// A clock turn's phase lengths in seconds (and the phase ends as written, if given so): from
/// `phase_minutes`, or from `phase_ends` after the turn's start (`starts`: whether one is given,
/// `start_minutes`: it read as a time). None when neither (or both) is given, or the ends have
/// no start to count from.
fn phase_lengths(
    ctx: &mut FileCtx,
    path: &YamlPath,
    t: &RawClockTurn,
    starts: bool,
    start_minutes: Option<u32>,
) -> Option<(Vec<u32>, Vec<String>)> {
    match (&t.phase_ends, &t.phase_minutes) {
        (Some(_), Some(_)) | (None, None) => {
            ctx.err(
                path,
                "give either phase_ends or phase_minutes",
                "phase_ends: [\"10:25\", …] with starts: \"10:15\", or phase_minutes: [10, …]",
            );
            None
        }
        (None, Some(minutes)) => {
            if let Some(k) = minutes.iter().position(|m| *m == 0) {
                ctx.err(
                    &path.key("phase_minutes").index(k),
                    "a phase of 0 minutes",
                    "give each phase a length in whole minutes",
                );
            }
            Some((minutes.iter().map(|m| m * 60).collect(), Vec::new()))
        }
        (Some(ends), None) => {
            let Some(mut last) = start_minutes else {
                if !starts {
                    ctx.err(
                        path,
                        "phase_ends needs the turn's start",
                        "add starts: \"HH:MM\"",
                    );
                }
                return None;
            };
            let mut secs = Vec::new();
            for (k, e) in ends.iter().enumerate() {
                match clock_minutes(e) {
                    Some(m) if m > last => {
                        secs.push((m - last) * 60);
                        last = m;
                    }
                    Some(_) => ctx.err(
                        &path.key("phase_ends").index(k),
                        format!("phase end {e} is not after the one before"),
                        "list the phase ends in order, each later than the last",
                    ),
                    None => ctx.err(
                        &path.key("phase_ends").index(k),
                        format!("'{e}' is not a time of day"),
                        "write HH:MM on the 24-hour clock, e.g. \"10:25\"",
                    ),
                }
            }
            Some((secs, ends.iter().map(|e| e.trim().to_string()).collect()))
        }
    }
}
