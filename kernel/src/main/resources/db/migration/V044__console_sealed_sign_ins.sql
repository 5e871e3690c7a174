-- console (review-3 S13, S14).
-- A sign-in in flight (OAuth state, PKCE verifier, nonce, return path) now travels in a cookie sealed with the key
-- below (AES-256-GCM), so an anonymous GET /ui/login writes nothing here and cannot fill a shared cap.
DROP TABLE console_logins;

-- the console's sealing key: one random 256-bit key per backplane, made by the first replica that needs it
CREATE TABLE console_keys (
    id         smallint PRIMARY KEY CHECK (id = 1),
    key        bytea NOT NULL CHECK (length(key) = 32),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- a session re-validates with the identity provider every console.revalidate-seconds: its refresh token (sealed
-- with the key above for this session only) is redeemed and the caller rebuilt from the fresh access token.
-- Sessions opened before this migration have no refresh token: they end at their first re-validation.
ALTER TABLE console_sessions
    ADD COLUMN refresh_token text,
    ADD COLUMN validated_at  timestamptz NOT NULL DEFAULT now();
