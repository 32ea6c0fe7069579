//! Checks of decks of cards and cups of markers.

use super::*;

/// A deck or cup action: the deck named, its owner when each side keeps one, and the change it
/// makes, with the deck before and after.
pub(super) fn check_deck(
    view: &View,
    deck: &str,
    owner: Option<&str>,
    op: &crate::game::action::DeckOp,
    reason: Option<&str>,
) -> Checked {
    use crate::game::action::DeckOp;
    use crate::game::deck::DeckChange;
    let Some(spec) = crate::game::deck::find(view.ruleset, deck) else {
        let known: Vec<String> = view
            .ruleset
            .decks
            .iter()
            .map(|d| format!("{} ({})", d.name, d.id))
            .collect();
        return Err(refuse(if known.is_empty() {
            format!("{} has no decks or cups", view.ruleset.name)
        } else {
            format!("no deck or cup '{deck}' — there are: {}", known.join("; "))
        }));
    };
    let owner = deck_owner(view, spec, owner)?;
    let before = view.state.deck(spec, owner.as_deref());
    let item = spec.item_noun();
    let mut after = before.clone();
    let names = |items: &[String], among: &std::collections::BTreeMap<String, u32>, what: &str| {
        let mut taken = among.clone();
        let mut out = Vec::new();
        for typed in items {
            let Some(name) = before.name_of(typed, &taken).map(str::to_string) else {
                return Err(Refusal::Deck(format!(
                    "no '{typed}' {what} — {}",
                    before.words(spec)
                )));
            };
            let c = taken.get_mut(&name).expect("found");
            *c -= 1;
            if *c == 0 {
                taken.remove(&name);
            }
            out.push(name);
        }
        Ok(out)
    };
    let change = match op {
        DeckOp::Fill { items } => {
            after = fill(spec, items)?;
            DeckChange::Filled
        }
        DeckOp::Draw { count, typed, side } => {
            let (change, state) = draw(view, spec, &before, (*count, typed, side.as_ref()))?;
            after = state;
            change
        }
        DeckOp::Refill => {
            if before.drawn() == 0 {
                return Err(refuse(format!(
                    "nothing drawn to put back — {}",
                    before.words(spec)
                )));
            }
            after.refill();
            DeckChange::Refilled
        }
        DeckOp::Return { items } => {
            let items = names(items, &before.out, "drawn")?;
            for name in &items {
                if let Some(c) = after.out.get_mut(name) {
                    *c -= 1;
                    if *c == 0 {
                        after.out.remove(name);
                    }
                }
                *after.inside.entry(name.clone()).or_insert(0) += 1;
            }
            DeckChange::Returned { items }
        }
        DeckOp::Remove { items } => {
            // From those drawn first (a card played, "remove if used"), else from inside.
            let mut both = before.out.clone();
            for (n, c) in &before.inside {
                *both.entry(n.clone()).or_insert(0) += c;
            }
            let items = names(items, &both, "drawn or inside")?;
            for name in &items {
                let from = if after.out.get(name).is_some_and(|c| *c > 0) {
                    &mut after.out
                } else {
                    &mut after.inside
                };
                if let Some(c) = from.get_mut(name) {
                    *c -= 1;
                    if *c == 0 {
                        from.remove(name);
                    }
                }
                *after.removed.entry(name.clone()).or_insert(0) += 1;
            }
            DeckChange::Removed { items }
        }
        DeckOp::Add { items } => {
            let items = add(&mut after, items, item)?;
            DeckChange::Added { items }
        }
    };
    Ok(vec![EventKind::Deck {
        deck: spec.id.clone(),
        owner,
        change,
        before,
        after,
        reason: reason
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_string),
    }])
}

/// A refusal about a deck.
fn refuse(s: String) -> Refusal {
    Refusal::Deck(s)
}

/// Whether `s` is a side of the scenario.
fn side_known(view: &View, s: &str) -> bool {
    view.scenario.sides.iter().any(|x| x.id == s)
}

/// Whose deck it is: a side's, when each side keeps one, else the game's.
fn deck_owner(
    view: &View,
    spec: &crate::rules::DeckSpec,
    owner: Option<&str>,
) -> Result<Option<String>, Refusal> {
    match (spec.per_side, owner) {
        (true, Some(o)) if side_known(view, o) => Ok(Some(o.to_string())),
        (true, Some(o)) => Err(refuse(format!("'{o}' is not a side of this scenario"))),
        (true, None) => Err(refuse(format!(
            "each side has its own {}: say whose (a side id)",
            spec.name
        ))),
        (false, Some(_)) => Err(refuse(format!(
            "{} is one for the whole game: no side to name",
            spec.name
        ))),
        (false, None) => Ok(None),
    }
}

