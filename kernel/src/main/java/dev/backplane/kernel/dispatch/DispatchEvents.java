package dev.backplane.kernel.dispatch;

import dev.backplane.kernel.broadcast.Activity;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The last step of the pipeline (ARCHITECTURE §5): every finished dispatch — whatever its outcome —
 * is announced to the subscribers (the activity feed subscribes here). Subscribers run after the
 * audit row is written and can never change the outcome: an exception in one is logged and ignored.
 * Events carry no params and no result, only what the feed may show.
 */
public final class DispatchEvents {

    private static final System.Logger LOG = System.getLogger(DispatchEvents.class.getName());

    /**
     * One finished dispatch.
     *
     * @param auditId the audit row, when the dispatch reached the target (denials and parks have rows
     *                but the envelope does not name them)
     * @param namespace the call's {@code namespace} parameter, when it has a short text one
     * @param sessionId the caller's session (an agent run's handle for the run's calls)
     */
    public record Event(Instant at, UUID tenantId, String principal, String principalKind, String connectorId,
                        String opId, Optional<String> opClass, String target, Optional<String> namespace, String status,
                        Optional<String> errorCode, Optional<String> workRef, long durationMs, Optional<String> auditId,
                        Optional<String> sessionId) {

        /** The call as the activity feed shows it (a run's calls carry the run as their session). */
        public Activity activity() {
            return Activity.dispatch(tenantId, at, principal, principalKind, connectorId, opId, opClass, target,
                    namespace, status, errorCode, durationMs, workRef, sessionId);
        }
    }

    private final List<Consumer<Event>> subscribers = new CopyOnWriteArrayList<>();

    public void subscribe(Consumer<Event> subscriber) {
        subscribers.add(subscriber);
    }

    void publish(Event event) {
        for (Consumer<Event> s : subscribers) {
            try {
                s.accept(event);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "a dispatch event subscriber failed (the dispatch is unaffected): " + e);
            }
        }
    }
}
