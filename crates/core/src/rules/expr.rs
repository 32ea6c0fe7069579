//! Rule expressions (derived values, conditions, modifier values) through the `evalexpr` crate.

use evalexpr::{
    ContextWithMutableVariables, DefaultNumericTypes, HashMapContext, Node, Value as EvalValue,
};
use serde::{Deserialize, Serialize};

/// A value an expression works with: an integer, a flag or a name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// A whole number.
    Int(i64),
    /// A yes/no flag.
    Bool(bool),
    /// A name (a choice).
    Text(String),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Bool(b) => write!(f, "{}", if *b { "yes" } else { "no" }),
            Value::Text(t) => f.write_str(t),
        }
    }
}

impl Value {
    /// Whether a counter holding this value has `want`: the same value, or for a `choices`
    /// attribute (its names joined by ", ") one of its names.
    pub fn holds(&self, want: &Value) -> bool {
        match (self, want) {
            (Value::Text(have), Value::Text(w)) => have == w || have.split(", ").any(|h| h == w),
            (have, w) => have == w,
        }
    }

    fn to_eval(&self) -> EvalValue<DefaultNumericTypes> {
        match self {
            Value::Int(i) => EvalValue::Int(*i),
            Value::Bool(b) => EvalValue::Boolean(*b),
            Value::Text(t) => EvalValue::String(t.clone()),
        }
    }

    fn from_eval(v: &EvalValue<DefaultNumericTypes>) -> Option<Value> {
        match v {
            EvalValue::Int(i) => Some(Value::Int(*i)),
            EvalValue::Float(f) if f.is_finite() && f.fract() == 0.0 => Some(Value::Int(*f as i64)),
            EvalValue::Boolean(b) => Some(Value::Bool(*b)),
            EvalValue::String(s) => Some(Value::Text(s.clone())),
            _ => None,
        }
    }

    /// The type's name, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Int(_) => "a number",
            Value::Bool(_) => "a flag (true/false)",
            Value::Text(_) => "a name",
        }
    }
}

/// Named values an expression may read, held directly in evalexpr's context so that evaluating
/// many expressions does not rebuild it.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    ctx: HashMapContext<DefaultNumericTypes>,
}

impl Scope {
    /// An empty scope.
    pub fn new() -> Scope {
        Scope::default()
    }

    /// Sets a value.
    pub fn set(&mut self, name: &str, value: Value) {
        let eval = value.to_eval();
        if let Err(_refused) = self.ctx.set_value(name.to_string(), eval.clone()) {
            // The type changed: evalexpr refuses that in place, so replace the variable.
            let _ = self.ctx.remove_value(name);
            let _ = self.ctx.set_value(name.to_string(), eval);
        }
    }

    /// Reads a value.
    pub fn get(&self, name: &str) -> Option<Value> {
        use evalexpr::Context as _;
        self.ctx.get_value(name).and_then(Value::from_eval)
    }
}

/// The deepest nesting of parentheses in an expression. The deepest shipped expression is
/// nested 4 deep (an `if` in an `if` in an `if`…, in rr3's and ailsh's rulesets); evalexpr builds
/// and evaluates its tree recursively, and 13,000 levels overflow the stack.
pub const MAX_EXPR_DEPTH: usize = 64;

/// The most `-` and `!` signs in a row (spaces between them allowed). Shipped expressions have
/// at most one (`-shooting_modifier`); evalexpr re-walks the whole chain for each sign, so a
/// chain of 10,000 takes quadratic time and overflows the stack.
pub const MAX_EXPR_SIGNS: usize = 8;

/// The longest expression, in characters. The longest shipped one (ailsh's order change cost)
/// is 326 characters. A chain of binary operators (`n+n+n…`) builds a tree as deep as the chain
/// is long, which evalexpr evaluates recursively at about 600 bytes of stack a level: 1,000
/// characters (at most 500 operators) keep that within a quarter of a spawned thread's 2 MiB.
pub const MAX_EXPR_CHARS: usize = 1_000;

/// Measures an expression with a plain scan (no recursion, linear time) and refuses one nested
/// deeper than [`MAX_EXPR_DEPTH`], with more than [`MAX_EXPR_SIGNS`] signs in a row, or longer
/// than [`MAX_EXPR_CHARS`]. Text inside double quotes (evalexpr's strings) is not counted.
pub fn check_shape(source: &str) -> Result<(), String> {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut signs, mut most_signs) = (0usize, 0usize);
    let mut chars = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for c in source.chars() {
        chars += 1;
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '(' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        match c {
            '-' | '!' => {
                signs += 1;
                most_signs = most_signs.max(signs);
            }
            c if c.is_whitespace() => {}
            _ => signs = 0,
        }
    }
    if deepest > MAX_EXPR_DEPTH {
        return Err(format!(
            "expression is nested {deepest} deep; the limit is {MAX_EXPR_DEPTH}"
        ));
    }
    if most_signs > MAX_EXPR_SIGNS {
        return Err(format!(
            "expression has {most_signs} signs (- or !) in a row; the limit is {MAX_EXPR_SIGNS}"
        ));
    }
    if chars > MAX_EXPR_CHARS {
        return Err(format!(
            "expression is {chars} characters long; the limit is {MAX_EXPR_CHARS}"
        ));
    }
    Ok(())
}

/// A compiled expression with its source text and the names it reads.
#[derive(Debug, Clone)]
pub struct Expr {
    source: String,
    node: Node<DefaultNumericTypes>,
    reads: Vec<String>,
}

