//! What decides a procedure, in the game's words, worded from the same lookup that resolves it:
//! a threshold's target and natural results, a pool's hit rules, an opposed roll's dice and
//! cases, a computed lookup's values and cases (the first that holds gives the result).
//!
//! Expressions are worded from their parsed tree: a name by its input's label (a choice by its
//! label), a derived value by its label (or its own expression when it has none), `natural` as
//! the unmodified roll, `roll` as the modified roll; a comparison with a ruling is decided by the
//! reading in force, so a case that reading rules out is left out.

use evalexpr::{DefaultNumericTypes, Node, Operator, Value as EvalValue};

use super::expr::Expr;
use super::model::{Case, Derived, HitRule, Lookup, Procedure, Ruleset, Side, Success, TableRef};

/// An expression worded: a value known already (a number, a flag, a name), or words with how
/// tightly they bind (0: a condition, 1: a sum, 2: a product, 3: a single term).
#[derive(Debug, Clone)]
enum Said {
    Num(i64),
    Flag(bool),
    Name(String),
    Words(String, u8),
}

impl Said {
    fn binds(&self) -> u8 {
        match self {
            Said::Words(_, b) => *b,
            _ => 3,
        }
    }
}

/// Words for the expressions of one procedure of one ruleset.
pub struct Speaker<'a> {
    ruleset: &'a Ruleset,
    procedure: &'a Procedure,
}

/// A number as printed: a true minus sign.
fn number(n: i64) -> String {
    if n < 0 {
        format!("−{}", -n)
    } else {
        n.to_string()
    }
}

/// An id as words ("opportunity_charge" → "opportunity charge").
fn plain(id: &str) -> String {
    id.replace('_', " ")
}

/// Ordinal words for a die's place.
fn die_words(n: &str) -> String {
    match n {
        "1" => "the first die".into(),
        "2" => "the second die".into(),
        "3" => "the third die".into(),
        other => format!("die {other}"),
    }
}

impl<'a> Speaker<'a> {
    /// A speaker for `procedure` of `ruleset`.
    pub fn new(ruleset: &'a Ruleset, procedure: &'a Procedure) -> Self {
        Speaker { ruleset, procedure }
    }

    /// An expression in words (a number as a number).
    pub fn words(&self, e: &Expr) -> String {
        self.text(&self.say(e.node(), 0))
    }

    fn text(&self, s: &Said) -> String {
        match s {
            Said::Num(n) => number(*n),
            Said::Flag(b) => if *b { "always" } else { "never" }.into(),
            Said::Name(n) => self.choice_words(n),
            Said::Words(w, _) => w.clone(),
        }
    }

    /// A choice value by the label an input gives it, else as words.
    fn choice_words(&self, value: &str) -> String {
        self.procedure
            .inputs
            .iter()
            .find_map(|i| i.choice_labels.get(value).cloned())
            .unwrap_or_else(|| plain(value))
    }

    /// A value's words, in brackets when it binds looser than `at`.
    fn operand(&self, s: &Said, at: u8) -> String {
        if s.binds() < at {
            format!("({})", self.text(s))
        } else {
            self.text(s)
        }
    }

    /// A value the procedure or its lookup works out before the cases.
    fn derived(&self, name: &str) -> Option<&Derived> {
        self.procedure
            .derived
            .iter()
            .chain(self.procedure.lookup.lets())
            .chain(match &self.procedure.lookup {
                Lookup::Opposed { lets, .. } => lets.as_slice(),
                _ => &[],
            })
            .find(|d| d.name == name)
    }