/// A deck filled: what is in it, by name and count.
fn fill(
    spec: &crate::rules::DeckSpec,
    items: &[(String, u32)],
) -> Result<crate::game::deck::DeckState, Refusal> {
    use crate::game::deck::DeckState;
    let (noun, item) = (spec.noun(), spec.item_noun());
    if items.is_empty() || items.iter().all(|(_, c)| *c == 0) {
        return Err(refuse(format!(
            "say what is in the {noun}: NAME=COUNT for each kind"
        )));
    }
    let mut inside = std::collections::BTreeMap::new();
    for (name, count) in items {
        let name = name.trim();
        if name.is_empty() {
            return Err(refuse(format!("a {item} without a name")));
        }
        if *count > 0 {
            let now: &mut u32 = inside.entry(name.to_string()).or_insert(0);
            *now = now.checked_add(*count).ok_or_else(|| {
                refuse(format!(
                    "{name} is given {now} and {count} more: more than {} of one kind — say fewer",
                    u32::MAX
                ))
            })?;
        }
    }
    Ok(DeckState {
        inside,
        ..DeckState::default()
    })
}

/// A draw: by the app's dice (`count` of them), or the items the umpire typed, for `side`.
fn draw(
    view: &View,
    spec: &crate::rules::DeckSpec,
    before: &crate::game::deck::DeckState,
    (count, typed, side): (u32, &[String], Option<&String>),
) -> Result<(crate::game::deck::DeckChange, crate::game::deck::DeckState), Refusal> {
    use crate::game::deck::DeckChange;
    if let Some(s) = side
        && !side_known(view, s)
    {
        return Err(refuse(format!("'{s}' is not a side of this scenario")));
    }
    let reshuffle = spec.refill == crate::rules::Refill::WhenEmpty;
    let (noun, item) = (spec.noun(), spec.item_noun());
    if typed.is_empty() {
        if count == 0 {
            return Err(refuse(format!("draw at least one {item}")));
        }
        let dice = app_dice(view)?;
        let first = dice.next_draw();
        let (items, reshuffled, state) = before
            .draw_app(dice.seed(), first, count, reshuffle)
            .map_err(|had| {
                Refusal::Deck(format!(
                    "{count} {item}s asked for, {had} to draw — {}",
                    before.words(spec)
                ))
            })?;
        Ok((
            DeckChange::Drawn {
                provenance: crate::dice::Provenance::App {
                    algorithm: crate::dice::SAMPLER_ALGORITHM.to_string(),
                    seed: None,
                    first_draw: first,
                    draws: items.len() as u64,
                },
                items,
                side: side.cloned(),
                reshuffled,
            },
            state,
        ))
    } else {
        let (items, reshuffled, state) =
            before.draw_typed(typed, reshuffle).map_err(|missing| {
                Refusal::Deck(format!(
                    "no '{missing}' to draw from the {noun} — {}",
                    before.words(spec)
                ))
            })?;
        Ok((
            DeckChange::Drawn {
                items,
                provenance: crate::dice::Provenance::Physical { entered_by: None },
                side: side.cloned(),
                reshuffled,
            },
            state,
        ))
    }
}

/// Items put in (`item`: what the deck's items are called): each named as one already known
/// is spelt the same. The names put in.
fn add(
    after: &mut crate::game::deck::DeckState,
    items: &[String],
    item: &str,
) -> Result<Vec<String>, Refusal> {
    let items: Vec<String> = items
        .iter()
        .map(|i| i.trim().to_string())
        .filter(|i| !i.is_empty())
        .collect();
    if items.is_empty() {
        return Err(refuse(format!("name the {item}s to put in")));
    }
    for name in &items {
        // The same spelling as one already known.
        let known = after
            .name_of(name, &after.inside)
            .or_else(|| after.name_of(name, &after.out))
            .or_else(|| after.name_of(name, &after.removed))
            .map_or_else(|| name.clone(), str::to_string);
        // Every one of a kind, inside, drawn or out of play, fits in 32 bits: then a refill
        // or a removal, which only moves them, cannot overflow either.
        let all = [&after.inside, &after.out, &after.removed]
            .iter()
            .map(|m| u64::from(m.get(&known).copied().unwrap_or(0)))
            .sum::<u64>();
        if all >= u64::from(u32::MAX) {
            return Err(refuse(format!(
                "there are already {all} {known}: no more than {} of one kind",
                u32::MAX
            )));
        }
        *after.inside.entry(known).or_insert(0) += 1;
    }
    Ok(items)
}
