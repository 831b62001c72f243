-- Failed logins are limited per login id and per client address (LoginGuard), counted here so that every instance
-- sees them. guard_key is an HMAC of "login-id:<id>" or "login-address:<address>" under the hash secret (no login
-- id or address is stored as typed); times are epoch milliseconds, 0 = none.
CREATE TABLE login_guard (
    guard_key        CHAR(64) NOT NULL PRIMARY KEY,
    failures         INT      NOT NULL,
    window_start_ms  BIGINT   NOT NULL,
    blocked_until_ms BIGINT   NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = ascii;