    /// A name in words: the rolls, dice and scores; a ruling by the reading in force; an input
    /// or a labelled value by its label; an unlabelled value by its own expression.
    fn name(&self, id: &str, depth: u8) -> Said {
        let words = |w: String| Said::Words(w, 3);
        match id {
            "natural" => return words("the unmodified roll".into()),
            "roll" => return words("the modified roll".into()),
            "target_modifier" => return words("the modifiers to the target".into()),
            _ => {}
        }
        if let Some(n) = id.strip_prefix("die_") {
            return words(die_words(n));
        }
        if let Some(r) = id
            .strip_prefix("ruling_")
            .and_then(|r| self.ruleset.rulings.iter().find(|x| x.id == r))
        {
            return Said::Name(r.selected.clone());
        }
        if let Some(i) = self.procedure.input(id) {
            return words(i.label.clone());
        }
        if let Some(d) = self.derived(id) {
            if let Some(l) = &d.label {
                // A value the rulings in force settle is that value (a basic game's "advanced
                // rules" are off, so what hangs on them is left out).
                if depth < 4 {
                    let inner = self.say(d.expr.node(), depth + 1);
                    if matches!(inner, Said::Flag(_) | Said::Num(_)) {
                        return inner;
                    }
                }
                return words(l.clone());
            }
            if depth < 4 {
                let inner = self.say(d.expr.node(), depth + 1);
                if self.text(&inner).chars().count() <= 90 {
                    return inner;
                }
            }
        }
        if let Some(side) = id.strip_suffix("_score") {
            return words(format!("the {} score", plain(side)));
        }
        words(plain(id))
    }

    fn say(&self, node: &Node<DefaultNumericTypes>, depth: u8) -> Said {
        let kids = node.children();
        match node.operator() {
            Operator::RootNode | Operator::Chain if kids.len() == 1 => self.say(&kids[0], depth),
            Operator::Const { value } => match value {
                EvalValue::Int(i) => Said::Num(*i),
                EvalValue::Boolean(b) => Said::Flag(*b),
                EvalValue::String(s) => Said::Name(s.clone()),
                other => Said::Words(other.to_string(), 3),
            },
            Operator::VariableIdentifierRead { identifier } => self.name(identifier, depth),
            Operator::FunctionIdentifier { identifier } => self.function(identifier, kids, depth),
            Operator::Neg if kids.len() == 1 => match self.say(&kids[0], depth) {
                Said::Num(n) => Said::Num(-n),
                s => Said::Words(format!("−{}", self.operand(&s, 3)), 2),
            },
            Operator::Not if kids.len() == 1 => match self.say(&kids[0], depth) {
                Said::Flag(b) => Said::Flag(!b),
                s => {
                    let w = self.operand(&s, 3);
                    let w = w
                        .strip_prefix("The ")
                        .map_or(w.clone(), |r| format!("the {r}"));
                    Said::Words(format!("not {w}"), 0)
                }
            },
            op @ (Operator::And | Operator::Or) if kids.len() == 2 => {
                self.logic(matches!(op, Operator::And), &kids[0], &kids[1], depth)
            }
            op if kids.len() == 2 => {
                let (a, b) = (self.say(&kids[0], depth), self.say(&kids[1], depth));
                self.binary(op, &a, &b)
            }
            _ => Said::Words("as the rule computes it".into(), 3),
        }
    }

    /// `a and b`, `a or b`, with what is known already taken out.
    fn logic(
        &self,
        and: bool,
        a: &Node<DefaultNumericTypes>,
        b: &Node<DefaultNumericTypes>,
        depth: u8,
    ) -> Said {
        let (a, b) = (self.say(a, depth), self.say(b, depth));
        match (&a, &b) {
            (Said::Flag(x), _) if *x != and => Said::Flag(*x),
            (_, Said::Flag(x)) if *x != and => Said::Flag(*x),
            (Said::Flag(_), _) => b,
            (_, Said::Flag(_)) => a,
            _ => {
                let joint = if and { "and" } else { "or" };
                let part = |s: &Said| match s {
                    Said::Words(w, 0) if w.contains(if and { " or " } else { " and " }) => {
                        format!("({w})")
                    }
                    s => self.text(s),
                };
                Said::Words(format!("{} {joint} {}", part(&a), part(&b)), 0)
            }
        }
    }

