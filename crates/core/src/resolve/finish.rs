//! Finishing a resolution once the dice are known: the lookup of each shape (table, threshold, pool, compute), the outcome and its effects, a result read off the umpire's own chart.

use super::*;

pub(super) fn effects_from(
    specs: &[EffectSpec],
    scope: &Scope,
) -> Result<Vec<Effect>, ResolveError> {
    let mut applicable = Vec::new();
    for s in specs {
        let holds = match &s.when {
            Some(w) => w
                .eval_bool(scope)
                .map_err(expr_err(format!("condition of a {} effect", s.kind)))?,
            None => true,
        };
        if holds {
            applicable.push(s);
        }
    }
    applicable
        .into_iter()
        .map(|s| {
            let amount = s
                .amount
                .as_ref()
                .map(|e| e.eval_int(scope))
                .transpose()
                .map_err(expr_err(format!("amount of a {} effect", s.kind)))?;
            Ok(Effect {
                kind: s.kind,
                side: s.side.clone(),
                amount,
                status: s.status.clone(),
                procedure: s.procedure.clone(),
                attribute: s.attribute.clone(),
                value: s.value.clone(),
                text: s.text.clone(),
                rule: s.rule.clone(),
            })
        })
        .collect()
}

impl<'r> Prepared<'r> {
    /// Builds the outcome for a code: the declared outcome's effects, then the table codes'.
    pub(super) fn outcome(
        &self,
        code: &str,
        value: Option<i64>,
        table: Option<&Table>,
        scope: &mut Scope,
    ) -> Result<Outcome, ResolveError> {
        if let Some(v) = value {
            scope.set("value", Value::Int(v));
        }
        let mut effects = Vec::new();
        let mut labels = Vec::new();
        if let Some(spec) = self.procedure.outcome(code) {
            effects.extend(effects_from(&spec.effects, scope)?);
            labels.push(spec.label.clone());
        }
        if let Some(t) = table
            && !t.results.is_empty()
        {
            for token in code.split_whitespace() {
                if let Some((p, n)) = t
                    .results
                    .iter()
                    .find_map(|p| p.matches(token).map(|n| (p, n)))
                {
                    // Each token gets its own `n`: "D1 DC" must not carry D1's number into DC.
                    let mut token_scope = scope.clone();
                    if let Some(n) = n {
                        token_scope.set("n", Value::Int(n));
                        token_scope.set("value", Value::Int(n));
                    }
                    effects.extend(effects_from(&p.effects, &token_scope)?);
                    if let Some(l) = &p.label {
                        labels
                            .push(l.replace("{n}", &n.map_or_else(String::new, |n| n.to_string())));
                    }
                }
            }
        }
        let label = if labels.is_empty() {
            code.to_string()
        } else {
            labels.join("; ")
        };
        Ok(Outcome {
            code: code.to_string(),
            label,
            value,
            effects,
            from_physical_chart: false,
            chart_confirmed: false,
        })
    }

    /// Applies the lookup to one throw (faces in dice order). `chart_result` is the result the
    /// umpire read off the physical chart, used when a needed cell is missing.
    pub fn finish(
        &self,
        faces: &[i64],
        chart_result: Option<&str>,
    ) -> Result<Finished, ResolveError> {
        let natural = self.dice.as_ref().map(|d| d.total(faces));
        self.finish_with(natural, faces, chart_result)
    }

    /// As [`Prepared::finish`], given the natural total (pools also need the faces).
    pub fn finish_with(
        &self,
        natural: Option<i64>,
        faces: &[i64],
        chart_result: Option<&str>,
    ) -> Result<Finished, ResolveError> {
        let mut scope = self.scope.clone();
        let mut explanation = Vec::new();
        let roll_mod = self.total(AppliesTo::Roll);
        let modified = natural.map(|n| n + roll_mod);
        for (k, face) in faces.iter().enumerate() {
            scope.set(&format!("die_{}", k + 1), Value::Int(*face));
        }
        if let (Some(n), Some(m)) = (natural, modified) {
            scope.set("natural", Value::Int(n));
            scope.set("roll", Value::Int(m));
            if roll_mod != 0 {
                explanation.push(format!("Modified roll: {n} {} = {m}", plus_minus(roll_mod)));
            }
        }
        if let Some(missing) = &self.unknown_modifier {
            let Some(result) = chart_result else {
                return Err(missing.clone());
            };
            let table = if let Lookup::Table(r) = &self.procedure.lookup {
                Some(r)
            } else {
                None
            };
            return self.with_chart_result(result, table, natural, modified, explanation, missing);
        }
        let throw = (natural, modified);
        match &self.procedure.lookup {
            Lookup::Table(r) => self.finish_table(r, scope, explanation, throw, chart_result),
            Lookup::Threshold {
                target,
                success,
                natural_fail,
                natural_pass,
                pass,
                fail,
            } => self.finish_threshold(
                (target, *success, natural_fail, natural_pass),
                (pass, fail),
                scope,
                explanation,
                throw,
            ),
            Lookup::Pool {
                sum,
                hits,
                face_floor,
                outcome,
                ..
            } => self.finish_pool(
                (*sum, hits, *face_floor, outcome),
                faces,
                scope,
                explanation,
            ),
            Lookup::Compute { lets, cases } => {
                self.run_cases(lets, cases, scope, natural, modified, explanation)
            }
            Lookup::Opposed {
                sides, sum, hits, ..
            } => self.finish_opposed((sides, *sum, hits), faces, scope, explanation),
        }
    }

