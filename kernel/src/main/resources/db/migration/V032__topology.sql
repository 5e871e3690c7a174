-- topology: nodes (kind + name per tenant) and the versions of every edge between them. An edge's
-- current state is its row with valid_to NULL; each change closes that row and opens the next, so any
-- past instant is answered by "valid_from <= t AND (valid_to IS NULL OR valid_to > t)". A removal is a
-- row of its own with valid_from = valid_to (valid at no instant): the timeline shows it, diffs skip it.
CREATE TABLE topology_nodes (
    id          uuid PRIMARY KEY,
    tenant_id   uuid NOT NULL,
    kind        text NOT NULL,
    name        text NOT NULL,
    created_by  text NOT NULL,
    created_at  timestamptz NOT NULL,
    UNIQUE (tenant_id, kind, name)
);
CREATE INDEX topology_nodes_name ON topology_nodes (tenant_id, name);

CREATE TABLE topology_edges (
    version_id    bigserial PRIMARY KEY,
    edge_id       uuid NOT NULL,
    tenant_id     uuid NOT NULL,
    from_node     uuid NOT NULL REFERENCES topology_nodes (id),
    kind          text NOT NULL,
    to_node       uuid NOT NULL REFERENCES topology_nodes (id),
    source        text NOT NULL CHECK (source IN ('curated', 'auto')),
    origin        text NOT NULL,            -- curated: ''; auto: the id of the target whose refresh saw it
    note          text CHECK (char_length(note) <= 2000),
    evidence_url  text CHECK (char_length(evidence_url) <= 2000),
    conflict      boolean NOT NULL DEFAULT false,
    stale         boolean NOT NULL DEFAULT false,
    change        text NOT NULL,            -- created, updated, conflict, conflict-cleared, stale, seen-again, removed
    changed_by    text NOT NULL,
    valid_from    timestamptz NOT NULL,
    valid_to      timestamptz,
    CHECK (valid_to IS NULL OR valid_to >= valid_from)
);
CREATE UNIQUE INDEX topology_edges_current ON topology_edges (tenant_id, from_node, kind, to_node, source, origin)
    WHERE valid_to IS NULL;
CREATE INDEX topology_edges_by_edge ON topology_edges (tenant_id, edge_id, version_id);
CREATE INDEX topology_edges_from ON topology_edges (tenant_id, from_node, kind) WHERE valid_to IS NULL;
CREATE INDEX topology_edges_time ON topology_edges (tenant_id, valid_from, valid_to);
CREATE INDEX topology_edges_to ON topology_edges (tenant_id, to_node);
CREATE INDEX topology_edges_from_all ON topology_edges (tenant_id, from_node);

-- when each discoverable target was last refreshed (the scheduled refresh picks the oldest due ones)
CREATE TABLE topology_refreshes (
    tenant_id     uuid NOT NULL,
    target_id     uuid NOT NULL,
    refreshed_at  timestamptz NOT NULL,
    outcome       text NOT NULL,
    PRIMARY KEY (tenant_id, target_id)
);