    fn binary(&self, op: &Operator<DefaultNumericTypes>, a: &Said, b: &Said) -> Said {
        if let (Said::Num(x), Said::Num(y)) = (a, b) {
            let n = match op {
                Operator::Add => Some(x + y),
                Operator::Sub => Some(x - y),
                Operator::Mul => Some(x * y),
                Operator::Div if *y != 0 => Some(x / y),
                _ => None,
            };
            if let Some(n) = n {
                return Said::Num(n);
            }
        }
        // Nothing added or taken away: `x + 0` is x.
        match (op, a, b) {
            (Operator::Add | Operator::Sub, a, Said::Num(0)) | (Operator::Add, Said::Num(0), a) => {
                return a.clone();
            }
            _ => {}
        }
        let same = match (a, b) {
            (Said::Num(x), Said::Num(y)) => Some(x.cmp(y)),
            (Said::Name(x), Said::Name(y)) => Some(x.cmp(y)),
            _ => None,
        };
        if let Some(order) = same {
            let known = match op {
                Operator::Eq => Some(order.is_eq()),
                Operator::Neq => Some(order.is_ne()),
                Operator::Gt => Some(order.is_gt()),
                Operator::Lt => Some(order.is_lt()),
                Operator::Geq => Some(order.is_ge()),
                Operator::Leq => Some(order.is_le()),
                _ => None,
            };
            if let Some(k) = known {
                return Said::Flag(k);
            }
        }
        let (sign, binds, tail) = match op {
            Operator::Add => (" + ", 1, ""),
            Operator::Sub => (" − ", 1, ""),
            Operator::Mul => (" × ", 2, ""),
            Operator::Div => (" ÷ ", 2, ", rounded down"),
            Operator::Mod => (" remainder after dividing by ", 2, ""),
            Operator::Eq => (" is ", 0, ""),
            Operator::Neq => (" is not ", 0, ""),
            Operator::Gt => (" is more than ", 0, ""),
            Operator::Lt => (" is less than ", 0, ""),
            Operator::Geq => (" is at least ", 0, ""),
            Operator::Leq => (" is at most ", 0, ""),
            _ => (" ? ", 0, ""),
        };
        // A sum and a difference read left to right: `a − (b + c)` keeps its brackets.
        let right_at = if binds == 0 { 1 } else { binds + 1 };
        let left_at = if binds == 0 { 1 } else { binds };
        Said::Words(
            format!(
                "{}{sign}{}{tail}",
                self.operand(a, left_at),
                self.operand(b, right_at)
            ),
            if tail.is_empty() { binds } else { 1 },
        )
    }

    fn function(&self, f: &str, kids: &[Node<DefaultNumericTypes>], depth: u8) -> Said {
        let mut args = kids;
        while let [one] = args {
            if matches!(one.operator(), Operator::Tuple | Operator::RootNode) {
                args = one.children();
            } else {
                break;
            }
        }
        match (f, args) {
            ("if", [c, t, e]) => match self.say(c, depth) {
                Said::Flag(true) => self.say(t, depth),
                Said::Flag(false) => self.say(e, depth),
                cond => {
                    let (t, e) = (self.say(t, depth), self.say(e, depth));
                    if self.text(&t) == self.text(&e) {
                        return t;
                    }
                    Said::Words(
                        format!(
                            "{} if {}, else {}",
                            self.operand(&t, 1),
                            self.text(&cond),
                            self.text(&e)
                        ),
                        0,
                    )
                }
            },
            ("max" | "min", [a, b]) => {
                let (a, b) = (self.say(a, depth), self.say(b, depth));
                if let (Said::Num(x), Said::Num(y)) = (&a, &b) {
                    return Said::Num(if f == "max" { *x.max(y) } else { *x.min(y) });
                }
                let which = if f == "max" { "greater" } else { "lesser" };
                // Bracketed inside a sum: "(the lesser of A and 1) + B".
                Said::Words(
                    format!("the {which} of {} and {}", self.text(&a), self.text(&b)),
                    0,
                )
            }
            _ => Said::Words("as the rule computes it".into(), 3),
        }
    }

