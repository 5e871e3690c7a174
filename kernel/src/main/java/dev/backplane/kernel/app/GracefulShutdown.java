package dev.backplane.kernel.app;

import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How a kernel leaves a set of replicas without failing anyone (SIGTERM): readiness turns 503 at once
 * and agent runs start handing off to other replicas, SSE streams end with a last event that says to
 * reconnect; the kernel goes on serving for {@link Setting#SERVER_SHUTDOWN_DELAY} so the load balancer's
 * next probe takes it out of rotation; then requests, asynchronous calls and agent-run tool calls in
 * flight get up to {@link Setting#SERVER_SHUTDOWN_DRAIN} to finish; then the listener and the rest stop.
 * Also the request filter that counts what is in flight.
 */
final class GracefulShutdown implements Filter {

    private static final System.Logger LOG = System.getLogger(GracefulShutdown.class.getName());

    /** What the drain waits for besides requests: asynchronous calls and agent runs on this kernel. */
    interface Work {
        /** Stops taking new background work and starts handing off what can move (agent runs, streams). */
        void beginHandOff();

        /** Waits for what is in flight to finish or move, until {@code deadline}; true when nothing is left. */
        boolean awaitSettled(Instant deadline) throws InterruptedException;
    }

    private final Duration delay;
    private final Duration drain;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean draining;

    GracefulShutdown(Duration delay, Duration drain) {
        this.delay = delay;
        this.drain = drain;
    }

    static GracefulShutdown of(KernelConfig config) {
        return new GracefulShutdown(Duration.ofSeconds(config.intValue(Setting.SERVER_SHUTDOWN_DELAY)),
                Duration.ofSeconds(config.intValue(Setting.SERVER_SHUTDOWN_DRAIN)));
    }

    /** Whether this kernel is shutting down: readiness answers 503. */
    boolean draining() {
        return draining;
    }

    /** Requests being answered now (SSE streams included). */
    int inFlight() {
        return inFlight.get();
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        inFlight.incrementAndGet();
        try {
            chain.proceed();
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /**
     * Runs the sequence up to the point where the listener may stop: returns once requests and {@code work}
     * have settled or the drain time is over. Safe to call once; the caller then stops the server.
     */
    void drain(Work work) {
        long t0 = System.nanoTime();
        draining = true;
        LOG.log(Level.INFO, "shutting down: /health/ready answers 503; serving on for " + delay.toSeconds()
                + " s while the load balancer takes this replica out, then up to " + drain.toSeconds()
                + " s for work in flight");
        work.beginHandOff();
        try {
            Thread.sleep(delay.toMillis());
            Instant deadline = Instant.now().plus(drain);
            while (inFlight.get() > 0 && Instant.now().isBefore(deadline)) {
                Thread.sleep(25);
            }
            int requestsLeft = inFlight.get();
            boolean settled = work.awaitSettled(deadline);
            LOG.log(Level.INFO, "drained in " + Duration.ofNanos(System.nanoTime() - t0).toMillis() + " ms: "
                    + (requestsLeft == 0 ? "no request" : requestsLeft + " request(s)") + " and "
                    + (settled ? "no background work" : "some background work") + " left in flight");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
