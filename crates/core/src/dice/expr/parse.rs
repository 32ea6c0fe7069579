//! Reading dice notation (`2d6+1`, `4d6kh3`, `ceil(d6/2)`, rerolls, custom dice) into a [`DiceExpr`], with the place of a mistake.

use super::*;

/// Measures a notation with a plain scan before parsing it, refusing one nested deeper than
/// [`MAX_NOTATION_DEPTH`] or longer than [`MAX_NOTATION_CHARS`].
pub(super) fn check_shape(source: &str) -> Result<(), DiceError> {
    let (mut depth, mut deepest, mut chars) = (0usize, 0usize, 0usize);
    for c in source.chars() {
        chars += 1;
        match c {
            '(' | '⌈' | '⌊' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' | '⌉' | '⌋' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let problem = if deepest > MAX_NOTATION_DEPTH {
        format!("nested {deepest} deep; the limit is {MAX_NOTATION_DEPTH}")
    } else if chars > MAX_NOTATION_CHARS {
        format!("{chars} characters long; the limit is {MAX_NOTATION_CHARS}")
    } else {
        return Ok(());
    };
    // Quote only the start of a notation this long.
    let expr = if chars > 40 {
        format!("{}…", source.chars().take(40).collect::<String>())
    } else {
        source.to_string()
    };
    Err(DiceError::Notation { expr, problem })
}

pub(super) struct Parser<'a> {
    pub(super) source: &'a str,
    pub(super) chars: Vec<char>,
    pub(super) pos: usize,
    pub(super) dice: &'a DieSet,
}

pub(super) struct Parsed {
    pub(super) terms: Vec<(i64, DiceTerm)>,
}

/// A parsed part of a notation as a nested expression (inside parentheses, `ceil(…)`,
/// `max(…, …)`, a side of an opposed roll).
pub(super) fn nested(parsed: Parsed) -> Box<DiceExpr> {
    Box::new(DiceExpr {
        source: String::new(),
        terms: parsed.terms,
    })
}

