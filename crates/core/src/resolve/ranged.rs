//! Exact odds of an opposed roll in one pass over the scores, not one evaluation a pair.
//!
//! The `let`s and `cases` of an opposed lookup are compiled once into small straight-line
//! programs over ranges of scores, the values they read that do not depend on the scores
//! folded in. The last two sides' scores make a plane (rows, the side before the last; columns,
//! the last; any sides before them score by score). The plane is walked a row at a time: each
//! row is cut into runs of columns where the case that holds and its value are sure, and every
//! throw in a run is counted at once from the column side's cumulative counts. A row starts
//! from the previous row's runs (the boundaries move little from one row to the next) and cuts
//! an unsure run from both ends, a piece of 1, 2, 4… columns at a time, so a boundary that
//! moved by one costs a check or two, not a search. A run whose case is sure but whose value
//! follows the columns (rr3's defender wins, losing half the defender's score) is counted in a
//! second pass a column at a time: each column's value over the rows that reach it, against
//! the summed weight of those rows. The rr3 battle at 70,000 a side takes about five checks a
//! row and one a column, where a check a pair took 5,041.
//!
//! The programs follow evalexpr's own rules (whole-number arithmetic checked for overflow and
//! division by zero, `if` evaluating both branches, `&&` both sides); anything they do not know
//! (a float, another function, an `if` whose branches differ in type) leaves the procedure to
//! the pair-by-pair way. A `let` is computed when a case reads it, unless it may fail somewhere
//! on the plane (then always, so its error is not skipped). A range where an error is possible
//! is cut down to single throws, which are evaluated the ordinary way (so an error is the one
//! the resolver gives).

use std::collections::{BTreeMap, HashMap};

use evalexpr::{DefaultNumericTypes, Node, Operator, Value as EvalValue};
use num_bigint::BigUint;
use num_traits::Zero;

use super::{Prepared, ResolveError};
use crate::dice::Distribution;
use crate::rules::{Case, Derived, Scope, Value};

/// A value over a range of scores. A whole number: its least and its most. A flag: which of
/// false ([`NO`]) and true ([`YES`]) it may be. A name: which of the names met it may be, a
/// bit each. (The kind is known when compiling; flags and names keep their bits in `lo`.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct V {
    lo: i64,
    hi: i64,
}

/// The flag may be false.
const NO: i64 = 1;
/// The flag may be true.
const YES: i64 = 2;

impl V {
    fn int(lo: i64, hi: i64) -> V {
        V { lo, hi }
    }

    fn bits(m: i64) -> V {
        V { lo: m, hi: m }
    }

    fn flag(b: bool) -> V {
        V::bits(if b { YES } else { NO })
    }

    fn point(self) -> Option<i64> {
        (self.lo == self.hi).then_some(self.lo)
    }
}

/// What a value is, known when compiling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Int,
    Flag,
    Name,
}

/// Where an instruction reads a value: an earlier instruction's result, a score or `let`
/// (its slot), or a constant.
#[derive(Debug, Clone, Copy)]
enum Arg {
    Reg(u32),
    Slot(u32),
    K(V),
}

#[derive(Debug, Clone, Copy)]
enum Order {
    Gt,
    Ge,
    Lt,
    Le,
    Eq,
    Ne,
}

#[derive(Debug, Clone)]
enum Ins {
    Neg(Arg),
    Not(Arg),
    Add(Arg, Arg),
    Sub(Arg, Arg),
    Mul(Arg, Arg),
    Div(Arg, Arg),
    Rem(Arg, Arg),
    /// Whole numbers compared.
    Order(Order, Arg, Arg),
    /// Flags or names compared by their bits: equal (true) or unequal (false).
    Same(bool, Arg, Arg),
    And(Arg, Arg),
    Or(Arg, Arg),
    If(Arg, Arg, Arg, Kind),
    Extreme(bool, Box<[Arg]>),
    /// Before an `if`'s branch: where the condition is sure the other way (its bits are
    /// `unless`), the branch is not computed — jump to `to` — when nothing in it can fail
    /// anywhere on the plane (`safe`, found before the walk), so evalexpr's computing both
    /// branches could not have raised an error there either.
    Skip {
        cond: Arg,
        unless: i64,
        to: u32,
        safe: bool,
    },
}

/// One compiled expression: its instructions write registers `base..`, its result is `out`.
#[derive(Debug, Clone)]
struct Prog {
    /// The `let`s it reads (by number), to be computed before it runs.
    reads: Vec<u32>,
    ins: Vec<Ins>,
    out: Arg,
    kind: Kind,
    base: usize,
}

/// The most names a lookup may compare (a bit each).
const MAX_NAMES: usize = 62;

struct Compiler<'a> {
    scope: &'a Scope,
    slots: &'a HashMap<String, (u32, Kind)>,
    names: &'a mut Vec<String>,
    ins: Vec<Ins>,
}