    /// A table lookup: the cell the modified roll lands on (or the chart's result the umpire
    /// read, where the cell is missing).
    fn finish_table(
        &self,
        r: &TableRef,
        mut scope: Scope,
        mut explanation: Vec<String>,
        (natural, modified): (Option<i64>, Option<i64>),
        chart_result: Option<&str>,
    ) -> Result<Finished, ResolveError> {
        let shift = self.total(AppliesTo::Column);
        match find_cell(self.ruleset, r, &scope, modified, shift) {
            Ok((table, trace, notes)) => {
                explanation.extend(notes);
                let value = trace
                    .cell
                    .trim()
                    .trim_start_matches('+')
                    .parse::<i64>()
                    .ok();
                let row = table.row_words_for(&trace.row);
                let at = trace.column.as_ref().map_or_else(
                    || format!("row {row}"),
                    |c| format!("row {row}, column {}", table.column_words_for(c)),
                );
                let cell = crate::rules::Cell::Value(trace.cell.clone());
                explanation.push(format!(
                    "{}: {at} → {}",
                    table.title,
                    table.cell_words(&cell)
                ));
                let outcome = self.outcome(&trace.cell, value, Some(table), &mut scope)?;
                Ok(Finished {
                    natural,
                    modified,
                    lookup: Some(trace),
                    outcome,
                    explanation,
                    scores: Vec::new(),
                })
            }
            Err(e @ ResolveError::MissingCell { .. }) => match chart_result {
                Some(result) => {
                    self.with_chart_result(result, Some(r), natural, modified, explanation, &e)
                }
                None => Err(e),
            },
            Err(e) => Err(e),
        }
    }

    /// A threshold test: the modified roll against the modified target.
    fn finish_threshold(
        &self,
        (target, success, natural_fail, natural_pass): (
            &crate::rules::Expr,
            Success,
            &[i64],
            &[i64],
        ),
        (pass, fail): (&String, &String),
        mut scope: Scope,
        mut explanation: Vec<String>,
        (natural, modified): (Option<i64>, Option<i64>),
    ) -> Result<Finished, ResolveError> {
        let base = target.eval_int(&scope).map_err(expr_err("target"))?;
        let target_mod = self.total(AppliesTo::Target);
        let t = base + target_mod;
        let (n, m) = (natural.unwrap_or(0), modified.unwrap_or(0));
        let shown_target = if target_mod == 0 {
            format!("{t}")
        } else {
            format!("{base} {} = {t}", plus_minus(target_mod))
        };
        let (passed, why) = if natural_fail.contains(&n) {
            (false, format!("an unmodified {n} always fails"))
        } else if natural_pass.contains(&n) {
            (true, format!("an unmodified {n} always passes"))
        } else {
            match success {
                Success::AtLeast => (m >= t, format!("{m} against {shown_target} or more")),
                Success::AtMost => (m <= t, format!("{m} against {shown_target} or less")),
            }
        };
        let code = if passed { pass } else { fail };
        let outcome = self.outcome(code, None, None, &mut scope)?;
        // Headed by what happened ("→ Capitano eliminated"), not by whether the number
        // was reached: a "pass" of the Capitano Elimination Test is his death.
        explanation.push(format!("Test: {why} → {}", outcome.label));
        Ok(Finished {
            natural,
            modified,
            lookup: None,
            outcome,
            explanation,
            scores: Vec::new(),
        })
    }

