-- Live replies on several instances (lib/db/pg-live.ts): reply leases (the one-reply lock) and the chunks of a reply a
-- follower on another instance reads. Transient state only (a lease lives seconds, chunks only while a reply streams),
-- so UNLOGGED, and outside the Prisma schema (SQLite, one instance, needs neither).
CREATE UNLOGGED TABLE IF NOT EXISTS hintline_live_reply (
    conversation_id text PRIMARY KEY,
    reply_id text NOT NULL,
    instance_id text NOT NULL,
    lease_until timestamptz NOT NULL
);

CREATE UNLOGGED TABLE IF NOT EXISTS hintline_live_chunk (
    reply_id text NOT NULL,
    seq integer NOT NULL,
    data text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (reply_id, seq)
);
