package dev.backplane.kernel.agents;

import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.util.JsonMapping;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The server-sent-event stream of one run ({@code svc agent run-events <name> --input}): each run event as
 * {@code event: <kind>} with its payload as JSON data, a comment line as a heartbeat while nothing
 * happens, and a last {@code run_finished} event with the run. Read from the run's stored events, so
 * it shows exactly what {@code run-status} and the audit show. A client that goes away stops the
 * stream, not the run; so does a kernel that shuts down (a last {@code stream_closed} event says so).
 */
final class RunEventStream {

    static final Duration POLL = Duration.ofMillis(150);
    static final Duration HEARTBEAT = Duration.ofSeconds(15);

    private RunEventStream() {
    }

    static void stream(AgentRuns runs, Caller caller, UUID handle, OutputStream out) throws IOException,
            InterruptedException {
        int seen = 0;
        long quietSince = System.nanoTime();
        while (true) {
            AgentRun run = runs.show(caller.tenantId(), handle);
            for (AgentRuns.Event e : runs.events(caller.tenantId(), handle)) {
                if (e.seq() > seen) {
                    Map<String, Object> data = new LinkedHashMap<>();
                    data.put("kind", e.kind());
                    data.put("seq", e.seq());
                    data.put("occurred_at", e.occurredAt().toString());
                    data.put("payload", e.payload());
                    write(out, "id: " + e.seq() + "\nevent: " + e.kind() + "\ndata: " + JsonMapping.write(data) + "\n\n");
                    seen = e.seq();
                    quietSince = System.nanoTime();
                }
            }
            if (run.finished()) {
                write(out, "event: run_finished\ndata: " + JsonMapping.write(Map.of("kind", "run_finished", "run", run))
                        + "\n\n");
                return;
            }
            if (runs.handingOff()) {
                // this kernel is shutting down: the run goes on elsewhere, the stream ends cleanly here
                write(out, "event: stream_closed\ndata: " + JsonMapping.write(Map.of("kind", "stream_closed",
                        "reason", "the kernel serving this stream is shutting down; the run goes on: follow it with "
                                + "svc agent run-status " + handle + " (GET /api/v1/agent-runs/" + handle + "/events)",
                        "last_seq", seen)) + "\n\n");
                return;
            }
            if (System.nanoTime() - quietSince > HEARTBEAT.toNanos()) {
                write(out, ": still running\n\n");
                quietSince = System.nanoTime();
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
