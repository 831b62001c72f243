package dev.perflab.sprout.request;

import dev.perflab.sprout.SproutKnobs;
import dev.perflab.sprout.request.after.RefactoredRequestReader;
import dev.perflab.sprout.request.before.MonolithicRequestReader;

/** The one place {@code perflab.sprout.reader} picks a reader. */
public final class RequestReaders {

    private RequestReaders() {
    }

    public static RequestReader of(SproutKnobs.Reader reader) {
        return switch (reader) {
            case MONOLITHIC -> new MonolithicRequestReader();
            case REFACTORED -> new RefactoredRequestReader();
        };
    }
}
