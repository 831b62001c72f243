package dev.perflab.support.warmup;

import java.util.List;

/** A feature's contribution to the server warm-up; asked once, when the warm-up starts (the database is up). */
public interface WarmupRequests {

    List<WarmupRequest> warmupRequests();
}
