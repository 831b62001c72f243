-- A member is the auth API's student (its immutable studentId), not the login id as typed: under the default
-- case-, accent- and space-insensitive collation, an auth API that treats 'User1' or 'user1 ' as another account
-- would have been handed user1's member row and wallet. Both columns now compare byte for byte (NO PAD: a
-- trailing space counts), and only student_id is unique, so a login id that the auth API gives to another student
-- never reaches the first one's row. Rows without a student_id (created by SQL, as the seeder and tests do) are
-- reached by no login until one with their studentId arrives.
ALTER TABLE member
    MODIFY login_id   VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    MODIFY student_id VARCHAR(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NULL,
    DROP INDEX uk_member_login_id,
    ADD KEY idx_member_login_id (login_id),
    ADD CONSTRAINT uk_member_student_id UNIQUE (student_id);
