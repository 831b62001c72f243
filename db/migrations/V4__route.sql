-- route (issue 5, seed 001): a university's walkable graph. Routes join two nodes; chains of degree-2 nodes
-- are compressed into core routes when served. route_version is bumped with every route change, in the same
-- transaction, so that a cached copy can be checked against it (stale batches are never served).
CREATE TABLE university (
    id            BIGINT       NOT NULL PRIMARY KEY,
    name          VARCHAR(100) NOT NULL,
    route_version BIGINT       NOT NULL DEFAULT 1
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE node (
    id      BIGINT NOT NULL PRIMARY KEY,
    univ_id BIGINT NOT NULL,
    lat     DOUBLE NOT NULL,
    lng     DOUBLE NOT NULL,
    KEY idx_node_univ (univ_id),
    CONSTRAINT fk_node_univ FOREIGN KEY (univ_id) REFERENCES university (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- caution_factors / danger_factors: short comma-separated lists of enum names (e.g. 'SLOPE,CURB'), '' for none
CREATE TABLE route (
    id              BIGINT      NOT NULL PRIMARY KEY,
    univ_id         BIGINT      NOT NULL,
    node1_id        BIGINT      NOT NULL,
    node2_id        BIGINT      NOT NULL,
    distance        DOUBLE      NOT NULL,
    caution_factors VARCHAR(64) NOT NULL DEFAULT '',
    danger_factors  VARCHAR(64) NOT NULL DEFAULT '',
    KEY idx_route_univ (univ_id, id),
    CONSTRAINT fk_route_univ FOREIGN KEY (univ_id) REFERENCES university (id),
    CONSTRAINT fk_route_node1 FOREIGN KEY (node1_id) REFERENCES node (id),
    CONSTRAINT fk_route_node2 FOREIGN KEY (node2_id) REFERENCES node (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
