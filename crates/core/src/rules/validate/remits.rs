//! The `remits:` of a megagame ruleset: known roles, kinds of counter, attributes and
//! procedures; every role answered, its last clause matching anything.

use super::*;

/// Validates the remits: roles, classes, attributes (or groups, or `whole`), procedures; the
/// six Control roles each with clauses, in both `roles:` and `adding:`, the last of each
/// matching anything so that every question has an answer.
pub(super) fn validate_remits(
    ctx: &mut FileCtx,
    raw: &RawRemits,
    procedure_ids: &BTreeSet<String>,
) -> Remits {
    let at = YamlPath::root().key("remits");
    let declared: BTreeSet<String> = ctx
        .attributes
        .as_ref()
        .map(|a| a.iter().map(|s| s.name.clone()).collect())
        .unwrap_or_default();
    let mut groups: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, list) in &raw.groups {
        for (i, a) in list.iter().enumerate() {
            if !declared.contains(a) {
                ctx.err(
                    &at.key("groups").key(name).index(i),
                    format!("unknown attribute '{a}'"),
                    "name a unit or leader attribute of the ruleset",
                );
            }
        }
        groups.insert(name.clone(), list.iter().cloned().collect());
    }
    for (i, r) in raw.clock.iter().enumerate() {
        if !REMIT_ROLES.contains(&r.as_str()) {
            ctx.err(
                &at.key("clock").index(i),
                format!("'{r}' is not a Control role"),
                format!("name one of {}", REMIT_ROLES.join(", ")),
            );
        }
    }
    let names = Names {
        declared: &declared,
        groups: &groups,
        procedures: procedure_ids,
    };
    let roles = role_clauses(ctx, &at.key("roles"), &raw.roles, &names);
    let adding = role_clauses(ctx, &at.key("adding"), &raw.adding, &names);
    let actions = action_remits(ctx, &at.key("actions"), &raw.actions);
    Remits {
        rule: raw.rule.trim().to_string(),
        source_lines: raw.source.clone(),
        clock: raw.clock.clone(),
        roles,
        adding,
        actions,
    }
}

/// The actions over the whole game: each of [`ACTION_REMITS`] declared, with known roles.
fn action_remits(
    ctx: &mut FileCtx,
    at: &YamlPath,
    raw: &BTreeMap<String, RawActionRemit>,
) -> BTreeMap<String, ActionRemit> {
    for name in ACTION_REMITS {
        if !raw.contains_key(name) {
            ctx.err(
                at,
                format!("the remits do not say who may '{name}'"),
                format!(
                    "declare every one of {} with its roles (Game Control where the handbook names nobody)",
                    ACTION_REMITS.join(", ")
                ),
            );
        }
    }
    let mut out = BTreeMap::new();
    for (name, a) in raw {
        if !ACTION_REMITS.contains(&name.as_str()) {
            ctx.err(
                &at.key(name),
                format!("'{name}' is not an action the remits govern"),
                format!("name one of {}", ACTION_REMITS.join(", ")),
            );
        }
        for (i, r) in a.roles.iter().enumerate() {
            if !REMIT_ROLES.contains(&r.as_str()) {
                ctx.err(
                    &at.key(name).key("roles").index(i),
                    format!("'{r}' is not a Control role"),
                    format!("name one of {}", REMIT_ROLES.join(", ")),
                );
            }
        }
        out.insert(
            name.clone(),
            ActionRemit {
                roles: a.roles.clone(),
                rule: a.rule.trim().to_string(),
                why: a.why.trim().to_string(),
                source_lines: a.source.clone(),
            },
        );
    }
    out
}

struct Names<'a> {
    declared: &'a BTreeSet<String>,
    groups: &'a BTreeMap<String, BTreeSet<String>>,
    procedures: &'a BTreeSet<String>,
}

