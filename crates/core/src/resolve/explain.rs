//! The explanation in words: signed numbers, rule references, each side's dice, an effect said as the game says it.

use super::*;

pub(super) fn signed(v: i64) -> String {
    if v >= 0 {
        format!("+{v}")
    } else {
        format!("−{}", -v)
    }
}

/// `+ 2` / `− 2`, for sums written out.
pub(super) fn plus_minus(v: i64) -> String {
    if v >= 0 {
        format!("+ {v}")
    } else {
        format!("− {}", -v)
    }
}

pub(super) fn rule_suffix(rule: &Option<String>) -> String {
    rule.as_ref()
        .map_or_else(String::new, |r| format!(" [{r}]"))
}

/// The faces of a throw, as the procedure reads them: each side's dice as that side's in an
/// opposed roll ("Attacker [3, 5, 2]; Defender [4, 1]"), each die on its own where the
/// procedure reads the dice one by one (the activation contest's "A [2]; B [5]"), else the
/// faces and their sum. A sum of both sides' dice is never printed as if it meant something.
pub(super) fn roll_words(prepared: &Prepared, faces: &[String], total: i64) -> String {
    let words = |name: &str| {
        let w = name.replace('_', " ");
        let mut c = w.chars();
        c.next().map_or_else(String::new, |f| {
            f.to_uppercase().collect::<String>() + c.as_str()
        })
    };
    match &prepared.procedure.lookup {
        Lookup::Opposed { sides, .. } if !prepared.groups.is_empty() => {
            let mut by_side: Vec<Vec<&str>> = vec![Vec::new(); sides.len()];
            let mut offset = 0usize;
            for g in &prepared.groups {
                let end = (offset + g.count as usize).min(faces.len());
                if let Some(side) = by_side.get_mut(g.side) {
                    side.extend(faces[offset..end].iter().map(String::as_str));
                }
                offset = end;
            }
            sides
                .iter()
                .zip(&by_side)
                .map(|(side, f)| format!("{} [{}]", words(&side.name), f.join(", ")))
                .collect::<Vec<_>>()
                .join("; ")
        }
        Lookup::Compute { lets, cases } if faces.len() > 1 => {
            let reads = |name: &str| {
                lets.iter()
                    .any(|l| l.expr.reads().iter().any(|r| r == name))
                    || cases.iter().any(|c| {
                        c.when
                            .iter()
                            .chain(c.value.iter())
                            .any(|e| e.reads().iter().any(|r| r == name))
                    })
            };
            if reads("roll") || reads("natural") {
                return format!("[{}] = {total}", faces.join(", "));
            }
            // Each die by whose it is: the label of the value that reads it ("A: modified
            // Initiative − die" reads die 1: A's die).
            faces
                .iter()
                .enumerate()
                .map(|(k, f)| {
                    let die = format!("die_{}", k + 1);
                    let whose = lets
                        .iter()
                        .find(|l| l.expr.reads().contains(&die))
                        .and_then(|l| l.label.as_deref())
                        .and_then(|l| l.split_once(": ").map(|(who, _)| who.to_string()))
                        .unwrap_or_else(|| format!("die {}", k + 1));
                    format!("{whose} [{f}]")
                })
                .collect::<Vec<_>>()
                .join("; ")
        }
        _ => format!("[{}] = {total}", faces.join(", ")),
    }
}

/// A resolution's dice in words, each side's as that side's: the explanation's roll lines
/// ("9d6: Attacker [3, 5, 2, 6, 3]; Defender [1, 4, 3, 5] (physical dice)"), or for a journal
/// recorded before they said so, each roll as thrown.
pub fn dice_words(r: &Resolution) -> Vec<String> {
    let lines: Vec<String> = r
        .explanation
        .iter()
        .filter_map(|l| l.strip_prefix("Roll "))
        .map(str::to_string)
        .collect();
    if lines.is_empty() {
        r.rolls.iter().map(crate::dice::Roll::words).collect()
    } else {
        lines
    }
}

/// One line for an effect, in words: "defender loses 1 SP", "defender: disordered", "then cohesion
/// check (defender tests cohesion)", a note by its text. The kind and the ids stay in the JSON.
pub fn describe_effect(e: &Effect) -> String {
    let words = |t: &str| t.replace('_', " ");
    // A note with a number says the number ("attacker: 9 thousand men left"), never the words
    // alone.
    if e.kind == EffectKind::Note
        && let Some(a) = e.amount
    {
        let side = e
            .side
            .as_deref()
            .map_or_else(String::new, |s| format!("{}: ", words(s)));
        let text = e.text.as_deref().unwrap_or_default();
        return format!("{side}{a} {text}").trim_end().to_string();
    }
    let attribute = || words(e.attribute.as_deref().unwrap_or("value"));
    // The kind's own word with the amount, where the kind has no sentence of its own.
    let plain = || match e.amount {
        Some(a) => format!("{} {a}", words(e.kind.id())),
        None => words(e.kind.id()),
    };
    let what = match e.kind {
        EffectKind::SpLoss => e
            .amount
            .map_or_else(|| "loses SP".to_string(), |a| format!("loses {a} SP")),
        EffectKind::Retreat => e.amount.map_or_else(plain, |a| format!("retreats {a}")),
        EffectKind::Advance => e.amount.map_or_else(plain, |a| format!("advances {a}")),
        EffectKind::Eliminate => "eliminated".to_string(),
        EffectKind::Adjust => e
            .amount
            .map_or_else(plain, |a| format!("{} {a:+}", attribute())),
        // "army becomes mutinous", "character is no longer alive", "treasury set to 12".
        EffectKind::Set => match (e.amount, &e.value) {
            (Some(a), _) => format!("{} set to {a}", attribute()),
            (None, Some(Value::Bool(true))) => format!("becomes {}", attribute()),
            (None, Some(Value::Bool(false))) => format!("is no longer {}", attribute()),
            (None, Some(v)) => format!("{} set to {v}", attribute()),
            (None, None) => plain(),
        },
        EffectKind::Status => e.status.as_deref().map(words).unwrap_or_default(),
        EffectKind::FollowUp => format!(
            "then {}",
            e.procedure.as_deref().map(words).unwrap_or_default()
        ),
        EffectKind::Note => String::new(),
        EffectKind::Value | EffectKind::Move => plain(),
        EffectKind::VictoryPoints => e.amount.map_or_else(plain, |a| format!("gains {a} VP")),
        EffectKind::Control => match &e.value {
            Some(crate::rules::Value::Text(place)) if e.status.as_deref() == Some("conquered") => {
                format!("conquers {place}")
            }
            Some(crate::rules::Value::Text(place)) => format!("holds {place}"),
            _ => plain(),
        },
        EffectKind::Arrival => "brings its reinforcements".to_string(),
    };
    let mut s = match (&e.side, what.is_empty()) {
        (Some(side), false)
            if what.starts_with(|c: char| c.is_lowercase()) && e.kind != EffectKind::Status =>
        {
            format!("{} {what}", words(side))
        }
        (Some(side), false) => format!("{}: {what}", words(side)),
        (_, _) => what,
    };
    if let Some(t) = &e.text {
        if s.is_empty() {
            s = t.clone();
        } else {
            s.push_str(&format!(" ({t})"));
        }
    }
    if s.is_empty() {
        s = words(e.kind.id());
    }
    s
}