    /// A value that is a choice between numbers by one choice input (`if(discipline == "A", 3,
    /// if(discipline == "B", 4, 5))`): the input's label and each choice with its number, the
    /// choices left for the last number. None when it is not such a chain.
    pub fn by_choice(&self, e: &Expr) -> Option<(String, Vec<(String, i64)>)> {
        let mut node = e.node();
        if let Operator::VariableIdentifierRead { identifier } = root(node).operator() {
            node = self.derived(identifier)?.expr.node();
        }
        let mut input: Option<String> = None;
        let mut out: Vec<(String, i64)> = Vec::new();
        loop {
            let n = root(node);
            match n.operator() {
                Operator::Const {
                    value: EvalValue::Int(last),
                } => {
                    let spec = self.procedure.input(input.as_deref()?)?;
                    let super::model::InputKind::Choice { choices } = &spec.kind else {
                        return None;
                    };
                    let rest: Vec<String> = choices
                        .iter()
                        .filter(|c| !out.iter().any(|(x, _)| x == *c))
                        .cloned()
                        .collect();
                    for c in rest {
                        out.push((c, *last));
                    }
                    let out = out
                        .into_iter()
                        .map(|(c, v)| (self.choice_words(&c), v))
                        .collect();
                    return Some((spec.label.clone(), out));
                }
                Operator::FunctionIdentifier { identifier } if identifier == "if" => {
                    let args = root(n.children().first()?);
                    let [cond, then, rest] = args.children() else {
                        return None;
                    };
                    let cond = root(cond);
                    let (Operator::Eq, [lhs, rhs]) = (cond.operator(), cond.children()) else {
                        return None;
                    };
                    let (
                        Operator::VariableIdentifierRead { identifier },
                        Operator::Const {
                            value: EvalValue::String(choice),
                        },
                        Operator::Const {
                            value: EvalValue::Int(v),
                        },
                    ) = (
                        root(lhs).operator(),
                        root(rhs).operator(),
                        root(then).operator(),
                    )
                    else {
                        return None;
                    };
                    if input.get_or_insert_with(|| identifier.clone()) != identifier {
                        return None;
                    }
                    out.push((choice.clone(), *v));
                    node = rest;
                }
                _ => return None,
            }
        }
    }

    /// An outcome by its label.
    fn outcome(&self, code: &str) -> String {
        self.procedure
            .outcome(code)
            .map_or_else(|| plain(code), |o| o.label.clone())
    }

    /// The cases as sentences, the first that holds deciding: "If …: Result (value)." and
    /// "Otherwise: …". A case the rulings in force rule out is left out.
    pub fn cases(&self, cases: &[Case]) -> Vec<String> {
        let mut out = Vec::new();
        for c in cases {
            let cond = c.when.as_ref().map(|w| self.say(w.node(), 0));
            let value = c.value.as_ref().map_or_else(String::new, |v| {
                let said = self.say(v.node(), 0);
                format!(" — {}", self.text(&said))
            });
            let result = format!("{}{value}", self.outcome(&c.outcome));
            match cond {
                Some(Said::Flag(false)) => {}
                None | Some(Said::Flag(true)) => {
                    let lead = if out.is_empty() {
                        "Always"
                    } else {
                        "Otherwise"
                    };
                    out.push(format!("{lead}: {result}."));
                    break;
                }
                Some(s) => out.push(format!("If {}: {result}.", self.text(&s))),
            }
        }
        out
    }