impl PartialEq for Expr {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Expr {
    /// Compiles an expression, refusing one past the limits ([`check_shape`]) before evalexpr
    /// sees it.
    pub fn compile(source: &str) -> Result<Expr, String> {
        check_shape(source)?;
        let node = evalexpr::build_operator_tree::<DefaultNumericTypes>(source)
            .map_err(|e| format!("cannot read expression '{source}': {e}"))?;
        let mut reads: Vec<String> = node
            .iter_read_variable_identifiers()
            .map(str::to_string)
            .collect();
        reads.sort();
        reads.dedup();
        Ok(Expr {
            source: source.to_string(),
            node,
            reads,
        })
    }

    /// The expression as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The parsed tree (for wording it, [`super::spoken`]).
    pub(crate) fn node(&self) -> &Node<DefaultNumericTypes> {
        &self.node
    }

    /// The names it reads.
    pub fn reads(&self) -> &[String] {
        &self.reads
    }

    /// Evaluates in a scope.
    pub fn eval(&self, scope: &Scope) -> Result<Value, String> {
        self.eval_in(&scope.ctx)
    }

    fn eval_in(&self, ctx: &HashMapContext<DefaultNumericTypes>) -> Result<Value, String> {
        let v = self
            .node
            .eval_with_context(ctx)
            .map_err(|e| format!("'{}': {e}", self.source))?;
        Value::from_eval(&v).ok_or_else(|| {
            format!(
                "'{}' gives {v}, which is not a number, flag or name",
                self.source
            )
        })
    }

    /// Evaluates what can be evaluated when some names are not known yet: the value when the
    /// names it needs are known — `false && x`, `if(false, x, 2)` need no `x` —, else the
    /// unknown names it still depends on. (evalexpr itself evaluates every operand, so `flag &&
    /// n != 0` with `n` unknown fails even when `flag` is false.)
    pub fn partial(&self, scope: &Scope) -> Partial {
        partial(&self.node, &scope.ctx)
    }

    /// Evaluates to an integer.
    pub fn eval_int(&self, scope: &Scope) -> Result<i64, String> {
        match self.eval(scope)? {
            Value::Int(i) => Ok(i),
            other => Err(format!(
                "'{}' gives {}, expected a number",
                self.source,
                other.type_name()
            )),
        }
    }

    /// Evaluates to a flag.
    pub fn eval_bool(&self, scope: &Scope) -> Result<bool, String> {
        match self.eval(scope)? {
            Value::Bool(b) => Ok(b),
            other => Err(format!(
                "'{}' gives {}, expected true or false",
                self.source,
                other.type_name()
            )),
        }
    }

    /// Evaluates to a name (a number is accepted and written out).
    pub fn eval_text(&self, scope: &Scope) -> Result<String, String> {
        match self.eval(scope)? {
            Value::Text(t) => Ok(t),
            Value::Int(i) => Ok(i.to_string()),
            Value::Bool(b) => Err(format!("'{}' gives {b}, expected a name", self.source)),
        }
    }
}

/// An expression's value, or the unknown names it still depends on ([`Expr::partial`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Partial {
    /// Its value.
    Known(Value),
    /// Not known yet: the unknown names it reads that could still matter (empty when it fails
    /// for another reason).
    Open(std::collections::BTreeSet<String>),
}

fn partial(
    node: &evalexpr::Node<DefaultNumericTypes>,
    ctx: &HashMapContext<DefaultNumericTypes>,
) -> Partial {
    use evalexpr::{Context as _, Operator};
    // A name on its own (evalexpr lists a leaf's name on its parent, not on the leaf).
    if let Operator::VariableIdentifierRead { identifier } = node.operator() {
        return match ctx.get_value(identifier).and_then(Value::from_eval) {
            Some(v) => Partial::Known(v),
            None => Partial::Open(std::collections::BTreeSet::from([identifier.to_string()])),
        };
    }
    let open: std::collections::BTreeSet<String> = node
        .iter_read_variable_identifiers()
        .filter(|v| ctx.get_value(v).is_none())
        .map(str::to_string)
        .collect();
    if open.is_empty() {
        return match node
            .eval_with_context(ctx)
            .ok()
            .as_ref()
            .and_then(Value::from_eval)
        {
            Some(v) => Partial::Known(v),
            None => Partial::Open(open),
        };
    }
    let kids = node.children();
    let union = |parts: Vec<Partial>| {
        Partial::Open(
            parts
                .into_iter()
                .flat_map(|p| match p {
                    Partial::Open(s) => s,
                    Partial::Known(_) => std::collections::BTreeSet::new(),
                })
                .collect(),
        )
    };
    match node.operator() {
        Operator::RootNode if kids.len() == 1 => partial(&kids[0], ctx),
        op @ (Operator::And | Operator::Or) if kids.len() == 2 => {
            // `false && x` is false and `true || x` true whatever x is.
            let decisive = Partial::Known(Value::Bool(matches!(op, Operator::Or)));
            let (a, b) = (partial(&kids[0], ctx), partial(&kids[1], ctx));
            if a == decisive || b == decisive {
                decisive
            } else {
                union(vec![a, b])
            }
        }
        Operator::FunctionIdentifier { identifier } if identifier == "if" && kids.len() == 1 => {
            let mut args = &kids[0];
            while matches!(args.operator(), Operator::RootNode) && args.children().len() == 1 {
                args = &args.children()[0];
            }
            match (args.operator(), args.children()) {
                (Operator::Tuple, [c, t, f]) => match partial(c, ctx) {
                    Partial::Known(Value::Bool(true)) => partial(t, ctx),
                    Partial::Known(Value::Bool(false)) => partial(f, ctx),
                    c => union(vec![c, partial(t, ctx), partial(f, ctx)]),
                },
                _ => Partial::Open(open),
            }
        }
        _ => union(kids.iter().map(|k| partial(k, ctx)).collect()),
    }
}
