-- tenancy: the display name (preferred_username) of each token subject the backplane has seen, so approval
-- lists and audit answers can show a person's username beside the raw sub. Written when a token is first
-- seen and when its username changes; never a source of authority (the token is).
CREATE TABLE tenancy_principal_names (
    sub           text        PRIMARY KEY,
    username      text        NOT NULL,
    first_seen_at timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
