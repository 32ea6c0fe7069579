//! A megagame's section: map tables, teams, characters, Control, states and their ledgers, players.

use super::*;

/// Validates the `megagame:` section; each state's ledger becomes an off-map counter of kind
/// [`CounterKind::State`] in `out`.
pub(super) fn megagame_section(
    ctx: &mut Ctx,
    refs: &mut Refs,
    path: &YamlPath,
    raw: &RawMegagame,
    leaders: &BTreeSet<String>,
    out: &mut Vec<CounterSpec>,
) -> MegagameSpec {
    let (tables, table_ids) = map_tables(ctx, path, raw);
    // Counters work at declared tables.
    if !table_ids.is_empty() {
        for (p, t) in std::mem::take(&mut refs.map_tables) {
            check_table(ctx, &table_ids, &p, &t);
        }
    }
    let umpires = control(ctx, path, raw, &table_ids);
    let (states, state_ids) = states(ctx, refs, path, raw, &table_ids, out);
    let players = players(ctx, path, raw, leaders);
    let characters = character_links(ctx, refs, path, raw, leaders, &state_ids);
    MegagameSpec {
        tables,
        umpires,
        states,
        players,
        characters,
        rule: raw.rule.clone(),
        source_lines: raw.source.clone(),
    }
}

/// The megagame's map tables, each id once; their ids.
pub(super) fn map_tables(
    ctx: &mut Ctx,
    path: &YamlPath,
    raw: &RawMegagame,
) -> (Vec<MapTableSpec>, BTreeSet<String>) {
    let mut table_ids = BTreeSet::new();
    let mut tables = Vec::new();
    for (i, t) in raw.tables.iter().enumerate() {
        let p = path.key("tables").index(i);
        if t.id.trim().is_empty() {
            ctx.err(
                &p.key("id"),
                "empty table id",
                "give the table an id, e.g. the_east",
            );
        } else {
            ctx.once(&mut table_ids, t.id.clone(), &p.key("id"), "table", &t.id);
        }
        tables.push(MapTableSpec {
            id: t.id.clone(),
            name: t.name.clone(),
            rule: t.rule.clone(),
            source_lines: t.source.clone(),
            note: t.note.clone(),
        });
    }
    (tables, table_ids)
}

/// `table` must be one of the megagame's map tables.
pub(super) fn check_table(ctx: &mut Ctx, table_ids: &BTreeSet<String>, p: &YamlPath, table: &str) {
    if !table_ids.contains(table) {
        ctx.err(
            p,
            format!("unknown map table '{table}'"),
            format!("tables of this scenario: {}", listed(table_ids)),
        );
    }
}

/// Every team named must be one of the scenario's sides.
pub(super) fn check_teams(ctx: &mut Ctx, refs: &Refs, p: &YamlPath, teams: &[String]) {
    for (j, team) in teams.iter().enumerate() {
        if !refs.sides.contains(team) {
            ctx.err(
                &p.index(j),
                format!("unknown team '{team}'"),
                format!("teams are the scenario's sides: {}", listed(&refs.sides)),
            );
        }
    }
}

/// `id` must be a leader counter of the scenario (a megagame character).
pub(super) fn check_character(
    ctx: &mut Ctx,
    leaders: &BTreeSet<String>,
    p: &YamlPath,
    id: &str,
) -> bool {
    if leaders.contains(id) {
        return true;
    }
    ctx.err(
        p,
        format!("'{id}' is not a character (leader counter) of this scenario"),
        "name a leader counter id",
    );
    false
}

/// Control: each umpire's role, and a Map Control's table.
pub(super) fn control(
    ctx: &mut Ctx,
    path: &YamlPath,
    raw: &RawMegagame,
    table_ids: &BTreeSet<String>,
) -> Vec<UmpireSpec> {
    let mut umpires = Vec::new();
    for (i, u) in raw.umpires.iter().enumerate() {
        let p = path.key("umpires").index(i);
        let role = match u.role.parse::<ControlRole>() {
            Ok(r) => r,
            Err(e) => {
                ctx.err(
                    &p.key("role"),
                    e,
                    "write one of the six Control roles (The Control Team)",
                );
                continue;
            }
        };
        match &u.table {
            Some(t) => check_table(ctx, table_ids, &p.key("table"), t),
            None if role == ControlRole::Map => ctx.err(
                &p,
                format!("Map Control '{}' needs a table", u.name),
                format!(
                    "add table: one of {} — each map table has its own Map Control (The Map)",
                    listed(table_ids)
                ),
            ),
            None => {}
        }
        umpires.push(UmpireSpec {
            name: u.name.clone(),
            role,
            table: u.table.clone(),
            note: u.note.clone(),
        });
    }
    umpires
}

