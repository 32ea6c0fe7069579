//! Rulesets: raw YAML → validated types, with located errors.

pub mod chart;
pub mod error;
pub mod expr;
pub mod layer;
pub mod library;
pub mod limits;
pub mod locate;
pub mod model;
pub(crate) mod raw;
pub mod spoken;
pub(crate) mod validate;

pub use error::{LoadError, LoadErrors};
pub use expr::{Expr, Partial, Scope, Value};
pub use library::{
    Library, RulesetSource, read_rules_root, read_ruleset_dir, rules_root_sources,
    shipped_ruleset_sources, shipped_sources,
};
pub use model::*;
pub use validate::{LOOKUP_NAMES, RulesetFiles, SourceFile, load_ruleset, yaml_error};