    /// The labelled values worked out before the cases: "Critical Number = VBU − DAMAGE …".
    /// A yes-or-no value reads "Advanced rules: no (in force: Basic Rules only)", naming the
    /// reading in force that settles it.
    pub fn values(&self, lets: &[Derived]) -> Vec<String> {
        lets.iter()
            .filter_map(|d| {
                let label = d.label.as_ref()?;
                Some(match self.say(d.expr.node(), 0) {
                    Said::Flag(b) => {
                        let answer = if b { "yes" } else { "no" };
                        match self.rulings_in(&d.expr).as_slice() {
                            [] => format!("{label}: {answer}."),
                            read => format!("{label}: {answer} (in force: {}).", read.join("; ")),
                        }
                    }
                    said => format!("{label} = {}.", self.text(&said)),
                })
            })
            .collect()
    }

    /// The readings in force of the rulings an expression names, in the rules' words.
    fn rulings_in(&self, e: &Expr) -> Vec<String> {
        let source = e.source();
        self.ruleset
            .rulings
            .iter()
            .filter(|r| {
                let id = format!("ruling_{}", r.id);
                source.match_indices(&id).any(|(at, _)| {
                    !source[at + id.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
                })
            })
            .filter_map(|r| {
                r.options
                    .iter()
                    .find(|o| o.id == r.selected)
                    .map(|o| o.text.clone())
            })
            .collect()
    }

    /// A hit rule in words: "each 6 scores a hit", "each pair of 5s scores a hit, at most 1".
    pub fn hit_rule(&self, h: &HitRule) -> Option<String> {
        if let Some(w) = &h.when
            && let Said::Flag(false) = self.say(w.node(), 0)
        {
            return None;
        }
        let faces = if let Some(f) = &h.faces {
            f.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" or ")
        } else if let Some(e) = &h.at_least {
            format!("{} or more", self.words(e))
        } else if let Some(e) = &h.at_most {
            format!("{} or less", self.words(e))
        } else {
            return None;
        };
        let mut s = match (h.per, h.hits) {
            (1, 1) => format!("each die of {faces} scores a hit"),
            (1, n) => format!("each die of {faces} scores {n} hits"),
            (per, 1) => format!("each {} of {faces}s scores a hit", group_words(per)),
            (per, n) => format!("each {} of {faces}s scores {n} hits", group_words(per)),
        };
        if let Some(m) = h.max_hits {
            s.push_str(&format!(", at most {m} in all"));
        }
        Some(s)
    }

    /// One side's dice: "attacker: fire value 1 dice, a die of 1 or less hits; …".
    fn side(&self, side: &Side, hits: &[HitRule]) -> String {
        let groups: Vec<String> = side
            .groups
            .iter()
            .map(|g| {
                let label = g.label.clone().unwrap_or_else(|| g.die.clone());
                let count = self.say(g.count.node(), 0);
                let count = match count {
                    Said::Num(1) => format!("one {}", g.die),
                    Said::Num(n) => format!("{n} {}", g.die),
                    s => format!("{} {}", self.text(&s), g.die),
                };
                let modifier = g.modifier.as_ref().map(|m| self.say(m.node(), 0));
                let at_most = match hits {
                    [h] if h.faces.is_none() && h.at_least.is_none() => {
                        h.at_most.as_ref().map(|e| self.say(e.node(), 0))
                    }
                    _ => None,
                };
                let detail = match (modifier, at_most) {
                    (Some(Said::Num(m)), Some(Said::Num(k))) => {
                        format!("a die of {} or less hits", number(k - m))
                    }
                    (None, Some(k)) => format!("a die of {} or less hits", self.text(&k)),
                    // `die − value ≤ 0`: a die of the value or less.
                    (Some(Said::Words(w, 2)), Some(Said::Num(0)))
                        if w.strip_prefix('−').is_some_and(|v| {
                            !v.contains(" + ") && !v.contains(" − ") && !v.contains('(')
                        }) =>
                    {
                        format!("a die of {} or less hits", w.trim_start_matches('−'))
                    }
                    (Some(m), Some(k)) => format!(
                        "a die hits when it scores {} or less after {}",
                        self.text(&k),
                        self.operand(&m, 1)
                    ),
                    (Some(Said::Num(m)), None) => format!("{m:+} each").replace('-', "−"),
                    (Some(m), None) => format!("each die + {}", self.operand(&m, 1)),
                    (None, None) => String::new(),
                };
                let floor = g
                    .floor
                    .map_or_else(String::new, |f| format!(", none below {}", number(f)));
                if detail.is_empty() {
                    format!("{label}: {count}{floor}")
                } else {
                    format!("{label}: {count}, {detail}{floor}")
                }
            })
            .collect();
        format!("{} — {}", plain(&side.name), groups.join("; "))
    }

