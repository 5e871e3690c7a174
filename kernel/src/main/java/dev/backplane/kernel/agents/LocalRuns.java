package dev.backplane.kernel.agents;

import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * The runs executing on this kernel and the hand-off gate of a graceful shutdown: which thread runs which
 * run, which of them wait for a model answer (the only calls a hand-off cuts off), and whether this kernel is
 * handing its runs off. No database: the rows are the store's.
 */
final class LocalRuns {

    /** A blocking model call. */
    @FunctionalInterface
    interface ModelCall<T> {
        T get() throws InterruptedException, ExecutionException;
    }

    private static final System.Logger LOG = System.getLogger(AgentRuns.class.getName());

    private final Map<UUID, Thread> local = new ConcurrentHashMap<>();
    /** Runs of this kernel waiting for a model answer: a hand-off may cut those calls off (guarded by itself). */
    private final Set<UUID> inModelCall = new HashSet<>();
    private volatile boolean handingOff;

    /** Run {@code handle} executes on the current thread from now on. */
    void started(UUID handle) {
        local.put(handle, Thread.currentThread());
    }

    /** Run {@code handle} no longer executes here. */
    void ended(UUID handle) {
        local.remove(handle);
    }

    /** Interrupts run {@code handle} if it executes here (run-cancel stops a model call in flight). */
    void interrupt(UUID handle) {
        Optional.ofNullable(local.get(handle)).ifPresent(Thread::interrupt);
    }

    /** Starts handing off: no more runs launch here, and each model call in flight is cut off. */
    void handOff() {
        handingOff = true;
        synchronized (inModelCall) {
            inModelCall.forEach(this::interrupt);
        }
    }

    boolean handingOff() {
        return handingOff;
    }

    /** Waits until no run executes here any more, or {@code deadline}; true when none does. */
    boolean awaitEmpty(Instant deadline) throws InterruptedException {
        while (!local.isEmpty()) {
            if (Instant.now().isAfter(deadline)) {
                LOG.log(Level.WARNING, local.size() + " agent run(s) still in a tool call at shutdown; their leases "
                        + "lapse and the reaper fails them (a governed write is never repeated)");
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    /** A model call of run {@code handle}, which a hand-off may interrupt (and only while it is one). */
    <T> T duringModelCall(UUID handle, ModelCall<T> call) throws InterruptedException, ExecutionException {
        synchronized (inModelCall) {
            if (handingOff) {
                throw new InterruptedException("handing off");
            }
            inModelCall.add(handle);
        }
        try {
            return call.get();
        } finally {
            synchronized (inModelCall) {
                inModelCall.remove(handle);
                if (handingOff) {
                    Thread.interrupted(); // a hand-off's interrupt that came as the answer did is not a cancel
                }
            }
        }
    }
}
