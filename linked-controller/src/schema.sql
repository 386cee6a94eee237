-- The progressive controller's books, and the only calls that touch them
-- (issue 13: a controller that trusts no cabinet).
--
-- Everything lives in schema egm, owned by the administrator who installs
-- it. No one may read or write a table: the controller's service (members
-- of egm_service) and operators (members of egm_operator) may only execute
-- the functions granted to them at the end. Each is SECURITY DEFINER with
-- a fixed search_path.
--
-- Issue 46: a cabinet is a row of egm.machines, never a login. Cabinets
-- speak to the controller's service (`egm-progressive serve`), which
-- authenticates each by its client certificate and names it, per call, in
-- the setting egm.machine; the cabinet calls read it through egm.caller()
-- and only the service may execute them. An operator's identity is
-- session_user: the role its client certificate authenticated (pg_hba
-- `hostssl ... cert`: the certificate's CN is the role).
--
-- Money is in whole cents; levels in millionths of a cent (MICRO).

CREATE SCHEMA IF NOT EXISTS egm;
REVOKE ALL ON SCHEMA egm FROM PUBLIC;

CREATE TABLE IF NOT EXISTS egm.pools (
    pool TEXT PRIMARY KEY,
    config JSONB NOT NULL,
    min_wager BIGINT NOT NULL,
    -- G-46: a contribution whose wager is above this is refused, per row.
    max_wager BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS egm.levels (
    pool TEXT NOT NULL REFERENCES egm.pools(pool),
    level INT NOT NULL,
    name TEXT NOT NULL,
    start_value BIGINT NOT NULL,
    reset_value BIGINT NOT NULL,
    increment_ppm BIGINT NOT NULL,
    reserve_ppm BIGINT NOT NULL,
    -- NULL: no ceiling.
    ceiling_micro BIGINT,
    current_micro BIGINT NOT NULL,
    reserve_micro BIGINT NOT NULL DEFAULT 0,
    overflow_micro BIGINT NOT NULL DEFAULT 0,
    contributed_micro BIGINT NOT NULL DEFAULT 0,
    hits BIGINT NOT NULL DEFAULT 0,
    awarded BIGINT NOT NULL DEFAULT 0,
    operator_funded BIGINT NOT NULL,
    -- M-23: whole cents moved out of this level, and into it.
    transferred_out BIGINT NOT NULL DEFAULT 0,
    transferred_in BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (pool, level)
);
-- Keyed by the cabinet's journal epoch (a random identifier made at its
-- genesis and at each RAM clear) and the round: a key never repeats.
CREATE TABLE IF NOT EXISTS egm.contributions (
    machine TEXT NOT NULL,
    epoch TEXT NOT NULL,
    round BIGINT NOT NULL,
    pool TEXT NOT NULL REFERENCES egm.pools(pool),
    wager BIGINT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- A void of the round: the wager was refunded, and what it added to
    -- the levels was taken back.
    returned_at TIMESTAMPTZ,
    PRIMARY KEY (machine, epoch, round, pool)
);
-- A controller installed before contributions could be returned.
ALTER TABLE egm.contributions ADD COLUMN IF NOT EXISTS returned_at TIMESTAMPTZ;
-- The order a machine's contributions arrived in, across its epochs and
-- pools (issue 35, attack 3): a cabinet has at most one open round, so a
-- round any later contribution of the same machine followed is final.
ALTER TABLE egm.contributions ADD COLUMN IF NOT EXISTS seq BIGSERIAL;
CREATE INDEX IF NOT EXISTS contributions_machine_seq ON egm.contributions (machine, seq);
-- What a returned contribution could not take back, because an award had
-- already paid it out: it stays in the books as contributed (issue 35,
-- attack 2: a void never makes the operator fund anything).
ALTER TABLE egm.contributions ADD COLUMN IF NOT EXISTS kept_micro BIGINT NOT NULL DEFAULT 0;
-- Issue 35, attack 1: the controller knows what hits. The operator
-- approves, per pool, the games whose outcomes it checks (from their
-- approved paytables: reel strips, rows, paylines, the wild, the largest
-- bet per line), each level's triggers, and the amount above which an award
-- waits for an attendant's confirmation (M-12).
ALTER TABLE egm.pools ADD COLUMN IF NOT EXISTS games JSONB;
ALTER TABLE egm.pools ADD COLUMN IF NOT EXISTS triggers JSONB;
ALTER TABLE egm.pools ADD COLUMN IF NOT EXISTS confirm_above BIGINT;
-- Issue 69: the approval's figures (each trigger's probability at every
-- bet and denomination the approval weighed, the cost of the resets and
-- the RTP with the progressive; `egm-progressive approve`), and the
-- denominations they were weighed at: a committed round at any other is
-- refused.
ALTER TABLE egm.pools ADD COLUMN IF NOT EXISTS approval_figures JSONB;
ALTER TABLE egm.pools ADD COLUMN IF NOT EXISTS approved_denominations BIGINT[];
-- Issue 46: whether a claim may carry its outcome instead of revealing its
-- committed round's key (an operator's choice for cabinets of an earlier
-- version; off: forged outcomes are never judged).
ALTER TABLE egm.pools ADD COLUMN IF NOT EXISTS plain_claims BOOLEAN NOT NULL DEFAULT false;
-- At most one award per level per round.
CREATE TABLE IF NOT EXISTS egm.awards (
    seq BIGSERIAL UNIQUE,
    machine TEXT NOT NULL,
    epoch TEXT NOT NULL,
    round BIGINT NOT NULL,
    pool TEXT NOT NULL,
    level INT NOT NULL,
    amount BIGINT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- A void after the award: the amount went back to the level.
    returned_at TIMESTAMPTZ,
    PRIMARY KEY (machine, epoch, round, pool, level)
);
-- The outcome each award was claimed with, and its confirmation.
ALTER TABLE egm.awards ADD COLUMN IF NOT EXISTS outcome JSONB;
ALTER TABLE egm.awards ADD COLUMN IF NOT EXISTS pending BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE egm.awards ADD COLUMN IF NOT EXISTS confirmed_by TEXT;
ALTER TABLE egm.awards ADD COLUMN IF NOT EXISTS confirmed_at TIMESTAMPTZ;
-- Issue 46, the void cycle: the cabinet voided the award's round; held for
-- the attendant, who alone undoes it (`decide_award`).
ALTER TABLE egm.awards ADD COLUMN IF NOT EXISTS void_held BOOLEAN NOT NULL DEFAULT false;
-- Every call refused, with its reason: the lab's and the operator's trail.
CREATE TABLE IF NOT EXISTS egm.refusals (
    seq BIGSERIAL PRIMARY KEY,
    machine TEXT NOT NULL,
    epoch TEXT,
    round BIGINT,
    pool TEXT,
    call TEXT NOT NULL,
    reason TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- What operators did, under their own names, and the awards cabinets
-- returned at a void.
CREATE TABLE IF NOT EXISTS egm.operator_log (
    seq BIGSERIAL PRIMARY KEY,
    operator TEXT NOT NULL,
    action TEXT NOT NULL,
    detail TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS refusals_machine_at ON egm.refusals (machine, at);

-- Issue 46: a round committed before it is drawn: the cabinet's
-- SHA-256 of its key, the bet (the game's, JSON) and wager it fixed, and
-- the nonce the service answered. The round is drawn from HMAC(key,
-- nonce); its claim reveals the key, and the service recomputes it.
CREATE TABLE IF NOT EXISTS egm.commitments (
    machine TEXT NOT NULL,
    epoch TEXT NOT NULL,
    round BIGINT NOT NULL,
    pool TEXT NOT NULL,
    commitment TEXT NOT NULL,
    nonce TEXT NOT NULL,
    bet JSONB NOT NULL,
    wager BIGINT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (machine, epoch, round, pool)
);

-- The cabinets the controller knows (registered by the administrator) and
-- the pools each plays (assigned by an operator): a cabinet contributes
-- to, and claims from, only its own pools (issue 46).
CREATE TABLE IF NOT EXISTS egm.machines (
    machine TEXT PRIMARY KEY,
    pools TEXT[] NOT NULL DEFAULT '{}'
);
-- Issue 46: the denominations (cents) the operator set the cabinet to
-- offer: a committed round's bet is refused at any other.
ALTER TABLE egm.machines ADD COLUMN IF NOT EXISTS denominations BIGINT[] NOT NULL DEFAULT '{}';

-- Issue 69: each cabinet's pace across every instance of the service
-- (each instance's own limits are per process: two instances once let one
-- certificate commit twice as fast): a token bucket per cabinet and kind
-- of call that writes (committed rounds, claims, meter reports), in
-- millionths of a call (`egm.spend_pace`). Contribution rows are not
-- paced here: on a pool whose claims reveal their key each is a committed
-- round (paced), and a write per row would cost the group commit a
-- quarter of its rate; each instance bounds them.
CREATE TABLE IF NOT EXISTS egm.paces (
    machine TEXT NOT NULL,
    kind TEXT NOT NULL,
    tokens_micro BIGINT NOT NULL,
    at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (machine, kind)
);
-- The committed rounds' bucket before the others had one.
DROP TABLE IF EXISTS egm.machine_pace;

-- Issue 46, reconciliation: what each cabinet's own journal says it owed
-- a pool in an epoch, through a round (every round up to it delivered):
-- the rounds whose wager qualified and their sum. The operator's report
-- (`egm.reconciliation`) sets it against the contributions the controller
-- holds for the same rounds; a difference is an alarm.
CREATE TABLE IF NOT EXISTS egm.cabinet_meters (
    machine TEXT NOT NULL,
    epoch TEXT NOT NULL,
    pool TEXT NOT NULL,
    through_round BIGINT NOT NULL,
    rounds BIGINT NOT NULL,
    wagered BIGINT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (machine, epoch, pool)
);

-- Issue 69, the floor's own meters: each cabinet's coin-in as the floor
-- reads it (the SAS host's LP 0F/1F total coin in, in cents), entered by
-- an operator, never by a cabinet. A cabinet's linked rounds are coin-in,
-- so what it contributed since a reading cannot exceed what the floor
-- metered since (`egm.floor_reconciliation`): a cabinet that commits
-- rounds it never plays — grinding for the hits — shows there, and
-- nothing it reports changes it. A baseline starts a reading series (an
-- installation, a RAM clear, a meter's rollover).
CREATE TABLE IF NOT EXISTS egm.floor_meters (
    machine TEXT NOT NULL,
    read_at TIMESTAMPTZ NOT NULL,
    coin_in BIGINT NOT NULL CHECK (coin_in >= 0),
    baseline BOOLEAN NOT NULL,
    entered_by TEXT NOT NULL DEFAULT session_user,
    PRIMARY KEY (machine, read_at)
);

-- The cabinet the service named for this call: a registered one, or the
-- call fails before it reads anything.
CREATE OR REPLACE FUNCTION egm.caller() RETURNS TEXT
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    m TEXT := current_setting('egm.machine', true);
BEGIN
    IF m IS NULL OR m = '' OR NOT EXISTS (SELECT 1 FROM machines WHERE machine = m) THEN
        RAISE EXCEPTION 'the service named no registered cabinet (%)', left(coalesce(m, ''), 64);
    END IF;
    RETURN m;
END $$;

-- Issue 69: spend `p_cost` of the calling cabinet's `p_kind` bucket, which
-- fills at `p_per_second` and holds `p_burst_seconds` of it, whichever
-- instance of the service the cabinet reaches. Over it: SQLSTATE 53400
-- (the service answers that the cabinet asks again later), nothing spent.
CREATE OR REPLACE FUNCTION egm.spend_pace(p_kind TEXT, p_per_second BIGINT, p_burst_seconds BIGINT, p_cost BIGINT) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    rate BIGINT := GREATEST(1, coalesce(p_per_second, 1)) * 1000000;
    cap BIGINT := GREATEST(1, coalesce(p_burst_seconds, 1)) * GREATEST(1, coalesce(p_per_second, 1)) * 1000000;
    cost BIGINT := GREATEST(0, coalesce(p_cost, 1)) * 1000000;
    have BIGINT;
BEGIN
    INSERT INTO paces AS m (machine, kind, tokens_micro, at) VALUES (caller(), p_kind, cap, clock_timestamp())
        ON CONFLICT (machine, kind) DO UPDATE SET
            tokens_micro = LEAST(cap, m.tokens_micro + GREATEST(0, (extract(epoch FROM clock_timestamp() - m.at) * rate)::BIGINT)),
            at = clock_timestamp()
        RETURNING tokens_micro INTO have;
    IF have < cost THEN
        RAISE EXCEPTION USING ERRCODE = '53400',
            MESSAGE = format('cabinet %s is over %s %s a second across the service''s instances', caller(), rate / 1000000, p_kind);
    END IF;
    UPDATE paces SET tokens_micro = tokens_micro - cost WHERE machine = caller() AND kind = p_kind;
END $$;

-- A pace the service set for its connection (`egm.<name>`, a count a
-- second), else `p_default`.
CREATE OR REPLACE FUNCTION egm.service_pace(p_name TEXT, p_default BIGINT) RETURNS BIGINT
LANGUAGE sql STABLE SET search_path = egm, pg_temp AS $$
    SELECT coalesce(nullif(current_setting('egm.' || p_name, true), '')::BIGINT, p_default)
$$;


-- Log a refusal and return its reason. Issue 35, attack 6: the log's
-- growth is bounded: every text cut to a fixed size, and at most 60 rows
-- per cabinet a minute (the reason is still returned to the caller).
CREATE OR REPLACE FUNCTION egm.refuse(p_epoch TEXT, p_round BIGINT, p_pool TEXT, p_call TEXT, p_reason TEXT) RETURNS TEXT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    recent BIGINT;
BEGIN
    SELECT count(*) INTO recent FROM refusals WHERE machine = caller() AND at > now() - interval '1 minute';
    IF recent < 60 THEN
        INSERT INTO refusals (machine, epoch, round, pool, call, reason)
            VALUES (caller(), left(p_epoch, 64), p_round, left(p_pool, 64), left(p_call, 32),
                    CASE WHEN recent = 59 THEN 'the refusal log''s limit of 60 a minute was reached: further refusals this minute are returned, not stored'
                         ELSE left(p_reason, 500) END);
    END IF;
    RETURN left(p_reason, 500);
END $$;

-- The arguments every cabinet call takes, bounded before anything else is
-- done with them (issue 35, attack 6: a 32 MB epoch once reached the log).
-- Returns the calling cabinet (`egm.caller()`, looked up once).
DROP FUNCTION IF EXISTS egm.check_call(TEXT, TEXT);
CREATE OR REPLACE FUNCTION egm.check_call(p_pool TEXT, p_epoch TEXT) RETURNS TEXT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    me TEXT;
BEGIN
    IF p_pool IS NULL OR length(p_pool) > 64 THEN
        RAISE EXCEPTION 'a pool name has at most 64 characters';
    END IF;
    IF p_epoch IS NULL OR length(p_epoch) <> 32 OR p_epoch !~ '^[0-9a-f]{32}$' THEN
        RAISE EXCEPTION 'the journal epoch must be 32 hexadecimal digits, not %', left(coalesce(p_epoch, 'NULL'), 40);
    END IF;
    -- Issue 46: only the pools an operator assigned to this cabinet.
    me := caller();
    IF NOT EXISTS (SELECT 1 FROM machines m WHERE m.machine = me AND p_pool = ANY (m.pools)) THEN
        RAISE EXCEPTION 'cabinet % is not assigned to pool %', me, p_pool;
    END IF;
    RETURN me;
END $$;

-- The first contribution this machine made after round `p_round` of
-- `p_epoch` (its seq), in any epoch and pool; NULL when none, or when the
-- round contributed nothing.
CREATE OR REPLACE FUNCTION egm.later_than(p_epoch TEXT, p_round BIGINT) RETURNS BIGINT
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
    SELECT min(l.seq) FROM contributions l
    WHERE l.machine = caller()
      AND l.seq > (SELECT max(c.seq) FROM contributions c WHERE c.machine = caller() AND c.epoch = p_epoch AND c.round = p_round)
      AND NOT (l.epoch = p_epoch AND l.round = p_round)
$$;

-- A cabinet's contributions (round, wager), each accepted once. A row is
-- refused, with its reason, and logged, when its wager is not a whole
-- number of cents between the pool's minimum and its bound (G-46) or when
-- its key was already sent with another wager; the other rows go on.
-- Wagers come as decimal text, so that no value a cabinet can send is out
-- of range of the call itself (a bigint overflow once failed a whole batch).
--
-- The rows alone (`contribute_rows`, not granted): each answered, with the
-- wager it added (`out_wager`, NULL for a row not accepted); the levels
-- take the sum afterwards (`add_to_levels`), once a call, or once a group
-- of calls (`contribute_group`: every row of a group updates the same
-- level rows, so one update per pool rather than one per cabinet).
CREATE OR REPLACE FUNCTION egm.contribute_rows(p_pool TEXT, p_epoch TEXT, p_rounds BIGINT[], p_wagers TEXT[])
RETURNS TABLE (out_round BIGINT, out_outcome TEXT, out_wager BIGINT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    p RECORD;
    i INT;
    w NUMERIC;
    have BIGINT;
    -- The cabinet, once a call (each egm.caller() is a lookup).
    me TEXT;
    -- Issue 69: the wagers the pool's approval weighed (NULL: approved
    -- without figures, or not approved).
    weighed BIGINT[];
BEGIN
    me := check_call(p_pool, p_epoch);
    SELECT min_wager, max_wager, approval_figures, plain_claims, games IS NOT NULL AS approved INTO p FROM pools WHERE pool = p_pool;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no linked pool %', p_pool;
    END IF;
    IF p.approval_figures IS NOT NULL THEN
        weighed := ARRAY(SELECT DISTINCT (b->>'wager')::BIGINT FROM jsonb_array_elements(p.approval_figures->'bets') b);
    END IF;
    IF coalesce(array_length(p_rounds, 1), 0) > 1000 THEN
        RAISE EXCEPTION 'at most 1000 contributions a call, not %', array_length(p_rounds, 1);
    END IF;
    IF coalesce(array_length(p_rounds, 1), 0) <> coalesce(array_length(p_wagers, 1), 0) THEN
        RAISE EXCEPTION 'as many wagers as rounds are needed';
    END IF;
    FOR i IN 1 .. coalesce(array_length(p_rounds, 1), 0) LOOP
        out_round := p_rounds[i];
        out_wager := NULL;
        w := CASE WHEN p_wagers[i] ~ '^[0-9]{1,40}$' THEN p_wagers[i]::NUMERIC END;
        IF out_round IS NULL OR out_round < 1 THEN
            out_outcome := 'refused: ' || refuse(p_epoch, out_round, p_pool, 'contribute', format('round %s is not a round number', out_round));
        ELSIF w IS NULL OR w <> trunc(w) OR w < p.min_wager OR w > p.max_wager THEN
            out_outcome := 'refused: ' || refuse(p_epoch, out_round, p_pool, 'contribute',
                format('wager %s cents is outside the pool''s %s to %s cents (G-46)', left(p_wagers[i], 40), p.min_wager, p.max_wager));
        ELSIF p.approved AND NOT p.plain_claims
              AND NOT EXISTS (SELECT 1 FROM commitments k WHERE k.machine = me AND k.epoch = p_epoch AND k.round = out_round AND k.pool = p_pool) THEN
            -- Issue 69: on an approved pool whose claims reveal their key,
            -- every contribution is a committed round (its commitment
            -- contributed it, at the service's nonce), with its figures or
            -- approved before approvals had them; plain rows only where an
            -- operator allows plain play.
            out_outcome := 'refused: ' || refuse(p_epoch, out_round, p_pool, 'contribute',
                format('round %s was not committed: pool %s takes committed rounds only (plain play is an operator''s choice, egm-progressive plain-claims)', out_round, p_pool));
        ELSIF weighed IS NOT NULL AND NOT (w = ANY (weighed)) THEN
            -- Issue 69, attack 2: a 601 c wager where the game's largest is
            -- 600 c, and rows of 1,000,000 c, were taken.
            out_outcome := 'refused: ' || refuse(p_epoch, out_round, p_pool, 'contribute',
                format('wager %s cents is not a bet pool %s''s approval weighed (a game''s lines × credits per line × an approved denomination)', w, p_pool));
        ELSIF EXISTS (SELECT 1 FROM commitments k WHERE k.machine = me AND k.epoch = p_epoch AND k.round = out_round AND k.pool = p_pool AND k.wager <> w) THEN
            -- Issue 46: a round's wager cannot change after its nonce.
            out_outcome := 'refused: ' || refuse(p_epoch, out_round, p_pool, 'contribute',
                format('round %s was committed with another wager: a wager cannot change after its nonce', out_round));
        ELSE
            INSERT INTO contributions AS c (machine, epoch, round, pool, wager) VALUES (me, p_epoch, out_round, p_pool, w::BIGINT)
                ON CONFLICT DO NOTHING;
            IF FOUND THEN
                out_wager := w::BIGINT;
                out_outcome := 'accepted';
            ELSE
                SELECT c.wager INTO have FROM contributions c
                    WHERE c.machine = me AND c.epoch = p_epoch AND c.round = out_round AND c.pool = p_pool;
                IF have = w THEN
                    out_outcome := 'duplicate';
                ELSE
                    out_outcome := 'refused: ' || refuse(p_epoch, out_round, p_pool, 'contribute',
                        format('round %s was contributed with a wager of %s cents, now sent with %s', out_round, have, w));
                END IF;
            END IF;
        END IF;
        RETURN NEXT;
    END LOOP;
END $$;

-- Add `p_total` cents of accepted wagers to every level of `p_pool` (not
-- granted): the increment goes to the level up to its ceiling, the rest
-- (overflow) and the reserve share to the reserve. Every right side reads
-- the row as it was; one sum or its parts one by one end the same (the
-- ceiling caps the sum as it caps each step).
CREATE OR REPLACE FUNCTION egm.add_to_levels(p_pool TEXT, total BIGINT) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
BEGIN
    IF total > 0 THEN
        UPDATE levels l SET
            current_micro = CASE WHEN l.ceiling_micro IS NULL THEN l.current_micro + total * l.increment_ppm
                            ELSE LEAST(l.current_micro + total * l.increment_ppm, GREATEST(l.current_micro, l.ceiling_micro)) END,
            reserve_micro = l.reserve_micro + total * l.reserve_ppm + CASE WHEN l.ceiling_micro IS NULL THEN 0
                            ELSE GREATEST(0, l.current_micro + total * l.increment_ppm - GREATEST(l.current_micro, l.ceiling_micro)) END,
            overflow_micro = l.overflow_micro + CASE WHEN l.ceiling_micro IS NULL THEN 0
                            ELSE GREATEST(0, l.current_micro + total * l.increment_ppm - GREATEST(l.current_micro, l.ceiling_micro)) END,
            contributed_micro = l.contributed_micro + total * (l.increment_ppm + l.reserve_ppm)
        WHERE l.pool = p_pool;
    END IF;
END $$;

-- A cabinet's call: its rows, then their sum to the levels.
CREATE OR REPLACE FUNCTION egm.contribute(p_pool TEXT, p_epoch TEXT, p_rounds BIGINT[], p_wagers TEXT[])
RETURNS TABLE (out_round BIGINT, out_outcome TEXT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    r RECORD;
    total BIGINT := 0;
BEGIN
    FOR r IN SELECT * FROM contribute_rows(p_pool, p_epoch, p_rounds, p_wagers) LOOP
        out_round := r.out_round;
        out_outcome := r.out_outcome;
        total := total + coalesce(r.out_wager, 0);
        RETURN NEXT;
    END LOOP;
    PERFORM add_to_levels(p_pool, total);
END $$;

-- Why a claimed reel outcome does not hit trigger `t` of approved game
-- `g` at the contributed wager (issue 35, attack 1), or NULL when it does:
-- the window is each reel's strip from its stop, row by row; a played line
-- hits when it shows at least `count` of the trigger's symbol in a row
-- from the first reel, the wild substituting (what every line win of that
-- symbol shows). The bet must be the one contributed: lines × credits per
-- line × denomination = wager, at the largest bet per line when the
-- trigger asks for it.
CREATE OR REPLACE FUNCTION egm.reel_refusal(g JSONB, t JSONB, o JSONB, p_wager BIGINT) RETURNS TEXT
LANGUAGE plpgsql IMMUTABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    reels INT := jsonb_array_length(g->'strips');
    nlines INT := jsonb_array_length(g->'lines');
    played INT;
    cpl BIGINT;
    denom BIGINT;
    stops BIGINT[] := '{}';
    stop BIGINT;
    len INT;
    run INT;
    sym TEXT;
    i INT;
    l INT;
BEGIN
    IF jsonb_typeof(o->'stops') IS DISTINCT FROM 'array' OR jsonb_array_length(o->'stops') <> reels THEN
        RETURN format('the outcome needs %s reel stops', reels);
    END IF;
    FOR i IN 0 .. reels - 1 LOOP
        stop := (o->'stops'->>i)::BIGINT;
        len := jsonb_array_length(g->'strips'->i);
        IF stop IS NULL OR stop < 0 OR stop >= len THEN
            RETURN format('reel %s has no stop %s (its strip has %s)', i + 1, coalesce(stop::TEXT, 'NULL'), len);
        END IF;
        stops := stops || stop;
    END LOOP;
    played := (o->>'lines')::INT;
    cpl := (o->>'credits_per_line')::BIGINT;
    denom := (o->>'denom')::BIGINT;
    IF coalesce((g->>'ways')::BOOLEAN, false) THEN
        -- Issue 50: a ways game's "lines" is its bet's cost, one the
        -- approved paytable offers.
        IF played IS NULL OR NOT (g->'paytable'->'bet'->'lines') @> to_jsonb(played) THEN
            RETURN format('a ways bet of %s credits a unit is not one the game offers (%s)', coalesce(played::TEXT, 'no'), g->'paytable'->'bet'->'lines');
        END IF;
    ELSIF played IS NULL OR played < 1 OR played > nlines THEN
        RETURN format('%s lines played: the game has 1 to %s', coalesce(played::TEXT, 'no'), nlines);
    END IF;
    IF cpl IS NULL OR cpl < 1 OR cpl > (g->>'max_credits_per_line')::BIGINT OR denom IS NULL OR denom < 1 THEN
        RETURN format('a bet of %s credits per line at %s cents is not one the game offers', coalesce(cpl::TEXT, 'no'), coalesce(denom::TEXT, 'no'));
    END IF;
    IF coalesce((t->>'max_bet_only')::BOOLEAN, false) AND cpl <> (g->>'max_credits_per_line')::BIGINT THEN
        RETURN format('the trigger needs the largest bet per line (%s credits), the outcome bet %s', g->>'max_credits_per_line', cpl);
    END IF;
    IF played::NUMERIC * cpl * denom <> p_wager THEN
        RETURN format('the outcome''s bet (%s lines × %s credits × %s cents) is not the round''s contributed wager of %s cents', played, cpl, denom, p_wager);
    END IF;
    IF coalesce((t->>'hold_and_spin_grand')::BOOLEAN, false) THEN
        -- Issue 50: a hold-and-spin's grand, judged by the service on the
        -- feature it drew again from the revealed key (claim.rs); here,
        -- that the outcome carries that feature.
        IF jsonb_typeof(o->'hold') IS DISTINCT FROM 'object' THEN
            RETURN 'the outcome carries no hold-and-spin: its grand is judged on the feature drawn again from the revealed key';
        END IF;
        RETURN NULL;
    END IF;
    IF coalesce((g->>'ways')::BOOLEAN, false) THEN
        -- A ways game's wins are judged by the service alone, with
        -- game-core's ways evaluation on the approved paytable (claim.rs):
        -- every claim reaches this function through it.
        RETURN NULL;
    END IF;
    FOR l IN 0 .. played - 1 LOOP
        run := 0;
        FOR i IN 0 .. reels - 1 LOOP
            len := jsonb_array_length(g->'strips'->i);
            sym := g->'strips'->i->>((stops[i + 1] + (g->'lines'->l->>i)::INT) % len)::INT;
            EXIT WHEN sym IS DISTINCT FROM t->>'symbol' AND sym IS DISTINCT FROM g->>'wild';
            run := run + 1;
        END LOOP;
        IF run >= (t->>'count')::INT THEN
            RETURN NULL;
        END IF;
    END LOOP;
    RETURN format('the outcome (stops %s, %s lines) shows no %s × %s on a played line', array_to_string(stops, ' '), played, t->>'count', t->>'symbol');
EXCEPTION WHEN others THEN
    RETURN 'the outcome is malformed: ' || SQLERRM;
END $$;

-- The award of a level hit in a round: only for a round of this cabinet's
-- epoch that contributed to the pool (so at a qualifying wager) and whose
-- committed outcome, sent with the claim, hits one of the level's approved
-- triggers in a game approved for the pool (issue 35, attack 1); at most
-- once per level per round (asking again returns the same answer), never
-- more than the level holds; simultaneous hits are served in the order the
-- level's row lock grants them (G-49). An award above the pool's
-- confirmation amount is reserved (the level restarts) and pending until
-- an operator's login confirms it after the attendant's check at the
-- cabinet, which locks up meanwhile (M-12). A refusal is logged and
-- returned.
DROP FUNCTION IF EXISTS egm.award(TEXT, TEXT, BIGINT, INT);
-- Issue 46: the service's own verdict on the claim comes with it
-- (`p_service_refusal`: NULL when game-core, on the approved paytable,
-- finds the level hit).
DROP FUNCTION IF EXISTS egm.award(TEXT, TEXT, BIGINT, INT, TEXT);
CREATE OR REPLACE FUNCTION egm.award(p_pool TEXT, p_epoch TEXT, p_round BIGINT, p_level INT, p_outcome TEXT, p_service_refusal TEXT)
RETURNS TABLE (out_amount BIGINT, out_refusal TEXT, out_pending BOOLEAN)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    a RECORD;
    lv RECORD;
    p RECORD;
    t JSONB;
    o JSONB;
    g JSONB;
    wager BIGINT;
    why TEXT;
    from_reserve BIGINT;
BEGIN
    PERFORM check_call(p_pool, p_epoch);
    out_pending := false;
    SELECT w.amount, w.returned_at, w.pending INTO a FROM awards w
        WHERE w.machine = caller() AND w.epoch = p_epoch AND w.round = p_round AND w.pool = p_pool AND w.level = p_level;
    IF FOUND THEN
        IF a.returned_at IS NOT NULL THEN
            out_refusal := refuse(p_epoch, p_round, p_pool, 'award', format('the award of round %s was returned to the pool (the round was voided or the award refused)', p_round));
        ELSE
            out_amount := a.amount;
            out_pending := a.pending;
        END IF;
        RETURN NEXT;
        RETURN;
    END IF;
    -- Issue 69: new claims per cabinet across the service's instances (an
    -- answer already given is given again, unpaced).
    PERFORM spend_pace('claims', service_pace('claims_per_second', 2), 10, 1);
    IF p_outcome IS NULL OR length(p_outcome) > 4096 THEN
        out_refusal := refuse(p_epoch, p_round, p_pool, 'award', 'a claim carries the round''s committed outcome, of at most 4096 characters');
        RETURN NEXT;
        RETURN;
    END IF;
    SELECT c.wager INTO wager FROM contributions c
        WHERE c.machine = caller() AND c.epoch = p_epoch AND c.round = p_round AND c.pool = p_pool AND c.returned_at IS NULL;
    IF NOT FOUND THEN
        out_refusal := refuse(p_epoch, p_round, p_pool, 'award',
            format('round %s of epoch %s of machine %s made no contribution to pool %s', p_round, p_epoch, caller(), p_pool));
        RETURN NEXT;
        RETURN;
    END IF;
    -- A round this machine contributed after is final (attack 3).
    IF later_than(p_epoch, p_round) IS NOT NULL THEN
        out_refusal := refuse(p_epoch, p_round, p_pool, 'award',
            format('round %s of epoch %s is final: the machine contributed from a later round since', p_round, p_epoch));
        RETURN NEXT;
        RETURN;
    END IF;
    SELECT pl.games, pl.triggers, pl.confirm_above INTO p FROM pools pl WHERE pl.pool = p_pool;
    IF p.games IS NULL THEN
        out_refusal := refuse(p_epoch, p_round, p_pool, 'award',
            format('pool %s has no approved games and triggers: the operator approves them (egm-progressive approve)', p_pool));
        RETURN NEXT;
        RETURN;
    END IF;
    BEGIN
        o := p_outcome::JSONB;
    EXCEPTION WHEN others THEN
        o := NULL;
    END;
    g := p.games->(o->>'game');
    IF o IS NULL OR g IS NULL THEN
        out_refusal := refuse(p_epoch, p_round, p_pool, 'award',
            format('the claim''s outcome names no game approved for pool %s', p_pool));
        RETURN NEXT;
        RETURN;
    END IF;
    FOR t IN SELECT x FROM jsonb_array_elements(p.triggers) x WHERE (x->>'level')::INT = p_level LOOP
        why := reel_refusal(g, t, o, wager);
        EXIT WHEN why IS NULL;
    END LOOP;
    IF t IS NULL THEN
        why := format('pool %s has no trigger for level %s', p_pool, p_level);
    END IF;
    IF why IS NULL AND p_service_refusal IS NOT NULL THEN
        why := left(p_service_refusal, 400);
    END IF;
    IF why IS NOT NULL THEN
        out_refusal := refuse(p_epoch, p_round, p_pool, 'award', format('round %s does not hit level %s: %s', p_round, p_level, why));
        RETURN NEXT;
        RETURN;
    END IF;
    SELECT l.current_micro, l.reset_value, l.reserve_micro INTO lv FROM levels l WHERE l.pool = p_pool AND l.level = p_level FOR UPDATE;
    IF NOT FOUND THEN
        out_refusal := refuse(p_epoch, p_round, p_pool, 'award', format('pool %s has no level %s', p_pool, p_level));
        RETURN NEXT;
        RETURN;
    END IF;
    out_amount := lv.current_micro / 1000000;
    -- Issue 46: at or above the confirmation amount (a Grande at its reset
    -- once went unconfirmed).
    out_pending := p.confirm_above IS NOT NULL AND out_amount >= p.confirm_above;
    -- The restart at the reset value: whole cents of the reserve first.
    from_reserve := LEAST(lv.reserve_micro / 1000000, lv.reset_value);
    UPDATE levels l SET current_micro = lv.reset_value * 1000000 + lv.current_micro % 1000000,
        reserve_micro = l.reserve_micro - from_reserve * 1000000, hits = l.hits + 1, awarded = l.awarded + out_amount,
        operator_funded = l.operator_funded + lv.reset_value - from_reserve
    WHERE l.pool = p_pool AND l.level = p_level;
    INSERT INTO awards (machine, epoch, round, pool, level, amount, outcome, pending)
        VALUES (caller(), p_epoch, p_round, p_pool, p_level, out_amount, o, out_pending);
    PERFORM pg_notify('egm_progressive', p_pool);
    RETURN NEXT;
END $$;

-- A round voided: its wager was refunded, so everything it did to the pool
-- is undone, each step logged. Each award of it goes back to its level
-- (never lost), marked returned. Then its contribution is taken back from
-- every level: the reserve share from the reserve, the increment from
-- what the level holds above its reset value, the rest from the reserve;
-- what neither holds any longer (an award paid it out) stays contributed
-- and is recorded as kept: the operator never funds a void (issue 35,
-- attack 2: voids of fake wagers once made the operator pay). Returns the
-- awards' sum. Asking again changes nothing.
--
-- A cabinet voids a round before it plays another (the interrupted round
-- blocks play until then), so a round that any later contribution of the
-- same machine followed, in any epoch or pool, proves it was settled, its
-- award paid: returning it would make pool money from nothing. That is
-- refused and logged.
DROP FUNCTION IF EXISTS egm.return_awards(TEXT, TEXT, BIGINT);
DROP FUNCTION IF EXISTS egm.return_round(TEXT, TEXT, BIGINT);
-- Undo a voided round on the pool (not granted: called by `return_round`
-- for a round without awards, and by the attendant's `decide_award` for
-- one whose awards the void held): its awards back to their levels, then
-- its refunded wager's contribution out of them, each step logged under
-- `p_by`. Returns the awards' sum.
CREATE OR REPLACE FUNCTION egm.undo_round(p_machine TEXT, p_epoch TEXT, p_round BIGINT, p_pool TEXT, p_by TEXT)
RETURNS BIGINT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    a RECORD;
    lv RECORD;
    total BIGINT := 0;
    refunded BIGINT;
    inc BIGINT;
    res BIGINT;
    from_current BIGINT;
    from_reserve BIGINT;
    short BIGINT;
    kept BIGINT := 0;
    trail TEXT := '';
BEGIN
    FOR a IN SELECT w.level, w.amount FROM awards w
        WHERE w.machine = p_machine AND w.epoch = p_epoch AND w.round = p_round AND w.pool = p_pool AND w.returned_at IS NULL
        ORDER BY w.level FOR UPDATE
    LOOP
        UPDATE levels l SET current_micro = l.current_micro + a.amount * 1000000, awarded = l.awarded - a.amount
            WHERE l.pool = p_pool AND l.level = a.level;
        UPDATE awards w SET returned_at = now()
            WHERE w.machine = p_machine AND w.epoch = p_epoch AND w.round = p_round AND w.pool = p_pool AND w.level = a.level;
        total := total + a.amount;
        INSERT INTO operator_log (operator, action, detail)
            VALUES (p_by, 'return_award', format('round %s of epoch %s: %s cents back to pool %s level %s (the round was voided)',
                    p_round, p_epoch, a.amount, p_pool, a.level));
    END LOOP;
    SELECT c.wager INTO refunded FROM contributions c
        WHERE c.machine = p_machine AND c.epoch = p_epoch AND c.round = p_round AND c.pool = p_pool AND c.returned_at IS NULL FOR UPDATE;
    IF FOUND THEN
        FOR lv IN SELECT l.level, l.current_micro, l.reserve_micro, l.reset_value, l.increment_ppm, l.reserve_ppm FROM levels l
            WHERE l.pool = p_pool ORDER BY l.level FOR UPDATE
        LOOP
            inc := refunded * lv.increment_ppm;
            res := refunded * lv.reserve_ppm;
            from_current := LEAST(inc, GREATEST(0, lv.current_micro - lv.reset_value * 1000000));
            from_reserve := LEAST(inc + res - from_current, lv.reserve_micro);
            -- What an award already paid out stays contributed: the
            -- operator never funds a void (issue 35, attack 2).
            short := inc + res - from_current - from_reserve;
            kept := kept + short;
            UPDATE levels l SET current_micro = l.current_micro - from_current,
                reserve_micro = l.reserve_micro - from_reserve,
                contributed_micro = l.contributed_micro - from_current - from_reserve
            WHERE l.pool = p_pool AND l.level = lv.level;
            trail := trail || format(' level %s: %s µ¢ from its value, %s µ¢ from the reserve, %s µ¢ already paid out by an award, kept;',
                                 lv.level, from_current, from_reserve, short);
        END LOOP;
        UPDATE contributions c SET returned_at = now(), kept_micro = kept
            WHERE c.machine = p_machine AND c.epoch = p_epoch AND c.round = p_round AND c.pool = p_pool;
        INSERT INTO operator_log (operator, action, detail)
            VALUES (p_by, 'return_contribution', format('round %s of epoch %s: the %s-cent wager was refunded, its contribution to pool %s taken back:%s',
                    p_round, p_epoch, refunded, p_pool, trail));
        PERFORM pg_notify('egm_progressive', p_pool);
    ELSIF total > 0 THEN
        PERFORM pg_notify('egm_progressive', p_pool);
    END IF;
    RETURN total;
END $$;

CREATE OR REPLACE FUNCTION egm.return_round(p_pool TEXT, p_epoch TEXT, p_round BIGINT)
RETURNS TABLE (out_amount BIGINT, out_refusal TEXT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    a RECORD;
    later RECORD;
BEGIN
    PERFORM check_call(p_pool, p_epoch);
    -- Issue 35, attack 3: not only within the epoch. Once the machine
    -- contributed from a later round, of any epoch and pool, the round is
    -- final.
    SELECT c.round, c.epoch INTO later FROM contributions c WHERE c.machine = caller() AND c.seq = later_than(p_epoch, p_round);
    IF FOUND THEN
        out_refusal := refuse(p_epoch, p_round, p_pool, 'return_round',
            format('round %s was settled: round %s%s came after it, and a cabinet voids a round before it plays another', p_round, later.round,
                   CASE WHEN later.epoch = p_epoch THEN ' of the same epoch' ELSE ' of a later epoch' END));
        RETURN NEXT;
        RETURN;
    END IF;
    -- Issue 46: a round drawn from the controller's nonce has an outcome
    -- (the controller can draw it again): it is finished, never voided,
    -- and its contribution, made at its commitment, stays.
    IF EXISTS (SELECT 1 FROM commitments k WHERE k.machine = caller() AND k.epoch = p_epoch AND k.round = p_round AND k.pool = p_pool) THEN
        out_refusal := refuse(p_epoch, p_round, p_pool, 'return_round',
            format('round %s was drawn from the controller''s nonce: its outcome exists, so it is finished, never voided', p_round));
        RETURN NEXT;
        RETURN;
    END IF;
    -- Issue 46, the void cycle: a round the controller awarded is undone
    -- by the attendant alone. The cabinet's void holds its awards (and
    -- leaves its contribution) for the attendant's decision; the cabinet
    -- refunds its stake as M-36 says.
    IF EXISTS (SELECT 1 FROM awards w WHERE w.machine = caller() AND w.epoch = p_epoch AND w.round = p_round AND w.pool = p_pool AND w.returned_at IS NULL) THEN
        FOR a IN SELECT w.level, w.amount FROM awards w
            WHERE w.machine = caller() AND w.epoch = p_epoch AND w.round = p_round AND w.pool = p_pool AND w.returned_at IS NULL AND NOT w.void_held
            ORDER BY w.level FOR UPDATE
        LOOP
            UPDATE awards w SET pending = true, void_held = true
                WHERE w.machine = caller() AND w.epoch = p_epoch AND w.round = p_round AND w.pool = p_pool AND w.level = a.level;
            INSERT INTO operator_log (operator, action, detail)
                VALUES (caller(), 'void_held', format('round %s of epoch %s was voided after an award of %s cents of pool %s level %s: held for the attendant',
                        p_round, p_epoch, a.amount, p_pool, a.level));
        END LOOP;
        out_amount := 0;
        RETURN NEXT;
        RETURN;
    END IF;
    out_amount := undo_round(caller(), p_epoch, p_round, p_pool, caller());
    RETURN NEXT;
END $$;

CREATE OR REPLACE FUNCTION egm.levels(p_pool TEXT)
RETURNS TABLE (out_level INT, out_name TEXT, out_current_micro BIGINT, out_reset_value BIGINT, out_hits BIGINT)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
    SELECT level, name, current_micro, reset_value, hits FROM levels WHERE pool = p_pool ORDER BY level
$$;

-- Issue 69: a cabinet reads only the pools an operator assigned to it (an
-- unassigned pool's levels were readable by any cabinet).
CREATE OR REPLACE FUNCTION egm.check_assigned(p_pool TEXT) RETURNS VOID
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    me TEXT := caller();
BEGIN
    IF NOT EXISTS (SELECT 1 FROM machines m WHERE m.machine = me AND p_pool = ANY (m.pools)) THEN
        RAISE EXCEPTION 'cabinet % is not assigned to pool %', me, left(coalesce(p_pool, ''), 64);
    END IF;
END $$;

CREATE OR REPLACE FUNCTION egm.last_awards(p_pool TEXT, p_n BIGINT)
RETURNS TABLE (out_seq BIGINT, out_machine TEXT, out_round BIGINT, out_level INT, out_amount BIGINT, out_time BIGINT)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
    SELECT seq, machine, round, level, amount, extract(epoch FROM at)::BIGINT FROM awards
    WHERE pool = p_pool AND returned_at IS NULL ORDER BY seq DESC LIMIT p_n
$$;

-- Operator: set a pool up at its start values. A pool that exists keeps
-- its money (M-20) and must have the same configuration.
CREATE OR REPLACE FUNCTION egm.configure_pool(p_config_text TEXT, p_max_wager BIGINT) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    p_config JSONB := p_config_text::JSONB;
    id TEXT := p_config->>'id';
    have JSONB;
    l JSONB;
    i INT := 0;
BEGIN
    IF p_max_wager IS NULL OR p_max_wager < (p_config->>'min_wager')::BIGINT THEN
        RAISE EXCEPTION 'pool %: the wager bound % is below the minimum wager', id, p_max_wager;
    END IF;
    SELECT config INTO have FROM pools WHERE pool = id FOR UPDATE;
    IF FOUND THEN
        IF have <> p_config THEN
            RAISE EXCEPTION 'pool % exists with another configuration; its money stays (M-20)', id;
        END IF;
        RETURN;
    END IF;
    INSERT INTO pools (pool, config, min_wager, max_wager) VALUES (id, p_config, (p_config->>'min_wager')::BIGINT, p_max_wager);
    FOR l IN SELECT * FROM jsonb_array_elements(p_config->'levels') LOOP
        IF coalesce((l->>'mystery')::BOOLEAN, false) THEN
            RAISE EXCEPTION 'pool %: a linked pool has no mystery level (its hidden value would live on one cabinet)', id;
        END IF;
        INSERT INTO levels (pool, level, name, start_value, reset_value, increment_ppm, reserve_ppm, ceiling_micro, current_micro, operator_funded)
        VALUES (id, i, l->>'name', (l->>'start_value')::BIGINT, (l->>'reset_value')::BIGINT, (l->>'increment_ppm')::BIGINT,
                coalesce((l->>'reserve_ppm')::BIGINT, 0), (l->>'ceiling')::BIGINT * 1000000, (l->>'start_value')::BIGINT * 1000000,
                (l->>'start_value')::BIGINT);
        i := i + 1;
    END LOOP;
    INSERT INTO operator_log (operator, action, detail) VALUES (session_user, 'configure_pool', p_config::TEXT);
END $$;

-- Operator, M-23: move a level's whole cents to a level of a pool of the
-- same games (the same model and bet type), or out of the controller to a
-- target the authority designated (its reference is required). Logged
-- under the operator's name.
CREATE OR REPLACE FUNCTION egm.transfer(p_pool TEXT, p_level INT, p_to_pool TEXT, p_to_level INT, p_authority_ref TEXT) RETURNS BIGINT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    cur BIGINT;
    amount BIGINT;
BEGIN
    SELECT current_micro INTO cur FROM levels WHERE pool = p_pool AND level = p_level FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'pool % has no level %', p_pool, p_level;
    END IF;
    IF p_to_pool IS NOT NULL THEN
        IF (SELECT config->'games' FROM pools WHERE pool = p_to_pool) IS DISTINCT FROM (SELECT config->'games' FROM pools WHERE pool = p_pool) THEN
            RAISE EXCEPTION 'pool % is not of the same games as pool % (M-23)', p_to_pool, p_pool;
        END IF;
        PERFORM 1 FROM levels WHERE pool = p_to_pool AND level = p_to_level FOR UPDATE;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'pool % has no level %', p_to_pool, p_to_level;
        END IF;
    ELSIF coalesce(trim(p_authority_ref), '') = '' THEN
        RAISE EXCEPTION 'a transfer out of the controller needs the authority''s reference (M-23)';
    END IF;
    amount := cur / 1000000;
    UPDATE levels SET current_micro = current_micro - amount * 1000000, transferred_out = transferred_out + amount
        WHERE pool = p_pool AND level = p_level;
    IF p_to_pool IS NOT NULL THEN
        UPDATE levels SET current_micro = current_micro + amount * 1000000, transferred_in = transferred_in + amount
            WHERE pool = p_to_pool AND level = p_to_level;
    END IF;
    INSERT INTO operator_log (operator, action, detail)
        VALUES (session_user, 'transfer', format('%s cents of pool %s level %s to %s', amount, p_pool, p_level,
                CASE WHEN p_to_pool IS NULL THEN 'the authority''s target ' || p_authority_ref ELSE format('pool %s level %s', p_to_pool, p_to_level) END));
    PERFORM pg_notify('egm_progressive', p_pool);
    RETURN amount;
END $$;

-- Operator, issue 35 attack 1: approve the games whose outcomes the pool's
-- awards are checked against (built from their approved paytables by
-- `egm-progressive approve`), each level's triggers, and the amount above
-- which an award waits for an attendant. Logged; a new approval replaces
-- the last one (a new paytable approved for the floor).
CREATE OR REPLACE FUNCTION egm.approve_games(p_pool TEXT, p_games_text TEXT, p_triggers_text TEXT, p_confirm_above BIGINT) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    games JSONB := p_games_text::JSONB;
    triggers JSONB := p_triggers_text::JSONB;
    g RECORD;
    t JSONB;
    reels INT;
    i INT;
BEGIN
    PERFORM 1 FROM pools WHERE pool = p_pool FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no linked pool %', p_pool;
    END IF;
    IF jsonb_typeof(games) <> 'object' OR games = '{}'::JSONB THEN
        RAISE EXCEPTION 'pool %: the approved games are an object of game id to reel game', p_pool;
    END IF;
    FOR g IN SELECT key, value FROM jsonb_each(games) LOOP
        reels := jsonb_array_length(g.value->'strips');
        -- Issue 50: a ways game has no paylines (every way is played).
        IF reels < 1 OR (g.value->>'rows')::INT < 1 OR (jsonb_array_length(g.value->'lines') < 1 AND NOT coalesce((g.value->>'ways')::BOOLEAN, false))
           OR (g.value->>'max_credits_per_line')::BIGINT < 1 THEN
            RAISE EXCEPTION 'game %: it needs reel strips, rows, lines (or ways) and a largest bet per line', g.key;
        END IF;
        FOR i IN 0 .. reels - 1 LOOP
            IF jsonb_array_length(g.value->'strips'->i) < 1 THEN
                RAISE EXCEPTION 'game %: reel % has an empty strip', g.key, i + 1;
            END IF;
        END LOOP;
        FOR t IN SELECT x FROM jsonb_array_elements(g.value->'lines') x LOOP
            IF jsonb_array_length(t) <> reels OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(t) r WHERE r::INT < 0 OR r::INT >= (g.value->>'rows')::INT) THEN
                RAISE EXCEPTION 'game %: the line % does not cross each of its % reels inside its % rows', g.key, t, reels, g.value->>'rows';
            END IF;
        END LOOP;
    END LOOP;
    IF jsonb_typeof(triggers) <> 'array' THEN
        RAISE EXCEPTION 'pool %: the triggers are a list', p_pool;
    END IF;
    FOR t IN SELECT x FROM jsonb_array_elements(triggers) x LOOP
        -- Issue 50: a hold-and-spin grand's trigger names no symbol.
        IF NOT EXISTS (SELECT 1 FROM levels l WHERE l.pool = p_pool AND l.level = (t->>'level')::INT)
           OR (NOT coalesce((t->>'hold_and_spin_grand')::BOOLEAN, false) AND ((t->>'count')::INT < 1 OR t->>'symbol' IS NULL)) THEN
            RAISE EXCEPTION 'pool %: the trigger % names no level of the pool, no symbol or no count', p_pool, t;
        END IF;
    END LOOP;
    IF p_confirm_above IS NULL OR p_confirm_above < 0 THEN
        RAISE EXCEPTION 'pool %: the amount above which an award waits for an attendant is required (cents)', p_pool;
    END IF;
    -- A new approval's figures are recorded after it (`record_approval`):
    -- the earlier ones weighed other games or triggers.
    UPDATE pools SET games = p_games_text::JSONB, triggers = p_triggers_text::JSONB, confirm_above = p_confirm_above,
        approval_figures = NULL, approved_denominations = NULL WHERE pool = p_pool;
    INSERT INTO operator_log (operator, action, detail)
        VALUES (session_user, 'approve_games', format('pool %s: games %s, triggers %s, awards above %s cents wait for an attendant',
                p_pool, (SELECT string_agg(k, ', ') FROM jsonb_object_keys(games) k), triggers::TEXT, p_confirm_above));
END $$;

-- Operator: the awards waiting for an attendant, with the outcome each
-- was claimed with.
CREATE OR REPLACE FUNCTION egm.pending_awards(p_pool TEXT)
RETURNS TABLE (out_machine TEXT, out_epoch TEXT, out_round BIGINT, out_level INT, out_amount BIGINT, out_outcome TEXT)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
    SELECT machine, epoch, round, level, amount, outcome::TEXT FROM awards
    WHERE pool = p_pool AND pending AND returned_at IS NULL ORDER BY seq
$$;

-- Operator: the attendant checked the cabinet (its outcome on the screen
-- and in recall) and confirms (`p_confirm`) or refuses the pending award.
-- A refused award goes back to its level. Logged under the operator's
-- name, with the outcome claimed. Returns the amount.
CREATE OR REPLACE FUNCTION egm.decide_award(p_machine TEXT, p_epoch TEXT, p_round BIGINT, p_pool TEXT, p_level INT, p_confirm BOOLEAN, p_note TEXT)
RETURNS BIGINT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    a RECORD;
BEGIN
    SELECT w.amount, w.outcome, w.void_held INTO a FROM awards w
        WHERE w.machine = p_machine AND w.epoch = p_epoch AND w.round = p_round AND w.pool = p_pool AND w.level = p_level
          AND w.pending AND w.returned_at IS NULL FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no pending award of pool % level % for round % of epoch % of machine %', p_pool, p_level, p_round, p_epoch, p_machine;
    END IF;
    IF a.void_held AND NOT p_confirm THEN
        -- The cabinet voided the round: every award of it back to its
        -- level and its contribution taken back, as the attendant found.
        PERFORM undo_round(p_machine, p_epoch, p_round, p_pool, session_user);
        UPDATE awards w SET pending = false, confirmed_by = session_user, confirmed_at = now()
            WHERE w.machine = p_machine AND w.epoch = p_epoch AND w.round = p_round AND w.pool = p_pool;
    ELSIF p_confirm THEN
        UPDATE awards w SET pending = false, confirmed_by = session_user, confirmed_at = now()
            WHERE w.machine = p_machine AND w.epoch = p_epoch AND w.round = p_round AND w.pool = p_pool AND w.level = p_level;
    ELSE
        UPDATE levels l SET current_micro = l.current_micro + a.amount * 1000000, awarded = l.awarded - a.amount
            WHERE l.pool = p_pool AND l.level = p_level;
        UPDATE awards w SET pending = false, returned_at = now(), confirmed_by = session_user, confirmed_at = now()
            WHERE w.machine = p_machine AND w.epoch = p_epoch AND w.round = p_round AND w.pool = p_pool AND w.level = p_level;
    END IF;
    INSERT INTO operator_log (operator, action, detail)
        VALUES (session_user, CASE WHEN p_confirm THEN 'confirm_award' ELSE 'refuse_award' END,
                format('%s cents of pool %s level %s to machine %s, round %s of epoch %s, claimed with %s: %s',
                       a.amount, p_pool, p_level, p_machine, p_round, p_epoch, a.outcome::TEXT, left(coalesce(p_note, ''), 500)));
    PERFORM pg_notify('egm_progressive', p_pool);
    RETURN a.amount;
END $$;

CREATE OR REPLACE FUNCTION egm.books(p_pool TEXT)
RETURNS TABLE (out_contributions BIGINT, out_wagered TEXT, out_contributed_micro BIGINT, out_current_micro BIGINT, out_start_value BIGINT,
               out_awarded BIGINT, out_operator_funded BIGINT, out_reserve_micro BIGINT, out_overflow_micro BIGINT,
               out_transferred_out BIGINT, out_transferred_in BIGINT)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
    SELECT (SELECT count(*) FROM contributions WHERE pool = p_pool AND returned_at IS NULL),
        (SELECT coalesce(sum(wager), 0)::TEXT FROM contributions WHERE pool = p_pool AND returned_at IS NULL),
        contributed_micro, current_micro, start_value, awarded, operator_funded, reserve_micro, overflow_micro, transferred_out, transferred_in
    FROM levels WHERE pool = p_pool ORDER BY level
$$;

CREATE OR REPLACE FUNCTION egm.by_machine(p_pool TEXT)
RETURNS TABLE (out_machine TEXT, out_contributions BIGINT, out_wagered TEXT, out_awards TEXT)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
    SELECT c.machine, count(*), sum(c.wager)::TEXT,
        coalesce((SELECT jsonb_agg(jsonb_build_array(w.round, w.level, w.amount) ORDER BY w.round, w.level) FROM awards w
                  WHERE w.pool = p_pool AND w.machine = c.machine AND w.returned_at IS NULL), '[]'::JSONB)::TEXT
    FROM contributions c WHERE c.pool = p_pool AND c.returned_at IS NULL GROUP BY c.machine ORDER BY c.machine
$$;

CREATE OR REPLACE FUNCTION egm.refusals(p_n BIGINT)
RETURNS TABLE (out_seq BIGINT, out_machine TEXT, out_round BIGINT, out_call TEXT, out_reason TEXT)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
    SELECT seq, machine, round, call, reason FROM refusals ORDER BY seq DESC LIMIT p_n
$$;

CREATE OR REPLACE FUNCTION egm.operator_log(p_n BIGINT)
RETURNS TABLE (out_seq BIGINT, out_operator TEXT, out_action TEXT, out_detail TEXT)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
    SELECT seq, operator, action, detail FROM operator_log ORDER BY seq DESC LIMIT p_n
$$;

-- The service, issue 46: the contributions of several cabinets waiting at
-- once, in one call of one transaction (a group commit: every
-- contribution updates the same level rows, so one at a time they
-- serialise on the row lock and the commit). Item i is cabinet
-- p_machines[i]'s call on p_pools[i] and p_epochs[i] with the next
-- p_counts[i] of the rounds and wagers; each is made as that cabinet
-- (named for it alone) and answered row by row, or with the reason the
-- whole call was refused; a refused call undoes nothing of the others.
CREATE OR REPLACE FUNCTION egm.contribute_group(p_machines TEXT[], p_pools TEXT[], p_epochs TEXT[], p_counts INT[], p_rounds BIGINT[], p_wagers TEXT[])
RETURNS TABLE (out_item INT, out_round BIGINT, out_outcome TEXT, out_refusal TEXT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    i INT;
    first INT := 1;
    n INT;
    r RECORD;
    item_total BIGINT;
    -- Accepted wagers per pool, added to its levels once at the end.
    pools_fed TEXT[] := '{}';
    totals BIGINT[] := '{}';
    k INT;
BEGIN
    IF coalesce(array_length(p_machines, 1), 0) > 256 THEN
        RAISE EXCEPTION 'at most 256 calls a group';
    END IF;
    FOR i IN 1 .. coalesce(array_length(p_machines, 1), 0) LOOP
        n := p_counts[i];
        BEGIN
            PERFORM set_config('egm.machine', p_machines[i], true);
            item_total := 0;
            FOR r IN SELECT * FROM contribute_rows(p_pools[i], p_epochs[i], p_rounds[first : first + n - 1], p_wagers[first : first + n - 1]) LOOP
                out_item := i;
                out_round := r.out_round;
                out_outcome := r.out_outcome;
                out_refusal := NULL;
                item_total := item_total + coalesce(r.out_wager, 0);
                RETURN NEXT;
            END LOOP;
            k := array_position(pools_fed, p_pools[i]);
            IF k IS NULL THEN
                pools_fed := array_append(pools_fed, p_pools[i]);
                totals := array_append(totals, item_total);
            ELSE
                totals[k] := totals[k] + item_total;
            END IF;
        EXCEPTION WHEN raise_exception OR data_exception OR integrity_constraint_violation OR syntax_error_or_access_rule_violation THEN
            out_item := i;
            out_round := NULL;
            out_outcome := NULL;
            out_refusal := left(SQLERRM, 500);
            RETURN NEXT;
        END;
        first := first + n;
    END LOOP;
    -- In the pools' order: two groups committing at once lock the levels
    -- in the same order, so neither waits on the other in a cycle.
    FOR r IN SELECT u.p, u.t FROM unnest(pools_fed, totals) AS u(p, t) ORDER BY u.p LOOP
        PERFORM add_to_levels(r.p, r.t);
    END LOOP;
END $$;

-- The service, issue 46: commit the caller's round `p_round` (SHA-256 of
-- its key, its bet and wager) and answer its nonce: the one the service
-- drew (`p_nonce`) the first time, the same ever after for the same
-- commitment, bet and wager; anything else is refused and logged. A round
-- is committed before it is played, never once a later round of the epoch
-- contributed, only at one of the cabinet's denominations and at a bet
-- the approved game offers (the service's own verdict on the bet comes as
-- `p_service_refusal`: NULL when game-core finds it one the game offers).
-- The commitment is the round's contribution: the wager is taken the
-- moment the nonce is issued, so a cabinet that knows its key cannot
-- contribute only the rounds it sees hit, and the round is never voided.
DROP FUNCTION IF EXISTS egm.commit(TEXT, TEXT, BIGINT, TEXT, TEXT, BIGINT, TEXT);
DROP FUNCTION IF EXISTS egm.commit(TEXT, TEXT, BIGINT, TEXT, TEXT, BIGINT, TEXT, TEXT);
-- `p_pace`: the service's own pace of committed rounds a second, held
-- here per cabinet across every instance (issue 69).
CREATE OR REPLACE FUNCTION egm.commit(p_pool TEXT, p_epoch TEXT, p_round BIGINT, p_commitment TEXT, p_bet TEXT, p_wager BIGINT, p_nonce TEXT,
                                      p_service_refusal TEXT, p_pace BIGINT)
RETURNS TABLE (out_nonce TEXT, out_refusal TEXT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    k RECORD;
    p RECORD;
    bet JSONB;
    denoms BIGINT[];
    denom BIGINT;
BEGIN
    PERFORM check_call(p_pool, p_epoch);
    IF p_commitment IS NULL OR p_commitment !~ '^[0-9a-f]{64}$' OR p_nonce IS NULL OR p_nonce !~ '^[0-9a-f]{64}$' THEN
        RAISE EXCEPTION 'a commitment and a nonce are 64 hexadecimal digits';
    END IF;
    IF p_round IS NULL OR p_round < 1 THEN
        RAISE EXCEPTION 'round % is not a round number', p_round;
    END IF;
    IF p_bet IS NULL OR length(p_bet) > 1024 THEN
        RAISE EXCEPTION 'a bet is at most 1024 characters of JSON';
    END IF;
    bet := p_bet::JSONB;
    SELECT min_wager, max_wager, approved_denominations INTO p FROM pools WHERE pool = p_pool;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no linked pool %', p_pool;
    END IF;
    IF p_wager IS NULL OR p_wager < p.min_wager OR p_wager > p.max_wager THEN
        out_refusal := refuse(p_epoch, p_round, p_pool, 'commit', format('wager %s cents is outside the pool''s %s to %s cents (G-46)', p_wager, p.min_wager, p.max_wager));
        RETURN NEXT;
        RETURN;
    END IF;
    IF p_service_refusal IS NOT NULL THEN
        out_refusal := refuse(p_epoch, p_round, p_pool, 'commit', p_service_refusal);
        RETURN NEXT;
        RETURN;
    END IF;
    SELECT m.denominations INTO denoms FROM machines m WHERE m.machine = caller();
    denom := CASE WHEN jsonb_typeof(bet->'denom') = 'number' THEN (bet->>'denom')::NUMERIC END;
    IF denom IS NULL OR NOT (denom = ANY (denoms)) THEN
        out_refusal := refuse(p_epoch, p_round, p_pool, 'commit',
            CASE WHEN cardinality(denoms) = 0 THEN format('cabinet %s has no denominations set by an operator (egm-progressive assign --denominations)', caller())
                 ELSE format('denomination %s cents is not one cabinet %s offers (%s)', left(bet->>'denom', 24), caller(), array_to_string(denoms, ', ')) END);
        RETURN NEXT;
        RETURN;
    END IF;
    -- Issue 69: only at a denomination the approval weighed its triggers at.
    IF p.approved_denominations IS NOT NULL AND NOT (denom = ANY (p.approved_denominations)) THEN
        out_refusal := refuse(p_epoch, p_round, p_pool, 'commit',
            format('denomination %s cents is not one pool %s''s approval weighed its triggers at (%s)', denom, p_pool, array_to_string(p.approved_denominations, ', ')));
        RETURN NEXT;
        RETURN;
    END IF;
    SELECT * INTO k FROM commitments c WHERE c.machine = caller() AND c.epoch = p_epoch AND c.round = p_round AND c.pool = p_pool;
    IF NOT FOUND THEN
        IF EXISTS (SELECT 1 FROM contributions c WHERE c.machine = caller() AND c.epoch = p_epoch AND c.round >= p_round) THEN
            out_refusal := refuse(p_epoch, p_round, p_pool, 'commit', format('round %s of epoch %s is past: a round is committed before it is played', p_round, p_epoch));
            RETURN NEXT;
            RETURN;
        END IF;
        -- Issue 69: new rounds per cabinet, whichever instance of the
        -- service it reaches, at the service's pace plus one a second and
        -- five seconds of it at once (a reel round takes a cabinet well
        -- over a quarter of a second). Over it: asked again later
        -- (SQLSTATE 53400), nothing written.
        PERFORM spend_pace('committed rounds', GREATEST(0, coalesce(p_pace, 4)) + 1, 5, 1);
        INSERT INTO commitments (machine, epoch, round, pool, commitment, nonce, bet, wager)
            VALUES (caller(), p_epoch, p_round, p_pool, p_commitment, p_nonce, bet, p_wager);
        -- The round's contribution, in the same transaction as its nonce
        -- (its wager is in the pool's range: checked above).
        PERFORM contribute(p_pool, p_epoch, ARRAY[p_round], ARRAY[p_wager::TEXT]);
        out_nonce := p_nonce;
    ELSIF k.commitment = p_commitment AND k.bet = bet AND k.wager = p_wager THEN
        out_nonce := k.nonce;
    ELSE
        out_refusal := refuse(p_epoch, p_round, p_pool, 'commit',
            format('round %s was committed with another key or bet: a round''s bet cannot change after its nonce', p_round));
    END IF;
    RETURN NEXT;
END $$;

-- The service: the caller's committed round (commitment, nonce, bet,
-- wager), which a claim's revealed key is checked against.
CREATE OR REPLACE FUNCTION egm.commitment(p_pool TEXT, p_epoch TEXT, p_round BIGINT)
RETURNS TABLE (out_commitment TEXT, out_nonce TEXT, out_bet TEXT, out_wager BIGINT)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
    SELECT commitment, nonce, bet::TEXT, wager FROM commitments
    WHERE machine = caller() AND epoch = p_epoch AND round = p_round AND pool = p_pool
$$;

-- The service: log a claim it refused before the award's own checks.
CREATE OR REPLACE FUNCTION egm.refuse_claim(p_pool TEXT, p_epoch TEXT, p_round BIGINT, p_reason TEXT) RETURNS TEXT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
BEGIN
    PERFORM check_call(p_pool, p_epoch);
    RETURN refuse(p_epoch, p_round, p_pool, 'award', p_reason);
END $$;

-- The service: the games and triggers approved for a pool, which it
-- judges a claim by before the award's own checks (issue 46).
DROP FUNCTION IF EXISTS egm.approval(TEXT);
CREATE OR REPLACE FUNCTION egm.approval(p_pool TEXT)
RETURNS TABLE (out_games TEXT, out_triggers TEXT, out_plain_claims BOOLEAN)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
    SELECT games::TEXT, triggers::TEXT, plain_claims FROM pools WHERE pool = p_pool
$$;

-- Operator, issue 46: allow claims that carry their outcome on a pool
-- (cabinets of an earlier version), or refuse them again. Logged.
CREATE OR REPLACE FUNCTION egm.allow_plain_claims(p_pool TEXT, p_allow BOOLEAN) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
BEGIN
    UPDATE pools SET plain_claims = p_allow WHERE pool = p_pool;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no pool %', left(p_pool, 64);
    END IF;
    INSERT INTO operator_log (operator, action, detail)
        VALUES (session_user, CASE WHEN p_allow THEN 'allow_plain_claims' ELSE 'refuse_plain_claims' END, format('pool %s', p_pool));
END $$;

-- Operator, issue 46: the denominations (cents) a registered cabinet
-- offers; a committed round at any other is refused. Logged.
CREATE OR REPLACE FUNCTION egm.set_denominations(p_machine TEXT, p_denominations BIGINT[]) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
BEGIN
    IF p_denominations IS NULL OR cardinality(p_denominations) = 0 OR cardinality(p_denominations) > 64
       OR EXISTS (SELECT 1 FROM unnest(p_denominations) d WHERE d IS NULL OR d < 1) THEN
        RAISE EXCEPTION 'a cabinet offers 1 to 64 denominations, each at least 1 cent';
    END IF;
    UPDATE machines SET denominations = (SELECT array_agg(DISTINCT d ORDER BY d) FROM unnest(p_denominations) d) WHERE machine = p_machine;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no registered cabinet %', left(p_machine, 64);
    END IF;
    INSERT INTO operator_log (operator, action, detail)
        VALUES (session_user, 'set_denominations', format('cabinet %s offers %s cents', p_machine, array_to_string(p_denominations, ', ')));
END $$;

-- The service, issue 46: the caller's own meter of what it owed `p_pool`
-- in epoch `p_epoch`, through round `p_through` (the latest report kept).
CREATE OR REPLACE FUNCTION egm.report_meter(p_pool TEXT, p_epoch TEXT, p_through BIGINT, p_rounds BIGINT, p_wagered BIGINT) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
BEGIN
    PERFORM check_call(p_pool, p_epoch);
    -- Issue 69: each report is a write (711 a second from one certificate
    -- once cut an honest cabinet's rate by half); an honest cabinet reports
    -- once a round at most.
    PERFORM spend_pace('meter reports', service_pace('meters_per_second', 5), 5, 1);
    IF p_through IS NULL OR p_through < 0 OR p_rounds IS NULL OR p_rounds < 0 OR p_wagered IS NULL OR p_wagered < 0 THEN
        RAISE EXCEPTION 'a meter is a round and two counts, none negative';
    END IF;
    -- Issue 69: a cabinet's meter never goes back (a report "through round
    -- 0, 0 rounds, 0 c" once cleared its own alarm).
    IF EXISTS (SELECT 1 FROM cabinet_meters m WHERE m.machine = caller() AND m.epoch = p_epoch AND m.pool = p_pool
               AND (p_through < m.through_round OR p_rounds < m.rounds OR p_wagered < m.wagered
                    OR (p_through = m.through_round AND (p_rounds, p_wagered) <> (m.rounds, m.wagered)))) THEN
        RAISE EXCEPTION 'a cabinet''s meter never goes back: it reported more of epoch % of pool % before', left(p_epoch, 32), p_pool;
    END IF;
    INSERT INTO cabinet_meters AS m (machine, epoch, pool, through_round, rounds, wagered)
        VALUES (caller(), p_epoch, p_pool, p_through, p_rounds, p_wagered)
        ON CONFLICT (machine, epoch, pool) DO UPDATE SET through_round = EXCLUDED.through_round, rounds = EXCLUDED.rounds,
            wagered = EXCLUDED.wagered, at = now();
END $$;

-- Operator, issue 46: each cabinet's latest meter of pool `p_pool` (per
-- epoch) against the contributions the controller holds for the same
-- rounds; `out_alarm` says what differs, NULL when they agree. A cabinet
-- that contributed and never reported a meter is an alarm too.
CREATE OR REPLACE FUNCTION egm.reconciliation(p_pool TEXT)
RETURNS TABLE (out_machine TEXT, out_epoch TEXT, out_through BIGINT, out_cabinet_rounds BIGINT, out_cabinet_wagered BIGINT,
               out_controller_rounds BIGINT, out_controller_wagered BIGINT, out_alarm TEXT)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
    WITH keys AS (
        SELECT machine, epoch FROM cabinet_meters WHERE pool = p_pool
        UNION SELECT machine, epoch FROM contributions WHERE pool = p_pool AND returned_at IS NULL
    ), figures AS (
        SELECT k.machine, k.epoch, m.through_round, m.rounds, m.wagered,
            (SELECT count(*) FROM contributions c WHERE c.pool = p_pool AND c.machine = k.machine AND c.epoch = k.epoch
                AND c.returned_at IS NULL AND c.round <= coalesce(m.through_round, 0)) AS held_rounds,
            (SELECT coalesce(sum(c.wager), 0) FROM contributions c WHERE c.pool = p_pool AND c.machine = k.machine AND c.epoch = k.epoch
                AND c.returned_at IS NULL AND c.round <= coalesce(m.through_round, 0))::BIGINT AS held_wagered,
            -- Issue 69: rounds the controller held past the reported one
            -- before the report was made (a cabinet reports with no round
            -- open: one at most may be its next, committed meanwhile).
            (SELECT count(*) FROM contributions c WHERE c.pool = p_pool AND c.machine = k.machine AND c.epoch = k.epoch
                AND c.returned_at IS NULL AND c.round > m.through_round AND c.at < m.at) AS unreported
        FROM keys k LEFT JOIN cabinet_meters m ON m.machine = k.machine AND m.epoch = k.epoch AND m.pool = p_pool
    )
    SELECT machine, epoch, through_round, rounds, wagered, held_rounds, held_wagered,
        CASE WHEN through_round IS NULL THEN format('cabinet %s contributed in epoch %s and reported no meter', machine, epoch)
             WHEN unreported > 1 THEN
                 format('cabinet %s, epoch %s: the controller held %s rounds past round %s before the cabinet reported through it (its report leaves out what it had delivered)',
                        machine, epoch, unreported, through_round)
             WHEN rounds <> held_rounds OR wagered <> held_wagered THEN
                 format('cabinet %s, epoch %s, through round %s: its journal says %s rounds and %s cents, the controller holds %s rounds and %s cents (%s cents %s)',
                        machine, epoch, through_round, rounds, wagered, held_rounds, held_wagered, abs(wagered - held_wagered),
                        CASE WHEN wagered > held_wagered THEN 'missing at the controller' ELSE 'more at the controller' END)
        END
    FROM figures ORDER BY machine, epoch
$$;

-- Operator, issue 69: the floor's reading of cabinet `p_machine`'s
-- coin-in (cents) at `p_read_at`. Readings come in time order; a reading
-- never goes back within a series (a RAM clear or a rollover is entered as
-- a new baseline); a machine's first reading is its baseline. Logged.
CREATE OR REPLACE FUNCTION egm.floor_meter(p_machine TEXT, p_read_at TIMESTAMPTZ, p_coin_in BIGINT, p_baseline BOOLEAN) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
DECLARE
    last floor_meters%ROWTYPE;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM machines WHERE machine = p_machine) THEN
        RAISE EXCEPTION 'no registered cabinet %', left(p_machine, 64);
    END IF;
    IF p_read_at IS NULL OR p_read_at > now() + interval '1 minute' THEN
        RAISE EXCEPTION 'cabinet %: a floor reading is of a time past, not %', p_machine, p_read_at;
    END IF;
    IF p_coin_in IS NULL OR p_coin_in < 0 THEN
        RAISE EXCEPTION 'cabinet %: a coin-in meter is a count of cents, not %', p_machine, p_coin_in;
    END IF;
    SELECT * INTO last FROM floor_meters WHERE machine = p_machine ORDER BY read_at DESC LIMIT 1;
    IF FOUND AND p_read_at <= last.read_at THEN
        RAISE EXCEPTION 'cabinet %: a floor reading at % comes after the last one (%)', p_machine, p_read_at, last.read_at;
    END IF;
    IF FOUND AND NOT coalesce(p_baseline, false) AND p_coin_in < last.coin_in THEN
        RAISE EXCEPTION 'cabinet %: the floor''s coin-in never goes back (% cents after %): a RAM clear or a rollover starts a new baseline',
            p_machine, p_coin_in, last.coin_in;
    END IF;
    INSERT INTO floor_meters (machine, read_at, coin_in, baseline) VALUES (p_machine, p_read_at, p_coin_in, coalesce(p_baseline, false) OR NOT FOUND);
    INSERT INTO operator_log (operator, action, detail)
        VALUES (session_user, 'floor_meter', format('cabinet %s: coin-in %s cents at %s%s', p_machine, p_coin_in, p_read_at,
                CASE WHEN coalesce(p_baseline, false) OR NOT FOUND THEN ' (baseline)' ELSE '' END));
END $$;

-- Operator, issue 69: each cabinet's linked rounds since its latest
-- baseline reading against the floor's coin-in over the same time. A
-- round's wager is counted once (the largest of its contributions, were it
-- ever in two pools), a returned round not at all. One round may be in
-- flight at each end of the series (committed before a reading and
-- metered after it, or the reverse): more than the floor metered plus two
-- of the largest wager is an alarm, which only the floor's next readings
-- (or an operator's new baseline, logged) can answer.
CREATE OR REPLACE FUNCTION egm.floor_reconciliation()
RETURNS TABLE (out_machine TEXT, out_since TIMESTAMPTZ, out_through TIMESTAMPTZ, out_floor_coin_in BIGINT, out_rounds BIGINT,
               out_linked_wagered BIGINT, out_alarm TEXT)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
    WITH series AS (
        SELECT b.machine, b.read_at AS since, b.coin_in AS from_coin_in, l.read_at AS through, l.coin_in AS to_coin_in
        FROM (SELECT DISTINCT ON (machine) machine, read_at, coin_in FROM floor_meters WHERE baseline ORDER BY machine, read_at DESC) b
        JOIN LATERAL (SELECT read_at, coin_in FROM floor_meters f WHERE f.machine = b.machine ORDER BY read_at DESC LIMIT 1) l ON true
    ), rounds AS (
        SELECT s.machine, c.epoch, c.round, max(c.wager) AS wager
        FROM series s JOIN contributions c ON c.machine = s.machine AND c.at > s.since AND c.at <= s.through AND c.returned_at IS NULL
        GROUP BY s.machine, c.epoch, c.round
    ), figures AS (
        SELECT s.machine, s.since, s.through, s.to_coin_in - s.from_coin_in AS floor_coin_in, count(r.round) AS rounds,
            coalesce(sum(r.wager), 0)::BIGINT AS wagered, coalesce(max(r.wager), 0)::BIGINT AS largest
        FROM series s LEFT JOIN rounds r ON r.machine = s.machine
        GROUP BY s.machine, s.since, s.through, s.from_coin_in, s.to_coin_in
    )
    SELECT machine, since, through, floor_coin_in, rounds, wagered,
        CASE WHEN wagered > floor_coin_in + 2 * largest THEN
            format('cabinet %s: its %s linked rounds from %s to %s wagered %s cents, the floor metered %s cents of coin-in: %s cents it never played (rounds committed or contributed without play)',
                   machine, rounds, since, through, wagered, floor_coin_in, wagered - floor_coin_in)
        END
    FROM figures ORDER BY machine
$$;

-- Operator: assign a registered cabinet to a pool (`p_on`), or take it off.
CREATE OR REPLACE FUNCTION egm.assign(p_pool TEXT, p_machine TEXT, p_on BOOLEAN) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pools WHERE pool = p_pool) THEN
        RAISE EXCEPTION 'no pool %', left(p_pool, 64);
    END IF;
    IF NOT EXISTS (SELECT 1 FROM machines WHERE machine = p_machine) THEN
        RAISE EXCEPTION 'no registered cabinet %', left(p_machine, 64);
    END IF;
    UPDATE machines SET pools = CASE WHEN p_on THEN array_append(array_remove(pools, p_pool), p_pool) ELSE array_remove(pools, p_pool) END
        WHERE machine = p_machine;
    INSERT INTO operator_log (operator, action, detail)
        VALUES (session_user, CASE WHEN p_on THEN 'assign' ELSE 'unassign' END, format('cabinet %s, pool %s', p_machine, p_pool));
END $$;

-- Who may call what. Functions are executable by PUBLIC by default: that
-- is taken back first.
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'egm_cabinet') THEN CREATE ROLE egm_cabinet NOLOGIN; END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'egm_operator') THEN CREATE ROLE egm_operator NOLOGIN; END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'egm_service') THEN CREATE ROLE egm_service NOLOGIN; END IF;
END $$;
-- Issue 46: a cabinet login of an earlier install becomes a registered
-- cabinet that cannot log in.
-- Operator: a pool's configuration as it was set up (its levels' reset
-- values, increments, reserves and ceilings), which an approval weighs.
CREATE OR REPLACE FUNCTION egm.pool_config(p_pool TEXT) RETURNS TEXT
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
    SELECT config::TEXT FROM pools WHERE pool = p_pool
$$;

-- Operator, issue 69: keep the approval's figures with the approved games
-- (after `approve_games`), and the denominations they were weighed at.
CREATE OR REPLACE FUNCTION egm.record_approval(p_pool TEXT, p_figures_text TEXT, p_denominations BIGINT[]) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = egm, pg_temp AS $$
BEGIN
    IF p_denominations IS NULL OR cardinality(p_denominations) = 0 OR EXISTS (SELECT 1 FROM unnest(p_denominations) d WHERE d IS NULL OR d < 1) THEN
        RAISE EXCEPTION 'pool %: an approval names the denominations (cents) its figures were weighed at', p_pool;
    END IF;
    UPDATE pools SET approval_figures = p_figures_text::JSONB, approved_denominations = p_denominations WHERE pool = p_pool AND games IS NOT NULL;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'pool %: no approved games to keep figures with', p_pool;
    END IF;
    INSERT INTO operator_log (operator, action, detail)
        VALUES (session_user, 'record_approval', format('pool %s: figures weighed at denominations %s', p_pool, array_to_string(p_denominations, ', ')));
END $$;

-- Operator: the approval's figures kept with the pool (NULL without).
CREATE OR REPLACE FUNCTION egm.approval_figures(p_pool TEXT) RETURNS TEXT
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = egm, pg_temp AS $$
    SELECT approval_figures::TEXT FROM pools WHERE pool = p_pool
$$;

DO $$
DECLARE
    r RECORD;
BEGIN
    FOR r IN SELECT m.rolname FROM pg_auth_members am JOIN pg_roles g ON g.oid = am.roleid JOIN pg_roles m ON m.oid = am.member
             WHERE g.rolname = 'egm_cabinet' LOOP
        INSERT INTO egm.machines (machine) VALUES (r.rolname) ON CONFLICT DO NOTHING;
        EXECUTE format('ALTER ROLE %I NOLOGIN', r.rolname);
        EXECUTE format('REVOKE egm_cabinet FROM %I', r.rolname);
    END LOOP;
END $$;
REVOKE ALL ON ALL TABLES IN SCHEMA egm FROM PUBLIC, egm_cabinet, egm_operator, egm_service;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA egm FROM PUBLIC, egm_cabinet, egm_operator, egm_service;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA egm FROM PUBLIC, egm_cabinet;
REVOKE USAGE ON SCHEMA egm FROM egm_cabinet;
GRANT USAGE ON SCHEMA egm TO egm_service, egm_operator;
-- Only the controller's own logins may connect to its database, each
-- granted CONNECT by name when it is registered (`Controller::register`),
-- and none may connect to the cluster's `postgres` database (issue 35: a
-- cabinet once made temporary tables there).
DO $$ BEGIN
    EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
    EXECUTE format('REVOKE ALL ON DATABASE %I FROM egm_cabinet, egm_operator, egm_service', current_database());
    IF current_database() <> 'postgres' AND EXISTS (SELECT 1 FROM pg_database WHERE datname = 'postgres') THEN
        REVOKE CONNECT, TEMPORARY ON DATABASE postgres FROM PUBLIC;
    END IF;