    /// A pool: each die scored (with the each-die modifier), summed or counted as hits.
    fn finish_pool(
        &self,
        (sum, hits, face_floor, outcome): (bool, &[HitRule], Option<i64>, &String),
        faces: &[i64],
        mut scope: Scope,
        mut explanation: Vec<String>,
    ) -> Result<Finished, ResolveError> {
        let each = self.total(AppliesTo::EachDie);
        let scored: Vec<i64> = faces
            .iter()
            .map(|f| face_floor.map_or(f + each, |fl| (f + each).max(fl)))
            .collect();
        if each != 0 || face_floor.is_some() {
            explanation.push(format!(
                "Each die {}{}: {:?}",
                signed(each),
                face_floor.map_or_else(String::new, |f| format!(", no lower than {f}")),
                scored
            ));
        }
        let score = if sum {
            let s: i64 = scored.iter().sum();
            explanation.push(format!("Score: {s}"));
            s
        } else {
            let (total, parts) = count_hits(hits, &scored, &scope)?;
            explanation.push(format!(
                "Hits: {total}{}",
                if parts.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", parts.join("; "))
                }
            ));
            total
        };
        scope.set("hits", Value::Int(score));
        let outcome = self.outcome(outcome, Some(score), None, &mut scope)?;
        Ok(Finished {
            natural: None,
            modified: None,
            lookup: None,
            outcome,
            explanation,
            scores: Vec::new(),
        })
    }

    /// An opposed roll: each side's dice scored (summed or counted as hits), then the cases.
    fn finish_opposed(
        &self,
        (sides, sum, hits): (&[crate::rules::Side], bool, &[HitRule]),
        faces: &[i64],
        scope: Scope,
        mut explanation: Vec<String>,
    ) -> Result<Finished, ResolveError> {
        let mut scores = vec![0i64; sides.len()];
        let mut offset = 0usize;
        let mut shown: Vec<Vec<i64>> = vec![Vec::new(); sides.len()];
        for g in &self.groups {
            let end = (offset + g.count as usize).min(faces.len());
            for f in &faces[offset..end] {
                shown[g.side].push(g.score(*f));
            }
            offset = end;
        }
        for (i, side) in sides.iter().enumerate() {
            scores[i] = if sum {
                shown[i].iter().sum()
            } else {
                count_hits(hits, &shown[i], &scope)?.0
            };
            explanation.push(format!(
                "{}: {:?} → {} {}",
                side.name,
                shown[i],
                if sum { "score" } else { "hits" },
                scores[i]
            ));
        }
        self.finish_scores_with(&scores, scope, explanation)
    }

    /// A pool's scoring, for odds that count classes of dice instead of throws: `None` when
    /// the procedure is not a pool.
    pub(crate) fn pool_scoring(&self) -> Option<PoolScoring<'_>> {
        let Lookup::Pool {
            sum,
            hits,
            face_floor,
            ..
        } = &self.procedure.lookup
        else {
            return None;
        };
        Some(PoolScoring {
            sum: *sum,
            hits,
            each: self.total(AppliesTo::EachDie),
            floor: *face_floor,
        })
    }

    /// Whether a hit rule counts in this resolution (its `when`), and whether it matches a
    /// scored die.
    pub(crate) fn hit_rule_counts(&self, rule: &HitRule) -> Result<bool, ResolveError> {
        hit_rule_applies(rule, &self.scope)
    }

    /// Whether a scored die matches a hit rule.
    pub(crate) fn hit_rule_matches(
        &self,
        rule: &HitRule,
        scored: i64,
    ) -> Result<bool, ResolveError> {
        hit_rule_matches(rule, scored, &self.scope)
    }

    /// A pool's outcome for a score (hits or sum), as [`Prepared::finish_with`] reaches it.
    pub(crate) fn finish_pool_score(&self, score: i64) -> Result<Finished, ResolveError> {
        let Lookup::Pool { outcome, .. } = &self.procedure.lookup else {
            return Err(ResolveError::Expression {
                what: "pool".into(),
                problem: "not a pool".into(),
            });
        };
        let mut scope = self.scope.clone();
        scope.set("hits", Value::Int(score));
        let outcome = self.outcome(outcome, Some(score), None, &mut scope)?;
        Ok(Finished {
            natural: None,
            modified: None,
            lookup: None,
            outcome,
            explanation: Vec::new(),
            scores: Vec::new(),
        })
    }

    /// Opposed rolls: the outcome for given side scores (used by the odds, which enumerate scores).
    pub fn finish_scores(&self, scores: &[i64]) -> Result<Finished, ResolveError> {
        self.finish_scores_with(scores, self.scope.clone(), Vec::new())
    }

    pub(super) fn finish_scores_with(
        &self,
        scores: &[i64],
        mut scope: Scope,
        explanation: Vec<String>,
    ) -> Result<Finished, ResolveError> {
        let Lookup::Opposed {
            sides, lets, cases, ..
        } = &self.procedure.lookup
        else {
            return Err(ResolveError::Expression {
                what: "opposed roll".into(),
                problem: "not an opposed procedure".into(),
            });
        };
        let mut named = Vec::new();
        for (side, score) in sides.iter().zip(scores) {
            scope.set(&format!("{}_score", side.name), Value::Int(*score));
            named.push(NamedValue {
                name: side.name.clone(),
                value: Value::Int(*score),
                rule: None,
            });
        }
        let mut explanation = explanation;
        explanation.push(format!(
            "Scores: {}",
            named
                .iter()
                .map(|n| format!("{} {}", n.name.replace('_', " "), n.value))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let mut finished = self.run_cases(lets, cases, scope, None, None, explanation)?;
        finished.scores = named;
        Ok(finished)
    }

    pub(super) fn run_cases(
        &self,
        lets: &[crate::rules::Derived],
        cases: &[crate::rules::Case],
        mut scope: Scope,
        natural: Option<i64>,
        modified: Option<i64>,
        mut explanation: Vec<String>,
    ) -> Result<Finished, ResolveError> {
        for l in lets {
            let v = l
                .expr
                .eval(&scope)
                .map_err(expr_err(format!("'{}'", l.name)))?;
            if let Some(label) = &l.label {
                explanation.push(format!("{label} = {v}{}", rule_suffix(&l.rule)));
            }
            scope.set(&l.name, v);
        }
        for case in cases {
            let holds = match &case.when {
                Some(w) => w
                    .eval_bool(&scope)
                    .map_err(expr_err(format!("case '{}'", case.outcome)))?,
                None => true,
            };
            if holds {
                let value = case
                    .value
                    .as_ref()
                    .map(|e| e.eval_int(&scope))
                    .transpose()
                    .map_err(expr_err(format!("value of '{}'", case.outcome)))?;
                // The case that holds, in words: its outcome and rule (its condition, an
                // expression, is in the procedure's description and the JSON).
                if case.rule.is_some() {
                    let label = self
                        .procedure
                        .outcome(&case.outcome)
                        .map_or(case.outcome.as_str(), |o| o.label.as_str());
                    explanation.push(format!(
                        "So: {label}{}{}",
                        value.map_or_else(String::new, |v| format!(" ({v})")),
                        rule_suffix(&case.rule)
                    ));
                }
                let outcome = self.outcome(&case.outcome, value, None, &mut scope)?;
                return Ok(Finished {
                    natural,
                    modified,
                    lookup: None,
                    outcome,
                    explanation,
                    scores: Vec::new(),
                });
            }
        }
        Err(ResolveError::Expression {
            what: "cases".into(),
            problem: "no case holds".into(),
        })
    }

    pub(super) fn with_chart_result(
        &self,
        result: &str,
        r: Option<&TableRef>,
        natural: Option<i64>,
        modified: Option<i64>,
        mut explanation: Vec<String>,
        missing: &ResolveError,
    ) -> Result<Finished, ResolveError> {
        let result = result.trim();
        let table = r.and_then(|r| self.ruleset.table(&r.table));
        if let Some(t) = table
            && !t.results.is_empty()
            && !result
                .split_whitespace()
                .all(|tok| t.results.iter().any(|p| p.matches(tok).is_some()))
        {
            return Err(ResolveError::BadChartResult {
                given: result.to_string(),
                title: t.title.clone(),
                codes: t
                    .results
                    .iter()
                    .map(|p| p.pattern.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        if result.is_empty() {
            return Err(ResolveError::BadInput("the chart result is empty".into()));
        }
        if table.is_none_or(|t| t.results.is_empty())
            && !self.procedure.outcomes.is_empty()
            && self.procedure.outcome(result).is_none()
            && table.is_none()
        {
            return Err(ResolveError::BadChartResult {
                given: result.to_string(),
                title: self.procedure.name.clone(),
                codes: self
                    .procedure
                    .outcomes
                    .iter()
                    .map(|o| o.code.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        if let ResolveError::MissingCell { title, at, .. } = missing {
            explanation.push(format!(
                "{title}: {at} is not in the rule text; result read off the physical chart: {result}"
            ));
        }
        let value = result.trim_start_matches('+').parse::<i64>().ok();
        let mut outcome = self.outcome(result, value, table, &mut self.scope.clone())?;
        outcome.from_physical_chart = true;
        let lookup = match missing {
            ResolveError::MissingCell {
                table, row, column, ..
            } => Some(LookupTrace {
                table: table.clone(),
                line: None,
                row: row.clone(),
                column: Some(column.clone()),
                cell: result.to_string(),
            }),
            _ => None,
        };
        Ok(Finished {
            natural,
            modified,
            lookup,
            outcome,
            explanation,
            scores: Vec::new(),
        })
    }
}
