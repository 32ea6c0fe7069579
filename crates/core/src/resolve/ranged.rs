//! Exact odds of an opposed roll in one pass over the scores, not one evaluation a pair.
//!
//! The `let`s and `cases` of an opposed lookup are compiled once, the values they read that do
//! not depend on the scores folded in, into a small tree evaluated over ranges: a box of the
//! last two sides' scores (any sides before them score by score). Where the box decides the
//! case and its value (`attacker_score > defender_score` over attacker scores all above the
//! defender's, a value `attacker_score / 2` over attacker scores that halve alike), every throw
//! in the box is counted at once, from the cumulative counts of each side; otherwise the box is
//! halved along its longer side. The rr3 battle at 70,000 a side decides a few hundred boxes
//! where it evaluated 5,041 pairs.
//!
//! The tree follows evalexpr's own rules (whole-number arithmetic checked for overflow and
//! division by zero, `if` evaluating both branches, `&&` both sides); anything it does not know
//! (a float, another function) leaves the procedure to the pair-by-pair way, and a range where
//! an error is possible is halved down to single scores, which are evaluated the ordinary way
//! (so an error is the one the resolver gives).

use std::collections::HashMap;

use evalexpr::{DefaultNumericTypes, Node, Operator, Value as EvalValue};
use num_bigint::BigUint;
use num_traits::Zero;

use super::{Prepared, ResolveError};
use crate::dice::Distribution;
use crate::rules::{Case, Derived, Scope, Value};

/// A value over a range of scores: whole numbers between two bounds, a flag that may be false
/// and/or true, or a name.
#[derive(Debug, Clone, PartialEq)]
enum Ranged {
    Int(i64, i64),
    Bool { no: bool, yes: bool },
    Text(String),
}

impl Ranged {
    fn point(&self) -> Option<i64> {
        match self {
            Ranged::Int(a, b) if a == b => Some(*a),
            _ => None,
        }
    }

    fn flag(&self) -> Option<(bool, bool)> {
        match self {
            Ranged::Bool { no, yes } => Some((*no, *yes)),
            _ => None,
        }
    }

    fn known_flag(b: bool) -> Ranged {
        Ranged::Bool { no: !b, yes: b }
    }
}

/// A compiled expression: constants folded, scores and `let`s read from slots.
#[derive(Debug, Clone)]
enum Tree {
    Const(Ranged),
    Slot(usize),
    Neg(Box<Tree>),
    Not(Box<Tree>),
    Bin(Operator<DefaultNumericTypes>, Box<Tree>, Box<Tree>),
    If(Box<Tree>, Box<Tree>, Box<Tree>),
    Extreme(bool, Vec<Tree>),
}

fn constant(v: &EvalValue<DefaultNumericTypes>) -> Option<Ranged> {
    match v {
        EvalValue::Int(i) => Some(Ranged::Int(*i, *i)),
        EvalValue::Boolean(b) => Some(Ranged::known_flag(*b)),
        EvalValue::String(s) => Some(Ranged::Text(s.clone())),
        _ => None,
    }
}

fn value_of(v: Value) -> Ranged {
    match v {
        Value::Int(i) => Ranged::Int(i, i),
        Value::Bool(b) => Ranged::known_flag(b),
        Value::Text(t) => Ranged::Text(t),
    }
}

