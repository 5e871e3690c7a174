package dev.backplane.kernel.topology;

import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.targets.Target;
import java.util.List;

/**
 * How one connector family's targets are read for auto edges. Implementations call the connector's read
 * operations through the dispatch pipeline as the given principal, never a plugin directly.
 */
interface Discovery {

    /** The target product this discovery reads. */
    String product();

    /** The edges the target shows now; throws {@code refresh_failed} when a read did not succeed. */
    List<Seen> observe(Caller system, Target target);
}