fn role_clauses(
    ctx: &mut FileCtx,
    at: &YamlPath,
    raw: &BTreeMap<String, Vec<RawRemitClause>>,
    names: &Names,
) -> BTreeMap<String, Vec<RemitClause>> {
    let mut out = BTreeMap::new();
    for role in REMIT_ROLES {
        if !raw.contains_key(role) {
            ctx.err(
                at,
                format!("no clauses for the role '{role}'"),
                "give every Control role its clauses, the last matching anything",
            );
        }
    }
    for (role, list) in raw {
        let here = at.key(role);
        if !REMIT_ROLES.contains(&role.as_str()) {
            ctx.err(
                &here,
                format!("'{role}' is not a Control role"),
                format!("name one of {}", REMIT_ROLES.join(", ")),
            );
            continue;
        }
        let clauses: Vec<RemitClause> = list
            .iter()
            .enumerate()
            .map(|(i, c)| clause(ctx, &here.index(i), c, names))
            .collect();
        let open = clauses.last().is_some_and(|c| {
            c.classes.is_empty()
                && c.touching.is_none()
                && c.table.is_none()
                && c.non_played.is_none()
                && c.resolving.is_empty()
        });
        if !open {
            ctx.err(
                &here,
                format!("the last clause for '{role}' does not match everything"),
                "end each role's list with a clause that has only remit, rule and why",
            );
        }
        out.insert(role.clone(), clauses);
    }
    out
}

fn clause(ctx: &mut FileCtx, at: &YamlPath, raw: &RawRemitClause, names: &Names) -> RemitClause {
    for (i, c) in raw.class.iter().enumerate() {
        if !REMIT_CLASSES.contains(&c.as_str()) {
            ctx.err(
                &at.key("class").index(i),
                format!("'{c}' is not a kind of counter"),
                format!("name one of {}", REMIT_CLASSES.join(", ")),
            );
        }
    }
    let touching = (!raw.touching.is_empty()).then(|| {
        let mut t = Touching {
            whole: false,
            attributes: BTreeSet::new(),
        };
        for (i, word) in raw.touching.iter().enumerate() {
            if word == "whole" {
                t.whole = true;
            } else if let Some(g) = names.groups.get(word) {
                t.attributes.extend(g.iter().cloned());
            } else if names.declared.contains(word) {
                t.attributes.insert(word.clone());
            } else {
                ctx.err(
                    &at.key("touching").index(i),
                    format!("'{word}' is neither an attribute, a group nor 'whole'"),
                    "name a unit or leader attribute, a group of `groups:`, or whole",
                );
            }
        }
        t
    });
    for (i, p) in raw.resolving.iter().enumerate() {
        if !names.procedures.contains(p) {
            ctx.err(
                &at.key("resolving").index(i),
                format!("unknown procedure '{p}'"),
                "name a procedure of this ruleset",
            );
        }
    }
    for (key, text) in [("rule", &raw.rule), ("why", &raw.why)] {
        if text.trim().is_empty() {
            ctx.err(
                &at.key(key),
                format!("a remit clause without its {key}"),
                "say which rule it rests on, and why, in the handbook's words",
            );
        }
    }
    RemitClause {
        classes: raw.class.clone(),
        touching,
        table: raw.table.map(|t| match t {
            RawRemitTable::Own => RemitTable::Own,
            RawRemitTable::Other => RemitTable::Other,
            RawRemitTable::Unknown => RemitTable::Unknown,
            RawRemitTable::NoneGiven => RemitTable::NoneGiven,
        }),
        non_played: raw.non_played,
        resolving: raw.resolving.clone(),
        remit: match raw.remit {
            RawRemitAnswer::Own => RemitAnswer::Own,
            RawRemitAnswer::Discretion => RemitAnswer::Discretion,
            RawRemitAnswer::Outside => RemitAnswer::Outside,
        },
        rule: raw.rule.trim().to_string(),
        why: raw.why.trim().to_string(),
        source_lines: raw.source.clone(),
    }
}
