//! Which inputs a procedure needs, worked out from the procedure itself: an input is asked for
//! only when something that can still matter reads it under the values already known — a
//! modifier whose condition is not already false, a group of dice that is not already empty, a
//! derived value read by one of those, the lookup, an outcome's effects. "Shot from" is not
//! asked of a melee Cohesion Test (its modifiers hold only when shooting); an Artillery fire
//! value is not asked of a Field Combat with no Artillery (its group throws no dice).
//!
//! Hand-written `needed_when` conditions on a few inputs are what this replaces; one that a
//! ruleset still gives is honoured too.

use std::collections::{BTreeMap, BTreeSet};

use crate::rules::{
    Expr, InputKind, Lookup, ModifierValue, Partial, Procedure, Ruleset, Scope, Value,
};

/// Most assignments of unknown choices tried when deciding whether a condition can hold.
const MAX_TRIES: usize = 512;

/// The inputs the result can depend on, given the values already known (`known`: given or
/// defaulted; a flag not given is off). Inputs outside the set need not be asked.
pub fn needed_inputs(
    ruleset: &Ruleset,
    procedure: &Procedure,
    known: &BTreeMap<String, Value>,
) -> BTreeSet<String> {
    let mut scope = Scope::new();
    for r in &ruleset.rulings {
        scope.set(&format!("ruling_{}", r.id), Value::Text(r.selected.clone()));
    }
    for (k, v) in known {
        scope.set(k, v.clone());
    }
    // Derived values that can be worked out already (an `if` decided by what is known needs
    // nothing of its other branch).
    for d in &procedure.derived {
        if let Partial::Known(v) = d.expr.partial(&scope) {
            scope.set(&d.name, v);
        }
    }
    let unknown_choices: BTreeMap<&str, &[String]> = procedure
        .inputs
        .iter()
        .filter(|i| !known.contains_key(&i.name))
        .filter_map(|i| match &i.kind {
            InputKind::Choice { choices } => Some((i.name.as_str(), choices.as_slice())),
            _ => None,
        })
        .collect();
    let decide = |e: &Expr| decide(e, &scope, &unknown_choices);

    // What live expressions read: every name (a known input they read stays shown), and of
    // the names not known yet only those they still depend on once what is known is
    // evaluated (`false && x` needs no `x`).
    let mut live: BTreeSet<String> = BTreeSet::new();
    let read = |e: &Expr, live: &mut BTreeSet<String>| match e.partial(&scope) {
        Partial::Open(open) => {
            live.extend(open);
            live.extend(e.reads().iter().filter(|n| scope.get(n).is_some()).cloned());
        }
        Partial::Known(_) => {
            live.extend(e.reads().iter().filter(|n| scope.get(n).is_some()).cloned());
        }
    };
    for m in &procedure.modifiers {
        if let Some(w) = &m.when {
            if decide(w) == Some(false) {
                continue;
            }
            read(w, &mut live);
        }
        modifier_exprs(m)
            .into_iter()
            .for_each(|e| read(e, &mut live));
    }
    // A group of dice that throws none needs nothing it reads.
    let empty: Vec<&Expr> = match &procedure.lookup {
        Lookup::Opposed { sides, .. } => sides
            .iter()
            .flat_map(|s| &s.groups)
            .filter(|g| g.count.partial(&scope) == Partial::Known(Value::Int(0)))
            .flat_map(|g| std::iter::once(&g.count).chain(g.modifier.iter()))
            .collect(),
        _ => Vec::new(),
    };
    for e in procedure.lookup.exprs() {
        if !empty.iter().any(|x| std::ptr::eq(*x, e)) {
            read(e, &mut live);
        }
    }
    for o in &procedure.outcomes {
        for e in &o.effects {
            e.when.iter().for_each(|x| read(x, &mut live));
            e.amount.iter().for_each(|x| read(x, &mut live));
        }
    }
    // A derived value nothing else reads is shown for its own sake (a Skirmish's Larger
    // Force): what it reads is live. One that feeds something else is live only when that is.
    let mut readers: BTreeSet<&str> = BTreeSet::new();
    for m in &procedure.modifiers {
        readers.extend(
            m.when
                .iter()
                .chain(modifier_exprs(m))
                .flat_map(|e| e.reads())
                .map(String::as_str),
        );
    }
    readers.extend(procedure.lookup.reads());
    for o in &procedure.outcomes {
        for e in &o.effects {
            readers.extend(
                e.when
                    .iter()
                    .chain(&e.amount)
                    .flat_map(|x| x.reads())
                    .map(String::as_str),
            );
        }
    }
    for d in &procedure.derived {
        readers.extend(d.expr.reads().iter().map(String::as_str));
    }
    // A derived value for one case only (`when:`) that is not this case reads nothing.
    let off = |d: &crate::rules::Derived| d.when.as_ref().is_some_and(|w| decide(w) == Some(false));
    for d in &procedure.derived {
        if !readers.contains(d.name.as_str()) && !off(d) {
            live.insert(d.name.clone());
        }
    }
    // A derived value something live reads makes what it reads live, to a fixed point.
    loop {
        let before = live.len();
        for d in &procedure.derived {
            if live.contains(&d.name) && !off(d) {
                d.when.iter().for_each(|w| read(w, &mut live));
                read(&d.expr, &mut live);
            }
        }
        if live.len() == before {
            break;
        }
    }
    procedure
        .inputs
        .iter()
        .filter(|i| live.contains(&i.name))
        .map(|i| i.name.clone())
        .collect()
}

/// A modifier's value: its expression, or the table cell's row, column and line.
fn modifier_exprs(m: &crate::rules::Modifier) -> Vec<&Expr> {
    match &m.value {
        ModifierValue::Expr(e) => vec![e],
        ModifierValue::Table(t) => t.exprs(),
    }
}

/// Whether a condition holds whatever the unknown choices it reads turn out to be (`Some`), or
/// depends on them or on an unknown number (`None`).
fn decide(e: &Expr, scope: &Scope, unknown: &BTreeMap<&str, &[String]>) -> Option<bool> {
    match e.partial(scope) {
        Partial::Known(Value::Bool(b)) => return Some(b),
        Partial::Known(_) => return None,
        Partial::Open(_) => {}
    }
    let open: Vec<(&str, &[String])> = e
        .reads()
        .iter()
        .filter(|n| scope.get(n).is_none())
        .map(|n| unknown.get(n.as_str()).map(|c| (n.as_str(), *c)))
        .collect::<Option<Vec<_>>>()?;
    let tries = open
        .iter()
        .try_fold(1usize, |n, (_, c)| n.checked_mul(c.len().max(1)))?;
    if open.is_empty() || tries > MAX_TRIES || open.iter().any(|(_, c)| c.is_empty()) {
        return None;
    }
    let mut seen: Option<bool> = None;
    for k in 0..tries {
        let mut s = scope.clone();
        let mut rest = k;
        for (name, choices) in &open {
            let pick = &choices[rest % choices.len()];
            rest /= choices.len();
            s.set(name, Value::Text(pick.clone()));
        }
        let b = e.eval_bool(&s).ok()?;
        match seen {
            Some(prev) if prev != b => return None,
            _ => seen = Some(b),
        }
    }
    seen
}