impl Compiler<'_> {
    fn name(&mut self, s: &str) -> Option<V> {
        let i = match self.names.iter().position(|n| n == s) {
            Some(i) => i,
            None => {
                if self.names.len() >= MAX_NAMES {
                    return None;
                }
                self.names.push(s.to_string());
                self.names.len() - 1
            }
        };
        Some(V::bits(1 << i))
    }

    fn constant(&mut self, v: &EvalValue<DefaultNumericTypes>) -> Option<(Arg, Kind)> {
        Some(match v {
            EvalValue::Int(i) => (Arg::K(V::int(*i, *i)), Kind::Int),
            EvalValue::Boolean(b) => (Arg::K(V::flag(*b)), Kind::Flag),
            EvalValue::String(s) => (Arg::K(self.name(s)?), Kind::Name),
            _ => return None,
        })
    }

    /// Adds an instruction, or its value when every argument is a constant and it cannot fail.
    fn emit(&mut self, ins: Ins, kind: Kind) -> (Arg, Kind) {
        let mut all_constant = true;
        each_arg(&ins, &mut |a| all_constant &= matches!(a, Arg::K(_)));
        if all_constant && let Some(v) = step(&ins, &[], &[]) {
            return (Arg::K(v), kind);
        }
        self.ins.push(ins);
        (Arg::Reg(self.ins.len() as u32 - 1), kind)
    }

    /// `if(c, t, f)`: the condition, then each branch behind a [`Ins::Skip`] that passes it
    /// by when the condition is sure the other way.
    fn branches(
        &mut self,
        c: &Node<DefaultNumericTypes>,
        t: &Node<DefaultNumericTypes>,
        f: &Node<DefaultNumericTypes>,
    ) -> Option<(Arg, Kind)> {
        let (cond, kc) = self.node(c)?;
        if kc != Kind::Flag {
            return None;
        }
        let branch = |this: &mut Self, node, unless| {
            let at = this.ins.len();
            this.ins.push(Ins::Skip {
                cond,
                unless,
                to: 0,
                safe: false,
            });
            let out = this.node(node);
            let end = this.ins.len() as u32;
            if end as usize == at + 1 {
                this.ins.pop(); // nothing to pass by
            } else if let Some(Ins::Skip { to, .. }) = this.ins.get_mut(at) {
                *to = end;
            }
            out
        };
        let (t, kt) = branch(self, t, NO)?;
        let (f, kf) = branch(self, f, YES)?;
        (kt == kf).then(|| self.emit(Ins::If(cond, t, f, kt), kt))
    }

    /// Compiles a node; None for anything outside whole numbers, flags, names, arithmetic,
    /// comparisons, `if`, `min` and `max`, or kinds mixed where evalexpr would refuse them.
    fn node(&mut self, node: &Node<DefaultNumericTypes>) -> Option<(Arg, Kind)> {
        let kids = node.children();
        match node.operator() {
            Operator::RootNode => match kids {
                [one] => self.node(one),
                _ => None,
            },
            Operator::Const { value } => self.constant(value),
            Operator::VariableIdentifierRead { identifier } => {
                match self.slots.get(identifier.as_str()) {
                    Some((slot, kind)) => Some((Arg::Slot(*slot), *kind)),
                    None => {
                        let v = self.scope.get(identifier)?;
                        match v {
                            Value::Int(i) => Some((Arg::K(V::int(i, i)), Kind::Int)),
                            Value::Bool(b) => Some((Arg::K(V::flag(b)), Kind::Flag)),
                            Value::Text(t) => Some((Arg::K(self.name(&t)?), Kind::Name)),
                        }
                    }
                }
            }
            Operator::Neg => {
                let [one] = kids else { return None };
                let (a, k) = self.node(one)?;
                (k == Kind::Int).then(|| self.emit(Ins::Neg(a), Kind::Int))
            }
            Operator::Not => {
                let [one] = kids else { return None };
                let (a, k) = self.node(one)?;
                (k == Kind::Flag).then(|| self.emit(Ins::Not(a), Kind::Flag))
            }
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
            | Operator::Or) => {
                let [x, y] = kids else { return None };
                let ((a, ka), (b, kb)) = (self.node(x)?, self.node(y)?);
                let ints = ka == Kind::Int && kb == Kind::Int;
                let flags = ka == Kind::Flag && kb == Kind::Flag;
                Some(match op {
                    Operator::Add if ints => self.emit(Ins::Add(a, b), Kind::Int),
                    Operator::Sub if ints => self.emit(Ins::Sub(a, b), Kind::Int),
                    Operator::Mul if ints => self.emit(Ins::Mul(a, b), Kind::Int),
                    Operator::Div if ints => self.emit(Ins::Div(a, b), Kind::Int),
                    Operator::Mod if ints => self.emit(Ins::Rem(a, b), Kind::Int),
                    Operator::And if flags => self.emit(Ins::And(a, b), Kind::Flag),
                    Operator::Or if flags => self.emit(Ins::Or(a, b), Kind::Flag),
                    Operator::Eq | Operator::Neq => {
                        let equal = matches!(op, Operator::Eq);
                        if ints {
                            let o = if equal { Order::Eq } else { Order::Ne };
                            self.emit(Ins::Order(o, a, b), Kind::Flag)
                        } else if ka == kb {
                            self.emit(Ins::Same(equal, a, b), Kind::Flag)
                        } else {
                            // Values of different kinds are never equal (both are still
                            // computed above, so an error in either is not skipped).
                            (Arg::K(V::flag(!equal)), Kind::Flag)
                        }
                    }
                    Operator::Gt | Operator::Lt | Operator::Geq | Operator::Leq if ints => {
                        let o = match op {
                            Operator::Gt => Order::Gt,
                            Operator::Lt => Order::Lt,
                            Operator::Geq => Order::Ge,
                            _ => Order::Le,
                        };
                        self.emit(Ins::Order(o, a, b), Kind::Flag)
                    }
                    _ => return None,
                })
            }
            Operator::FunctionIdentifier { identifier } => {
                let [args] = kids else { return None };
                let mut args = args;
                while matches!(args.operator(), Operator::RootNode) && args.children().len() == 1 {
                    args = &args.children()[0];
                }
                // `if`, `min` and `max` take a tuple (evalexpr refuses a single value).
                if !matches!(args.operator(), Operator::Tuple) {
                    return None;
                }
                if identifier == "if"
                    && let [c, t, f] = args.children()
                {
                    return self.branches(c, t, f);
                }
                let list: Vec<(Arg, Kind)> = args
                    .children()
                    .iter()
                    .map(|a| self.node(a))
                    .collect::<Option<_>>()?;
                match (identifier.as_str(), list.as_slice()) {
                    ("max" | "min", [_, ..]) if list.iter().all(|(_, k)| *k == Kind::Int) => {
                        let highest = identifier == "max";
                        let args = list.iter().map(|(a, _)| *a).collect();
                        Some(self.emit(Ins::Extreme(highest, args), Kind::Int))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// Division and remainder as evalexpr does them (truncating, checked), over ranges: the
/// corners bound a truncating division by a divisor of one sign; a remainder only of points.
fn divide(div: bool, a: V, b: V) -> Option<V> {
    if b.lo <= 0 && b.hi >= 0 {
        return None; // a zero divisor is possible: an error at that score
    }
    let f = |x: i64, y: i64| {
        if div {
            x.checked_div(y)
        } else {
            x.checked_rem(y)
        }
    };
    if !div && (a.lo != a.hi || b.lo != b.hi) {
        return None;
    }
    let c = [
        f(a.lo, b.lo)?,
        f(a.lo, b.hi)?,
        f(a.hi, b.lo)?,
        f(a.hi, b.hi)?,
    ];
    Some(V::int(
        c[0].min(c[1]).min(c[2]).min(c[3]),
        c[0].max(c[1]).max(c[2]).max(c[3]),
    ))
}

/// Two sets of bits (flags or names) compared: may they be equal, may they differ.
fn same(equal: bool, a: i64, b: i64) -> V {
    let may_equal = a & b != 0;
    let may_differ = !(a == b && a.count_ones() == 1);
    let (yes, no) = if equal {
        (may_equal, may_differ)
    } else {
        (may_differ, may_equal)
    };
    V::bits(if no { NO } else { 0 } | if yes { YES } else { 0 })
}

/// Calls `f` on each of an instruction's arguments.
fn each_arg(ins: &Ins, f: &mut dyn FnMut(&Arg)) {
    match ins {
        Ins::Neg(a) | Ins::Not(a) => f(a),
        Ins::Add(a, b)
        | Ins::Sub(a, b)
        | Ins::Mul(a, b)
        | Ins::Div(a, b)
        | Ins::Rem(a, b)
        | Ins::Order(_, a, b)
        | Ins::Same(_, a, b)
        | Ins::And(a, b)
        | Ins::Or(a, b) => {
            f(a);
            f(b);
        }
        Ins::If(c, t, f_, _) => {
            f(c);
            f(t);
            f(f_);
        }
        Ins::Extreme(_, args) => args.iter().for_each(f),
        Ins::Skip { cond, .. } => f(cond),
    }
}

/// One instruction over ranges; None where an error is possible.
#[inline]
fn step(ins: &Ins, regs: &[V], slots: &[V]) -> Option<V> {
    let get = |a: &Arg| match *a {
        Arg::Reg(r) => regs.get(r as usize).copied(),
        Arg::Slot(s) => slots.get(s as usize).copied(),
        Arg::K(v) => Some(v),
    };
    Some(match ins {
        Ins::Neg(a) => {
            let a = get(a)?;
            V::int(a.hi.checked_neg()?, a.lo.checked_neg()?)
        }
        Ins::Not(a) => {
            let m = get(a)?.lo;
            V::bits((m & NO) << 1 | (m & YES) >> 1)
        }
        Ins::Add(a, b) => {
            let (a, b) = (get(a)?, get(b)?);
            V::int(a.lo.checked_add(b.lo)?, a.hi.checked_add(b.hi)?)
        }
        Ins::Sub(a, b) => {
            let (a, b) = (get(a)?, get(b)?);
            V::int(a.lo.checked_sub(b.hi)?, a.hi.checked_sub(b.lo)?)
        }
        Ins::Mul(a, b) => {
            let (a, b) = (get(a)?, get(b)?);
            let c = [
                a.lo.checked_mul(b.lo)?,
                a.lo.checked_mul(b.hi)?,
                a.hi.checked_mul(b.lo)?,
                a.hi.checked_mul(b.hi)?,
            ];
            V::int(
                c[0].min(c[1]).min(c[2]).min(c[3]),
                c[0].max(c[1]).max(c[2]).max(c[3]),
            )
        }
        Ins::Div(a, b) => divide(true, get(a)?, get(b)?)?,
        Ins::Rem(a, b) => divide(false, get(a)?, get(b)?)?,
        Ins::Order(o, a, b) => {
            let (a, b) = (get(a)?, get(b)?);
            // (sure, possible): a > b is sure when a's least beats b's most.
            let (sure, possible) = match o {
                Order::Gt => (a.lo > b.hi, a.hi > b.lo),
                Order::Ge => (a.lo >= b.hi, a.hi >= b.lo),
                Order::Lt => (a.hi < b.lo, a.lo < b.hi),
                Order::Le => (a.hi <= b.lo, a.lo <= b.hi),
                Order::Eq | Order::Ne => {
                    let disjoint = a.hi < b.lo || b.hi < a.lo;
                    let same = a.lo == a.hi && b.lo == b.hi && a.lo == b.lo;
                    if matches!(o, Order::Eq) {
                        (same, !disjoint)
                    } else {
                        (disjoint, !same)
                    }
                }
            };
            V::bits(if sure { 0 } else { NO } | if possible { YES } else { 0 })
        }
        Ins::Same(equal, a, b) => same(*equal, get(a)?.lo, get(b)?.lo),
        Ins::And(a, b) => {
            let (a, b) = (get(a)?.lo, get(b)?.lo);
            let no = (a & NO) | (b & NO);
            V::bits(no | (a & b & YES))
        }
        Ins::Or(a, b) => {
            let (a, b) = (get(a)?.lo, get(b)?.lo);
            V::bits((a & b & NO) | (a & YES) | (b & YES))
        }
        Ins::If(c, t, f, kind) => {
            // evalexpr evaluates both branches: an error in either is an error.
            let (c, t, f) = (get(c)?.lo, get(t)?, get(f)?);
            match (c & NO != 0, c & YES != 0) {
                (false, true) => t,
                (true, false) => f,
                _ => match kind {
                    Kind::Int => V::int(t.lo.min(f.lo), t.hi.max(f.hi)),
                    _ => V::bits(t.lo | f.lo),
                },
            }
        }
        Ins::Skip { .. } => V::int(0, 0),
        Ins::Extreme(highest, args) => {
            let mut out: Option<V> = None;
            for a in args.iter() {
                let v = get(a)?;
                out = Some(match out {
                    None => v,
                    Some(o) if *highest => V::int(o.lo.max(v.lo), o.hi.max(v.hi)),
                    Some(o) => V::int(o.lo.min(v.lo), o.hi.min(v.hi)),
                });
            }
            out?
        }
    })
}

/// An opposed lookup compiled: its `let`s (slots after the sides' scores) and its cases.
struct Compiled {
    sides: usize,
    lets: Vec<Prog>,
    /// Lets computed before every check: those that may fail somewhere on the plane.
    eager: Vec<bool>,
    cases: Vec<(Option<Prog>, Option<Prog>)>,
    codes: Vec<String>,
    registers: usize,
}

/// What a range of throws decides: the case that holds and its value, the case alone (its
/// value varies over the range), or nothing sure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Sure(u32, Option<i64>),
    Case(u32),
    Unsure,
}

impl Class {
    /// The case, for carrying runs from one row to the next.
    fn case(self) -> Option<u32> {
        match self {
            Class::Sure(k, _) | Class::Case(k) => Some(k),
            Class::Unsure => None,
        }
    }
}

/// The values of one check: the sides' scores, then the `let`s as they are computed.
struct Env {
    slots: Vec<V>,
    ready: Vec<bool>,
    regs: Vec<V>,
}

impl Compiled {
    fn new(
        prepared: &Prepared,
        side_names: &[String],
        lets: &[Derived],
        cases: &[Case],
    ) -> Option<Compiled> {
        let mut slots: HashMap<String, (u32, Kind)> = side_names
            .iter()
            .enumerate()
            .map(|(i, n)| (format!("{n}_score"), (i as u32, Kind::Int)))
            .collect();
        let scope = prepared.scope();
        let mut names = Vec::new();
        let mut registers = 0;
        let mut compile = |node: &Node<DefaultNumericTypes>,
                           slots: &HashMap<String, (u32, Kind)>|
         -> Option<Prog> {
            let mut c = Compiler {
                scope,
                slots,
                names: &mut names,
                ins: Vec::new(),
            };
            let (out, kind) = c.node(node)?;
            let mut reads = Vec::new();
            let mut note = |a: &Arg| {
                if let Arg::Slot(slot) = a
                    && let Some(l) = (*slot as usize).checked_sub(side_names.len())
                    && !reads.contains(&(l as u32))
                {
                    reads.push(l as u32);
                }
            };
            c.ins.iter().for_each(|i| each_arg(i, &mut note));
            note(&out);
            let prog = Prog {
                reads,
                base: registers,
                out,
                kind,
                ins: c.ins,
            };
            registers += prog.ins.len();
            Some(prog)
        };
        let mut progs = Vec::with_capacity(lets.len());
        for l in lets {
            let prog = compile(l.expr.node(), &slots)?;
            let next = (side_names.len() + progs.len()) as u32;
            slots.insert(l.name.clone(), (next, prog.kind));
            progs.push(prog);
        }
        let mut compiled_cases = Vec::with_capacity(cases.len());
        for c in cases {
            let when = match &c.when {
                Some(w) => Some(compile(w.node(), &slots).filter(|p| p.kind == Kind::Flag)?),
                None => None,
            };
            let value = match &c.value {
                Some(v) => Some(compile(v.node(), &slots).filter(|p| p.kind == Kind::Int)?),
                None => None,
            };
            compiled_cases.push((when, value));
        }
        Some(Compiled {
            sides: side_names.len(),
            eager: vec![false; progs.len()],
            lets: progs,
            cases: compiled_cases,
            codes: cases.iter().map(|c| c.outcome.clone()).collect(),
            registers,
        })
    }

    fn env(&self) -> Env {
        Env {
            slots: vec![V::int(0, 0); self.sides + self.lets.len()],
            ready: vec![false; self.lets.len()],
            regs: vec![V::int(0, 0); self.registers],
        }
    }

    /// Marks the lets that may fail somewhere on the plane (their ranges over every score):
    /// they are computed at every check, so no error is skipped by not reading them.
    fn find_eager(&mut self, whole: &[V]) {
        let mut env = self.env();
        env.slots[..whole.len()].copy_from_slice(whole);
        for i in 0..self.lets.len() {
            env.ready.fill(false);
            self.eager[i] = self.let_value(i, &mut env).is_none();
        }
        // Which branches may be passed by: those where nothing can fail on the plane.
        env.ready.fill(false);
        let mut found = Vec::new();
        let progs = (self.lets.iter()).chain(
            self.cases
                .iter()
                .flat_map(|(w, v)| w.iter().chain(v.iter())),
        );
        for prog in progs {
            found.push(self.survey(prog, &mut env));
        }
        let progs = (self.lets.iter_mut())
            .chain((self.cases.iter_mut()).flat_map(|(w, v)| w.iter_mut().chain(v.iter_mut())));
        for (prog, ok) in progs.zip(found) {
            let ranges: Vec<(usize, usize)> = (prog.ins.iter().enumerate())
                .filter_map(|(i, ins)| match ins {
                    Ins::Skip { to, .. } => Some((i + 1, *to as usize)),
                    _ => None,
                })
                .collect();
            let mut k = 0;
            for ins in &mut prog.ins {
                if let Ins::Skip { safe, .. } = ins {
                    let (a, b) = ranges[k];
                    *safe = ok.get(a..b).is_some_and(|r| r.iter().all(|&o| o));
                    k += 1;
                }
            }
        }
    }

    /// Every instruction of `prog` over the whole plane, branches and all: which can be
    /// computed without error everywhere (one that reads a failed one fails with it).
    fn survey(&self, prog: &Prog, env: &mut Env) -> Vec<bool> {
        let lets_ok = (prog.reads.iter()).all(|&l| self.let_value(l as usize, env).is_some());
        let mut ok = vec![lets_ok; prog.ins.len()];
        if !lets_ok {
            return ok;
        }
        for (i, ins) in prog.ins.iter().enumerate() {
            let mut reads_ok = true;
            each_arg(ins, &mut |a| {
                if let Arg::Reg(r) = a {
                    reads_ok &= ok.get(*r as usize).copied().unwrap_or(false);
                }
            });
            let at = prog.base + i;
            match step(ins, &env.regs[prog.base..at], &env.slots) {
                Some(v) if reads_ok => env.regs[at] = v,
                _ => ok[i] = false,
            }
        }
        ok
    }

    #[inline]
    fn run(&self, prog: &Prog, env: &mut Env) -> Option<V> {
        for &l in &prog.reads {
            self.let_value(l as usize, env)?;
        }
        let mut i = 0;
        while let Some(ins) = prog.ins.get(i) {
            let at = prog.base + i;
            if let Ins::Skip {
                cond,
                unless,
                to,
                safe: true,
            } = ins
            {
                let c = match *cond {
                    Arg::Reg(r) => env.regs[prog.base + r as usize],
                    Arg::Slot(s) => env.slots[s as usize],
                    Arg::K(v) => v,
                };
                i = if c.lo == *unless { *to as usize } else { i + 1 };
                continue;
            }
            env.regs[at] = step(ins, &env.regs[prog.base..at], &env.slots)?;
            i += 1;
        }
        match prog.out {
            Arg::Reg(r) => env.regs.get(prog.base + r as usize).copied(),
            Arg::Slot(s) => env.slots.get(s as usize).copied(),
            Arg::K(v) => Some(v),
        }
    }

    /// `let` number `l`, computed on first reading.
    fn let_value(&self, l: usize, env: &mut Env) -> Option<V> {
        let slot = self.sides + l;
        if !env.ready[l] {
            env.slots[slot] = self.run(&self.lets[l], env)?;
            env.ready[l] = true;
        }
        Some(env.slots[slot])
    }

    /// A new check: no `let` computed yet but the eager ones.
    fn fresh(&self, env: &mut Env) -> Option<()> {
        env.ready.fill(false);
        for (i, eager) in self.eager.iter().enumerate() {
            if *eager {
                self.let_value(i, env)?;
            }
        }
        Some(())
    }

    /// What the scores in `env` decide.
    fn classify(&self, env: &mut Env) -> Class {
        if self.fresh(env).is_none() {
            return Class::Unsure;
        }
        for (k, (when, value)) in self.cases.iter().enumerate() {
            let holds = match when {
                None => YES,
                Some(w) => match self.run(w, env) {
                    Some(v) => v.lo,
                    None => return Class::Unsure,
                },
            };
            match (holds & NO != 0, holds & YES != 0) {
                (true, false) => continue,
                (false, true) => {}
                _ => return Class::Unsure,
            }
            let k = k as u32;
            return match value {
                None => Class::Sure(k, None),
                Some(p) => match self.run(p, env) {
                    None => Class::Unsure,
                    Some(v) => match v.point() {
                        Some(x) => Class::Sure(k, Some(x)),
                        None => Class::Case(k),
                    },
                },
            };
        }
        Class::Unsure
    }

    /// Case `k`'s value over the scores in `env` (its case is known to hold there).
    fn value(&self, k: usize, env: &mut Env) -> Option<V> {
        self.fresh(env)?;
        let prog = self.cases[k].1.as_ref()?;
        self.run(prog, env)
    }
}

/// Counts as machine words when every product fits (the rr3 battle at 70,000 a side: 6²⁸
/// throws), as big numbers otherwise.
trait Count: Clone {
    fn zero() -> Self;
    fn from_big(b: &BigUint) -> Self;
    fn plus(&mut self, o: &Self);
    fn minus(&mut self, o: &Self);
    fn times(&self, o: &Self) -> Self;
    fn big(self) -> BigUint;
}

impl Count for u128 {
    fn zero() -> u128 {
        0
    }
    fn from_big(b: &BigUint) -> u128 {
        u128::try_from(b).unwrap_or(u128::MAX)
    }
    fn plus(&mut self, o: &u128) {
        *self += o;
    }
    fn minus(&mut self, o: &u128) {
        *self -= o;
    }
    fn times(&self, o: &u128) -> u128 {
        self * o
    }
    fn big(self) -> BigUint {
        BigUint::from(self)
    }
}

/// A count of four 64-bit words, for throws past 128 bits and below 256 (the rr3 battle at
/// 200,000 a side: 6⁸⁰ throws). Every sum and product the walk makes is at most the number of
/// throws, so wrapping arithmetic is exact here. (A fixed-width number is all this needs; a
/// crate for wide integers would bring far more than four operations.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct U256([u64; 4]);

impl Count for U256 {
    fn zero() -> U256 {
        U256([0; 4])
    }
    fn from_big(b: &BigUint) -> U256 {
        let mut words = [0u64; 4];
        for (w, d) in words.iter_mut().zip(b.iter_u64_digits()) {
            *w = d;
        }
        U256(words)
    }
    fn plus(&mut self, o: &U256) {
        let mut carry = 0u128;
        for (a, b) in self.0.iter_mut().zip(o.0) {
            let t = u128::from(*a) + u128::from(b) + carry;
            *a = t as u64;
            carry = t >> 64;
        }
    }
    fn minus(&mut self, o: &U256) {
        let mut borrow = 0u64;
        for (a, b) in self.0.iter_mut().zip(o.0) {
            let (d, b1) = a.overflowing_sub(b);
            let (d, b2) = d.overflowing_sub(borrow);
            *a = d;
            borrow = u64::from(b1 || b2);
        }
    }
    fn times(&self, o: &U256) -> U256 {
        let mut out = [0u64; 4];
        for i in 0..4 {
            let mut carry = 0u128;
            for j in 0..4 - i {
                let t = u128::from(self.0[i]) * u128::from(o.0[j]) + u128::from(out[i + j]) + carry;
                out[i + j] = t as u64;
                carry = t >> 64;
            }
        }
        U256(out)
    }
    fn big(self) -> BigUint {
        BigUint::from_slice(
            &self
                .0
                .iter()
                .flat_map(|w| [*w as u32, (*w >> 32) as u32])
                .collect::<Vec<u32>>(),
        )
    }
}

impl Count for BigUint {
    fn zero() -> BigUint {
        Zero::zero()
    }
    fn from_big(b: &BigUint) -> BigUint {
        b.clone()
    }
    fn plus(&mut self, o: &BigUint) {
        *self += o;
    }
    fn minus(&mut self, o: &BigUint) {
        *self -= o;
    }
    fn times(&self, o: &BigUint) -> BigUint {
        self * o
    }
    fn big(self) -> BigUint {
        self
    }
}

/// One side's scores, their counts and cumulative counts (`cum[i]`: the first `i` scores).
struct Scores<C> {
    values: Vec<i64>,
    counts: Vec<C>,
    cum: Vec<C>,
}

impl<C: Count> Scores<C> {
    fn new(d: &Distribution) -> Scores<C> {
        let n = d.counts().size_hint().0;
        let (mut values, mut counts) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let mut cum = Vec::with_capacity(n + 1);
        cum.push(C::zero());
        for (v, c) in d.counts() {
            let c = C::from_big(c);
            let mut next = cum[cum.len() - 1].clone();
            next.plus(&c);
            cum.push(next);
            values.push(v);
            counts.push(c);
        }
        Scores {
            values,
            counts,
            cum,
        }
    }

    fn range(&self, lo: usize, hi: usize) -> V {
        V::int(self.values[lo], self.values[hi])
    }

    fn block(&self, lo: usize, hi: usize) -> C {
        let mut b = self.cum[hi + 1].clone();
        b.minus(&self.cum[lo]);
        b
    }
}

/// Counts by outcome (its code and value), in the order first reached; each outcome once.
pub(super) type Counted = Vec<(String, Option<i64>, BigUint)>;

/// The first throw reaching an outcome: the combination of the first sides, then row, column.
type At = (usize, usize, usize);

/// Counts by outcome, each with the first throw (in the order of the sides' scores, lowest
/// first) that reaches it: the order the pair-by-pair way met them in. By case, then value;
/// throws counted the ordinary way by their outcome's code.
struct Tally<C> {
    cases: Vec<BTreeMap<Option<i64>, (At, C)>>,
    codes: BTreeMap<(String, Option<i64>), (At, C)>,
}

fn count_into<K: Ord, C: Count>(map: &mut BTreeMap<K, (At, C)>, key: K, at: At, count: C) {
    match map.entry(key) {
        std::collections::btree_map::Entry::Occupied(mut o) => {
            let (first, c) = o.get_mut();
            c.plus(&count);
            if at < *first {
                *first = at;
            }
        }
        std::collections::btree_map::Entry::Vacant(v) => {
            v.insert((at, count));
        }
    }
}

impl<C: Count> Tally<C> {
    fn new(cases: usize) -> Tally<C> {
        Tally {
            cases: (0..cases).map(|_| BTreeMap::new()).collect(),
            codes: BTreeMap::new(),
        }
    }

    fn add(&mut self, case: u32, value: Option<i64>, at: At, count: C) {
        if let Some(map) = self.cases.get_mut(case as usize) {
            count_into(map, value, at, count);
        }
    }

    fn add_code(&mut self, code: String, value: Option<i64>, at: At, count: C) {
        count_into(&mut self.codes, (code, value), at, count);
    }

    fn done(self, codes: &[String]) -> Counted {
        // Each case its own outcome and no throw counted the ordinary way: the counts are the
        // outcomes'. Otherwise cases that share an outcome, and those throws, merge by code.
        let unique = self.codes.is_empty()
            && (codes.iter().enumerate()).all(|(i, c)| !codes[..i].contains(c));
        if unique {
            let mut keyed: Vec<(At, usize, Option<i64>, C)> = Vec::new();
            for (k, map) in self.cases.into_iter().enumerate() {
                keyed.extend(map.into_iter().map(|(v, (at, c))| (at, k, v, c)));
            }
            keyed.sort_unstable_by_key(|k| k.0);
            return keyed
                .into_iter()
                .map(|(_, k, v, c)| (codes[k].clone(), v, c.big()))
                .collect();
        }
        let mut by_code: BTreeMap<(&str, Option<i64>), (At, C)> = BTreeMap::new();
        let cases = self.cases.iter().enumerate().flat_map(|(k, map)| {
            map.iter()
                .map(move |(value, (at, c))| ((codes[k].as_str(), *value), (*at, c)))
        });
        let ordinary = self
            .codes
            .iter()
            .map(|((code, value), (at, c))| ((code.as_str(), *value), (*at, c)));
        for (key, (at, count)) in cases.chain(ordinary) {
            match by_code.entry(key) {
                std::collections::btree_map::Entry::Occupied(mut o) => {
                    let (first, c) = o.get_mut();
                    c.plus(count);
                    *first = (*first).min(at);
                }
                std::collections::btree_map::Entry::Vacant(v) => {
                    v.insert((at, count.clone()));
                }
            }
        }
        let mut keyed: Vec<_> = by_code.into_iter().collect();
        keyed.sort_unstable_by_key(|k| k.1.0);
        keyed
            .into_iter()
            .map(|((code, value), (_, count))| (code.to_string(), value, count.big()))
            .collect()
    }
}

/// The opposed roll's outcomes over every score of each side: the sides before the last two
/// score by score, the last two as a plane walked a row at a time. None when the lookup reads
/// something the programs do not know (the caller then evaluates pair by pair).
pub(super) fn opposed_by_ranges(
    prepared: &Prepared,
    side_names: &[String],
    lets: &[Derived],
    cases: &[Case],
    dists: &[Distribution],
) -> Option<Result<Counted, ResolveError>> {
    let mut compiled = Compiled::new(prepared, side_names, lets, cases)?;
    // (A lookup has two sides or more; the plane needs two.)
    if dists.len() < 2 || dists.iter().any(|d| d.counts().next().is_none()) {
        return None;
    }
    let whole: Vec<V> = dists
        .iter()
        .map(|d| V::int(d.min().unwrap_or(0), d.max().unwrap_or(0)))
        .collect();
    compiled.find_eager(&whole);
    let total = dists.iter().fold(BigUint::from(1u8), |t, d| t * d.total());
    Some(if total.bits() < 128 {
        walk::<u128>(prepared, &compiled, dists)
    } else if total.bits() < 256 {
        walk::<U256>(prepared, &compiled, dists)
    } else {
        walk::<BigUint>(prepared, &compiled, dists)
    })
}

fn walk<C: Count>(
    prepared: &Prepared,
    compiled: &Compiled,
    dists: &[Distribution],
) -> Result<Counted, ResolveError> {
    let split = dists.len().saturating_sub(2);
    let (firsts, lasts) = dists.split_at(split);
    let (rows, cols) = (Scores::<C>::new(&lasts[0]), Scores::<C>::new(&lasts[1]));
    let plane = Plane {
        prepared,
        compiled,
        rows,
        cols,
        base: split,
    };
    let mut tally = Tally::new(compiled.cases.len());
    let mut env = compiled.env();
    let mut fixed: Vec<(i64, C)> = Vec::new();
    let mut order = 0;
    plane.firsts(firsts, &mut fixed, &mut order, &mut env, &mut tally)?;
    Ok(tally.done(&compiled.codes))
}

struct Plane<'a, C> {
    prepared: &'a Prepared<'a>,
    compiled: &'a Compiled,
    rows: Scores<C>,
    cols: Scores<C>,
    /// The slot of the first of the plane's sides (the sides before it are fixed).
    base: usize,
}

/// A run of columns in one row and what it decides.
type Run = (usize, usize, Class);

impl<C: Count> Plane<'_, C> {
    /// Every combination of the first sides' scores, then the plane.
    fn firsts(
        &self,
        firsts: &[Distribution],
        fixed: &mut Vec<(i64, C)>,
        order: &mut usize,
        env: &mut Env,
        tally: &mut Tally<C>,
    ) -> Result<(), ResolveError> {
        if let Some((d, rest)) = firsts.split_first() {
            for (v, c) in d.counts() {
                let c = C::from_big(c);
                let count = fixed.last().map_or_else(|| c.clone(), |(_, w)| w.times(&c));
                fixed.push((v, count));
                self.firsts(rest, fixed, order, env, tally)?;
                fixed.pop();
            }
            return Ok(());
        }
        for (i, (v, _)) in fixed.iter().enumerate() {
            env.slots[i] = V::int(*v, *v);
        }
        let weight = fixed.last().map(|(_, w)| w.clone());
        let scores: Vec<i64> = fixed.iter().map(|(v, _)| *v).collect();
        self.plane(weight, &scores, *order, env, tally)?;
        *order += 1;
        Ok(())
    }

    /// Sets the plane's scores in `env`: rows `r0..=r1`, columns `c0..=c1`.
    fn set(&self, env: &mut Env, (r0, r1): (usize, usize), (c0, c1): (usize, usize)) {
        env.slots[self.base] = self.rows.range(r0, r1);
        env.slots[self.base + 1] = self.cols.range(c0, c1);
    }

    fn classify(&self, env: &mut Env, r: usize, c0: usize, c1: usize) -> Class {
        self.set(env, (r, r), (c0, c1));
        self.compiled.classify(env)
    }

    /// Halves an unsure run down to what decides (single columns at worst).
    fn bisect(&self, env: &mut Env, r: usize, c0: usize, c1: usize, out: &mut Vec<Run>) {
        let class = self.classify(env, r, c0, c1);
        if class != Class::Unsure || c0 == c1 {
            out.push((c0, c1, class));
            return;
        }
        let mid = c0 + (c1 - c0) / 2;
        self.bisect(env, r, c0, mid, out);
        self.bisect(env, r, mid + 1, c1, out);
    }

    /// Cuts a run of row `r`: whole if it decides, else pieces of 1, 2, 4… columns from each
    /// end in turn, the middle checked whole after each, so a boundary near either end (where
    /// the previous row left it) costs a check or two.
    fn segment(&self, env: &mut Env, r: usize, c0: usize, c1: usize, out: &mut Vec<Run>) {
        let class = self.classify(env, r, c0, c1);
        if class != Class::Unsure || c0 == c1 {
            out.push((c0, c1, class));
            return;
        }
        let start = out.len();
        let (mut a, mut b, mut step) = (c0, c1, 1usize);
        loop {
            let end = (a + step - 1).min(b);
            self.bisect(env, r, a, end, out);
            a = end + 1;
            if a > b {
                break;
            }
            let middle = self.classify(env, r, a, b);
            if middle != Class::Unsure || a == b {
                out.push((a, b, middle));
                break;
            }
            let from = b.saturating_sub(step - 1).max(a);
            self.bisect(env, r, from, b, out);
            if from == a {
                break;
            }
            b = from - 1;
            let middle = self.classify(env, r, a, b);
            if middle != Class::Unsure || a == b {
                out.push((a, b, middle));
                break;
            }
            step *= 2;
        }
        out[start..].sort_unstable_by_key(|run| run.0);
    }

    /// One throw the ordinary way (its error, if any, is the resolver's).
    fn single(
        &self,
        fixed: &[i64],
        r: usize,
        c: usize,
        at: At,
        count: C,
        tally: &mut Tally<C>,
    ) -> Result<(), ResolveError> {
        let mut exact = fixed.to_vec();
        exact.extend([self.rows.values[r], self.cols.values[c]]);
        let f = self.prepared.finish_scores(&exact)?;
        tally.add_code(f.outcome.code, f.outcome.value, at, count);
        Ok(())
    }

    fn plane(
        &self,
        weight: Option<C>,
        fixed: &[i64],
        order: usize,
        env: &mut Env,
        tally: &mut Tally<C>,
    ) -> Result<(), ResolveError> {
        #[cfg(test)]
        PLANES.with(|p| p.set(p.get() + 1));
        let columns = self.cols.values.len();
        let cases = self.compiled.cases.len();
        let mut guesses: Vec<(usize, usize)> = vec![(0, columns - 1)];
        let mut ends: Vec<usize> = Vec::new();
        let mut runs: Vec<Run> = Vec::new();
        let mut deferred: Vec<Vec<(usize, usize, usize)>> = vec![Vec::new(); cases];
        let mut row_weights: Vec<C> = Vec::with_capacity(self.rows.values.len());
        for r in 0..self.rows.values.len() {
            let w = match &weight {
                Some(w) => w.times(&self.rows.counts[r]),
                None => self.rows.counts[r].clone(),
            };
            runs.clear();
            for &(c0, c1) in &guesses {
                self.segment(env, r, c0, c1, &mut runs);
            }
            guesses.clear();
            let mut last_case: Option<u32> = None;
            let mut k = 0;
            while k < runs.len() {
                // Runs that decide alike are counted together.
                let (c0, mut c1, class) = runs[k];
                k += 1;
                while k < runs.len() && runs[k].2 == class && class != Class::Unsure {
                    c1 = runs[k].1;
                    k += 1;
                }
                match class {
                    Class::Sure(case, value) => {
                        let count = w.times(&self.cols.block(c0, c1));
                        tally.add(case, value, (order, r, c0), count);
                    }
                    Class::Case(case) => deferred[case as usize].push((r, c0, c1)),
                    Class::Unsure => {
                        let count = w.times(&self.cols.counts[c0]);
                        self.single(fixed, r, c0, (order, r, c0), count, tally)?;
                    }
                }
                // The next row starts from this row's runs of one case (unsure columns
                // together).
                match guesses.last_mut() {
                    Some(last) if last_case == class.case() => last.1 = c1,
                    _ => guesses.push((c0, c1)),
                }
                last_case = class.case();
            }
            row_weights.push(w);
            predict(&mut guesses, &mut ends, columns);
        }
        for (k, runs) in deferred.iter().enumerate() {
            if !runs.is_empty() {
                self.columns(k, runs, &row_weights, fixed, order, env, tally)?;
            }
        }
        Ok(())
    }

    /// Case `k`'s runs whose value follows the columns, a column at a time: the value over
    /// the rows that reach the column (it holds for each of them when it is one number over
    /// all), against their summed weight; where it is not one number, throw by throw.
    #[allow(clippy::too_many_arguments)]
    fn columns(
        &self,
        k: usize,
        runs: &[(usize, usize, usize)],
        row_weights: &[C],
        fixed: &[i64],
        order: usize,
        env: &mut Env,
        tally: &mut Tally<C>,
    ) -> Result<(), ResolveError> {
        let n = self.cols.values.len();
        // Each column's first and last row among the runs (runs come in row order), by a
        // "next column not yet reached" list, so each column is settled once.
        let reach = |runs: &mut dyn Iterator<Item = &(usize, usize, usize)>| {
            let mut next: Vec<usize> = (0..=n).collect();
            let mut row = vec![usize::MAX; n];
            for &(r, c0, c1) in runs {
                let mut c = find(&mut next, c0);
                while c <= c1 {
                    row[c] = r;
                    next[c] = c + 1;
                    c = find(&mut next, c + 1);
                }
            }
            row
        };
        let first = reach(&mut runs.iter());
        let last = reach(&mut runs.iter().rev());
        // The summed weight of the rows reaching each column.
        let (mut starts, mut ends) = (vec![C::zero(); n], vec![C::zero(); n]);
        for &(r, c0, c1) in runs {
            starts[c0].plus(&row_weights[r]);
            ends[c1].plus(&row_weights[r]);
        }
        let mut weight = C::zero();
        let mut by_throw = Vec::new();
        for c in 0..n {
            weight.plus(&starts[c]);
            if first[c] != usize::MAX {
                self.set(env, (first[c], last[c]), (c, c));
                match self.compiled.value(k, env).and_then(V::point) {
                    Some(v) => {
                        let count = weight.times(&self.cols.counts[c]);
                        tally.add(k as u32, Some(v), (order, first[c], c), count);
                    }
                    None => by_throw.push(c),
                }
            }
            weight.minus(&ends[c]);
        }
        for &(r, c0, c1) in runs {
            let from = by_throw.partition_point(|&c| c < c0);
            for &c in by_throw[from..].iter().take_while(|&&c| c <= c1) {
                let count = row_weights[r].times(&self.cols.counts[c]);
                self.set(env, (r, r), (c, c));
                match self.compiled.value(k, env).and_then(V::point) {
                    Some(v) => tally.add(k as u32, Some(v), (order, r, c), count),
                    None => self.single(fixed, r, c, (order, r, c), count, tally)?,
                }
            }
        }
        Ok(())
    }
}

/// The next row's runs from this row's: where the row's runs are as many as the previous
/// row's, each boundary moves on as far as it just moved (rr3's diagonal, a column a row), so
/// a steady boundary costs no check to find; `ends` keeps this row's boundaries for the next.
fn predict(guesses: &mut Vec<(usize, usize)>, ends: &mut Vec<usize>, columns: usize) {
    if guesses.len() == ends.len() && guesses.len() > 1 {
        let last = guesses.len() - 1;
        let mut start = 0;
        let mut kept = 0;
        for i in 0..guesses.len() {
            let (e, before) = (guesses[i].1, ends[i]);
            ends[i] = e;
            let moved = (2 * e as i64 - before as i64).clamp(0, columns as i64 - 1) as usize;
            let end = if i == last { columns - 1 } else { moved };
            // A run squeezed out by its neighbours is dropped (its columns go to the next).
            if end >= start && (i == last || end < columns - 1) {
                guesses[kept] = (start, end);
                kept += 1;
                start = end + 1;
            }
        }
        guesses.truncate(kept.max(1));
        if let Some(g) = guesses.last_mut() {
            g.1 = columns - 1;
        }
    } else {
        ends.clear();
        ends.extend(guesses.iter().map(|g| g.1));
    }
}

/// The first column at or after `c` not yet reached (path halving).
fn find(next: &mut [usize], mut c: usize) -> usize {
    while next[c] != c {
        next[c] = next[next[c]];
        c = next[c];
    }
    c
}

#[cfg(test)]
thread_local! {
    /// Planes walked on this thread (the tests' proof the ranges ran, not the pair-by-pair way).
    static PLANES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::{odds, parse_inputs};
    use crate::rules::{Library, load_ruleset, read_ruleset_dir};

    fn planes() -> usize {
        PLANES.with(std::cell::Cell::get)
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn four_word_counts_are_the_big_numbers() {
        let a = BigUint::from(6u8).pow(40) - 12345u32;
        let b = BigUint::from(6u8).pow(39) + 999u32;
        let (x, y) = (U256::from_big(&a), U256::from_big(&b));
        assert_eq!(x.times(&y).big(), &a * &b);
        let mut s = x;
        s.plus(&y);
        assert_eq!(s.big(), &a + &b);
        s.minus(&x);
        assert_eq!(s.big(), b);
        assert_eq!(U256::zero().big(), <BigUint as Zero>::zero());
    }

    #[test]
    fn every_opposed_shape_in_the_fixture_and_the_games_walks_the_plane() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/opposed/opposed");
        let fixture = load_ruleset(&read_ruleset_dir(&dir).expect("reads")).expect("loads");
        let library = Library::shipped();
        type Case<'a> = (&'a crate::rules::Ruleset, &'a str, Vec<(&'a str, &'a str)>);
        let runs: Vec<Case> = vec![
            (&fixture, "margin", vec![]),
            (&fixture, "three_way", vec![]),
            (&fixture, "ratio", vec![]),
            (
                library.get("rr3").expect("rr3"),
                "battle",
                vec![
                    ("attacker_thousands", "70"),
                    ("attacker_nationality", "other"),
                    ("defender_thousands", "70"),
                    ("defender_nationality", "other"),
                ],
            ),
        ];
        for (rs, procedure, inputs) in runs {
            let p = rs.procedure(procedure).expect("procedure");
            let typed = parse_inputs(p, &pairs(&inputs)).expect("inputs");
            let before = planes();
            odds(rs, p, &typed).expect("odds");
            assert!(planes() > before, "{procedure}: walked the plane");
        }
    }
}
