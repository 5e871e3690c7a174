package dev.backplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.LoopbackBackplane.Result;
import dev.backplane.cli.common.ApiLevels;
import dev.backplane.cli.common.BuildInfo;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.Http;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 46, version negotiation, the CLI's side against a backplane on loopback that answers with a skewed level:
 * every request says which API level the CLI speaks; another minor is a note on stderr once a day (per backplane and
 * pair of levels), another major an error with the fix; {@code svc version} shows both sides.
 */
class ApiLevelsTest {

    private static final String TARGETS = "{\"targets\": [], \"next_cursor\": null}";

    @RegisterExtension
    final LoopbackBackplane backplane = new LoopbackBackplane().answer("/api/v1/targets", TARGETS);

    private static String level(int majorDelta, int minorDelta) {
        String[] ours = BuildInfo.apiLevel().split("\\.");
        return (Integer.parseInt(ours[0]) + majorDelta) + "." + (Integer.parseInt(ours[1]) + minorDelta);
    }

    @Test
    void everyRequestSaysTheCliLevelAndTheSameLevelIsQuiet() {
        assertThat(BuildInfo.apiLevel()).as("stamped by the build").matches("\\d+\\.\\d+");
        backplane.header("Svc-Api-Level", BuildInfo.apiLevel()).header("Svc-Version", "9.9.9");
        Result r = backplane.svc("targets", "list");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.err()).isEmpty();
        assertThat(backplane.levels).containsOnly(BuildInfo.apiLevel());
    }

    @Test
    void anotherMinorIsANoteOnceADay() {
        backplane.header("Svc-Api-Level", level(0, 1)).header("Svc-Version", "9.9.9");
        Result first = backplane.svc("targets", "list");
        assertThat(first.code()).as(first.err()).isEqualTo(ExitCodes.OK);
        assertThat(first.err()).contains("svc: note: the backplane at " + backplane.url() + " (version 9.9.9) speaks "
                + "API level " + level(0, 1)).contains("install the svc CLI of version 9.9.9")
                .contains("(shown once a day)");
        assertThat(first.err().lines().count()).isEqualTo(1);
        Result second = backplane.svc("targets", "list");
        assertThat(second.code()).isEqualTo(ExitCodes.OK);
        assertThat(second.err()).as("once a day").isEmpty();
        assertThat(second.out()).isEqualTo(first.out());
    }

    @Test
    void anotherMajorIsRefusedWithTheFix() {
        backplane.header("Svc-Api-Level", level(1, 0)).header("Svc-Version", "9.0.0");
        Result r = backplane.svc("targets", "list");
        assertThat(r.code()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).contains("cannot work with the backplane at " + backplane.url())
                .contains("API level " + level(1, 0)).contains("install the svc CLI of version 9.0.0");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void versionShowsBothSides() throws Exception {
        backplane.header("Svc-Api-Level", BuildInfo.apiLevel()).answer("/api/v1/info", """
                {"name": "svc backplane", "version": "9.9.9", "api_level": "%s", "git_commit": "abc1234"}
                """.formatted(BuildInfo.apiLevel()));
        Result r = backplane.svc("version");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out().lines().toList()).hasSize(2);
        assertThat(r.out().lines().toList().get(1)).isEqualTo("backplane " + backplane.url() + ": svc backplane 9.9.9 "
                + "(API level " + BuildInfo.apiLevel() + ", commit abc1234)");
        JsonNode doc = Http.JSON.readTree(backplane.svc("version", "--json").out());
        assertThat(doc.path("api_level").asText()).isEqualTo(BuildInfo.apiLevel());
        assertThat(doc.path("backplane").path("version").asText()).isEqualTo("9.9.9");
        assertThat(doc.path("backplane").path("reachable").asBoolean()).isTrue();

        backplane.env().put("SVC_BACKPLANE", "http://127.0.0.1:9");
        Result down = backplane.svc("version");
        assertThat(down.code()).as("finding out is not an error").isEqualTo(ExitCodes.OK);
        assertThat(down.out()).contains("backplane http://127.0.0.1:9: cannot reach");
        backplane.env().remove("SVC_BACKPLANE");
        assertThat(backplane.svc("version").out()).contains("backplane: no backplane chosen");
    }

    @Test
    void theNoteIsRememberedPerDayAndPair(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        Clock day1 = Clock.fixed(Instant.parse("2026-11-29T10:00:00Z"), ZoneOffset.UTC);
        URI base = URI.create("http://bp.example");
        HttpHeaders skewed = HttpHeaders.of(Map.of("Svc-Api-Level", List.of(level(0, 1))), (a, b) -> true);
        new ApiLevels(BuildInfo.apiLevel(), new PrintWriter(err, true), dir.resolve("notes"), day1).observe(base, skewed);
        new ApiLevels(BuildInfo.apiLevel(), new PrintWriter(err, true), dir.resolve("notes"), day1).observe(base, skewed);
        assertThat(err.toString().lines().count()).isEqualTo(1);
        Clock day2 = Clock.fixed(Instant.parse("2026-11-30T10:00:00Z"), ZoneOffset.UTC);
        new ApiLevels(BuildInfo.apiLevel(), new PrintWriter(err, true), dir.resolve("notes"), day2).observe(base, skewed);
        assertThat(err.toString().lines().count()).as("again the next day").isEqualTo(2);
        assertThat(Files.exists(dir.resolve("notes"))).isTrue();
        // an older backplane: commands it lacks answer not found
        HttpHeaders older = HttpHeaders.of(Map.of("Svc-Api-Level", List.of(level(0, -1 * Integer.parseInt(
                BuildInfo.apiLevel().split("\\.")[1])))), (a, b) -> true);
        if (!level(0, -1 * Integer.parseInt(BuildInfo.apiLevel().split("\\.")[1])).equals(BuildInfo.apiLevel())) {
            new ApiLevels(BuildInfo.apiLevel(), new PrintWriter(err, true), dir.resolve("notes"), day2).observe(base,
                    older);
            assertThat(err.toString()).contains("update the backplane");
        }
    }
}