impl Parser<'_> {
    pub(super) fn error(&self, problem: String) -> DiceError {
        DiceError::Notation {
            expr: self.source.to_string(),
            problem: format!("{problem} at character {}", self.pos + 1),
        }
    }

    pub(super) fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    pub(super) fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn eat_word(&mut self, word: &str) -> bool {
        let w: Vec<char> = word.chars().collect();
        let end = self.pos + w.len();
        if end <= self.chars.len()
            && self.chars[self.pos..end]
                .iter()
                .zip(&w)
                .all(|(a, b)| a.eq_ignore_ascii_case(b))
        {
            self.pos = end;
            true
        } else {
            false
        }
    }

    pub(super) fn expr(&mut self) -> Result<Parsed, DiceError> {
        let mut terms = Vec::new();
        let mut sign = 1;
        if self.eat('-') {
            sign = -1;
        } else {
            self.eat('+');
        }
        loop {
            let term = self.term()?;
            terms.push((sign, term));
            if self.eat('+') {
                sign = 1;
            } else if self.eat('-') || self.eat('−') {
                sign = -1;
            } else {
                break;
            }
        }
        Ok(Parsed { terms })
    }

    pub(super) fn number(&mut self) -> Option<u64> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if start == self.pos {
            return None;
        }
        self.chars[start..self.pos]
            .iter()
            .collect::<String>()
            .parse()
            .ok()
            .or(Some(u64::MAX))
    }

    /// An atom, times whole numbers: `2*d6`, `d6*10`, `(d6+1)*2`.
    pub(super) fn term(&mut self) -> Result<DiceTerm, DiceError> {
        let mut term = self.atom()?;
        while self.eat('*') || self.eat('×') {
            let at = self.pos;
            let next = self.atom()?;
            term = match (term, next) {
                (DiceTerm::Constant(a), DiceTerm::Constant(b)) => DiceTerm::Constant(
                    a.checked_mul(b)
                        .ok_or_else(|| self.error("number too large".into()))?,
                ),
                (DiceTerm::Constant(k), inner) | (inner, DiceTerm::Constant(k)) => {
                    DiceTerm::Scaled {
                        inner: nested(Parsed {
                            terms: vec![(1, inner)],
                        }),
                        factor: k,
                    }
                }
                _ => {
                    self.pos = at;
                    return Err(
                        self.error("multiply dice by a number (2*d6), not by other dice".into())
                    );
                }
            };
        }
        Ok(term)
    }

    pub(super) fn atom(&mut self) -> Result<DiceTerm, DiceError> {
        // min(…, …) and max(…, …): the lower or higher of two independent throws.
        for (word, highest) in [("max(", true), ("min(", false)] {
            if self.eat_word(word) {
                let left = self.expr()?;
                if !self.eat(',') {
                    return Err(self.error(format!("expected ',' between the two of {word}…)")));
                }
                let right = self.expr()?;
                if !self.eat(')') {
                    return Err(self.error("expected ')'".into()));
                }
                return Ok(DiceTerm::Extreme {
                    left: nested(left),
                    right: nested(right),
                    highest,
                });
            }
        }
        // Parentheses: (d6+1).
        if self.peek() == Some('(') {
            self.pos += 1;
            let inner = self.expr()?;
            if !self.eat(')') {
                return Err(self.error("expected ')'".into()));
            }
            return Ok(DiceTerm::Scaled {
                inner: nested(inner),
                factor: 1,
            });
        }
        let (open, close, rounding) = if self.eat_word("ceil(") {
            (true, ')', Rounding::Up)
        } else if self.eat_word("floor(") {
            (true, ')', Rounding::Down)
        } else if self.eat('⌈') {
            (true, '⌉', Rounding::Up)
        } else if self.eat('⌊') {
            (true, '⌋', Rounding::Down)
        } else {
            (false, ' ', Rounding::Down)
        };
        if open {
            let inner = self.expr_until_slash()?;
            if !self.eat('/') {
                return Err(self.error("expected '/' and a divisor".into()));
            }
            let divisor = self
                .number()
                .filter(|d| (1..=1000).contains(d))
                .ok_or_else(|| self.error("expected a divisor from 1 to 1000".into()))?;
            if !self.eat(close) {
                return Err(self.error(format!("expected '{close}'")));
            }
            return Ok(DiceTerm::Divided {
                inner: nested(inner),
                divisor: divisor as i64,
                rounding,
            });
        }
        let count_at = self.pos;
        let count = self.number();
        if self.peek() == Some('d') || self.peek() == Some('D') {
            self.pos += 1;
            let count = count.unwrap_or(1);
            if count > u64::from(MAX_DICE) {
                return Err(self.error(format!("more than {MAX_DICE} dice")));
            }
            if count == 0 {
                self.pos = count_at;
                return Err(self.error("no dice to throw: write at least one die (1d6)".into()));
            }
            // Inline faces: d{1,1,2,2,3,4}.
            if self.eat('{') {
                let faces = self.inline_faces()?;
                return self.after_die(count as u32, Die::inline(&faces));
            }
            let start = self.pos;
            self.die_name_end(start);
            let name: String = self.chars[start..self.pos].iter().collect();
            if name.is_empty() {
                return Err(
                    self.error("expected the number of sides or a die name after 'd'".into())
                );
            }
            let full = format!("d{name}");
            let Some(die) = self.dice.get(&full) else {
                let custom: Vec<String> = self.dice.custom().map(|d| d.name.clone()).collect();
                let hint = if custom.is_empty() {
                    "use dN with N from 2 to 1000".to_string()
                } else {
                    format!("use dN or one of: {}", custom.join(", "))
                };
                return Err(DiceError::Notation {
                    expr: self.source.to_string(),
                    problem: format!("unknown die '{full}' — {hint}"),
                });
            };
            return self.after_die(count as u32, die);
        }
        match count {
            Some(n) if n <= i64::MAX as u64 / 4 => Ok(DiceTerm::Constant(n as i64)),
            Some(_) => Err(self.error("number too large".into())),
            None => Err(self.error("expected a number, a die such as d6, or ceil(…/2)".into())),
        }
    }

    /// An inline die's faces, after `d{`: values and ranges (`1..10`), up to `}`.
    fn inline_faces(&mut self) -> Result<Vec<i64>, DiceError> {
        let mut faces = Vec::new();
        loop {
            let at = self.pos;
            let negative = self.eat('-');
            let Some(v) = self.number() else {
                self.pos = at;
                return Err(self.error("expected a face value in d{…}".into()));
            };
            let v = i64::try_from(v).unwrap_or(i64::MAX);
            let v = if negative { -v } else { v };
            // A range, as AnyDice writes it: d{1..10} is a ten-sided die read 1–10.
            if self.eat_word("..") {
                let at = self.pos;
                let negative = self.eat('-');
                let Some(hi) = self.number() else {
                    self.pos = at;
                    return Err(self.error("expected the end of the range in d{…}".into()));
                };
                let hi = i64::try_from(hi).unwrap_or(i64::MAX);
                let hi = if negative { -hi } else { hi };
                if hi < v || hi - v >= 1000 {
                    self.pos = at;
                    return Err(self.error(format!(
                        "the range {v}..{hi} is empty or longer than 1,000 faces"
                    )));
                }
                faces.extend(v..=hi);
            } else {
                faces.push(v);
            }
            if faces.len() > 1000 {
                return Err(self.error("more than 1,000 faces in d{…}".into()));
            }
            if self.eat(',') {
                continue;
            }
            if self.eat('}') {
                break;
            }
            return Err(self.error("expected ',' or '}' in d{…}".into()));
        }
        Ok(faces)
    }

    /// Moves past a die's sides or name after `d` (from `start`): digits (`d6`, `d%`), or the
    /// longest name of a die before a keep, drop or count (`dcmdkh1`).
    fn die_name_end(&mut self, start: usize) {
        if self.peek() == Some('%') {
            // Percentile dice.
            self.pos += 1;
        }
        // A number of sides is digits only (so `d6kh3` is a d6 kept highest 3); a die's
        // name (`dcmd`) is letters, digits and _.
        let numeric = self.peek().is_some_and(|c| c.is_ascii_digit());
        while self.peek().is_some_and(|c| {
            if numeric {
                c.is_ascii_digit()
            } else {
                c.is_ascii_alphanumeric() || c == '_'
            }
        }) {
            self.pos += 1;
        }
        // Sides followed by letters that are not a keep or drop (`d7x`): the whole word is
        // the die's name, and an unknown one.
        if numeric && self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            let next: String = self.chars[self.pos..].iter().take(2).collect();
            let reroll = next.len() == 2
                && next.starts_with(['r', 'R'])
                && next[1..]
                    .starts_with(|c: char| c.is_ascii_digit() || c == 'r' || c == 'R' || c == '<');
            if !reroll && !["kh", "kl", "dh", "dl", "vs", "cs", "cf"].contains(&next.as_str()) {
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    self.pos += 1;
                }
            }
        }
        // A custom die's name followed by a keep or a count (`2dcmdkh1`): the longest
        // start of the word that names a die.
        let whole: String = self.chars[start..self.pos].iter().collect();
        if !numeric && self.dice.get(&format!("d{whole}")).is_none() {
            let mut end = self.pos;
            while end > start {
                let candidate: String = self.chars[start..end].iter().collect();
                let rest: String = self.chars[end..self.pos].iter().collect();
                let keeps = ["kh", "kl", "dh", "dl", "cs", "cf"].iter().any(|k| {
                    rest.strip_prefix(k)
                        .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty())
                }) || rest.starts_with("vs")
                    || (rest.starts_with(['r', 'R'])
                        && rest[1..].starts_with(|c: char| {
                            c.is_ascii_digit() || c == 'r' || c == 'R' || c == '<'
                        }));
                if keeps && self.dice.get(&format!("d{candidate}")).is_some() {
                    self.pos = end;
                    break;
                }
                end -= 1;
            }
        }
    }

    /// What may follow a die: keep or drop (`kh3`), a count of successes (`>=5`), or nothing.
    pub(super) fn after_die(&mut self, count: u32, die: Die) -> Result<DiceTerm, DiceError> {
        // Explode: `d6!` throws again on its highest face and adds, up to a depth.
        let die = if self.eat('!') {
            match exact::explode(&die, exact::explode_depth(&die)) {
                Some(d) => d,
                None => {
                    return Err(self.error(format!(
                        "{} has one face and would explode for ever",
                        die.name
                    )));
                }
            }
        } else {
            die
        };
        // Reroll: `r1` rerolls a 1 once (the second throw stands), `rr1` until it is not a 1;
        // `r<3` / `rr<3` faces below 3. The die becomes the die the rerolls make.
        let die = if matches!(self.peek(), Some('r' | 'R')) {
            let at = self.pos;
            self.pos += 1;
            let always = self.eat('r') || self.eat('R');
            let below = self.eat('<');
            let Some(n) = self.number() else {
                self.pos = at;
                return Err(
                    self.error("expected the face to reroll after 'r' (r1, rr1, r<3)".into())
                );
            };
            let n = i64::try_from(n).unwrap_or(i64::MAX);
            let rerolled = |v: i64| if below { v < n } else { v == n };
            match reroll(&die, rerolled, always) {
                Some(d) => d,
                None => {
                    self.pos = at;
                    return Err(self.error(format!(
                        "rerolling {} every face of {} leaves nothing to keep",
                        if below {
                            format!("below {n}")
                        } else {
                            format!("{n}")
                        },
                        die.name
                    )));
                }
            }
        } else {
            die
        };
        // Keep or drop the highest or lowest: kh3, kl1, dh1, dl1.
        for (word, keep_word, highest) in [
            ("kh", true, true),
            ("kl", true, false),
            ("dh", false, false),
            ("dl", false, true),
        ] {
            if self.eat_word(word) {
                let at = self.pos;
                let Some(k) = self.number() else {
                    return Err(self.error(format!("expected how many dice after '{word}'")));
                };
                let k = u32::try_from(k).unwrap_or(u32::MAX);
                let keep = if keep_word {
                    k
                } else {
                    count.saturating_sub(k)
                };
                if k == 0 || k > count || keep == 0 {
                    self.pos = at;
                    return Err(self.error(format!(
                        "'{word}{k}' of {count} dice leaves none to sum or more than are thrown"
                    )));
                }
                return Ok(DiceTerm::Keep {
                    count,
                    die,
                    keep,
                    highest,
                });
            }
        }
        // Count successes (cs) or failures (cf) as Roll20 writes them: `8d6cs>=5`, `6d10cf<=2`,
        // `8d6cs6` (a face alone: dice showing it).
        let counting = self.eat_word("cs") || self.eat_word("cf");
        if counting && !matches!(self.peek(), Some('>' | '<')) {
            let at = self.pos;
            let negative = self.eat('-');
            let Some(t) = self.number() else {
                self.pos = at;
                return Err(self
                    .error("expected a face or a comparison to count (8d6cs>=5, 8d6cf1)".into()));
            };
            let t = i64::try_from(t).unwrap_or(i64::MAX) * if negative { -1 } else { 1 };
            return Ok(DiceTerm::Successes {
                count,
                die,
                test: Threshold::Exactly(t),
            });
        }
        // Count successes: >=5, >5, <=2, <2 (a number alone after the comparison; dice after
        // it make two sides thrown against each other, read by the caller).
        if matches!(self.peek(), Some('>' | '<')) {
            let before = self.pos;
            let greater = self.peek() == Some('>');
            self.pos += 1;
            let or_equal = self.eat('=');
            let at = self.pos;
            let negative = self.eat('-');
            let number = self.number();
            if !counting
                && (number.is_none() || matches!(self.peek(), Some('d' | 'D' | '(' | '*' | '{')))
            {
                self.pos = before;
                return Ok(DiceTerm::Dice { count, die });
            }
            let Some(t) = number else {
                self.pos = at;
                return Err(self.error("expected the number to meet after the comparison".into()));
            };
            let t = i64::try_from(t).unwrap_or(i64::MAX) * if negative { -1 } else { 1 };
            let test = match (greater, or_equal) {
                (true, true) => Threshold::AtLeast(t),
                (true, false) => Threshold::AtLeast(t.saturating_add(1)),
                (false, true) => Threshold::AtMost(t),
                (false, false) => Threshold::AtMost(t.saturating_sub(1)),
            };
            return Ok(DiceTerm::Successes { count, die, test });
        }
        Ok(DiceTerm::Dice { count, die })
    }

    /// An expression inside ceil(…/n): stops at the '/'.
    pub(super) fn expr_until_slash(&mut self) -> Result<Parsed, DiceError> {
        self.expr()
    }
}
