package dev.backplane.kernel.audit.stream;

import dev.backplane.kernel.audit.integrity.AuditRecord;
import java.io.IOException;
import java.util.List;

/** A receiver the audit stream delivers to: a syslog server or an HTTP endpoint. */
interface AuditSink {

    /** The sink's name: its cursor's key and its metrics' {@code sink} tag. */
    String name();

    /** Where it delivers, for logs and errors: never a credential. */
    String describe();

    /**
     * Hands {@code rows} (in chain order) to the receiver and returns only once the receiver has them all, as far
     * as its protocol can tell; throws otherwise, and the same rows are offered again later.
     *
     * @param redeliveredUpTo a row at or below this position may have reached the receiver before: it is marked so
     */
    void deliver(List<AuditRecord> rows, long redeliveredUpTo) throws IOException, InterruptedException;
}
