package dev.backplane.kernel.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.dispatch.ResultEnvelope;
import dev.backplane.kernel.tools.ToolProgress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What one tool call tells its client while it runs. With a {@code progressToken} in the request's
 * {@code _meta}: {@code notifications/progress} at the start, at each pipeline step of a dispatch, and
 * every {@link #TICK} while nothing else was said (a slow target) — progress counts the notifications, so
 * it always increases, and there is no total (a call's length is unknown). With a log level (the
 * session's, or the stateless revision's {@code _meta} one): {@code notifications/message} for the call's
 * own events at or above it. Messages name steps, operations, codes and ids only — never params, results
 * or credentials. Nothing is sent to a client that does not accept a stream.
 */
final class McpNotifier implements ToolProgress {

    static final Duration TICK = Duration.ofSeconds(1);
    static final String DISPATCH = "svc.dispatch";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final McpStream stream;
    private final Optional<JsonNode> progressToken;
    private final Optional<McpLogLevel> floor;
    private final long started = System.nanoTime();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition closed = lock.newCondition();
    private long progress;
    private long lastSent = started;
    private String doing = "";
    private boolean done;

    McpNotifier(McpStream stream, Optional<JsonNode> progressToken, Optional<McpLogLevel> floor) {
        this.stream = stream;
        this.progressToken = progressToken.filter(t -> stream.streamable());
        this.floor = floor.filter(f -> stream.streamable());
    }

    /** Reports the start of {@code what} and, for a client that asked for progress, starts the ticks. */
    void start(String what) {
        step(what);
        if (progressToken.isPresent()) {
            Thread.ofVirtual().name("mcp-progress").start(this::tick);
        }
    }

    @Override
    public void reached(String step) {
        step(step);
        log(McpLogLevel.DEBUG, DISPATCH, step);
    }

    /** A log message at {@code level}, sent when the client's level lets it through. */
    void log(McpLogLevel level, String logger, String data) {
        if (floor.isEmpty() || !level.atLeast(floor.get())) {
            return;
        }
        ObjectNode params = NODES.objectNode();
        params.put("level", level.wireName());
        params.put("logger", logger);
        params.put("data", data); // a string: the official Java SDK client reads data as one
        send("notifications/message", params);
    }

    /**
     * Logs how a dispatch ended: denied (warning, with the deny code), parked for approval (notice, with
     * the approval request id), failed (error, with the error code), a reduced result (info: how many rows
     * came inline of how many) or done (debug).
     */
    void outcome(ResultEnvelope env) {
        Object code = env.extras().get("error_code");
        String op = env.opId() + ": ";
        switch (env.status()) {
            case ResultEnvelope.DENIED -> log(McpLogLevel.WARNING, DISPATCH, op + "denied by policy, " + code);
            case ResultEnvelope.AWAITING_APPROVAL -> log(McpLogLevel.NOTICE, DISPATCH, op + "parked for approval, "
                    + "approval_request_id " + env.extras().get("approval_request_id") + " (a human decides; do not retry)");
            case ResultEnvelope.ERROR -> log(McpLogLevel.ERROR, DISPATCH, op + "failed, " + code);
            default -> {
                if (Boolean.TRUE.equals(env.extras().get("reduced"))) {
                    log(McpLogLevel.INFO, DISPATCH, op + "result reduced to " + env.extras().get("sample_rows") + " of "
                            + env.extras().get("total_rows") + " rows; result_query pages the rest");
                } else {
                    log(McpLogLevel.DEBUG, DISPATCH, op + env.status() + " in " + env.durationMs() + " ms");
                }
            }
        }
    }

    /** Ends the notifications: the response comes next. */
    void close() {
        lock.lock();
        try {
            done = true;
            closed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void step(String what) {
        lock.lock();
        try {
            doing = what;
            progress(what);
        } finally {
            lock.unlock();
        }
    }

    /** Every {@link #TICK} without another notification, says the call is still running and for how long. */
    private void tick() {
        lock.lock();
        try {
            while (!done) {
                long quiet = TICK.toNanos() - (System.nanoTime() - lastSent);
                if (quiet > 0) {
                    closed.awaitNanos(quiet);
                    continue;
                }
                progress(doing + "; still running after " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)
                        + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    private void progress(String message) {
        if (progressToken.isEmpty() || done) {
            return;
        }
        ObjectNode params = NODES.objectNode();
        params.set("progressToken", progressToken.get());
        params.put("progress", ++progress);
        params.put("message", message);
        send("notifications/progress", params);
    }

    private void send(String method, ObjectNode params) {
        lock.lock();
        try {
            if (done) {
                return;
            }
            lastSent = System.nanoTime();
            ObjectNode n = NODES.objectNode();
            n.put("jsonrpc", "2.0");
            n.put("method", method);
            n.set("params", params);
            stream.notify(n);
        } finally {
            lock.unlock();
        }
    }
}
