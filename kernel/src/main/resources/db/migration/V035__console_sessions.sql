-- console: server-side sessions of the web console (/ui) in PostgreSQL, so any replica serves any session.
-- The cookie holds a random value; the table holds only its SHA-256, so a reader of this table cannot sign in.
-- The caller is stored as the login verified it (same claims, same rules as a REST bearer token); no token is kept.
CREATE TABLE console_sessions (
    id_hash        text PRIMARY KEY,
    sub            text NOT NULL,
    username       text,
    home_tenant_id uuid,
    tenant_id      uuid NOT NULL,
    tenant_role    text NOT NULL,
    platform_admin boolean NOT NULL,
    client_id      text,
    csrf_token     text NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    expires_at     timestamptz NOT NULL
);
CREATE INDEX console_sessions_expires ON console_sessions (expires_at);

-- a sign-in in flight: the OAuth state (hashed), its PKCE verifier and nonce, and the page to return to
CREATE TABLE console_logins (
    state_hash    text PRIMARY KEY,
    code_verifier text NOT NULL,
    nonce         text NOT NULL,
    return_to     text NOT NULL,
    expires_at    timestamptz NOT NULL
);