END $$;
GRANT EXECUTE ON FUNCTION egm.contribute(TEXT, TEXT, BIGINT[], TEXT[]), egm.award(TEXT, TEXT, BIGINT, INT, TEXT, TEXT), egm.approval(TEXT),
    egm.return_round(TEXT, TEXT, BIGINT) TO egm_service;
GRANT EXECUTE ON FUNCTION egm.levels(TEXT), egm.last_awards(TEXT, BIGINT) TO egm_service, egm_operator;
GRANT EXECUTE ON FUNCTION egm.check_assigned(TEXT) TO egm_service;
GRANT EXECUTE ON FUNCTION egm.caller(), egm.contribute_group(TEXT[], TEXT[], TEXT[], INT[], BIGINT[], TEXT[]),
    egm.commit(TEXT, TEXT, BIGINT, TEXT, TEXT, BIGINT, TEXT, TEXT, BIGINT), egm.commitment(TEXT, TEXT, BIGINT),
    egm.refuse_claim(TEXT, TEXT, BIGINT, TEXT), egm.report_meter(TEXT, TEXT, BIGINT, BIGINT, BIGINT) TO egm_service;
GRANT EXECUTE ON FUNCTION egm.configure_pool(TEXT, BIGINT), egm.transfer(TEXT, INT, TEXT, INT, TEXT), egm.books(TEXT),
    egm.by_machine(TEXT), egm.refusals(BIGINT), egm.operator_log(BIGINT), egm.approve_games(TEXT, TEXT, TEXT, BIGINT),
    egm.pending_awards(TEXT), egm.decide_award(TEXT, TEXT, BIGINT, TEXT, INT, BOOLEAN, TEXT), egm.assign(TEXT, TEXT, BOOLEAN), egm.allow_plain_claims(TEXT, BOOLEAN),
    egm.set_denominations(TEXT, BIGINT[]), egm.reconciliation(TEXT), egm.pool_config(TEXT), egm.record_approval(TEXT, TEXT, BIGINT[]),
    egm.approval_figures(TEXT), egm.floor_meter(TEXT, TIMESTAMPTZ, BIGINT, BOOLEAN), egm.floor_reconciliation() TO egm_operator;