/// States and their ledgers; each ledger becomes a counter in `out`. Their ids.
pub(super) fn states(
    ctx: &mut Ctx,
    refs: &mut Refs,
    path: &YamlPath,
    raw: &RawMegagame,
    table_ids: &BTreeSet<String>,
    out: &mut Vec<CounterSpec>,
) -> (Vec<StateSpec>, BTreeSet<String>) {
    let mut state_ids = BTreeSet::new();
    let mut states = Vec::new();
    for (i, st) in raw.states.iter().enumerate() {
        let p = path.key("states").index(i);
        if st.id.trim().is_empty() {
            ctx.err(
                &p.key("id"),
                "empty state id",
                "give the state an id, e.g. france",
            );
            continue;
        }
        if !ctx.once(&mut state_ids, st.id.clone(), &p.key("id"), "state", &st.id) {
            continue;
        }
        check_teams(ctx, refs, &p.key("teams"), &st.teams);
        if let Some(t) = &st.table {
            check_table(ctx, table_ids, &p.key("table"), t);
        }
        let attributes = ledger(ctx, refs, &p, st);
        let counter = st
            .counter
            .clone()
            .unwrap_or_else(|| format!("state-{}", st.id));
        let key = counter.clone();
        if !ctx.once(
            &mut refs.ids,
            key,
            &p.key("id"),
            "ledger counter id",
            &counter,
        ) {
            continue;
        }
        let side = st
            .teams
            .first()
            .cloned()
            .or_else(|| refs.sides.iter().next().cloned())
            .unwrap_or_default();
        out.push(CounterSpec {
            id: counter.clone(),
            name: st.name.clone(),
            printed: st.name.clone(),
            side,
            army: None,
            kind: CounterKind::State,
            attributes,
            unknown: st.unknown.clone(),
            position: Position::OffMap(format!("ledger: {}", st.name)),
            force: None,
        });
        states.push(StateSpec {
            id: st.id.clone(),
            name: st.name.clone(),
            counter,
            teams: st.teams.clone(),
            table: st.table.clone(),
            played: st.played,
            rule: st.rule.clone(),
            source_lines: st.source.clone(),
            note: st.note.clone(),
        });
    }
    (states, state_ids)
}

/// A state's ledger: the ruleset's unit attributes it gives, and those it lists as unknown.
pub(super) fn ledger(
    ctx: &mut Ctx,
    refs: &Refs,
    p: &YamlPath,
    st: &RawState,
) -> BTreeMap<String, Value> {
    let mut attributes = BTreeMap::new();
    let units = &refs.ruleset.units;
    let undeclared = |ctx: &mut Ctx, q: &YamlPath, name: &str| {
        ctx.err(
            q,
            format!(
                "unknown ledger attribute '{name}' in ruleset '{}'",
                refs.ruleset.id
            ),
            format!(
                "ledgers take the ruleset's unit attributes: {}",
                listed(units.iter().map(|u| &u.name))
            ),
        );
    };
    for (name, value) in &st.ledger {
        let q = p.key("ledger").key(name);
        let Some(spec) = units.iter().find(|u| u.name == *name) else {
            undeclared(ctx, &q, name);
            continue;
        };
        match attribute_value(spec, value) {
            Ok(v) => {
                attributes.insert(name.clone(), v);
            }
            Err(e) => ctx.err(
                &q,
                format!("{name}: {e}"),
                spec.help
                    .clone()
                    .unwrap_or_else(|| "see the ruleset's units".into()),
            ),
        }
    }
    for (j, name) in st.unknown.iter().enumerate() {
        let q = p.key("unknown").index(j);
        if !units.iter().any(|u| u.name == *name) {
            undeclared(ctx, &q, name);
        } else if attributes.contains_key(name) {
            ctx.err(
                &q,
                format!("'{name}' is both given and listed as unknown"),
                "remove it from one of the two",
            );
        }
    }
    attributes
}

/// Players, each id once, each character played by one player.
pub(super) fn players(
    ctx: &mut Ctx,
    path: &YamlPath,
    raw: &RawMegagame,
    leaders: &BTreeSet<String>,
) -> Vec<PlayerSpec> {
    let mut players = Vec::new();
    let mut played_by: BTreeMap<String, String> = BTreeMap::new();
    let mut player_ids = BTreeSet::new();
    for (i, pl) in raw.players.iter().enumerate() {
        let p = path.key("players").index(i);
        let id = pl.id.clone().unwrap_or_else(|| slug(&pl.name));
        ctx.once(&mut player_ids, id.clone(), &p, "player id", &id);
        for (j, c) in pl.characters.iter().enumerate() {
            let q = p.key("characters").index(j);
            if check_character(ctx, leaders, &q, c)
                && let Some(other) = played_by.insert(c.clone(), id.clone())
            {
                ctx.err(
                    &q,
                    format!("character '{c}' is already played by '{other}'"),
                    "a character has one player at a time",
                );
            }
        }
        players.push(PlayerSpec {
            id,
            name: pl.name.clone(),
            characters: pl.characters.clone(),
        });
    }
    players
}

/// Characters' links to teams and states.
pub(super) fn character_links(
    ctx: &mut Ctx,
    refs: &Refs,
    path: &YamlPath,
    raw: &RawMegagame,
    leaders: &BTreeSet<String>,
    state_ids: &BTreeSet<String>,
) -> Vec<CharacterLinks> {
    let mut characters = Vec::new();
    for (i, l) in raw.characters.iter().enumerate() {
        let p = path.key("characters").index(i);
        check_character(ctx, leaders, &p.key("character"), &l.character);
        check_teams(ctx, refs, &p.key("teams"), &l.teams);
        for (j, st) in l.states.iter().enumerate() {
            if !state_ids.contains(st) {
                ctx.err(
                    &p.key("states").index(j),
                    format!("unknown state '{st}'"),
                    format!("states of this scenario: {}", listed(state_ids)),
                );
            }
        }
        characters.push(CharacterLinks {
            character: l.character.clone(),
            teams: l.teams.clone(),
            states: l.states.clone(),
            rule: l.rule.clone(),
            source_lines: l.source.clone(),
        });
    }
    characters
}
