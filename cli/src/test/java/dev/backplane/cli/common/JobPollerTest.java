package dev.backplane.cli.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The one wait loop of background jobs: polls until terminal, a progress line per change, the last one always. */
class JobPollerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JobPoller POLLER = new JobPoller("/jobs/{job_id}", Duration.ZERO,
            job -> job.path("status").asText() + " " + job.path("done").asInt(), id -> "stopped waiting for " + id);

    private static JsonNode job(String status, int done) {
        return JSON.createObjectNode().put("status", status).put("done", done)
                .put("terminal", status.equals("succeeded") || status.equals("failed"));
    }

    private static Supplier<JsonNode> polls(List<JsonNode> views, List<String> polled) {
        Deque<JsonNode> queue = new ArrayDeque<>(views);
        return () -> {
            polled.add("poll");
            return queue.removeFirst();
        };
    }

    @Test
    void pollsUntilTerminalPrintingEachChangedLine() {
        StringWriter err = new StringWriter();
        List<String> polled = new java.util.ArrayList<>();
        JsonNode last = POLLER.await(polls(List.of(job("queued", 0), job("running", 1), job("running", 1),
                job("running", 2), job("succeeded", 2)), polled), new PrintWriter(err, true), "j1", null);
        assertThat(last.path("status").asText()).isEqualTo("succeeded");
        assertThat(polled).as("no view given: the first one is polled").hasSize(5);
        assertThat(err.toString().lines()).containsExactly("queued 0", "running 1", "running 2", "succeeded 2");
    }

    @Test
    void startsFromAGivenViewAndAlwaysPrintsTheTerminalLine() {
        JobPoller countsOnly = new JobPoller("/jobs/{job_id}", Duration.ZERO, job -> "done " + job.path("done").asInt(),
                id -> id);
        StringWriter err = new StringWriter();
        List<String> polled = new java.util.ArrayList<>();
        JsonNode last = countsOnly.await(polls(List.of(job("running", 3), job("succeeded", 3)), polled),
                new PrintWriter(err, true), "j2", job("running", 1));
        assertThat(last.path("terminal").asBoolean()).isTrue();
        assertThat(polled).as("the given view is not fetched again").hasSize(2);
        assertThat(err.toString().lines()).containsExactly("done 1", "done 3", "done 3");
    }

    @Test
    void aJobAlreadyOverIsNotPolledAgain() {
        StringWriter err = new StringWriter();
        List<String> polled = new java.util.ArrayList<>();
        JsonNode last = POLLER.await(polls(List.of(), polled), new PrintWriter(err, true), "j3", job("failed", 0));
        assertThat(last.path("status").asText()).isEqualTo("failed");
        assertThat(polled).isEmpty();
        assertThat(err.toString().lines()).containsExactly("failed 0");
    }

    @Test
    void anInterruptedWaitSaysTheJobGoesOn() {
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> POLLER.await(polls(List.of(), new java.util.ArrayList<>()),
                    new PrintWriter(new StringWriter(), true), "j4", job("running", 0)))
                    .isInstanceOf(CliException.class).hasMessage("stopped waiting for j4");
        } finally {
            Thread.interrupted();
        }
    }
}
