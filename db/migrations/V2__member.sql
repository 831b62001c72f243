-- login: members are created or updated from the external auth API on each successful login.
CREATE TABLE member (
    id         BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    login_id   VARCHAR(64)  NOT NULL,
    name       VARCHAR(100) NOT NULL,
    student_id VARCHAR(32)  NULL,
    major      VARCHAR(100) NULL,
    created_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    updated_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
    CONSTRAINT uk_member_login_id UNIQUE (login_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
