//! Pools of dice: which faces hit, counted per die, by the pool's rules.

use super::*;

pub(super) fn hit_rule_matches(
    rule: &HitRule,
    face: i64,
    scope: &Scope,
) -> Result<bool, ResolveError> {
    if let Some(faces) = &rule.faces {
        return Ok(faces.contains(&face));
    }
    if let Some(e) = &rule.at_least {
        return Ok(face >= e.eval_int(scope).map_err(expr_err("hit rule"))?);
    }
    if let Some(e) = &rule.at_most {
        return Ok(face <= e.eval_int(scope).map_err(expr_err("hit rule"))?);
    }
    Ok(false)
}

/// Hits scored by some dice: each rule counts matching dice, one hit per `per` of them.
pub(super) fn count_hits(
    hits: &[HitRule],
    scored: &[i64],
    scope: &Scope,
) -> Result<(i64, Vec<String>), ResolveError> {
    let mut total = 0i64;
    let mut parts = Vec::new();
    for rule in hits {
        if !hit_rule_applies(rule, scope)? {
            continue;
        }
        let mut count = 0u32;
        for f in scored {
            if hit_rule_matches(rule, *f, scope)? {
                count += 1;
            }
        }
        let mut h = i64::from(count / rule.per) * i64::from(rule.hits);
        if let Some(max) = rule.max_hits {
            h = h.min(i64::from(max));
        }
        if count > 0 {
            parts.push(format!("{count} × {} → {h}", describe_hit_rule(rule)));
        }
        total += h;
    }
    Ok((total, parts))
}

/// How each die of a pool scores: its face plus the each-die modifiers, no lower than the floor;
/// then summed, or matched against the hit rules.
pub(crate) struct PoolScoring<'a> {
    /// The score is the sum of the dice (not hits).
    pub sum: bool,
    /// The hit rules (those whose `when` fails count nothing).
    pub hits: &'a [HitRule],
    /// The each-die modifiers, added to every face.
    pub(super) each: i64,
    /// The least a modified face counts for, if the pool sets one.
    pub(super) floor: Option<i64>,
}

impl PoolScoring<'_> {
    /// What one face scores before the hit rules.
    pub fn scored(&self, face: i64) -> i64 {
        self.floor
            .map_or(face + self.each, |fl| (face + self.each).max(fl))
    }
}

/// What one die scores in hits, for rules that count single dice (per = 1); None if a rule counts pairs.
pub fn single_die_hits(
    hits: &[HitRule],
    face: i64,
    scope: &Scope,
) -> Result<Option<i64>, ResolveError> {
    let mut total = 0;
    for rule in hits {
        if !hit_rule_applies(rule, scope)? {
            continue;
        }
        if rule.per != 1 || rule.max_hits.is_some() {
            return Ok(None);
        }
        if hit_rule_matches(rule, face, scope)? {
            total += i64::from(rule.hits);
        }
    }
    Ok(Some(total))
}

pub(super) fn describe_hit_rule(rule: &HitRule) -> String {
    let faces = if let Some(f) = &rule.faces {
        f.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("/")
    } else if let Some(e) = &rule.at_least {
        format!("≥{}", e.source())
    } else if let Some(e) = &rule.at_most {
        format!("≤{}", e.source())
    } else {
        String::new()
    };
    let grouped = if rule.per > 1 {
        format!("{faces} (per {})", rule.per)
    } else {
        faces
    };
    match rule.max_hits {
        Some(max) => format!("{grouped}, at most {max}"),
        None => grouped,
    }
}

/// Whether a hit rule counts here (its `when:`, e.g. the ruling that selects its reading).
pub(super) fn hit_rule_applies(rule: &HitRule, scope: &Scope) -> Result<bool, ResolveError> {
    match &rule.when {
        Some(e) => e.eval_bool(scope).map_err(expr_err("hit rule")),
        None => Ok(true),
    }
}
