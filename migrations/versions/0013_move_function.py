"""warroom_move(): a common-case move in one statement, one round trip (issue 10)

The server applies the move to its cached state (at seq N) and hands the result to this
function, which checks under the match's row lock that the cache was right (the match is
still active at seq N, the seat is still the caller's and no bot's, the idempotency key is
unused, the table is untimed, no resigned seat can be among the winners), then writes the
action, moves the match on, keeps a snapshot when one is due and notifies every worker.
Anything else answers a verdict other than 'ok' and writes nothing: the server then drops
its cached state and takes the ORM path, which gives the precise answer.

Revision ID: 0013
Revises: 0012
"""
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

MOVE = """
CREATE FUNCTION warroom_move(
    p_match text, p_seq integer, p_seat text, p_user bigint, p_key text,
    p_payload jsonb, p_events jsonb, p_hash text, p_engine text,
    p_status text, p_waiting jsonb, p_outcome jsonb, p_now timestamptz, p_snapshot jsonb,
    OUT verdict text, OUT bots jsonb, OUT passers jsonb)
LANGUAGE plpgsql AS $$
DECLARE
    m record;
BEGIN
    SELECT seq, status, mode INTO m FROM matches WHERE id = p_match FOR UPDATE;
    IF NOT FOUND THEN
        verdict := 'gone';
    ELSIF m.status <> 'active' THEN
        verdict := 'status';
    ELSIF m.seq <> p_seq - 1 THEN
        verdict := 'seq';
    ELSIF m.mode = 'async' THEN
        verdict := 'async';  -- its turn hook tells the seats now waiting: the ORM path's work
    ELSIF NOT EXISTS (SELECT 1 FROM match_seats WHERE match_id = p_match AND seat = p_seat
                      AND user_id = p_user AND bot IS NULL) THEN
        verdict := 'seat';
    ELSIF p_key IS NOT NULL AND EXISTS (SELECT 1 FROM actions WHERE match_id = p_match
                                        AND idempotency_key = p_key) THEN
        verdict := 'key';
    ELSIF EXISTS (SELECT 1 FROM match_paces WHERE match_id = p_match) THEN
        verdict := 'timed';  -- its clocks move with the turn: the ORM path's work
    ELSIF p_status = 'finished' AND EXISTS (SELECT 1 FROM match_seats WHERE match_id = p_match
                                            AND resigned) THEN
        verdict := 'resigned';  -- a resigned seat never wins: the ORM path drops it
    ELSE
        INSERT INTO actions (match_id, seq, seat, user_id, idempotency_key, payload, events,
                             state_hash, engine_version)
        VALUES (p_match, p_seq, p_seat, p_user, p_key, p_payload, p_events, p_hash, p_engine);
        UPDATE matches SET seq = p_seq, status = p_status, waiting_on = p_waiting,
                           outcome = coalesce(p_outcome, outcome),
                           finished_at = CASE WHEN p_status = 'finished' THEN p_now ELSE finished_at END,
                           updated_at = now()
        WHERE id = p_match;
        IF p_snapshot IS NOT NULL THEN
            INSERT INTO snapshots (match_id, seq, state, engine_version)
            VALUES (p_match, p_seq, p_snapshot, p_engine);
        END IF;
        PERFORM pg_notify('match_events', p_match || ':' || p_seq || ':move');
        verdict := 'ok';
    END IF;
    -- who the server may answer for next: the bots' seats, and the players' seats whose
    -- auto-pass setting may pass (with the setting), so the caller wakes the bot driver only
    -- when one of them is due
    SELECT coalesce(jsonb_object_agg(seat, bot) FILTER (WHERE bot IS NOT NULL), '{}'),
           coalesce(jsonb_object_agg(seat, jsonb_build_array(user_id, autopass, autopass_round))
                    FILTER (WHERE user_id IS NOT NULL AND bot IS NULL AND autopass <> 'ask'), '{}')
    INTO bots, passers FROM match_seats WHERE match_id = p_match;
END
$$;
"""


def upgrade() -> None:
    op.get_bind().exec_driver_sql(MOVE)  # as written: ':move' is no bind parameter


def downgrade() -> None:
    op.execute("DROP FUNCTION warroom_move(text, integer, text, bigint, text, jsonb, jsonb, text, text, text, "
               "jsonb, jsonb, timestamptz, jsonb)")