    /// What decides the procedure, as sentences for a card: the target and natural results of a
    /// threshold, how a pool counts hits, how opposed scores are made and compared, the values
    /// and cases of a computed lookup. Empty for a table lookup (its table says it).
    pub fn deciding(&self) -> Vec<String> {
        let p = self.procedure;
        let roll = p.roll.as_ref().map(|r| r.source().to_string());
        match &p.lookup {
            Lookup::Table(r) => self.row_cases(r).unwrap_or_default(),
            Lookup::Threshold {
                target,
                success,
                natural_fail,
                natural_pass,
                pass,
                fail,
            } => self.threshold(
                roll.as_deref(),
                target,
                *success,
                (natural_fail, natural_pass),
                (pass, fail),
            ),
            Lookup::Pool {
                count,
                die,
                sum,
                hits,
                face_floor,
                ..
            } => {
                let mut out = vec![format!(
                    "Roll {} {die} (modified as below){}.",
                    self.text(&self.say(count.node(), 0)),
                    face_floor.map_or_else(String::new, |f| format!(
                        "; no die scores below {}",
                        number(f)
                    ))
                )];
                if *sum {
                    out.push("The score is the total of the dice.".into());
                } else {
                    let rules: Vec<String> = hits.iter().filter_map(|h| self.hit_rule(h)).collect();
                    out.push(format!("Count the hits: {}.", rules.join("; ")));
                }
                out
            }
            Lookup::Opposed {
                sides,
                sum,
                hits,
                lets,
                cases,
            } => {
                let mut out = self.values(&p.derived);
                out.push("Each side rolls its dice:".to_string());
                out.extend(sides.iter().map(|s| format!("{}.", self.side(s, hits))));
                if *sum {
                    out.push("A side's score is the total of its dice.".into());
                } else if hits
                    .iter()
                    .any(|h| h.faces.is_some() || h.at_least.is_some())
                {
                    let rules: Vec<String> = hits.iter().filter_map(|h| self.hit_rule(h)).collect();
                    out.push(format!("A side's score is its hits: {}.", rules.join("; ")));
                } else {
                    out.push("A side's score is its hits.".into());
                }
                out.extend(self.values(lets));
                out.push("The first case that holds decides:".into());
                out.extend(self.cases(cases));
                out
            }
            Lookup::Compute { lets, cases } => {
                let mut out = Vec::new();
                if let Some(r) = &roll {
                    out.push(format!("Roll {r}, modified."));
                }
                out.extend(self.values(&p.derived));
                out.extend(self.values(lets));
                if cases.len() > 1 {
                    out.push("The first case that holds decides:".into());
                }
                out.extend(self.cases(cases));
                out
            }
        }
    }

    /// The case that ends a choice of results: "Always: …" when it is the only one, else
    /// "Otherwise: …".
    fn last_case(&self, cases: &[String], key: &str) -> String {
        let lead = if cases.is_empty() {
            "Always"
        } else {
            "Otherwise"
        };
        format!("{lead}: {}.", self.outcome(key))
    }

