-- perflab baseline. Each feature adds its own versioned migration beside this one.
-- Written for MariaDB 10.11+ and MySQL 8: InnoDB, utf8mb4, no vendor-only syntax.
CREATE TABLE perflab_meta (
    name  VARCHAR(64)  NOT NULL PRIMARY KEY,
    value VARCHAR(255) NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

INSERT INTO perflab_meta (name, value) VALUES ('schema', 'perflab');
