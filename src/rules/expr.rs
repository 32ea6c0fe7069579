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
    /// Compiles an expression.
    pub fn compile(source: &str) -> Result<Expr, String> {
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
