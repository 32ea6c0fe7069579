-- Umpire's schema on a Control server (schema version 4), applied by scripts/control-server.sh at
-- `init` and at every `start`, by the cluster's administrator over the Unix socket. Desks never
-- create or change it. Everything is idempotent: tables are created once, functions replaced.
--
-- Who may do what:
--   umpire_owner  NOLOGIN; owns the tables and the functions. Nobody logs in as it.
--   umpire_desk   NOLOGIN; the group every umpire's login role is in: it may read the tables
--                 (SELECT) and call umpire_create_game, umpire_propose, umpire_publish,
--                 umpire_append and umpire_whoami. It may not INSERT, UPDATE, DELETE or
--                 TRUNCATE anything.
--   umpire_referee LOGIN without a password, let in over the Unix socket only (peer, as the
--                 system user that runs control-server.sh): the referee process (`umpire
--                 referee`), which reads the games and proposals and calls umpire_judge only.
--   one login role per umpire (control-server.sh add-umpire), recorded in umpire_umpires with
--                 the umpire's name, Control role and map table: the identity the server holds
--                 for that login, which every entry it appends must carry.
--
-- The journal is written only by the SECURITY DEFINER functions below, which run as
-- umpire_owner with search_path pinned. umpire_append checks, with the game row locked: the
-- place (compare-and-append), each entry's hash (SHA-256 of the previous hash, "\n" and the
-- entry's exact text, from the genesis of the game's public description), who it says made it,
-- and the umpire's remit over every counter it touches (a port of megagame::People::remit_check,
-- over facts it keeps itself from the scenario and the journal). The rules of play beyond
-- what SQL can reasonably check are the engine's: a desk first puts each append to the referee
-- (umpire_propose), and umpire_append stores it only once the referee has accepted it.

\set ON_ERROR_STOP on
SET client_min_messages = warning;

DO $$
DECLARE
  v integer;
BEGIN
  IF to_regclass('public.umpire_schema') IS NOT NULL THEN
    SELECT max(version) INTO v FROM umpire_schema;
    -- Schema 3 (before the referee) is brought up to 4 in place: it gains the proposals table.
    IF v < 3 THEN
      RAISE EXCEPTION 'this database holds games written by an older Umpire (server schema %, before per-umpire logins) — make a new server (control-server.sh init --dir NEW-DIR) and publish the games again from their files', v;
    ELSIF v > 4 THEN
      RAISE EXCEPTION 'this database was set up by a newer Umpire (server schema %; this script writes 4) — use the newer scripts/control-server.sh', v;
    END IF;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'umpire_owner') THEN
    CREATE ROLE umpire_owner NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'umpire_desk') THEN
    CREATE ROLE umpire_desk NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
  END IF;
  -- The referee (control-server.sh start runs it): a login with no password, let in only over
  -- the Unix socket by peer authentication, as the system user that runs the server script.
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'umpire_referee') THEN
    CREATE ROLE umpire_referee LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS
      CONNECTION LIMIT 4;
  END IF;
END $$;

-- Only the owner creates objects here; the desks only look.
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE, CREATE ON SCHEMA public TO umpire_owner;
GRANT USAGE ON SCHEMA public TO umpire_desk;
REVOKE ALL ON DATABASE umpire FROM PUBLIC;
GRANT CONNECT ON DATABASE umpire TO umpire_desk;
GRANT CONNECT ON DATABASE umpire TO umpire_referee;
GRANT USAGE ON SCHEMA public TO umpire_referee;

-- The game's writers wait for one another on its row lock (umpire_lock_game): the owner may
-- see how long another session has held it and end a session that holds it open idle.
GRANT pg_read_all_stats, pg_signal_backend TO umpire_owner;

SET ROLE umpire_owner;

CREATE TABLE IF NOT EXISTS umpire_schema (version INTEGER NOT NULL);
INSERT INTO umpire_schema (version) SELECT 4 WHERE NOT EXISTS (SELECT 1 FROM umpire_schema);
UPDATE umpire_schema SET version = 4 WHERE version < 4;

-- Who each login is (written by control-server.sh add-umpire).
CREATE TABLE IF NOT EXISTS umpire_umpires (
  login     NAME PRIMARY KEY,
  name      TEXT NOT NULL CHECK (name = btrim(name) AND name <> '' AND strpos(name, ':') = 0),
  role      TEXT NOT NULL CHECK (role IN ('map', 'political', 'religious', 'character', 'non_played_states', 'game')),
  map_table TEXT CHECK (map_table IS NULL OR (map_table = btrim(map_table) AND map_table <> '' AND strpos(map_table, ':') = 0)),
  CHECK (role <> 'map' OR map_table IS NOT NULL)
);

CREATE TABLE IF NOT EXISTS umpire_games (
  name        TEXT PRIMARY KEY,
  meta        JSONB NOT NULL,
  -- The public description's exact JSON text: the chain's genesis is its hash.
  public_text TEXT NOT NULL,
  genesis     TEXT NOT NULL,
  len         BIGINT NOT NULL DEFAULT 0,
  -- Whether the server could be told the scenario's counters (the remit's facts).
  facts_known BOOLEAN NOT NULL,
  created_by  NAME NOT NULL,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS umpire_events (
  game      TEXT NOT NULL REFERENCES umpire_games (name) ON DELETE CASCADE,
  seq       BIGINT NOT NULL,
  at        TIMESTAMPTZ NOT NULL,
  by        TEXT,
  kind      TEXT NOT NULL,
  body      JSONB NOT NULL,
  text      TEXT NOT NULL,
  hash      TEXT NOT NULL,
  -- The login that appended it (the publisher, for a published journal).
  signed_by NAME NOT NULL,
  PRIMARY KEY (game, seq)
);

-- The phase clock, as megagame::clock::server_clock gives it (NULL without one): the phases'
-- first leaf steps and each turn's phase lengths, for umpire_clock_at.
ALTER TABLE umpire_games ADD COLUMN IF NOT EXISTS clock JSONB;
-- The Control roles' remits, the ruleset's `remits:` as the desks read them (rules::Remits; NULL
-- when the ruleset declares none: then only Game Control changes the game), for umpire_remit.
ALTER TABLE umpire_games ADD COLUMN IF NOT EXISTS remits JSONB;
-- Control's records the ruleset declares (rules::Records: charts, registers, votes, banks), for
-- who may write each (umpire_record_roles).
ALTER TABLE umpire_games ADD COLUMN IF NOT EXISTS records JSONB;

