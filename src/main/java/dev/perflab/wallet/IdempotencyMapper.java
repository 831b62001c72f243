package dev.perflab.wallet;

import org.apache.ibatis.annotations.Mapper;

/** {@code idempotency_key}: primary key (member_id, idem_key). SQL in IdempotencyMapper.xml. */
@Mapper
public interface IdempotencyMapper {

    /** Fails with a duplicate key when this member already used this key (or another transaction is using it). */
    int insert(long memberId, String key, String requestHash, int status, String body);

    StoredResponse find(long memberId, String key);

    record StoredResponse(String requestHash, int status, String body) {
    }
}
