package dev.backplane.plugins.openapi;

import static dev.backplane.plugins.openapi.Specs.call;
import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.ResultKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A path param that is (or holds) a dot segment is refused before any request is sent: behind a proxy or
 * vendor that normalises dot segments, {@code DELETE /projects/p1/repositories/..} would delete project p1,
 * another resource than the op_id that review, grants and approval covered.
 */
class DotSegmentParamsTest {

    static final String SCHEMA = """
            {"type":"object","required":["project","repository"],"properties":{
              "project":{"type":"string","x-svc-in":"path"},
              "repository":{"type":"string","x-svc-in":"path","x-svc-name":"repository_name"}}}""";

    private final FakeVendor vendor = FakeVendor.start();
    private final TestContext ctx = new TestContext();

    @AfterEach
    void stop() {
        vendor.close();
    }

    private ConnectorFactory factory() {
        return new OpenApiEngine().connector(Specs.connector("/api/v2.0", Specs.auth("static_header", Map.of()),
                Specs.op("harbor.repository.delete_repository", "DELETE",
                        "/projects/{project}/repositories/{repository_name}", ResultKind.OBJECT, SCHEMA)));
    }

    private OperationResult delete(String project, String repository) {
        try (Connector c = factory().open(ctx, vendor.target(), new Credential(Map.of("token", "tok-1")))) {
            return c.invoke(call("harbor.repository.delete_repository", Map.of("project", project,
                    "repository", repository)));
        }
    }

    @Test
    void dotSegmentsAndTheirEncodingsAreRefusedWithNoRequestSent() {
        for (String bad : List.of("..", ".", "%2e%2e", "%2E%2E", ".%2E", "%2e.", "%2e", "%252e%252e", "a/../b",
                "../p2", "x%2f..%2fy", "..\\p2", "a/.")) {
            for (boolean inProject : List.of(false, true)) {
                OperationResult r = inProject ? delete(bad, "r1") : delete("p1", bad);
                assertThat(r).as(bad).isInstanceOfSatisfying(OperationResult.Failure.class, f -> {
                    assertThat(f.code()).as(bad).isEqualTo(ErrorCode.INVALID_PARAMS);
                    assertThat(f.message()).as(bad).contains("must not be '.' or '..'")
                            .contains(inProject ? "'project'" : "'repository_name'");
                });
            }
        }
        assertThat(vendor.seen()).as("no request reached the vendor").isEmpty();
    }

    @Test
    void dotsInsideANameStillGoThroughEncodedAsOneSegment() {
        vendor.on("DELETE", "/api/v2.0/projects/p1/repositories/v1.2...rc", s -> FakeVendor.Reply.json(200, "{}"));
        vendor.on("DELETE", "/api/v2.0/projects/p1/repositories/library%2F.hidden", s -> FakeVendor.Reply.json(200, "{}"));
        vendor.on("DELETE", "/api/v2.0/projects/p1/repositories/...", s -> FakeVendor.Reply.json(200, "{}"));
        for (String ok : List.of("v1.2...rc", "library/.hidden", "...")) {
            assertThat(delete("p1", ok)).as(ok).isNotInstanceOf(OperationResult.Failure.class);
        }
        assertThat(vendor.seen()).hasSize(3);
    }
}