    /// A table read without dice by a row the procedure works out as a choice of results
    /// (`if(unrest_index > 0, "unrest_reduced", "unrest_at_zero")`): that choice as cases, which
    /// decide it on their own (the table only names the results). None for any other row.
    pub fn row_cases(&self, r: &TableRef) -> Option<Vec<String>> {
        if self.procedure.roll.is_some() {
            return None;
        }
        let mut node = root(r.row.as_ref()?.node());
        let mut cases = Vec::new();
        loop {
            match node.operator() {
                Operator::Const {
                    value: EvalValue::String(key),
                } => {
                    cases.push(self.last_case(&cases, key));
                    break;
                }
                Operator::FunctionIdentifier { identifier } if identifier == "if" => {
                    let args = root(node.children().first()?);
                    let [cond, then, rest] = args.children() else {
                        return None;
                    };
                    let Operator::Const {
                        value: EvalValue::String(key),
                    } = root(then).operator()
                    else {
                        return None;
                    };
                    match self.say(cond, 0) {
                        Said::Flag(true) => {
                            cases.push(self.last_case(&cases, key));
                            break;
                        }
                        Said::Flag(false) => {}
                        c => cases.push(format!("If {}: {}.", self.text(&c), self.outcome(key))),
                    }
                    node = root(rest);
                }
                _ => return None,
            }
        }
        let mut out = vec![if cases.len() > 1 {
            "No dice; the first case that holds decides:".to_string()
        } else {
            "No dice.".to_string()
        }];
        out.extend(self.values(&self.procedure.derived));
        out.extend(cases);
        Some(out)
    }

    fn threshold(
        &self,
        roll: Option<&str>,
        target: &Expr,
        success: Success,
        (natural_fail, natural_pass): (&[i64], &[i64]),
        (pass, fail): (&str, &str),
    ) -> Vec<String> {
        let roll = roll.map_or_else(|| "The score".to_string(), |r| format!("Roll {r}"));
        let (more, less) = match success {
            Success::AtLeast => ("or more", "less"),
            Success::AtMost => ("or less", "more"),
        };
        let short = match success {
            Success::AtLeast => "+",
            Success::AtMost => " or less",
        };
        let mut out = Vec::new();
        if let Some((label, by)) = self.by_choice(target) {
            let list: Vec<String> = by.iter().map(|(c, v)| format!("{c} {v}{short}")).collect();
            out.push(format!(
                "{roll}, modified; the target by {label}: {} — {}; {less}: {}.",
                list.join(", "),
                self.outcome(pass),
                self.outcome(fail)
            ));
        } else {
            out.push(format!(
                "{roll}, modified: {} {more} — {}; {less}: {}.",
                self.words(target),
                self.outcome(pass),
                self.outcome(fail)
            ));
            out.extend(self.values(&self.procedure.derived));
        }
        let naturals = |faces: &[i64], what: &str| {
            let list: Vec<String> = faces.iter().map(ToString::to_string).collect();
            format!("an unmodified {} always {what}", list.join(" or "))
        };
        let mut nat = Vec::new();
        if !natural_fail.is_empty() {
            nat.push(naturals(natural_fail, "fails"));
        }
        if !natural_pass.is_empty() {
            nat.push(naturals(natural_pass, "passes"));
        }
        if let Some(first) = nat.first_mut() {
            *first = format!("{}{}", first[..1].to_uppercase(), &first[1..]);
            out.push(format!("{}.", nat.join("; ")));
        }
        out
    }
}

fn group_words(per: u32) -> String {
    match per {
        2 => "pair".into(),
        3 => "three".into(),
        n => format!("group of {n}"),
    }
}

fn root(mut node: &Node<DefaultNumericTypes>) -> &Node<DefaultNumericTypes> {
    while matches!(node.operator(), Operator::RootNode) && node.children().len() == 1 {
        node = &node.children()[0];
    }
    node
}