/// Compiles a node; None for anything outside whole numbers, flags, names, arithmetic,
/// comparisons, `if`, `min` and `max`.
fn compile(
    node: &Node<DefaultNumericTypes>,
    scope: &Scope,
    slots: &HashMap<String, usize>,
) -> Option<Tree> {
    let kids = node.children();
    let two = |op: &Operator<DefaultNumericTypes>| -> Option<Tree> {
        let [a, b] = kids else { return None };
        Some(Tree::Bin(
            op.clone(),
            Box::new(compile(a, scope, slots)?),
            Box::new(compile(b, scope, slots)?),
        ))
    };
    match node.operator() {
        Operator::RootNode => match kids {
            [one] => compile(one, scope, slots),
            _ => None,
        },
        Operator::Const { value } => constant(value).map(Tree::Const),
        Operator::VariableIdentifierRead { identifier } => match slots.get(identifier.as_str()) {
            Some(slot) => Some(Tree::Slot(*slot)),
            None => scope.get(identifier).map(|v| Tree::Const(value_of(v))),
        },
        Operator::Neg => match kids {
            [one] => Some(Tree::Neg(Box::new(compile(one, scope, slots)?))),
            _ => None,
        },
        Operator::Not => match kids {
            [one] => Some(Tree::Not(Box::new(compile(one, scope, slots)?))),
            _ => None,
        },
        op @ (Operator::Add
        | Operator::Sub
        | Operator::Mul
        | Operator::Div
        | Operator::Mod
        | Operator::Eq
        | Operator::Neq
        | Operator::Gt
        | Operator::Lt
        | Operator::Geq
        | Operator::Leq
        | Operator::And
        | Operator::Or) => two(op),
        Operator::FunctionIdentifier { identifier } => {
            let [args] = kids else { return None };
            let mut args = args;
            while matches!(args.operator(), Operator::RootNode) && args.children().len() == 1 {
                args = &args.children()[0];
            }
            // `if`, `min` and `max` take a tuple (evalexpr refuses a single value).
            let list: Vec<Tree> = match args.operator() {
                Operator::Tuple => args
                    .children()
                    .iter()
                    .map(|a| compile(a, scope, slots))
                    .collect::<Option<_>>()?,
                _ => return None,
            };
            match (identifier.as_str(), list.as_slice()) {
                ("if", [c, t, f]) => Some(Tree::If(
                    Box::new(c.clone()),
                    Box::new(t.clone()),
                    Box::new(f.clone()),
                )),
                ("max", [_, ..]) => Some(Tree::Extreme(true, list)),
                ("min", [_, ..]) => Some(Tree::Extreme(false, list)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Division and remainder as evalexpr does them (truncating, checked), over ranges: the
/// corners bound a truncating division by a divisor of one sign.
fn divide(op: &Operator<DefaultNumericTypes>, a: (i64, i64), b: (i64, i64)) -> Option<Ranged> {
    if b.0 <= 0 && b.1 >= 0 {
        return None; // a zero divisor is possible: an error at that score
    }
    let f = |x: i64, y: i64| match op {
        Operator::Div => x.checked_div(y),
        _ => x.checked_rem(y),
    };
    if matches!(op, Operator::Mod) && (a.0 != a.1 || b.0 != b.1) {
        return None;
    }
    let corners = [f(a.0, b.0)?, f(a.0, b.1)?, f(a.1, b.0)?, f(a.1, b.1)?];
    Some(Ranged::Int(*corners.iter().min()?, *corners.iter().max()?))
}

fn compare(op: &Operator<DefaultNumericTypes>, a: &Ranged, b: &Ranged) -> Option<Ranged> {
    let flag = |no: bool, yes: bool| Some(Ranged::Bool { no, yes });
    match (op, a, b) {
        (Operator::Eq | Operator::Neq, _, _) => {
            let (no, yes) = match (a, b) {
                (Ranged::Int(a0, a1), Ranged::Int(b0, b1)) => {
                    let disjoint = a1 < b0 || b1 < a0;
                    let same = a0 == a1 && b0 == b1 && a0 == b0;
                    (!same, !disjoint)
                }
                (Ranged::Text(x), Ranged::Text(y)) => (x != y, x == y),
                (Ranged::Bool { no: an, yes: ay }, Ranged::Bool { no: bn, yes: by }) => {
                    // Equal when both can be the same flag; unequal when they can differ.
                    ((*an && *by) || (*ay && *bn), (*an && *bn) || (*ay && *by))
                }
                _ => (true, false), // values of different types are never equal
            };
            if matches!(op, Operator::Eq) {
                flag(no, yes)
            } else {
                flag(yes, no)
            }
        }
        (_, Ranged::Int(a0, a1), Ranged::Int(b0, b1)) => {
            // a > b is sure when a's least beats b's most, impossible when a's most does not.
            let (sure, possible) = match op {
                Operator::Gt => (a0 > b1, a1 > b0),
                Operator::Geq => (a0 >= b1, a1 >= b0),
                Operator::Lt => (a1 < b0, a0 < b1),
                Operator::Leq => (a1 <= b0, a0 <= b1),
                _ => return None,
            };
            flag(!sure, possible)
        }
        (_, Ranged::Text(x), Ranged::Text(y)) => {
            let holds = match op {
                Operator::Gt => x > y,
                Operator::Geq => x >= y,
                Operator::Lt => x < y,
                Operator::Leq => x <= y,
                _ => return None,
            };
            flag(!holds, holds)
        }
        _ => None,
    }
}

/// Evaluates over ranges; None where an error is possible or the type is not one evalexpr
/// would accept (the range is then halved, and a single score evaluated the ordinary way).
fn eval(tree: &Tree, slots: &[Ranged]) -> Option<Ranged> {
    Some(match tree {
        Tree::Const(v) => v.clone(),
        Tree::Slot(i) => slots.get(*i)?.clone(),
        Tree::Neg(x) => match eval(x, slots)? {
            Ranged::Int(a, b) => Ranged::Int(b.checked_neg()?, a.checked_neg()?),
            _ => return None,
        },
        Tree::Not(x) => {
            let (no, yes) = eval(x, slots)?.flag()?;
            Ranged::Bool { no: yes, yes: no }
        }
        Tree::Bin(op, x, y) => {
            let (a, b) = (eval(x, slots)?, eval(y, slots)?);
            match op {
                Operator::And | Operator::Or => {
                    let ((an, ay), (bn, by)) = (a.flag()?, b.flag()?);
                    if matches!(op, Operator::And) {
                        Ranged::Bool {
                            no: an || bn,
                            yes: ay && by,
                        }
                    } else {
                        Ranged::Bool {
                            no: an && bn,
                            yes: ay || by,
                        }
                    }
                }
                Operator::Add | Operator::Sub | Operator::Mul | Operator::Div | Operator::Mod => {
                    let (Ranged::Int(a0, a1), Ranged::Int(b0, b1)) = (a, b) else {
                        return None;
                    };
                    match op {
                        Operator::Add => Ranged::Int(a0.checked_add(b0)?, a1.checked_add(b1)?),
                        Operator::Sub => Ranged::Int(a0.checked_sub(b1)?, a1.checked_sub(b0)?),
                        Operator::Mul => {
                            let c = [
                                a0.checked_mul(b0)?,
                                a0.checked_mul(b1)?,
                                a1.checked_mul(b0)?,
                                a1.checked_mul(b1)?,
                            ];
                            Ranged::Int(*c.iter().min()?, *c.iter().max()?)
                        }
                        _ => divide(op, (a0, a1), (b0, b1))?,
                    }
                }
                _ => compare(op, &a, &b)?,
            }
        }
        Tree::If(c, t, f) => {
            // evalexpr evaluates both branches: an error in either is an error.
            let (no, yes) = eval(c, slots)?.flag()?;
            let (t, f) = (eval(t, slots)?, eval(f, slots)?);
            match (no, yes) {
                (false, true) => t,
                (true, false) => f,
                _ => match (t, f) {
                    (Ranged::Int(a0, a1), Ranged::Int(b0, b1)) => {
                        Ranged::Int(a0.min(b0), a1.max(b1))
                    }
                    (Ranged::Bool { no: an, yes: ay }, Ranged::Bool { no: bn, yes: by }) => {
                        Ranged::Bool {
                            no: an || bn,
                            yes: ay || by,
                        }
                    }
                    (x, y) if x == y => x,
                    _ => return None,
                },
            }
        }
        Tree::Extreme(highest, args) => {
            let (mut lo, mut hi) = if *highest {
                (i64::MIN, i64::MIN)
            } else {
                (i64::MAX, i64::MAX)
            };
            for a in args {
                let Ranged::Int(a0, a1) = eval(a, slots)? else {
                    return None;
                };
                if *highest {
                    (lo, hi) = (lo.max(a0), hi.max(a1));
                } else {
                    (lo, hi) = (lo.min(a0), hi.min(a1));
                }
            }
            Ranged::Int(lo, hi)
        }
    })
}

/// An opposed lookup compiled: its `let`s (slots after the sides' scores) and its cases.
struct Compiled<'p> {
    lets: Vec<Tree>,
    cases: Vec<(Option<Tree>, &'p str, Option<Tree>)>,
}

/// What a range decides: the case that holds and its value, or nothing sure.
enum Decided<'p> {
    Sure(&'p str, Option<i64>),
    Unsure,
}

impl<'p> Compiled<'p> {
    fn new(
        prepared: &Prepared,
        side_names: &[String],
        lets: &[Derived],
        cases: &'p [Case],
    ) -> Option<Compiled<'p>> {
        let mut slots: HashMap<String, usize> = side_names
            .iter()
            .enumerate()
            .map(|(i, n)| (format!("{n}_score"), i))
            .collect();
        let scope = prepared.scope();
        let mut trees = Vec::with_capacity(lets.len());
        for l in lets {
            trees.push(compile(l.expr.node(), scope, &slots)?);
            let next = slots.len();
            slots.insert(l.name.clone(), next);
        }
        let cases = cases
            .iter()
            .map(|c| {
                let when = match &c.when {
                    Some(w) => Some(compile(w.node(), scope, &slots)?),
                    None => None,
                };
                let value = match &c.value {
                    Some(v) => Some(compile(v.node(), scope, &slots)?),
                    None => None,
                };
                Some((when, c.outcome.as_str(), value))
            })
            .collect::<Option<_>>()?;
        Some(Compiled { lets: trees, cases })
    }

    fn decide(&self, scores: &[Ranged]) -> Decided<'p> {
        let mut slots = scores.to_vec();
        for l in &self.lets {
            match eval(l, &slots) {
                Some(v) => slots.push(v),
                None => return Decided::Unsure,
            }
        }
        for (when, code, value) in &self.cases {
            let holds = match when {
                None => (false, true),
                Some(w) => match eval(w, &slots).and_then(|v| v.flag()) {
                    Some(f) => f,
                    None => return Decided::Unsure,
                },
            };
            match holds {
                (true, false) => continue,
                (false, true) => {}
                _ => return Decided::Unsure,
            }
            let value = match value {
                None => None,
                Some(v) => match eval(v, &slots).as_ref().and_then(Ranged::point) {
                    Some(x) => Some(x),
                    None => return Decided::Unsure,
                },
            };
            return Decided::Sure(code, value);
        }
        Decided::Unsure
    }
}

/// Counts by outcome, in the order first reached.
pub(super) struct Counted {
    pub order: Vec<(String, Option<i64>)>,
    pub counts: HashMap<(String, Option<i64>), BigUint>,
}

/// Counts by outcome, each with the first throw (in the order of the sides' scores, lowest
/// first) that reaches it: the order the pair-by-pair way met them in.
struct Tally {
    counts: HashMap<(String, Option<i64>), (Vec<usize>, BigUint)>,
}

impl Tally {
    fn add(&mut self, code: &str, value: Option<i64>, at: Vec<usize>, count: BigUint) {
        match self.counts.get_mut(&(code.to_string(), value)) {
            Some((first, c)) => {
                *c += count;
                if at < *first {
                    *first = at;
                }
            }
            None => {
                self.counts.insert((code.to_string(), value), (at, count));
            }
        }
    }

    fn done(self) -> Counted {
        let mut keyed: Vec<_> = self.counts.into_iter().collect();
        keyed.sort_by(|a, b| a.1.0.cmp(&b.1.0));
        let order = keyed.iter().map(|(k, _)| k.clone()).collect();
        let counts = keyed.into_iter().map(|(k, (_, c))| (k, c)).collect();
        Counted { order, counts }
    }
}

/// One side's scores with their cumulative counts: `cum[i]` is the count of the first `i`.
struct Scores<'d> {
    values: Vec<(i64, &'d BigUint)>,
    cum: Vec<BigUint>,
}

impl<'d> Scores<'d> {
    fn new(d: &'d Distribution) -> Scores<'d> {
        let values: Vec<(i64, &BigUint)> = d.counts().collect();
        let mut cum = Vec::with_capacity(values.len() + 1);
        cum.push(BigUint::zero());
        for (_, c) in &values {
            let next = cum[cum.len() - 1].clone() + *c;
            cum.push(next);
        }
        Scores { values, cum }
    }

    fn range(&self, lo: usize, hi: usize) -> Ranged {
        Ranged::Int(self.values[lo].0, self.values[hi].0)
    }

    fn count(&self, lo: usize, hi: usize) -> BigUint {
        &self.cum[hi + 1] - &self.cum[lo]
    }
}

/// The opposed roll's outcomes over every score of each side: the sides before the last two
/// score by score, the last two by boxes of their scores, halved (the longer side) until the
/// box decides the outcome. None when the lookup reads something the ranges do not know (the
/// caller then evaluates pair by pair).
pub(super) fn opposed_by_ranges(
    prepared: &Prepared,
    side_names: &[String],
    lets: &[Derived],
    cases: &[Case],
    dists: &[Distribution],
) -> Option<Result<Counted, ResolveError>> {
    let compiled = Compiled::new(prepared, side_names, lets, cases)?;
    if dists.is_empty() || dists.iter().any(|d| d.counts().next().is_none()) {
        return None;
    }
    let split = dists.len().saturating_sub(2);
    let (firsts, lasts) = dists.split_at(split);
    let lasts: Vec<Scores> = lasts.iter().map(Scores::new).collect();
    let mut tally = Tally {
        counts: HashMap::new(),
    };
    let mut fixed: Vec<(usize, i64, BigUint)> = Vec::new();
    let walk = Walk {
        prepared,
        compiled: &compiled,
        lasts: &lasts,
    };
    let result = walk.firsts(firsts, &mut fixed, &mut tally);
    Some(result.map(|()| tally.done()))
}

struct Walk<'a, 'p> {
    prepared: &'a Prepared<'a>,
    compiled: &'a Compiled<'p>,
    lasts: &'a [Scores<'a>],
}

impl Walk<'_, '_> {
    /// Which side of an undecided box to halve: the first side whose range, narrowed to its
    /// lowest score, lets the box decide (the outcome turns on that side's score: rr3's winner's
    /// loss on the winner's), else the longest. None for a single throw.
    fn along(
        &self,
        scores: &[Ranged],
        boxed: &[(usize, usize)],
        base: usize,
    ) -> Option<(usize, usize, usize)> {
        let wide: Vec<usize> = (0..boxed.len())
            .filter(|&i| boxed[i].1 > boxed[i].0)
            .collect();
        if wide.len() > 1 {
            for &i in &wide {
                let mut probe = scores.to_vec();
                probe[base + i] = self.lasts[i].range(boxed[i].0, boxed[i].0);
                if matches!(self.compiled.decide(&probe), Decided::Sure(..)) {
                    return Some((i, boxed[i].0, boxed[i].1));
                }
            }
        }
        wide.into_iter()
            .max_by_key(|&i| boxed[i].1 - boxed[i].0)
            .map(|i| (i, boxed[i].0, boxed[i].1))
    }

    /// Every combination of the first sides' scores, then the last two by boxes.
    fn firsts(
        &self,
        firsts: &[Distribution],
        fixed: &mut Vec<(usize, i64, BigUint)>,
        tally: &mut Tally,
    ) -> Result<(), ResolveError> {
        if let Some((d, rest)) = firsts.split_first() {
            for (i, (v, c)) in d.counts().enumerate() {
                let count = fixed.last().map_or_else(|| c.clone(), |(_, _, w)| w * c);
                fixed.push((i, v, count));
                self.firsts(rest, fixed, tally)?;
                fixed.pop();
            }
            return Ok(());
        }
        let weight = fixed.last().map(|(_, _, w)| w.clone());
        let mut scores: Vec<Ranged> = fixed.iter().map(|(_, v, _)| Ranged::Int(*v, *v)).collect();
        let base = scores.len();
        let at: Vec<usize> = fixed.iter().map(|(i, _, _)| *i).collect();
        // A box: for each of the last sides, a range of its scores (by index).
        let whole: Vec<(usize, usize)> =
            self.lasts.iter().map(|s| (0, s.values.len() - 1)).collect();
        let mut stack = vec![whole];
        while let Some(boxed) = stack.pop() {
            scores.truncate(base);
            let mut count = weight.clone();
            for (s, &(lo, hi)) in self.lasts.iter().zip(&boxed) {
                scores.push(s.range(lo, hi));
                let block = s.count(lo, hi);
                count = Some(match count {
                    Some(w) => w * block,
                    None => block,
                });
            }
            let count = count.unwrap_or_default();
            let mut first = at.clone();
            first.extend(boxed.iter().map(|(lo, _)| *lo));
            let decided = self.compiled.decide(&scores);
            let along = match decided {
                Decided::Unsure => self.along(&scores, &boxed, base),
                Decided::Sure(..) => None,
            };
            match (decided, along) {
                (Decided::Sure(code, value), _) => tally.add(code, value, first, count),
                (Decided::Unsure, Some((i, lo, hi))) => {
                    let mid = lo + (hi - lo) / 2;
                    let mut upper = boxed.clone();
                    upper[i] = (mid + 1, hi);
                    let mut lower = boxed;
                    lower[i] = (lo, mid);
                    stack.push(upper);
                    stack.push(lower);
                }
                (Decided::Unsure, _) => {
                    // One throw: the ordinary way (its error, if any, is the resolver's).
                    let mut exact: Vec<i64> = fixed.iter().map(|(_, v, _)| *v).collect();
                    exact.extend(
                        self.lasts
                            .iter()
                            .zip(&boxed)
                            .map(|(s, (lo, _))| s.values[*lo].0),
                    );
                    let f = self.prepared.finish_scores(&exact)?;
                    tally.add(&f.outcome.code, f.outcome.value, first, count);
                }
            }
        }
        Ok(())
    }
}
