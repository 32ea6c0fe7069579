//! The `records:` of a megagame ruleset: ids unique, roles known, a rule each.

use super::*;

fn roles_known(ctx: &mut FileCtx, at: &YamlPath, roles: &[String]) {
    for (i, r) in roles.iter().enumerate() {
        if !REMIT_ROLES.contains(&r.as_str()) {
            ctx.err(
                &at.key("roles").index(i),
                format!("'{r}' is not a Control role"),
                format!("name one of {}", REMIT_ROLES.join(", ")),
            );
        }
    }
}

fn rule_given(ctx: &mut FileCtx, at: &YamlPath, rule: &str) {
    if rule.trim().is_empty() {
        ctx.err(
            &at.key("rule"),
            "a record without its rule",
            "give the rule as the handbook names it",
        );
    }
}

/// Validates Control's records.
pub(super) fn validate_records(ctx: &mut FileCtx, raw: &RawRecords) -> Records {
    let at = YamlPath::root().key("records");
    let mut ids = BTreeSet::new();
    let mut unique = |ctx: &mut FileCtx, here: &YamlPath, id: &str| {
        if !is_identifier(id) {
            ctx.err(
                &here.key("id"),
                format!("record id '{id}' is not a valid id"),
                "use lower case letters, digits and _, from a letter (snake_case)",
            );
        } else if !ids.insert(id.to_string()) {
            ctx.err(
                &here.key("id"),
                format!("'{id}' names two records"),
                "give each chart, register and vote its own id",
            );
        }
    };
    let mut out = Records::default();
    for (i, c) in raw.charts.iter().enumerate() {
        let here = at.key("charts").index(i);
        unique(ctx, &here, &c.id);
        roles_known(ctx, &here, &c.roles);
        rule_given(ctx, &here, &c.rule);
        out.charts.push(RecordChart {
            id: c.id.clone(),
            name: c.name.clone(),
            roles: c.roles.clone(),
            public: c.public,
            moves: c.moves.clone(),
            rewards: c.rewards.clone(),
            rule: c.rule.trim().to_string(),
            source_lines: c.source.clone(),
        });
    }
    for (i, r) in raw.registers.iter().enumerate() {
        let here = at.key("registers").index(i);
        unique(ctx, &here, &r.id);
        roles_known(ctx, &here, &r.roles);
        rule_given(ctx, &here, &r.rule);
        out.registers.push(RecordRegister {
            id: r.id.clone(),
            name: r.name.clone(),
            roles: r.roles.clone(),
            min_parties: r.min_parties.max(1),
            text: r.text.clone(),
            rule: r.rule.trim().to_string(),
            source_lines: r.source.clone(),
        });
    }
    for (i, v) in raw.votes.iter().enumerate() {
        let here = at.key("votes").index(i);
        unique(ctx, &here, &v.id);
        roles_known(ctx, &here, &v.roles);
        rule_given(ctx, &here, &v.rule);
        out.votes.push(RecordVote {
            id: v.id.clone(),
            name: v.name.clone(),
            roles: v.roles.clone(),
            voters: v.voters.clone(),
            procedure: v.procedure.clone(),
            threshold: match v.threshold {
                RawVoteThreshold::MajorityPresent => VoteThreshold::MajorityPresent,
                RawVoteThreshold::NotGiven => VoteThreshold::NotGiven,
            },
            rule: v.rule.trim().to_string(),
            source_lines: v.source.clone(),
        });
    }
    if let Some(b) = &raw.banks {
        let here = at.key("banks");
        roles_known(ctx, &here, &b.roles);
        rule_given(ctx, &here, &b.rule);
        out.banks = Some(RecordBanks {
            name: b.name.clone(),
            states: b.states.clone(),
            per_turn: b.per_turn,
            roles: b.roles.clone(),
            text: b.text.clone(),
            rule: b.rule.trim().to_string(),
            source_lines: b.source.clone(),
        });
    }
    out
}