-- What the server holds each entry to that the ruleset and scenario say (umpire_check_entry):
-- `procedures` (each one's result codes: rules::ResultCodes), `dice` (each custom die's faces),
-- `decks` (the ruleset's deck ids), `steps` (leaf steps in a turn) and `turns`. NULL for a game
-- created by an older desk or on a ruleset Umpire does not ship: then only the entry's shape,
-- time and remits are checked.
ALTER TABLE umpire_games ADD COLUMN IF NOT EXISTS rules JSONB;

-- The remit's facts: the scenario's states and counters as the game began (written when the
-- game is created), and every later change to the attributes the remit reads.
CREATE TABLE IF NOT EXISTS umpire_states (
  game      TEXT NOT NULL REFERENCES umpire_games (name) ON DELETE CASCADE,
  ord       INTEGER NOT NULL,
  id        TEXT NOT NULL,
  counter   TEXT NOT NULL,
  map_table TEXT,
  played    BOOLEAN NOT NULL,
  PRIMARY KEY (game, ord)
);

CREATE TABLE IF NOT EXISTS umpire_counters (
  game       TEXT NOT NULL REFERENCES umpire_games (name) ON DELETE CASCADE,
  counter    TEXT NOT NULL,
  kind       TEXT NOT NULL,
  army       TEXT,
  -- Only the attributes the remit reads (unit_kind, map_table, country, owner, played).
  attributes JSONB NOT NULL,
  PRIMARY KEY (game, counter)
);
-- A counter added during the game: the entry that added it (it is not there while that entry
-- is undone). NULL for the scenario's counters.
ALTER TABLE umpire_counters ADD COLUMN IF NOT EXISTS added_seq BIGINT;

CREATE TABLE IF NOT EXISTS umpire_fact_changes (
  game      TEXT NOT NULL REFERENCES umpire_games (name) ON DELETE CASCADE,
  seq       BIGINT NOT NULL,
  ord       INTEGER NOT NULL,
  counter   TEXT NOT NULL,
  attribute TEXT NOT NULL,
  value     JSONB NOT NULL,
  PRIMARY KEY (game, seq, ord)
);
CREATE INDEX IF NOT EXISTS umpire_fact_changes_by_counter
  ON umpire_fact_changes (game, counter, attribute, seq DESC);

-- Entries undone (and not redone since): their fact changes do not count.
CREATE TABLE IF NOT EXISTS umpire_undone (
  game TEXT NOT NULL REFERENCES umpire_games (name) ON DELETE CASCADE,
  seq  BIGINT NOT NULL,
  PRIMARY KEY (game, seq)
);

-- Appends put to the referee (umpire_propose) and its verdicts (umpire_judge). The rules of play
-- are the engine's: the referee (`umpire referee`, started by control-server.sh start) holds
-- each proposed append to them (game::audit::Referee, what `game import` and `verify` hold a
-- journal to), and umpire_append and umpire_publish store only what it accepted.
CREATE TABLE IF NOT EXISTS umpire_proposals (
  id        BIGSERIAL PRIMARY KEY,
  -- No foreign key: its check would wait on the game row a writer holds locked.
  game      TEXT NOT NULL,
  first_seq BIGINT NOT NULL,
  texts     TEXT[] NOT NULL,
  hashes    TEXT[] NOT NULL,
  login     NAME NOT NULL,
  at        TIMESTAMPTZ NOT NULL DEFAULT now(),
  verdict   TEXT CHECK (verdict IN ('accepted', 'refused')),
  why       TEXT,
  judged_at TIMESTAMPTZ
);
ALTER TABLE umpire_proposals DROP CONSTRAINT IF EXISTS umpire_proposals_game_fkey;
CREATE INDEX IF NOT EXISTS umpire_proposals_by_place ON umpire_proposals (game, first_seq);
CREATE INDEX IF NOT EXISTS umpire_proposals_waiting ON umpire_proposals (id) WHERE verdict IS NULL;

-- ── Helpers (not callable by the desks) ────────────────────────────────────────────────────

-- The attributes whose changes the server keeps (what People::new reads).
CREATE OR REPLACE FUNCTION umpire_is_fact(a TEXT) RETURNS BOOLEAN
LANGUAGE sql IMMUTABLE AS $$
  SELECT a IN ('unit_kind', 'map_table', 'country', 'owner', 'played')
$$;

-- A text attribute as People's `text()` reads it: a non-blank string, else nothing.
CREATE OR REPLACE FUNCTION umpire_text(v JSONB) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(v) = 'string' AND btrim(v #>> '{}', E' \t\n\r\f\u000b') <> ''
              THEN v #>> '{}' END
$$;

-- A counter's attribute as it stands: its last change in an entry that counts, else its value
-- when the game began.
CREATE OR REPLACE FUNCTION umpire_fact(g TEXT, c TEXT, a TEXT) RETURNS JSONB
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v JSONB;
BEGIN
  SELECT f.value INTO v FROM umpire_fact_changes f
   WHERE f.game = g AND f.counter = c AND f.attribute = a
     AND NOT EXISTS (SELECT 1 FROM umpire_undone u WHERE u.game = g AND u.seq = f.seq)
   ORDER BY f.seq DESC, f.ord DESC LIMIT 1;
  IF FOUND THEN
    RETURN v;
  END IF;
  RETURN (SELECT k.attributes -> a FROM umpire_counters k WHERE k.game = g AND k.counter = c);
END $$;

-- megagame::people::counter_class (NULL: no such counter in the game).
CREATE OR REPLACE FUNCTION umpire_class(g TEXT, c TEXT) RETURNS TEXT
LANGUAGE plpgsql STABLE AS $$
DECLARE
  k TEXT;
  uk TEXT;
BEGIN
  SELECT kind INTO k FROM umpire_counters WHERE game = g AND counter = c
     AND (added_seq IS NULL
          OR NOT EXISTS (SELECT 1 FROM umpire_undone u WHERE u.game = g AND u.seq = added_seq));
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF k = 'state' THEN RETURN 'ledger'; END IF;
  IF k = 'leader' THEN RETURN 'character'; END IF;
  uk := umpire_text(umpire_fact(g, c, 'unit_kind'));
  RETURN CASE
    WHEN uk IN ('army', 'fleet', 'city', 'area') THEN uk
    WHEN uk = 'state' THEN 'ledger'
    WHEN k = 'unit' THEN 'army'
    ELSE 'other' END;
END $$;

-- People::state_of: a state's ledger counter, else the first of its country, owner and army
-- that names a state. Characters have none (People::states_of_character is not a remit fact).
CREATE OR REPLACE FUNCTION umpire_state_of(g TEXT, c TEXT) RETURNS TEXT
LANGUAGE plpgsql STABLE AS $$
DECLARE
  s TEXT;
  candidate TEXT;
BEGIN
  IF umpire_class(g, c) IS DISTINCT FROM 'character' THEN
    SELECT id INTO s FROM umpire_states WHERE game = g AND counter = c ORDER BY ord DESC LIMIT 1;
    IF FOUND THEN
      RETURN s;
    END IF;
    FOREACH candidate IN ARRAY ARRAY[
      umpire_text(umpire_fact(g, c, 'country')),
      umpire_text(umpire_fact(g, c, 'owner')),
      (SELECT army FROM umpire_counters WHERE game = g AND counter = c)]
    LOOP
      IF candidate IS NOT NULL AND EXISTS (SELECT 1 FROM umpire_states WHERE game = g AND id = candidate) THEN
        RETURN candidate;
      END IF;
    END LOOP;
  END IF;
  RETURN NULL;
END $$;

-- People::table_of: its map_table attribute, else its state's table.
CREATE OR REPLACE FUNCTION umpire_table_of(g TEXT, c TEXT) RETURNS TEXT
LANGUAGE plpgsql STABLE AS $$
DECLARE
  t TEXT;
  s TEXT;
BEGIN
  IF umpire_class(g, c) = 'character' THEN
    RETURN NULL;
  END IF;
  t := umpire_text(umpire_fact(g, c, 'map_table'));
  IF t IS NOT NULL THEN
    RETURN t;
  END IF;
  s := umpire_state_of(g, c);
  RETURN (SELECT map_table FROM umpire_states WHERE game = g AND id = s ORDER BY ord LIMIT 1);
END $$;

-- People::is_non_played: a non-played character (played: false), or a counter of a
-- non-played state.
CREATE OR REPLACE FUNCTION umpire_non_played(g TEXT, c TEXT) RETURNS BOOLEAN
LANGUAGE plpgsql STABLE AS $$
DECLARE
  s TEXT;
BEGIN
  IF umpire_class(g, c) = 'character' THEN
    RETURN umpire_fact(g, c, 'played') = 'false'::jsonb;
  END IF;
  s := umpire_state_of(g, c);
  RETURN s IS NOT NULL
     AND EXISTS (SELECT 1 FROM umpire_states WHERE game = g AND id = s AND NOT played);
END $$;

-- The first of a role's remit clauses that matches (rules::Remits::answer, line for line): the
-- clauses are the ruleset's `remits:`, sent by the desk that created the game (umpire_games.remits,
-- as the desks' gate reads them) — one declaration, judged the same way here and at every desk.
-- `section` is 'roles' (a counter on the table) or 'adding' (a counter put on it).
CREATE OR REPLACE FUNCTION umpire_remit_answer(g TEXT, section TEXT, r TEXT, c TEXT, cls TEXT,
  a TEXT, tbl TEXT, its TEXT, np BOOLEAN, proc TEXT,
  OUT remit TEXT, OUT rule TEXT, OUT why TEXT)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  rm JSONB;
  cl JSONB;
BEGIN
  SELECT gm.remits INTO rm FROM umpire_games gm WHERE gm.name = g;
  IF rm IS NULL OR jsonb_typeof(rm) <> 'object' THEN
    IF r = 'game' THEN
      remit := 'own'; rule := 'The Control Team › Game Control'; why := 'Game Control deals with any problem which arises';
    ELSE
      remit := 'outside'; rule := 'The Control Team';
      why := 'this game''s ruleset declares no remits: only Game Control may change it';
    END IF;
    RETURN;
  END IF;
  FOR cl IN SELECT x FROM jsonb_array_elements(
      CASE WHEN jsonb_typeof(rm -> section -> r) = 'array' THEN rm -> section -> r ELSE '[]'::jsonb END) x
  LOOP
    IF (jsonb_array_length(cl -> 'classes') = 0 OR cl -> 'classes' ? cls)
       AND (jsonb_typeof(cl -> 'touching') IS DISTINCT FROM 'object'
            OR CASE WHEN a IS NULL THEN (cl -> 'touching' ->> 'whole')::boolean
                    ELSE cl -> 'touching' -> 'attributes' ? a END)
       AND (jsonb_typeof(cl -> 'table') IS DISTINCT FROM 'string'
            OR CASE cl ->> 'table'
                 WHEN 'own' THEN tbl IS NOT NULL AND its IS NOT NULL AND tbl = its
                 WHEN 'other' THEN tbl IS NOT NULL AND its IS NOT NULL AND tbl <> its
                 WHEN 'unknown' THEN its IS NULL
                 WHEN 'none_given' THEN tbl IS NULL
                 ELSE false END)
       AND (jsonb_typeof(cl -> 'non_played') IS DISTINCT FROM 'boolean'
            OR (cl ->> 'non_played')::boolean = np)
       AND (jsonb_array_length(cl -> 'resolving') = 0
            OR (proc IS NOT NULL AND cl -> 'resolving' ? proc))
    THEN
      remit := cl ->> 'remit';
      rule := cl ->> 'rule';
      why := replace(replace(cl ->> 'why', '{counter}', c), '{table}', coalesce(its, 'no known table'));
      RETURN;
    END IF;
  END LOOP;
  remit := 'outside'; rule := 'The Control Team';
  why := format('%s has no remit over %s', umpire_role_label(r), c);
END $$;

-- People::remit_check_for: whether a Control role (at a table, for Map Control) may touch a
-- counter or one of its attributes (or, with `proc`, have it take part in a resolution of that
-- procedure): 'own', 'discretion' or 'outside', with the rule and the reason in the desk's words.
DROP FUNCTION IF EXISTS umpire_remit(TEXT, TEXT, TEXT, TEXT, TEXT);
CREATE OR REPLACE FUNCTION umpire_remit(g TEXT, r TEXT, tbl TEXT, c TEXT, a TEXT, proc TEXT DEFAULT NULL,
  OUT remit TEXT, OUT rule TEXT, OUT why TEXT)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  cls TEXT := umpire_class(g, c);
  answer RECORD;
BEGIN
  IF cls IS NULL THEN
    remit := 'outside'; rule := ''; why := format('no counter ''%s'' in this game', c);
    RETURN;
  END IF;
  IF r NOT IN ('map', 'political', 'religious', 'character', 'non_played_states', 'game') THEN
    remit := 'outside'; rule := ''; why := format('''%s'' is not a Control role', r);
    RETURN;
  END IF;
  SELECT * INTO answer FROM umpire_remit_answer(g, 'roles', r, c, cls, a, tbl,
    umpire_table_of(g, c), coalesce(umpire_non_played(g, c), false), proc);
  remit := answer.remit; rule := answer.rule; why := answer.why;
END $$;

-- The Control roles (besides Game Control) that keep the record a `record` entry writes
-- (rules::Records::roles, line for line): a chart's, register's or vote's `roles`, the banks'.
CREATE OR REPLACE FUNCTION umpire_record_roles(rec JSONB, fact JSONB) RETURNS JSONB
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(CASE fact ->> 'kind'
    WHEN 'chart' THEN (SELECT x -> 'roles' FROM jsonb_array_elements(coalesce(rec -> 'charts', '[]'::jsonb)) x
                        WHERE x ->> 'id' = fact ->> 'chart' OR x ->> 'name' = fact ->> 'chart' LIMIT 1)
    WHEN 'register' THEN (SELECT x -> 'roles' FROM jsonb_array_elements(coalesce(rec -> 'registers', '[]'::jsonb)) x
                        WHERE x ->> 'id' = fact ->> 'register' OR x ->> 'name' = fact ->> 'register' LIMIT 1)
    WHEN 'ruling' THEN (SELECT x -> 'roles' FROM jsonb_array_elements(coalesce(rec -> 'registers', '[]'::jsonb)) x
                        WHERE x ->> 'id' = fact ->> 'register' OR x ->> 'name' = fact ->> 'register' LIMIT 1)
    WHEN 'vote' THEN (SELECT x -> 'roles' FROM jsonb_array_elements(coalesce(rec -> 'votes', '[]'::jsonb)) x
                        WHERE x ->> 'id' = fact ->> 'vote' OR x ->> 'name' = fact ->> 'vote' LIMIT 1)
    WHEN 'bank_access' THEN rec -> 'banks' -> 'roles'
  END, '[]'::jsonb)
$$;

-- ── The phase clock ────────────────────────────────────────────────────────────────────────

-- A phase's length (NULL past the last turn the clock knows).
CREATE OR REPLACE FUNCTION umpire_clock_len(ck JSONB, t INTEGER, p INTEGER) RETURNS INTERVAL
LANGUAGE sql IMMUTABLE AS $$
  SELECT make_interval(secs => (tt -> 'seconds' ->> p)::double precision)
    FROM jsonb_array_elements(ck -> 'turns') tt
   WHERE (tt ->> 'turn')::integer = t AND (tt -> 'seconds' ->> p) IS NOT NULL
$$;

-- megagame::clock::clock_status, line for line: the clock's turn and phase (from 0) at `upto`,
-- folded from the game's clock entries in journal order (each at its own time).
CREATE OR REPLACE FUNCTION umpire_clock_at(g TEXT, upto TIMESTAMPTZ,
  OUT started BOOLEAN, OUT finished BOOLEAN, OUT turn INTEGER, OUT phase INTEGER)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  ck JSONB;
  nphases INTEGER;
  held BOOLEAN := false;
  remaining INTERVAL;
  since TIMESTAMPTZ;
  elapsed INTERVAL;
  len INTERVAL;
  idx INTEGER;
  advance BOOLEAN;
  e RECORD;
  act JSONB;
BEGIN
  started := false;
  finished := false;
  SELECT gm.clock INTO ck FROM umpire_games gm WHERE gm.name = g;
  IF ck IS NULL OR jsonb_typeof(ck) <> 'object' THEN
    RETURN;
  END IF;
  nphases := jsonb_array_length(ck -> 'phases');
  SELECT min((tt ->> 'turn')::integer) INTO turn FROM jsonb_array_elements(ck -> 'turns') tt;
  phase := 0;
  remaining := coalesce(umpire_clock_len(ck, turn, 0), interval '0');
  SELECT min(ev.at) INTO since FROM umpire_events ev WHERE ev.game = g;
  since := coalesce(since, upto);
  -- Each clock entry up to `upto`, then `upto` itself (a row with no body).
  FOR e IN
    SELECT x.at, x.body FROM (
      SELECT ev.seq, ev.at, ev.body FROM umpire_events ev
       WHERE ev.game = g AND ev.kind = 'clock' AND ev.at <= upto
      UNION ALL SELECT NULL::bigint, upto, NULL::jsonb) x
    ORDER BY x.seq NULLS LAST
  LOOP
    act := e.body -> 'action';
    -- Run to this moment (Run::run_to): phases whose time runs out end, one after another;
    -- then an advance ends the phase at once (Run::apply, Advance).
    advance := act ->> 'kind' = 'advance' AND started AND NOT finished;
    IF started AND NOT finished AND NOT held THEN
      elapsed := greatest(e.at - since, interval '0');
    ELSE
      elapsed := NULL;
    END IF;
    LOOP
      EXIT WHEN finished;
      IF elapsed IS NOT NULL AND elapsed >= remaining THEN
        elapsed := elapsed - remaining;
      ELSIF advance THEN
        advance := false;
        elapsed := NULL;
      ELSE
        EXIT;
      END IF;
      IF phase + 1 < nphases THEN
        phase := phase + 1;
      ELSE
        turn := turn + 1;
        phase := 0;
      END IF;
      len := umpire_clock_len(ck, turn, phase);
      IF len IS NULL THEN
        finished := true;
        remaining := interval '0';
      ELSE
        remaining := len;
      END IF;
    END LOOP;
    IF elapsed IS NOT NULL AND NOT finished THEN
      remaining := remaining - elapsed;
    END IF;
    since := greatest(since, e.at);
    EXIT WHEN e.body IS NULL;
    CASE act ->> 'kind'
      WHEN 'start' THEN
        SELECT p.ord - 1 INTO idx FROM jsonb_array_elements_text(ck -> 'phases') WITH ORDINALITY AS p (id, ord)
         WHERE p.id = act ->> 'phase';
        len := umpire_clock_len(ck, (act ->> 'turn')::integer, idx);
        IF idx IS NOT NULL AND len IS NOT NULL THEN
          started := true; finished := false; held := false;
          turn := (act ->> 'turn')::integer; phase := idx; remaining := len; since := e.at;
        END IF;
      WHEN 'hold' THEN
        IF started THEN held := true; END IF;
      WHEN 'resume' THEN
        IF started THEN held := false; since := e.at; END IF;
      WHEN 'advance' THEN
        IF started THEN since := e.at; END IF;
      WHEN 'set_remaining' THEN
        IF started AND NOT finished THEN
          remaining := make_interval(secs => (act ->> 'seconds')::double precision); since := e.at;
        END IF;
      ELSE NULL;
    END CASE;
  END LOOP;
END $$;

-- Whether a `stepped` entry made "by clock" is the clock's: it goes to the first step of a
-- phase the clock has reached on the server's own time (a desk whose clock runs up to
-- `slack` ahead is believed), past where the game stands and not past the last turn.
CREATE OR REPLACE FUNCTION umpire_clock_step_ok(g TEXT, body JSONB, slack INTERVAL,
  OUT ok BOOLEAN, OUT why TEXT)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  ck JSONB;
  now_ RECORD;
  to_turn INTEGER;
  to_phase INTEGER;
BEGIN
  ok := false;
  SELECT gm.clock INTO ck FROM umpire_games gm WHERE gm.name = g;
  IF ck IS NULL OR jsonb_typeof(ck) <> 'object' THEN
    why := 'this game has no phase clock';
    RETURN;
  END IF;
  SELECT * INTO now_ FROM umpire_clock_at(g, now() + slack);
  IF NOT now_.started THEN
    why := 'the clock has not been started';
    RETURN;
  END IF;
  BEGIN
    to_turn := (body -> 'to' ->> 'turn')::integer;
    SELECT s.ord - 1 INTO to_phase FROM jsonb_array_elements_text(ck -> 'first_steps') WITH ORDINALITY AS s (step, ord)
     WHERE s.step = body -> 'to' ->> 'step';
  EXCEPTION WHEN others THEN
    to_turn := NULL;
  END;
  IF to_turn IS NULL OR to_phase IS NULL THEN
    why := 'a clock step goes to the first step of one of the clock''s phases';
  ELSIF to_turn > (ck ->> 'last_turn')::integer THEN
    why := format('the game has %s turns', ck ->> 'last_turn');
  ELSIF (to_turn, to_phase) > (now_.turn, now_.phase) THEN
    why := format('the clock on the server stands at Turn %s, Phase %s: it has not reached Turn %s, Phase %s',
      now_.turn, now_.phase + 1, to_turn, to_phase + 1);
  ELSE
    ok := true;
  END IF;
END $$;

-- People::add_remit_check: whether a Control role (at a table, for Map Control) may put the
-- counter a change adds on the table, judged on the counter as the change gives it (its kind,
-- unit_kind, map_table, country, owner, army) by the `adding:` clauses.
CREATE OR REPLACE FUNCTION umpire_add_remit(g TEXT, r TEXT, tbl TEXT, ch JSONB,
  OUT remit TEXT, OUT rule TEXT, OUT why TEXT)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  c TEXT := ch ->> 'counter';
  k TEXT := ch ->> 'kind';
  attrs JSONB := CASE WHEN jsonb_typeof(ch -> 'attributes') = 'object' THEN ch -> 'attributes' ELSE '{}'::jsonb END;
  uk TEXT := umpire_text(attrs -> 'unit_kind');
  cls TEXT;
  owner TEXT;
  candidate TEXT;
  at_table TEXT;
  np BOOLEAN := false;
  answer RECORD;
BEGIN
  cls := CASE WHEN k = 'state' THEN 'ledger'
              WHEN k = 'leader' THEN 'character'
              WHEN uk IN ('army', 'fleet', 'city', 'area') THEN uk
              WHEN uk = 'state' THEN 'ledger'
              WHEN k = 'unit' THEN 'army'
              ELSE 'other' END;
  IF cls = 'character' THEN
    np := coalesce(attrs -> 'played' = 'false'::jsonb, false);
  ELSE
    SELECT id INTO owner FROM umpire_states WHERE game = g AND counter = c ORDER BY ord DESC LIMIT 1;
    IF NOT FOUND THEN
      owner := NULL;
      FOREACH candidate IN ARRAY ARRAY[umpire_text(attrs -> 'country'), umpire_text(attrs -> 'owner'), ch ->> 'army']
      LOOP
        IF candidate IS NOT NULL AND EXISTS (SELECT 1 FROM umpire_states WHERE game = g AND id = candidate) THEN
          owner := candidate;
          EXIT;
        END IF;
      END LOOP;
    END IF;
    at_table := coalesce(umpire_text(attrs -> 'map_table'),
      (SELECT map_table FROM umpire_states WHERE game = g AND id = owner ORDER BY ord LIMIT 1));
    np := owner IS NOT NULL AND EXISTS (SELECT 1 FROM umpire_states WHERE game = g AND id = owner AND NOT played);
  END IF;
  SELECT * INTO answer FROM umpire_remit_answer(g, 'adding', r, c, cls, NULL, tbl, at_table, np, NULL);
  remit := answer.remit; rule := answer.rule; why := answer.why;
END $$;

CREATE OR REPLACE FUNCTION umpire_role_label(r TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE r
    WHEN 'map' THEN 'Map Control'
    WHEN 'political' THEN 'Political Control'
    WHEN 'religious' THEN 'Religious Control'
    WHEN 'character' THEN 'Character Control'
    WHEN 'non_played_states' THEN 'Non-played States'
    WHEN 'game' THEN 'Game Control' END
$$;

-- SignedIn::by: how the journal records an umpire ("Anna (Map Control, the_east)").
CREATE OR REPLACE FUNCTION umpire_by(u umpire_umpires) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
  SELECT u.name || ' (' || umpire_role_label(u.role)
    || coalesce(', ' || u.map_table, '') || ')'
$$;

-- The calling login's umpire, or a refusal.
CREATE OR REPLACE FUNCTION umpire_me() RETURNS umpire_umpires
LANGUAGE plpgsql STABLE AS $$
DECLARE
  me umpire_umpires;
BEGIN
  SELECT * INTO me FROM umpire_umpires WHERE login = session_user;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'UM403',
      MESSAGE = format('the login %s is not one of this server''s umpires — the server''s administrator adds umpires with `scripts/control-server.sh add-umpire NAME ROLE [TABLE]`', session_user);
  END IF;
  RETURN me;
END $$;

-- rules::Remits::may, line for line: NULL when `role` may take `action` (the ruleset's
-- `remits: actions:`; Game Control alone for one it does not declare, or without remits), else
-- the remit that says who may.
CREATE OR REPLACE FUNCTION umpire_may(remits JSONB, action TEXT, role TEXT) RETURNS JSONB
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN jsonb_typeof(remits -> 'actions' -> action) = 'object' THEN
      CASE WHEN (remits -> 'actions' -> action -> 'roles') ? role THEN NULL ELSE remits -> 'actions' -> action END
    WHEN role = 'game' THEN NULL
    ELSE jsonb_build_object('roles', '["game"]'::jsonb, 'rule', 'The Control Team › Game Control',
                            'why', 'the ruleset''s remits name nobody else for it')
  END
$$;

-- Refuses (UM403) an action over the whole game that is another role's (megagame::remit::permits).
CREATE OR REPLACE FUNCTION umpire_action_remit(gm umpire_games, me umpire_umpires, action TEXT, what TEXT) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
  refused JSONB := umpire_may(gm.remits, action, me.role);
BEGIN
  IF refused IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'UM403',
      MESSAGE = format('%s may not %s: %s (%s) — ask %s', umpire_by(me), what, refused ->> 'why', refused ->> 'rule',
        coalesce((SELECT string_agg(umpire_role_label(r), ' or ') FROM jsonb_array_elements_text(refused -> 'roles') r), 'Game Control'));
  END IF;
END $$;

-- ── No login holds the game hostage ──────────────────────────────────────────────────────

-- The limits every umpire login works under (set by control-server.sh add-umpire, and again for
-- every login at each `start`): a statement runs at most 30 s, waits for a lock at most 5 s, and a
-- transaction left open and idle is ended after 5 s. A desk's append is one short statement, so
-- none of these touch honest work; a login that turns them off in its own session is dealt with
-- by the next writer (umpire_lock_game).
CREATE OR REPLACE FUNCTION umpire_login_limits(login NAME) RETURNS VOID
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER ROLE %I IN DATABASE umpire SET statement_timeout = %L', login, '30s');
  EXECUTE format('ALTER ROLE %I IN DATABASE umpire SET lock_timeout = %L', login, '5s');
  EXECUTE format('ALTER ROLE %I IN DATABASE umpire SET idle_in_transaction_session_timeout = %L', login, '5s');
END $$;

-- Locks the game's row for one writer (umpire_append, umpire_publish): waits at most 2 s, then
-- looks at who holds it. A session that holds it in a transaction left idle, or for more than
-- 10 s, is ended (an append takes milliseconds: nobody honest holds the game that long) and the
-- lock taken; otherwise the desk is told whom it waits for (UM423). NULL when there is no game.
CREATE OR REPLACE FUNCTION umpire_lock_game(g TEXT) RETURNS umpire_games
LANGUAGE plpgsql AS $$
DECLARE
  gm umpire_games;
  holder RECORD;
  tries INTEGER := 0;
BEGIN
  PERFORM set_config('lock_timeout', '2s', true);
  LOOP
    BEGIN
      SELECT * INTO gm FROM umpire_games WHERE name = g FOR UPDATE;
      PERFORM set_config('lock_timeout', '5s', true);
      RETURN gm;
    EXCEPTION WHEN lock_not_available THEN
      tries := tries + 1;
    END;
    -- The writers in a transaction that has locked or changed the games' rows (a row lock is
    -- not listed by itself; an idle one first, else the longest held).
    SELECT a.pid, a.usename, a.state, now() - coalesce(a.xact_start, now()) AS held, u AS who
      INTO holder
      FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      LEFT JOIN umpire_umpires u ON u.login = a.usename
     WHERE l.locktype = 'relation' AND l.relation = 'umpire_games'::regclass AND l.granted
       AND l.mode IN ('RowShareLock', 'RowExclusiveLock') AND l.pid <> pg_backend_pid()
     ORDER BY (a.state LIKE 'idle in transaction%') DESC, a.xact_start
     LIMIT 1;
    IF holder.pid IS NOT NULL AND tries <= 2
       AND (holder.state LIKE 'idle in transaction%' OR holder.held > interval '10 seconds') THEN
      PERFORM pg_terminate_backend(holder.pid, 1000);
      CONTINUE;
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'UM423',
      MESSAGE = format('the game is being written by %s (for %s s) — nothing was written; try again in a moment',
        CASE WHEN (holder.who).login IS NOT NULL THEN umpire_by(holder.who)
             WHEN holder.usename IS NOT NULL THEN format('the login %s', holder.usename)
             ELSE 'another session' END,
        coalesce(extract(epoch FROM holder.held)::integer, 2));
  END LOOP;
END $$;

CREATE OR REPLACE FUNCTION umpire_hash(previous TEXT, body TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(previous || E'\n' || body, 'UTF8')), 'hex')
$$;

-- ── What an entry must be ─────────────────────────────────────────────────────────────────
-- umpire_append holds every entry to the journal's event schema (game::Event: its kind, its
-- fields and their types), to the server's own clock, to where the Sequence of Play stands, to
-- its dice and its procedure's result codes, and a reveal to the seed's commitment: an entry a
-- desk could not read is never stored, so no login can lock the other desks out of a game.

-- Refuses an entry (UM422) with what is wrong with it.
CREATE OR REPLACE FUNCTION umpire_bad(seq BIGINT, msg TEXT) RETURNS VOID
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'UM422',
    MESSAGE = format('entry %s is refused: %s — nothing was written', seq, msg);
END $$;

-- Whether v is a whole JSON number (at least `lo` when given) that fits Umpire's integers.
CREATE OR REPLACE FUNCTION umpire_is_int(v JSONB, lo NUMERIC DEFAULT NULL) RETURNS BOOLEAN
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_typeof(v) = 'number'
     AND (v::text)::numeric = trunc((v::text)::numeric)
     AND abs((v::text)::numeric) < 9223372036854775807
     AND (lo IS NULL OR (v::text)::numeric >= lo), false)
$$;

-- Whether v is a JSON string that is not blank.
CREATE OR REPLACE FUNCTION umpire_is_text(v JSONB) RETURNS BOOLEAN
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_typeof(v) = 'string' AND btrim(v #>> '{}') <> '', false)
$$;

-- Whether c is a place in the Sequence of Play (game::Cursor): a turn from 1 (not past the
-- scenario's last) and a leaf step of the turn.
CREATE OR REPLACE FUNCTION umpire_cursor_ok(c JSONB, rules JSONB) RETURNS BOOLEAN
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_typeof(c) = 'object' AND umpire_is_int(c -> 'turn', 1) AND umpire_is_int(c -> 'step', 0)
     AND (NOT umpire_is_int(rules -> 'steps', 1) OR (c ->> 'step')::numeric < (rules ->> 'steps')::numeric)
     AND (NOT umpire_is_int(rules -> 'turns', 0) OR (c ->> 'turn')::numeric <= greatest((rules ->> 'turns')::numeric, 1)), false)
$$;

-- Where the game stands in its Sequence of Play: the last step that counts (not undone), else
-- where the game began.
CREATE OR REPLACE FUNCTION umpire_cursor(g TEXT) RETURNS JSONB
LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    (SELECT e.body -> 'to' FROM umpire_events e
      WHERE e.game = g AND e.kind = 'stepped'
        AND NOT EXISTS (SELECT 1 FROM umpire_undone u WHERE u.game = g AND u.seq = e.seq)
      ORDER BY e.seq DESC LIMIT 1),
    (SELECT e.body -> 'cursor' FROM umpire_events e WHERE e.game = g AND e.seq = 1))
$$;

-- A cursor in words ("turn 2, step 5").
CREATE OR REPLACE FUNCTION umpire_cursor_words(c JSONB) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
  SELECT format('turn %s, step %s', c ->> 'turn', ((c ->> 'step')::numeric + 1)::text)
$$;

-- Whether `face` is a face of the die called `die`, as dice::DieSet::get reads it: one of the
-- ruleset's own dice (their faces sent when the game was created), d66, d%, dF, or dN for N
-- from 2 to 1000 (d10 reading 0–9).
CREATE OR REPLACE FUNCTION umpire_face_ok(rules JSONB, die TEXT, face JSONB) RETURNS BOOLEAN
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  f NUMERIC;
  n INTEGER;
BEGIN
  IF NOT umpire_is_int(face) OR die IS NULL THEN
    RETURN false;
  END IF;
  f := (face::text)::numeric;
  IF jsonb_typeof(rules -> 'dice' -> die) = 'array' THEN
    RETURN (rules -> 'dice' -> die) @> jsonb_build_array(face);
  END IF;
  IF die = 'd66' THEN
    RETURN f BETWEEN 11 AND 66 AND f % 10 BETWEEN 1 AND 6;
  ELSIF die = 'd%' THEN
    RETURN f BETWEEN 1 AND 100;
  ELSIF die = 'dF' THEN
    RETURN f BETWEEN -1 AND 1;
  ELSIF die ~ '^d[0-9]{1,4}$' THEN
    n := substr(die, 2)::integer;
    IF n = 10 THEN
      RETURN f BETWEEN 0 AND 9;
    END IF;
    RETURN n BETWEEN 2 AND 1000 AND f BETWEEN 1 AND n;
  END IF;
  RETURN false;
END $$;

-- Whether `code` (each word of a combined result such as "A1 D3") is one of a procedure's
-- result codes (rules::ResultCodes::admits, line for line); any code when they are not known.
CREATE OR REPLACE FUNCTION umpire_code_ok(codes JSONB, code TEXT) RETURNS BOOLEAN
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN btrim(coalesce(code, '')) = '' THEN false
    WHEN codes IS NULL OR jsonb_typeof(codes) <> 'object' THEN true
    WHEN coalesce((codes ->> 'open')::boolean, false) THEN true
    ELSE NOT EXISTS (
      SELECT 1 FROM regexp_split_to_table(btrim(code), '\s+') AS w
       WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(coalesce(codes -> 'codes', '[]'::jsonb)) c
                          WHERE lower(c) = lower(w))
         AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(codes -> 'patterns', '[]'::jsonb)) p
                          WHERE starts_with(w, p ->> 0)
                            AND length(w) > length(p ->> 0) + length(p ->> 1)
                            AND right(w, length(p ->> 1)) = (p ->> 1)
                            AND substr(w, length(p ->> 0) + 1, length(w) - length(p ->> 0) - length(p ->> 1)) ~ '^[0-9]+$'))
  END
$$;

-- An entry of this game by its place, or NULL.
CREATE OR REPLACE FUNCTION umpire_entry(g TEXT, s JSONB) RETURNS umpire_events
LANGUAGE sql STABLE AS $$
  SELECT e.* FROM umpire_events e WHERE e.game = g AND umpire_is_int(s, 1) AND e.seq = (s::text)::bigint
$$;

-- Whether an entry counts (it is not undone).
CREATE OR REPLACE FUNCTION umpire_counts(g TEXT, s BIGINT) RETURNS BOOLEAN
LANGUAGE sql STABLE AS $$
  SELECT NOT EXISTS (SELECT 1 FROM umpire_undone u WHERE u.game = g AND u.seq = s)
$$;

-- The entry's time: RFC 3339 as Umpire writes it, not before the game began and not ahead of
-- the server's own clock (a desk's clock up to 30 s ahead is believed).
CREATE OR REPLACE FUNCTION umpire_check_time(g TEXT, seq BIGINT, body JSONB) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
  txt TEXT := body ->> 'at';
  at TIMESTAMPTZ;
  began TIMESTAMPTZ;
BEGIN
  IF jsonb_typeof(body -> 'at') IS DISTINCT FROM 'string'
     OR txt !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$' THEN
    PERFORM umpire_bad(seq, format('its time ''%s'' is not a date and time as Umpire writes them (RFC 3339, e.g. 2026-11-27T14:05:09Z)',
      coalesce(body ->> 'at', 'missing')));
  END IF;
  BEGIN
    at := txt::timestamptz;
  EXCEPTION WHEN others THEN
    PERFORM umpire_bad(seq, format('its time ''%s'' is not a real date and time', txt));
  END;
  IF at > now() + interval '30 seconds' THEN
    PERFORM umpire_bad(seq, format('its time (%s UTC) is ahead of the server''s clock (%s UTC) — set this desk''s clock right',
      to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')));
  END IF;
  SELECT e.at INTO began FROM umpire_events e WHERE e.game = g AND e.seq = 1;
  IF began IS NOT NULL AND at < began - interval '1 minute' THEN
    PERFORM umpire_bad(seq, format('its time (%s UTC) is before the game began (%s UTC)',
      to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), to_char(began AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')));
  END IF;
END $$;

-- A resolution's dice and result: every die's face one of its die's (app or typed in), no app
-- dice after the seed's reveal, and the result one of its procedure's codes.
CREATE OR REPLACE FUNCTION umpire_check_resolution(g TEXT, seq BIGINT, res JSONB, rules JSONB) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
  roll JSONB;
  die JSONB;
  proc TEXT := res ->> 'procedure';
BEGIN
  IF jsonb_typeof(res) IS DISTINCT FROM 'object' OR NOT umpire_is_text(res -> 'procedure')
     OR jsonb_typeof(res -> 'rolls') IS DISTINCT FROM 'array' OR jsonb_typeof(res -> 'outcome') IS DISTINCT FROM 'object'
     OR NOT umpire_is_text(res -> 'outcome' -> 'code') OR jsonb_typeof(res -> 'explanation') IS DISTINCT FROM 'array' THEN
    PERFORM umpire_bad(seq, 'its resolution lacks its procedure, dice, result or explanation');
  END IF;
  IF jsonb_typeof(rules -> 'procedures') = 'object' AND NOT (rules -> 'procedures') ? proc THEN
    PERFORM umpire_bad(seq, format('''%s'' is not a procedure of this game''s ruleset', proc));
  END IF;
  FOR roll IN SELECT * FROM jsonb_array_elements(res -> 'rolls') LOOP
    IF jsonb_typeof(roll -> 'dice') IS DISTINCT FROM 'array' OR NOT umpire_is_int(roll -> 'total') THEN
      PERFORM umpire_bad(seq, 'a roll lacks its dice or total');
    END IF;
    IF roll -> 'provenance' ->> 'source' = 'app'
       AND EXISTS (SELECT 1 FROM umpire_events e WHERE e.game = g AND e.kind = 'seed_revealed') THEN
      PERFORM umpire_bad(seq, 'app dice after the seed was revealed: every app roll could be foreseen — roll physical dice and type them in');
    END IF;
    FOR die IN SELECT * FROM jsonb_array_elements(roll -> 'dice') LOOP
      IF NOT umpire_face_ok(rules, die ->> 'die', die -> 'face') THEN
        PERFORM umpire_bad(seq, format('a %s shows %s, which is not one of its faces', coalesce(die ->> 'die', 'die'), coalesce(die ->> 'face', 'nothing')));
      END IF;
    END LOOP;
  END LOOP;
  IF NOT coalesce((res -> 'outcome' ->> 'from_physical_chart')::boolean, false)
     AND NOT umpire_code_ok(rules -> 'procedures' -> proc, res -> 'outcome' ->> 'code') THEN
    PERFORM umpire_bad(seq, format('''%s'' is not a result of %s', res -> 'outcome' ->> 'code', proc));
  END IF;
END $$;

-- Whether a position (game::scenario::Position) is one of the map's (game::check::position,
-- line for line, without the extent): a hex id of the map's digits only on a hex map, an area's
-- name only on an area map, x, y only on a free-form table; off the map anywhere. `geo` is the
-- rules' `geometry` ({kind, digits}); NULL: a ruleset without one, where any form goes.
CREATE OR REPLACE FUNCTION umpire_position_ok(p JSONB, geo JSONB) RETURNS BOOLEAN
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(CASE
    WHEN jsonb_typeof(p) <> 'object' THEN false
    WHEN p ? 'off_map' THEN jsonb_typeof(p -> 'off_map') = 'string'
    WHEN p ? 'hex' THEN jsonb_typeof(p -> 'hex') = 'string'
      AND btrim(p ->> 'hex') ~ ('^[0-9]{' || coalesce(geo ->> 'digits', '4') || '}$')
      AND (geo IS NULL OR geo ->> 'kind' IS NULL OR geo ->> 'kind' = 'hex')
    WHEN p ? 'area' THEN umpire_is_text(p -> 'area')
      AND (geo IS NULL OR coalesce(geo ->> 'kind', 'area') = 'area')
    WHEN p ? 'free' THEN jsonb_typeof(p -> 'free' -> 'x') = 'number' AND jsonb_typeof(p -> 'free' -> 'y') = 'number'
      AND (geo IS NULL OR coalesce(geo ->> 'kind', 'free') = 'free')
    ELSE false END, false)
$$;

-- The changes of a `changed` or `effects_applied` entry (game::CounterChange), each well formed.
DROP FUNCTION IF EXISTS umpire_check_changes(BIGINT, JSONB);
CREATE OR REPLACE FUNCTION umpire_check_changes(seq BIGINT, changes JSONB, geo JSONB DEFAULT NULL) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
  ch JSONB;
  k TEXT;
BEGIN
  IF jsonb_typeof(changes) IS DISTINCT FROM 'array' THEN
    PERFORM umpire_bad(seq, 'its changes are not a list');
  END IF;
  FOR ch IN SELECT * FROM jsonb_array_elements(changes) LOOP
    k := ch ->> 'change';
    IF jsonb_typeof(ch) IS DISTINCT FROM 'object' OR NOT umpire_is_text(ch -> 'counter')
       OR k IS NULL OR k NOT IN ('attribute', 'status', 'move', 'remove', 'add', 'adjust')
       OR (k = 'attribute' AND (NOT umpire_is_text(ch -> 'attribute') OR NOT ch ? 'to'))
       OR (k = 'status' AND (NOT umpire_is_text(ch -> 'status') OR jsonb_typeof(ch -> 'on') IS DISTINCT FROM 'boolean'))
       OR (k = 'move' AND NOT ch ? 'to')
       OR (k = 'remove' AND jsonb_typeof(ch -> 'reason') IS DISTINCT FROM 'string')
       OR (k = 'add' AND (NOT umpire_is_text(ch -> 'name') OR NOT umpire_is_text(ch -> 'side') OR NOT umpire_is_text(ch -> 'kind') OR NOT ch ? 'at'))
       OR (k = 'adjust' AND (NOT umpire_is_text(ch -> 'attribute') OR NOT umpire_is_int(ch -> 'by'))) THEN
      PERFORM umpire_bad(seq, format('a change (%s) is not one Umpire makes', left(ch::text, 120)));
    END IF;
    IF (k = 'move' AND NOT umpire_position_ok(ch -> 'to', geo)) OR (k = 'add' AND NOT umpire_position_ok(ch -> 'at', geo)) THEN
      PERFORM umpire_bad(seq, format('%s is not a place on this game''s map (its places are %s)',
        coalesce(ch -> 'to', ch -> 'at')::text,
        CASE geo ->> 'kind' WHEN 'hex' THEN format('hexes of %s digits', coalesce(geo ->> 'digits', '4'))
                            WHEN 'area' THEN 'areas by name' ELSE 'x, y in base units' END));
    END IF;
  END LOOP;
END $$;

-- A count map ({"name": n}) without its zeros, for comparing deck states.
CREATE OR REPLACE FUNCTION umpire_nonzero(m JSONB) RETURNS JSONB
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_object_agg(k.key, k.value) FILTER (WHERE umpire_is_int(k.value) AND (k.value::text)::numeric <> 0), '{}'::jsonb)
    FROM jsonb_each(CASE WHEN jsonb_typeof(m) = 'object' THEN m ELSE '{}'::jsonb END) k
$$;

-- A deck entry against the deck as it stands (game::deck): its `before` is the deck's last
-- `after` that counts (or the ruleset's contents, for a deck not touched yet), and a draw takes
-- only what is in it — each name drawn no more often than it is inside, and the `after` left
-- is what was inside less what was drawn. Filling it is the umpire's word (the text does not
-- always give the contents).
CREATE OR REPLACE FUNCTION umpire_check_deck(g TEXT, seq BIGINT, body JSONB, rules JSONB) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
  k TEXT := (body ->> 'deck') || coalesce('/' || (body ->> 'owner'), '');
  here JSONB;
  ch JSONB := body -> 'change';
  drawn RECORD;
  inside JSONB;
BEGIN
  SELECT e.body -> 'after' INTO here FROM umpire_events e
   WHERE e.game = g AND e.kind = 'deck' AND umpire_counts(g, e.seq)
     AND (e.body ->> 'deck') || coalesce('/' || (e.body ->> 'owner'), '') = k
   ORDER BY e.seq DESC LIMIT 1;
  IF here IS NULL AND jsonb_typeof(rules -> 'deck_items' -> (body ->> 'deck')) = 'object' THEN
    here := jsonb_build_object('inside', rules -> 'deck_items' -> (body ->> 'deck'));
  END IF;
  IF here IS NOT NULL AND (umpire_nonzero(body -> 'before' -> 'inside') <> umpire_nonzero(here -> 'inside')
       OR umpire_nonzero(body -> 'before' -> 'out') <> umpire_nonzero(here -> 'out')
       OR umpire_nonzero(body -> 'before' -> 'removed') <> umpire_nonzero(here -> 'removed')) THEN
    PERFORM umpire_bad(seq, format('it says %s held %s before, but it holds %s', body ->> 'deck',
      umpire_nonzero(body -> 'before' -> 'inside'), umpire_nonzero(here -> 'inside')));
  END IF;
  IF ch ->> 'op' = 'drawn' THEN
    IF jsonb_typeof(ch -> 'items') IS DISTINCT FROM 'array' OR EXISTS (
         SELECT 1 FROM jsonb_array_elements(ch -> 'items') x WHERE NOT umpire_is_text(x)) THEN
      PERFORM umpire_bad(seq, 'a draw names what was drawn');
    END IF;
    inside := umpire_nonzero(body -> 'before' -> 'inside');
    IF coalesce((ch ->> 'reshuffled')::boolean, false) THEN
      -- The drawn pile went back in first: what is drawn comes from both.
      inside := (SELECT coalesce(jsonb_object_agg(n, t), '{}'::jsonb) FROM (
                  SELECT key AS n, sum((value::text)::numeric) AS t FROM (
                    SELECT * FROM jsonb_each(inside)
                    UNION ALL SELECT * FROM jsonb_each(umpire_nonzero(body -> 'before' -> 'out'))) a GROUP BY key) b);
    END IF;
    FOR drawn IN SELECT x #>> '{}' AS name, count(*) AS n FROM jsonb_array_elements(ch -> 'items') x GROUP BY 1 LOOP
      IF coalesce((inside ->> drawn.name)::numeric, 0) < drawn.n THEN
        PERFORM umpire_bad(seq, format('it draws %s × %s from %s, which holds %s of them', drawn.n, drawn.name,
          body ->> 'deck', coalesce(inside ->> drawn.name, '0')));
      END IF;
      IF NOT coalesce((ch ->> 'reshuffled')::boolean, false)
         AND coalesce((body -> 'after' -> 'inside' ->> drawn.name)::numeric, 0) <> (inside ->> drawn.name)::numeric - drawn.n THEN
        PERFORM umpire_bad(seq, format('after drawing %s × %s, %s should hold %s of them', drawn.n, drawn.name,
          body ->> 'deck', (inside ->> drawn.name)::numeric - drawn.n));
      END IF;
    END LOOP;
  END IF;
END $$;

-- Holds one entry to what the engine would write (game::Event), before it is stored: its kind
-- and fields, its time, its place in the Sequence of Play, its references to other entries,
-- its dice and result codes, and a reveal to the commitment. `rules` is umpire_games.rules.
CREATE OR REPLACE FUNCTION umpire_check_entry(g TEXT, seq BIGINT, body JSONB, gm umpire_games) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
  kind TEXT := body ->> 'type';
  rules JSONB := gm.rules;
  here JSONB;
  target umpire_events;
  target_name TEXT;
  commit_ TEXT;
BEGIN
  IF jsonb_typeof(body -> 'type') IS DISTINCT FROM 'string' OR kind NOT IN ('game_started', 'seed_revealed', 'changed',
     'resolved', 'effects_applied', 'overridden', 'stepped', 'skipped', 'note', 'undone', 'redone', 'clock', 'deck',
     'announced', 'victory', 'record', 'orders_sealed', 'orders_revealed') THEN
    PERFORM umpire_bad(seq, format('''%s'' is not a kind of journal entry', coalesce(body ->> 'type', 'nothing')));
  END IF;
  IF body ? 'by' AND jsonb_typeof(body -> 'by') <> 'string' THEN
    PERFORM umpire_bad(seq, 'who made it is not a name');
  END IF;
  PERFORM umpire_check_time(g, seq, body);
  IF NOT umpire_cursor_ok(body -> 'cursor', rules) THEN
    PERFORM umpire_bad(seq, format('its place in the Sequence of Play (%s) is not one of this game''s', coalesce(body ->> 'cursor', 'missing')));
  END IF;
  CASE kind
  WHEN 'note' THEN
    IF jsonb_typeof(body -> 'text') IS DISTINCT FROM 'string' THEN
      PERFORM umpire_bad(seq, 'a note''s text is not text');
    END IF;
  WHEN 'announced' THEN
    IF NOT umpire_is_text(body -> 'text') OR coalesce(body ->> 'audience', '') NOT IN ('public', 'team', 'control')
       OR (body ->> 'audience' = 'team' AND NOT umpire_is_text(body -> 'team')) THEN
      PERFORM umpire_bad(seq, 'an announcement needs its audience (public, team with the team, or control) and its text');
    END IF;
  WHEN 'skipped' THEN
    IF NOT umpire_is_text(body -> 'item') OR NOT umpire_is_text(body -> 'reason') THEN
      PERFORM umpire_bad(seq, 'a skipped item needs the item and the reason');
    END IF;
  WHEN 'stepped' THEN
    here := umpire_cursor(g);
    IF NOT umpire_cursor_ok(body -> 'from', rules) OR NOT umpire_cursor_ok(body -> 'to', rules) THEN
      PERFORM umpire_bad(seq, format('a step to %s is not a place in this game''s Sequence of Play', coalesce(body ->> 'to', 'nowhere')));
    END IF;
    IF here IS NOT NULL AND (body -> 'from') <> here THEN
      PERFORM umpire_bad(seq, format('it steps from %s, but the game stands at %s', umpire_cursor_words(body -> 'from'), umpire_cursor_words(here)));
    END IF;
    -- A step the clock made may pass several phases (the clock ran while no desk looked):
    -- umpire_clock_step_ok holds it to the clock instead.
    IF NOT starts_with(coalesce(body ->> 'by', ''), 'clock (') AND (body -> 'to') = (body -> 'from')
       OR NOT starts_with(coalesce(body ->> 'by', ''), 'clock (') AND abs((body -> 'to' ->> 'turn')::numeric - (body -> 'from' ->> 'turn')::numeric) > 1 THEN
      PERFORM umpire_bad(seq, format('a step from %s to %s is not one the Sequence of Play makes (Next, Back or a step of the same turn)',
        umpire_cursor_words(body -> 'from'), umpire_cursor_words(body -> 'to')));
    END IF;
  WHEN 'undone', 'redone' THEN
    target := umpire_entry(g, body -> 'event');
    IF target.seq IS NULL OR target.seq >= seq THEN
      PERFORM umpire_bad(seq, format('it %s entry %s, which is not an earlier entry', kind, coalesce(body ->> 'event', 'nothing')));
    END IF;
    IF kind = 'undone' AND target.kind IN ('game_started', 'undone', 'redone', 'clock', 'seed_revealed', 'orders_sealed', 'orders_revealed') THEN
      PERFORM umpire_bad(seq, format('entry %s (%s) cannot be undone', target.seq, replace(target.kind, '_', ' ')));
    END IF;
    IF kind = 'undone' AND NOT umpire_counts(g, target.seq) THEN
      PERFORM umpire_bad(seq, format('entry %s is undone already', target.seq));
    END IF;
    IF kind = 'redone' AND umpire_counts(g, target.seq) THEN
      PERFORM umpire_bad(seq, format('entry %s is not undone: there is nothing to redo', target.seq));
    END IF;
    -- A note of Control's discretion stays as the reason for its change (game::gate::DISCRETION_NOTE).
    IF kind = 'undone' AND target.kind = 'note' AND starts_with(target.body ->> 'text', 'At Control''s discretion, by ') THEN
      PERFORM umpire_bad(seq, format('entry %s is the reason given for a change at Control''s discretion: it stays while that change stands — undo the change instead', target.seq));
    END IF;
  WHEN 'seed_revealed' THEN
    IF EXISTS (SELECT 1 FROM umpire_events e WHERE e.game = g AND e.kind = 'seed_revealed') THEN
      PERFORM umpire_bad(seq, 'the seed was revealed already');
    END IF;
    -- The seed is a u64: up to 2^64 - 1, beyond a bigint.
    IF NOT coalesce(jsonb_typeof(body -> 'seed') = 'number'
                    AND ((body -> 'seed')::text)::numeric = trunc(((body -> 'seed')::text)::numeric)
                    AND ((body -> 'seed')::text)::numeric BETWEEN 0 AND 18446744073709551615, false)
       OR jsonb_typeof(body -> 'salt') IS DISTINCT FROM 'string' THEN
      PERFORM umpire_bad(seq, 'a reveal needs the seed and its salt');
    END IF;
    commit_ := gm.meta ->> 'seed_commitment';
    IF coalesce(commit_, '') = '' THEN
      PERFORM umpire_bad(seq, 'this game made no commitment to a seed: there is none to reveal');
    END IF;
    IF encode(sha256(convert_to('umpire-seed/v1' || E'\n' || (body ->> 'seed') || E'\n' || (body ->> 'salt'), 'UTF8')), 'hex') <> commit_ THEN
      PERFORM umpire_bad(seq, 'the seed and salt it reveals are not the ones the game committed to at its start');
    END IF;
  WHEN 'resolved' THEN
    PERFORM umpire_check_resolution(g, seq, body -> 'resolution', rules);
    IF body ? 'counters' AND (jsonb_typeof(body -> 'counters') <> 'object' OR EXISTS (
        SELECT 1 FROM jsonb_each(body -> 'counters') c
         WHERE jsonb_typeof(c.value) <> 'array'
            OR EXISTS (SELECT 1 FROM jsonb_array_elements(c.value) x WHERE NOT umpire_is_text(x)))) THEN
      PERFORM umpire_bad(seq, 'its counters are not named by role');
    END IF;
  WHEN 'overridden', 'effects_applied' THEN
    target := umpire_entry(g, body -> 'of');
    IF target.seq IS NULL OR target.kind <> 'resolved' OR NOT umpire_counts(g, target.seq) THEN
      PERFORM umpire_bad(seq, format('entry %s is not a resolution that stands', coalesce(body ->> 'of', 'nothing')));
    END IF;
    IF kind = 'overridden' THEN
      IF NOT umpire_is_text(body -> 'reason') THEN
        PERFORM umpire_bad(seq, 'an override needs its reason');
      END IF;
      IF NOT umpire_code_ok(rules -> 'procedures' -> (target.body -> 'resolution' ->> 'procedure'), body ->> 'outcome') THEN
        PERFORM umpire_bad(seq, format('''%s'' is not a result of %s (entry %s)', coalesce(body ->> 'outcome', 'nothing'),
          target.body -> 'resolution' ->> 'procedure', target.seq));
      END IF;
    ELSE
      PERFORM umpire_check_changes(seq, body -> 'changes', rules -> 'geometry');
    END IF;
  WHEN 'changed' THEN
    PERFORM umpire_check_changes(seq, body -> 'changes', rules -> 'geometry');
    -- A change is to a counter in the game (one put on the table by this entry, or before it).
    IF gm.facts_known THEN
      SELECT ch ->> 'counter' INTO target_name
        FROM jsonb_array_elements(body -> 'changes') ch
       WHERE ch ->> 'change' <> 'add' AND umpire_class(g, ch ->> 'counter') IS NULL
         AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(body -> 'changes') a
                          WHERE a ->> 'change' = 'add' AND a ->> 'counter' = ch ->> 'counter')
       LIMIT 1;
      IF target_name IS NOT NULL THEN
        PERFORM umpire_bad(seq, format('there is no counter ''%s'' in this game', target_name));
      END IF;
    END IF;
  WHEN 'clock' THEN
    IF gm.clock IS NULL AND gm.rules IS NOT NULL THEN
      PERFORM umpire_bad(seq, 'this game has no phase clock');
    END IF;
    IF coalesce(body -> 'action' ->> 'kind', '') NOT IN ('start', 'hold', 'resume', 'advance', 'set_remaining')
       OR (body -> 'action' ->> 'kind' = 'start' AND (NOT umpire_is_int(body -> 'action' -> 'turn', 1) OR NOT umpire_is_text(body -> 'action' -> 'phase')))
       OR (body -> 'action' ->> 'kind' = 'set_remaining' AND NOT umpire_is_int(body -> 'action' -> 'seconds', 0)) THEN
      PERFORM umpire_bad(seq, 'it is not something done to the phase clock (start, hold, resume, advance or set)');
    END IF;
  WHEN 'deck' THEN
    IF NOT umpire_is_text(body -> 'deck') OR jsonb_typeof(body -> 'change') IS DISTINCT FROM 'object'
       OR jsonb_typeof(body -> 'before') IS DISTINCT FROM 'object' OR jsonb_typeof(body -> 'after') IS DISTINCT FROM 'object' THEN
      PERFORM umpire_bad(seq, 'a deck entry needs its deck, change, before and after');
    END IF;
    IF jsonb_typeof(rules -> 'decks') = 'array' AND NOT (rules -> 'decks') ? (body ->> 'deck') THEN
      PERFORM umpire_bad(seq, format('''%s'' is not a deck or cup of this game''s ruleset', body ->> 'deck'));
    END IF;
    PERFORM umpire_check_deck(g, seq, body, rules);
  WHEN 'victory' THEN
    IF jsonb_typeof(body -> 'fact') IS DISTINCT FROM 'object' OR coalesce(body -> 'fact' ->> 'fact', '') NOT IN ('control', 'battle_won', 'points', 'ended') THEN
      PERFORM umpire_bad(seq, 'it is not a fact of victory');
    END IF;
  WHEN 'record' THEN
    IF jsonb_typeof(body -> 'fact') IS DISTINCT FROM 'object' OR NOT umpire_is_text(body -> 'fact' -> 'kind') THEN
      PERFORM umpire_bad(seq, 'it is not one of Control''s records');
    END IF;
  -- Sealed orders (game::sealed): the shapes here; the referee holds the reveal to the
  -- commitment and the orders to the form, as `game verify` does.
  WHEN 'orders_sealed' THEN
    IF NOT umpire_is_text(body -> 'order') OR NOT umpire_is_text(body -> 'side')
       OR coalesce(body ->> 'commitment', '') !~ '^[0-9a-f]{64}$' THEN
      PERFORM umpire_bad(seq, 'sealed orders need their kind, their side and a commitment of 64 hexadecimal digits');
    END IF;
  WHEN 'orders_revealed' THEN
    target := umpire_entry(g, body -> 'sealed');
    IF target.seq IS NULL OR target.kind <> 'orders_sealed' OR target.seq >= seq
       OR (target.body ->> 'order') IS DISTINCT FROM (body ->> 'order')
       OR (target.body ->> 'side') IS DISTINCT FROM (body ->> 'side') THEN
      PERFORM umpire_bad(seq, format('entry %s did not seal these orders', coalesce(body ->> 'sealed', 'nothing')));
    END IF;
    IF NOT umpire_is_text(body -> 'salt') OR jsonb_typeof(body -> 'orders') IS DISTINCT FROM 'object'
       OR jsonb_typeof(body -> 'shown') IS DISTINCT FROM 'object' THEN
      PERFORM umpire_bad(seq, 'a reveal of sealed orders needs the salt, the orders and to whom they are shown');
    END IF;
  ELSE
    NULL;
  END CASE;
END $$;

-- Checks one entry's place and hash, stores it signed by the calling login, and keeps the facts
-- its changes, undos and redos bear on. Returns the entry's JSON.
CREATE OR REPLACE FUNCTION umpire_store(g TEXT, seq BIGINT, txt TEXT, claimed TEXT, previous TEXT)
RETURNS JSONB
LANGUAGE plpgsql AS $$
DECLARE
  body JSONB;
  kind TEXT;
  computed TEXT;
  change JSONB;
  n INTEGER := 0;
BEGIN
  BEGIN
    body := txt::jsonb;
  EXCEPTION WHEN others THEN
    RAISE EXCEPTION USING ERRCODE = 'UM422', MESSAGE = format('entry %s is not JSON', seq);
  END;
  IF jsonb_typeof(body) <> 'object' OR (body ->> 'seq') IS DISTINCT FROM seq::text THEN
    RAISE EXCEPTION USING ERRCODE = 'UM422',
      MESSAGE = format('entry %s says it is entry %s', seq, coalesce(body ->> 'seq', 'none'));
  END IF;
  kind := body ->> 'type';
  IF kind IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'UM422', MESSAGE = format('entry %s has no type', seq);
  END IF;
  computed := umpire_hash(previous, txt);
  IF claimed IS DISTINCT FROM computed THEN
    RAISE EXCEPTION USING ERRCODE = 'UM422',
      MESSAGE = format('entry %s: its hash does not chain from entry %s (the server computes %s, the entry says %s)',
        seq, seq - 1, left(computed, 12), left(coalesce(claimed, ''), 12));
  END IF;
  INSERT INTO umpire_events (game, seq, at, by, kind, body, text, hash, signed_by)
  VALUES (g, seq, (body ->> 'at')::timestamptz, body ->> 'by', kind, body, txt, computed, session_user);
  IF kind IN ('changed', 'effects_applied') THEN
    FOR change IN SELECT * FROM jsonb_array_elements(coalesce(body -> 'changes', '[]'::jsonb)) LOOP
      n := n + 1;
      IF change ->> 'change' = 'add' THEN
        -- A counter put on the table: its remit facts, there while this entry counts.
        INSERT INTO umpire_counters (game, counter, kind, army, attributes, added_seq)
        VALUES (g, change ->> 'counter', change ->> 'kind', change ->> 'army',
          (SELECT coalesce(jsonb_object_agg(a.key, a.value), '{}'::jsonb)
             FROM jsonb_each(CASE WHEN jsonb_typeof(change -> 'attributes') = 'object'
                                  THEN change -> 'attributes' ELSE '{}'::jsonb END) a
            WHERE umpire_is_fact(a.key)),
          seq)
        ON CONFLICT (game, counter) DO UPDATE
          SET kind = EXCLUDED.kind, army = EXCLUDED.army, attributes = EXCLUDED.attributes,
              added_seq = EXCLUDED.added_seq
          WHERE umpire_counters.added_seq IS NOT NULL;
      END IF;
      IF change ->> 'change' IN ('attribute', 'adjust') AND umpire_is_fact(change ->> 'attribute') THEN
        -- An adjusted attribute is a number: neither a text nor `played: false`.
        INSERT INTO umpire_fact_changes (game, seq, ord, counter, attribute, value)
        VALUES (g, seq, n, change ->> 'counter', change ->> 'attribute',
          CASE WHEN change ->> 'change' = 'attribute' THEN coalesce(change -> 'to', 'null'::jsonb)
               ELSE 'null'::jsonb END);
      END IF;
    END LOOP;
  ELSIF kind = 'undone' THEN
    INSERT INTO umpire_undone (game, seq) VALUES (g, (body ->> 'event')::bigint) ON CONFLICT DO NOTHING;
  ELSIF kind = 'redone' THEN
    DELETE FROM umpire_undone u WHERE u.game = g AND u.seq = (body ->> 'event')::bigint;
  END IF;
  RETURN body;
END $$;

-- ── The referee ───────────────────────────────────────────────────────────────────────────

-- Whether the referee is connected (its session, on its own login).
CREATE OR REPLACE FUNCTION umpire_referee_running() RETURNS BOOLEAN
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM pg_stat_activity
                  WHERE usename = 'umpire_referee' AND application_name = 'umpire-referee')
$$;

CREATE OR REPLACE FUNCTION umpire_no_referee() RETURNS VOID
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'UM503',
    MESSAGE = 'the server''s referee is not running, so nothing can be written — whoever runs the server starts it with `scripts/control-server.sh start` (it runs `umpire referee`); nothing was written';
END $$;

-- Waits (at most 5 s, looking every 10 ms: long enough for a referee reconnecting after a
-- restart of the server) for the referee's verdict on the append whose entries, from place
-- `first`, have `hashes`, put to it by this login (umpire_propose): returns when it was
-- accepted, refuses (UM422) with the referee's words when not. Called last by umpire_append and
-- umpire_publish, with every other check passed and the game locked: the referee judges against
-- the journal as committed, which nothing can change under the lock.
CREATE OR REPLACE FUNCTION umpire_refereed(g TEXT, first_at BIGINT, hashes TEXT[]) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
  p umpire_proposals;
  waited INTEGER := 0;
BEGIN
  LOOP
    SELECT * INTO p FROM umpire_proposals q
     WHERE q.game = g AND q.first_seq = first_at AND q.hashes = umpire_refereed.hashes
       AND q.login = session_user
     ORDER BY (q.verdict IS NULL), q.id DESC LIMIT 1;
    IF NOT FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'UM428',
        MESSAGE = format('entry %s was not put to the server''s referee (umpire_propose) before it was sent: the server stores only what the referee has held to the rules of play — nothing was written', first_at);
    ELSIF p.verdict = 'accepted' THEN
      RETURN;
    ELSIF p.verdict = 'refused' THEN
      RAISE EXCEPTION USING ERRCODE = 'UM422', MESSAGE = p.why || ' — nothing was written';
    ELSIF waited >= 500 AND NOT umpire_referee_running() THEN
      PERFORM umpire_no_referee();
    ELSIF waited >= 500 THEN
      RAISE EXCEPTION USING ERRCODE = 'UM504',
        MESSAGE = format('the server''s referee has not judged entry %s in 5 s — nothing was written; try again in a moment', first_at);
    END IF;
    PERFORM pg_sleep(0.01);
    waited := waited + 1;
  END LOOP;
END $$;

-- ── What the desks call ────────────────────────────────────────────────────────────────────

-- Who the calling login is: the identity the server holds for it.
CREATE OR REPLACE FUNCTION umpire_whoami()
RETURNS TABLE (login NAME, name TEXT, role TEXT, map_table TEXT)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT u.login, u.name, u.role, u.map_table FROM umpire_umpires u WHERE u.login = session_user
$$;

-- Puts a new game on the server (Game Control only): its description, the public description's
-- exact text (the chain's genesis) and the scenario's facts for the remits (JSON null when the
-- creating desk could not read them).
CREATE OR REPLACE FUNCTION umpire_create_game(g TEXT, meta JSONB, public_text TEXT, facts JSONB)
RETURNS TEXT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  me umpire_umpires := umpire_me();
  pub JSONB;
  known BOOLEAN := facts IS NOT NULL AND jsonb_typeof(facts) = 'object';
  genesis TEXT;
BEGIN
  IF me.role <> 'game' THEN
    RAISE EXCEPTION USING ERRCODE = 'UM403',
      MESSAGE = format('%s may not create or publish a game: that is Game Control''s (The Control Team › Game Control)', umpire_by(me));
  END IF;
  IF g !~ '^[A-Za-z0-9._-]{1,100}$' THEN
    RAISE EXCEPTION USING ERRCODE = 'UM422', MESSAGE = format('game name ''%s'' — use letters, digits, ''-'', ''_'' or ''.'' (at most 100)', g);
  END IF;
  BEGIN
    pub := public_text::jsonb;
  EXCEPTION WHEN others THEN
    RAISE EXCEPTION USING ERRCODE = 'UM422', MESSAGE = 'the public description is not JSON';
  END;
  IF pub ->> 'seed_commitment' IS DISTINCT FROM meta ->> 'seed_commitment'
     OR pub ->> 'scenario_text' IS DISTINCT FROM meta ->> 'scenario_text'
     OR pub ->> 'ruleset' IS DISTINCT FROM meta ->> 'ruleset' THEN
    RAISE EXCEPTION USING ERRCODE = 'UM422', MESSAGE = 'the public description does not match the game''s description';
  END IF;
  genesis := encode(sha256(convert_to('umpire-journal/v1' || E'\n' || public_text, 'UTF8')), 'hex');
  INSERT INTO umpire_games (name, meta, public_text, genesis, facts_known, created_by, clock, remits, records, rules)
  VALUES (g, meta, public_text, genesis, known, session_user,
          CASE WHEN known AND jsonb_typeof(facts -> 'clock') = 'object' THEN facts -> 'clock' END,
          CASE WHEN known AND jsonb_typeof(facts -> 'remits') = 'object' THEN facts -> 'remits' END,
          CASE WHEN known AND jsonb_typeof(facts -> 'records') = 'object' THEN facts -> 'records' END,
          CASE WHEN known AND jsonb_typeof(facts -> 'rules') = 'object' THEN facts -> 'rules' END)
  ON CONFLICT (name) DO NOTHING;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'UM410',
      MESSAGE = format('a game called ''%s'' is already on this server — choose another name (a game is never overwritten)', g);
  END IF;
  IF known THEN
    INSERT INTO umpire_counters (game, counter, kind, army, attributes)
    SELECT g, c ->> 'id', c ->> 'kind', c ->> 'army', coalesce(c -> 'attributes', '{}'::jsonb)
      FROM jsonb_array_elements(coalesce(facts -> 'counters', '[]'::jsonb)) c;
    INSERT INTO umpire_states (game, ord, id, counter, map_table, played)
    SELECT g, s.ord, s.v ->> 'id', s.v ->> 'counter', s.v ->> 'table', coalesce((s.v ->> 'played')::boolean, true)
      FROM jsonb_array_elements(coalesce(facts -> 'states', '[]'::jsonb)) WITH ORDINALITY AS s (v, ord);
  END IF;
  RETURN genesis;
END $$;

-- Publishes a journal written elsewhere (a game file) into a game just created by the same
-- Game Control login: its chain is checked entry by entry from the genesis and kept as it is
-- (who made each entry, remits, are the file's history; the publisher signs them).
CREATE OR REPLACE FUNCTION umpire_publish(g TEXT, texts TEXT[], hashes TEXT[])
RETURNS BIGINT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  me umpire_umpires := umpire_me();
  gm umpire_games;
  previous TEXT;
  body JSONB;
  i INTEGER;
  n INTEGER := coalesce(array_length(texts, 1), 0);
BEGIN
  gm := umpire_lock_game(g);
  IF gm.name IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'UM404', MESSAGE = format('no game called ''%s'' on this server', g);
  END IF;
  IF me.role <> 'game' OR gm.created_by <> session_user THEN
    RAISE EXCEPTION USING ERRCODE = 'UM403',
      MESSAGE = format('%s may not publish into %s: only the Game Control login that created it may, before anything else is written', umpire_by(me), g);
  END IF;
  IF n = 0 OR coalesce(array_length(hashes, 1), 0) <> n THEN
    RAISE EXCEPTION USING ERRCODE = 'UM422', MESSAGE = 'a journal to publish needs its entries and their hashes';
  END IF;
  -- The same journal published again (its answer lost with the link): acknowledged, not doubled.
  IF gm.len = n AND (SELECT count(*) FROM umpire_events e
                      WHERE e.game = g AND e.seq BETWEEN 1 AND n AND e.hash = hashes[e.seq]) = n THEN
    RETURN n;
  END IF;
  IF gm.len <> 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'UM409', MESSAGE = 'moved', DETAIL = gm.len::text;
  END IF;
  previous := gm.genesis;
  FOR i IN 1 .. n LOOP
    BEGIN
      body := texts[i]::jsonb;
    EXCEPTION WHEN others THEN
      RAISE EXCEPTION USING ERRCODE = 'UM422', MESSAGE = format('entry %s is not JSON', i);
    END;
    IF jsonb_typeof(body) = 'object' THEN
      PERFORM umpire_check_entry(g, i, body, gm);
    END IF;
    body := umpire_store(g, i, texts[i], hashes[i], previous);
    IF i = 1 AND body ->> 'type' IS DISTINCT FROM 'game_started' THEN
      RAISE EXCEPTION USING ERRCODE = 'UM422', MESSAGE = 'a journal begins with the game''s start';
    ELSIF i > 1 AND body ->> 'type' = 'game_started' THEN
      RAISE EXCEPTION USING ERRCODE = 'UM422', MESSAGE = format('entry %s starts the game again', i);
    END IF;
    previous := hashes[i];
  END LOOP;
  PERFORM umpire_refereed(g, 1, hashes);
  UPDATE umpire_games SET len = n WHERE name = g;
  PERFORM pg_notify('umpire_journal', g || ' ' || n);
  RETURN n;
END $$;

-- Appends one action's entries (all or none), the first at place `first_seq`: refused with UM409 (the
-- journal's length in DETAIL) when another desk wrote first, with UM422 when an entry does not
-- chain, and with UM403 when it is not the calling umpire's to write.
CREATE OR REPLACE FUNCTION umpire_append(g TEXT, first_seq BIGINT, texts TEXT[], hashes TEXT[])
RETURNS BIGINT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  me umpire_umpires := umpire_me();
  my_by TEXT := umpire_by(me);
  gm umpire_games;
  previous TEXT;
  body JSONB;
  kind TEXT;
  seq BIGINT;
  i INTEGER;
  n INTEGER := coalesce(array_length(texts, 1), 0);
  touched RECORD;
  added JSONB;
  check_ RECORD;
  what TEXT;
  target BIGINT;
  target_by NAME;
  target_text TEXT;
  discretion TEXT[] := '{}';
  note_prefix TEXT := 'At Control''s discretion, by ' || my_by || ': ';
  noted BOOLEAN := false;
  by_clock BOOLEAN;
  clock_ok RECORD;
BEGIN
  gm := umpire_lock_game(g);
  IF gm.name IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'UM404', MESSAGE = format('no game called ''%s'' on this server', g);
  END IF;
  IF n = 0 OR coalesce(array_length(hashes, 1), 0) <> n THEN
    RAISE EXCEPTION USING ERRCODE = 'UM422', MESSAGE = 'an append needs its entries and their hashes';
  END IF;
  -- The same append again (a desk that lost the answer to one that committed, and retries):
  -- its entries are there already, each with the hash this call gives — recorded once, and
  -- acknowledged now. Each entry's hash is the key of the action: it covers who made it, when,
  -- and everything it says, after everything before it.
  IF first_seq >= 1 AND first_seq + n - 1 <= gm.len AND (
       SELECT count(*) FROM umpire_events e
        WHERE e.game = g AND e.seq BETWEEN first_seq AND first_seq + n - 1
          AND e.hash = hashes[e.seq - first_seq + 1]) = n THEN
    RETURN first_seq + n - 1;
  END IF;
  IF first_seq <> gm.len + 1 THEN
    RAISE EXCEPTION USING ERRCODE = 'UM409', MESSAGE = 'moved', DETAIL = gm.len::text;
  END IF;
  IF gm.len = 0 THEN
    previous := gm.genesis;
  ELSE
    SELECT e.hash INTO previous FROM umpire_events e WHERE e.game = g AND e.seq = gm.len;
  END IF;
  FOR i IN 1 .. n LOOP
    seq := first_seq + i - 1;
    -- Judge against the facts as they stand before this entry, then store it.
    BEGIN
      body := texts[i]::jsonb;
    EXCEPTION WHEN others THEN
      RAISE EXCEPTION USING ERRCODE = 'UM422', MESSAGE = format('entry %s is not JSON', seq);
    END;
    kind := body ->> 'type';
    IF jsonb_typeof(body) IS DISTINCT FROM 'object' THEN
      PERFORM umpire_bad(seq, 'it is not a JSON object');
    END IF;
    PERFORM umpire_check_entry(g, seq, body, gm);
    IF kind = 'game_started' THEN
      RAISE EXCEPTION USING ERRCODE = 'UM403',
        MESSAGE = format('entry %s starts the game again: a game starts once, when Game Control creates or publishes it', seq);
    END IF;
    -- The phase clock is Game Control's to work (The Control Team › Game Control); a step the
    -- clock makes is written by whichever desk saw the phase run out, as "clock (its umpire)",
    -- and is the clock's only if the clock, folded here on the server's time, has got there.
    IF kind = 'clock' AND NOT (CASE WHEN jsonb_typeof(gm.remits -> 'clock') = 'array'
                                    THEN gm.remits -> 'clock' ? me.role ELSE me.role = 'game' END) THEN
      RAISE EXCEPTION USING ERRCODE = 'UM403',
        MESSAGE = format('%s may not work the phase clock: only Game Control starts, holds, resumes, advances or sets it (The Control Team › Game Control)', my_by);
    END IF;
    -- Control's records are kept by the roles the ruleset names (and Game Control).
    IF kind = 'record' AND me.role <> 'game'
       AND NOT umpire_record_roles(gm.records, body -> 'fact') ? me.role THEN
      RAISE EXCEPTION USING ERRCODE = 'UM403',
        MESSAGE = format('%s may not touch the %s record: it is kept by %s (The Control Team) — ask the umpire whose remit it is, or Game Control',
          my_by, CASE WHEN body -> 'fact' ->> 'kind' IN ('ruling') THEN 'register' WHEN body -> 'fact' ->> 'kind' = 'bank_access' THEN 'bank' ELSE body -> 'fact' ->> 'kind' END,
          coalesce((SELECT string_agg(umpire_role_label(r), ', ') FROM jsonb_array_elements_text(umpire_record_roles(gm.records, body -> 'fact')) r) || ' (and Game Control)', 'Game Control'));
    END IF;
    by_clock := kind = 'stepped' AND (body ->> 'by') = 'clock (' || my_by || ')';
    IF by_clock THEN
      SELECT * INTO clock_ok FROM umpire_clock_step_ok(g, body, interval '15 seconds');
      IF NOT clock_ok.ok THEN
        RAISE EXCEPTION USING ERRCODE = 'UM403',
          MESSAGE = format('entry %s says the clock stepped the game, but it is not the clock''s step: %s', seq, clock_ok.why);
      END IF;
    END IF;
    IF (body ->> 'by') IS DISTINCT FROM my_by AND NOT by_clock THEN
      RAISE EXCEPTION USING ERRCODE = 'UM403',
        MESSAGE = format('entry %s says it was made by %s, but this login (%s) is %s — every entry records who made it, as the server knows them',
          seq, coalesce(body ->> 'by', 'nobody'), session_user, my_by);
    END IF;
    -- What touches the whole game is held to the roles the remits give it (rules::ACTION_REMITS).
    IF kind = 'stepped' AND NOT by_clock THEN
      PERFORM umpire_action_remit(gm, me, 'step', 'step the Sequence of Play');
    ELSIF kind = 'seed_revealed' THEN
      PERFORM umpire_action_remit(gm, me, 'reveal', 'reveal the app dice''s seed');
    ELSIF kind = 'announced' AND body ->> 'audience' = 'public' THEN
      PERFORM umpire_action_remit(gm, me, 'announce_public', 'announce to everyone');
    ELSIF kind = 'overridden' THEN
      target := (body ->> 'of')::bigint;
      SELECT e.by INTO target_text FROM umpire_events e WHERE e.game = g AND e.seq = target;
      IF target_text IS DISTINCT FROM my_by THEN
        PERFORM umpire_action_remit(gm, me, 'override_others',
          format('override entry %s, a result %s made', body ->> 'of', coalesce(target_text, 'another umpire')));
      END IF;
    END IF;
    IF kind IN ('undone', 'redone') THEN
      target := (body ->> 'event')::bigint;
      SELECT e.signed_by INTO target_by FROM umpire_events e WHERE e.game = g AND e.seq = target;
      IF target_by IS DISTINCT FROM session_user AND me.role <> 'game' THEN
        RAISE EXCEPTION USING ERRCODE = 'UM403',
          MESSAGE = format('%s may not %s entry %s: it was written by %s — only its own umpire or Game Control may (The Control Team › Game Control)',
            my_by, CASE WHEN kind = 'undone' THEN 'undo' ELSE 'redo' END, target, coalesce(target_by::text, 'nobody'));
      END IF;
    END IF;
    -- megagame::remit::touched: the counters (and attributes) this entry changes or involves.
    FOR touched IN
      SELECT DISTINCT t.counter, t.attribute, t.proc FROM (
        SELECT ch ->> 'counter' AS counter,
               CASE WHEN ch ->> 'change' IN ('attribute', 'adjust') THEN ch ->> 'attribute' END AS attribute,
               NULL::text AS proc
          FROM jsonb_array_elements(CASE WHEN kind IN ('changed', 'effects_applied')
                                         THEN coalesce(body -> 'changes', '[]'::jsonb) ELSE '[]'::jsonb END) ch
        UNION ALL
        SELECT id, NULL, body -> 'resolution' ->> 'procedure'
          FROM jsonb_each(CASE WHEN kind = 'resolved' AND jsonb_typeof(body -> 'counters') = 'object'
                               THEN body -> 'counters' ELSE '{}'::jsonb END) AS roles (role, ids),
               jsonb_array_elements_text(CASE WHEN jsonb_typeof(ids) = 'array' THEN ids ELSE '[]'::jsonb END) AS id
      ) t
      ORDER BY t.counter, t.attribute NULLS FIRST, t.proc NULLS FIRST
    LOOP
      what := touched.counter || coalesce(' (' || touched.attribute || ')', '');
      IF NOT gm.facts_known THEN
        IF me.role <> 'game' THEN
          RAISE EXCEPTION USING ERRCODE = 'UM403',
            MESSAGE = format('%s may not touch %s: the server was not told this game''s counters (its ruleset is not one Umpire ships), so only Game Control may change them', my_by, what);
        END IF;
        CONTINUE;
      END IF;
      -- A counter this entry adds is judged as People::add_remit_check judges it.
      added := NULL;
      IF kind IN ('changed', 'effects_applied') AND umpire_class(g, touched.counter) IS NULL THEN
        SELECT ch INTO added FROM jsonb_array_elements(coalesce(body -> 'changes', '[]'::jsonb)) ch
         WHERE ch ->> 'change' = 'add' AND ch ->> 'counter' = touched.counter LIMIT 1;
      END IF;
      IF added IS NOT NULL THEN
        SELECT * INTO check_ FROM umpire_add_remit(g, me.role, me.map_table, added);
      ELSE
        SELECT * INTO check_ FROM umpire_remit(g, me.role, me.map_table, touched.counter, touched.attribute, touched.proc);
      END IF;
      IF check_.remit = 'outside' THEN
        RAISE EXCEPTION USING ERRCODE = 'UM403',
          MESSAGE = format('%s may not touch %s: %s (%s) — ask the umpire whose remit it is, or Game Control',
            my_by, what, check_.why, check_.rule);
      ELSIF check_.remit = 'discretion' THEN
        discretion := discretion || format('%s: %s (%s)', what, check_.why, check_.rule);
      END IF;
    END LOOP;
    IF kind = 'note' AND starts_with(coalesce(body ->> 'text', ''), note_prefix)
       AND btrim(split_part(substr(body ->> 'text', length(note_prefix) + 1), ' [', 1)) <> '' THEN
      noted := true;
    END IF;
    PERFORM umpire_store(g, seq, texts[i], hashes[i], previous);
    previous := hashes[i];
  END LOOP;
  IF cardinality(discretion) > 0 AND NOT noted THEN
    RAISE EXCEPTION USING ERRCODE = 'UM403',
      MESSAGE = format('%s may do this only at Control''s discretion, with a reason: %s — give one (--discretion, or the desk''s Reason field)',
        my_by, array_to_string(discretion, '; '));
  END IF;
  PERFORM umpire_refereed(g, first_seq, hashes);
  UPDATE umpire_games SET len = first_seq + n - 1 WHERE name = g;
  PERFORM pg_notify('umpire_journal', g || ' ' || (first_seq + n - 1));
  RETURN first_seq + n - 1;
END $$;

-- Puts an append (or, from place 1, a journal to publish) to the referee before it is sent with
-- umpire_append or umpire_publish: returns at once (the proposal's id); the write then waits for
-- the verdict. The same proposal again (a desk that lost the answer) is the same proposal.
CREATE OR REPLACE FUNCTION umpire_propose(g TEXT, first_seq BIGINT, texts TEXT[], hashes TEXT[])
RETURNS BIGINT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  me umpire_umpires := umpire_me();
  n INTEGER := coalesce(array_length(texts, 1), 0);
  found_id BIGINT;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM umpire_games WHERE name = g) THEN
    RAISE EXCEPTION USING ERRCODE = 'UM404', MESSAGE = format('no game called ''%s'' on this server', g);
  END IF;
  IF n = 0 OR coalesce(array_length(hashes, 1), 0) <> n OR first_seq IS NULL OR first_seq < 1 THEN
    RAISE EXCEPTION USING ERRCODE = 'UM422', MESSAGE = 'a proposal needs its place, its entries and their hashes';
  END IF;
  IF (SELECT sum(octet_length(t)) FROM unnest(texts) t) > 64 * 1024 * 1024 THEN
    RAISE EXCEPTION USING ERRCODE = 'UM422', MESSAGE = 'a proposal holds at most 64 MB of entries — nothing was written';
  END IF;
  SELECT q.id INTO found_id FROM umpire_proposals q
   WHERE q.game = g AND q.first_seq = umpire_propose.first_seq AND q.hashes = umpire_propose.hashes
     AND q.login = session_user
   ORDER BY q.id DESC LIMIT 1;
  IF found_id IS NOT NULL THEN
    RETURN found_id;
  END IF;
  IF (SELECT count(*) FROM umpire_proposals q WHERE q.login = session_user AND q.verdict IS NULL) >= 16 THEN
    RAISE EXCEPTION USING ERRCODE = 'UM429',
      MESSAGE = format('%s has 16 appends waiting for the referee already — nothing was written; try again in a moment', umpire_by(me));
  END IF;
  -- A proposal is not the journal: lost with a crash, the desk proposes again. Its commit need
  -- not wait for the disk (the append's does).
  PERFORM set_config('synchronous_commit', 'off', true);
  -- Verdicts are kept an hour: long enough for any desk's resend.
  DELETE FROM umpire_proposals q WHERE q.at < now() - interval '1 hour';
  INSERT INTO umpire_proposals (game, first_seq, texts, hashes, login)
  VALUES (g, first_seq, texts, hashes, session_user)
  RETURNING id INTO found_id;
  PERFORM pg_notify('umpire_referee', found_id::text);
  RETURN found_id;
END $$;

-- The referee's verdict on a proposal (only the referee's login may give one, once).
CREATE OR REPLACE FUNCTION umpire_judge(proposal BIGINT, accepted BOOLEAN, why TEXT)
RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  IF session_user <> 'umpire_referee' THEN
    RAISE EXCEPTION USING ERRCODE = 'UM403', MESSAGE = 'only the server''s referee gives verdicts';
  END IF;
  PERFORM set_config('synchronous_commit', 'off', true);
  -- The proposing desk listens for its verdict (and umpire_refereed looks every 10 ms).
  PERFORM pg_notify('umpire_verdict', proposal::text);
  UPDATE umpire_proposals
     SET verdict = CASE WHEN accepted THEN 'accepted' ELSE 'refused' END,
         why = CASE WHEN accepted THEN NULL ELSE coalesce(umpire_judge.why, 'refused by the rules of play') END,
         judged_at = now()
   WHERE id = proposal AND verdict IS NULL;
END $$;

RESET ROLE;

-- Umpires read everything and write only through the functions above.
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO umpire_desk;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC;
GRANT EXECUTE ON FUNCTION umpire_whoami(), umpire_create_game(TEXT, JSONB, TEXT, JSONB),
  umpire_publish(TEXT, TEXT[], TEXT[]), umpire_append(TEXT, BIGINT, TEXT[], TEXT[]),
  umpire_propose(TEXT, BIGINT, TEXT[], TEXT[])
  TO umpire_desk;
-- The referee reads the games, their journals and the proposals, and gives verdicts.
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM umpire_referee;
GRANT SELECT ON umpire_games, umpire_events, umpire_proposals TO umpire_referee;
GRANT EXECUTE ON FUNCTION umpire_judge(BIGINT, BOOLEAN, TEXT) TO umpire_referee;

-- Every umpire login works under the limits (umpire_login_limits), those added before them too.
\o /dev/null
SELECT umpire_login_limits(login) FROM umpire_umpires;
\o
