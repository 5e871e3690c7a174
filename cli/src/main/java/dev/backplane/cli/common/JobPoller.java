package dev.backplane.cli.common;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Waits for a background job on the backplane ({@code svc connector ingest}, {@code ingest-status
 * --wait}, {@code svc kb ingest}): polls its status route until the job is terminal, printing its
 * progress line on standard error whenever the line changes, and the terminal one always.
 *
 * @param route the status route, with a {@code {job_id}} placeholder
 * @param every the pause between polls
 * @param line a job's progress line
 * @param goesOn what an interrupted wait tells, given the job id (the job itself goes on)
 */
public record JobPoller(String route, Duration every, Function<JsonNode, String> line,
                        Function<String, String> goesOn) {

    /**
     * Polls job {@code jobId} until it is terminal and returns its last view.
     *
     * @param first the job's view when the caller already holds a fresh one (it is not fetched again);
     *              null to start with a poll
     */
    public JsonNode await(BackplaneClient client, PrintWriter err, String jobId, JsonNode first) {
        return await(() -> client.get(ApiPaths.expand(route, jobId)).json(), err, jobId, first);
    }

    JsonNode await(Supplier<JsonNode> poll, PrintWriter err, String jobId, JsonNode first) {
        JsonNode job = first == null ? poll.get() : first;
        String last = "";
        while (true) {
            boolean terminal = job.path("terminal").asBoolean();
            String now = line.apply(job);
            if (terminal || !now.equals(last)) {
                err.println(now);
                last = now;
            }
            if (terminal) {
                return job;
            }
            Pause.sleep(every, goesOn.apply(jobId));
            job = poll.get();
        }
    }
}
