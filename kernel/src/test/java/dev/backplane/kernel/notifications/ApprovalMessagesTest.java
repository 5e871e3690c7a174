package dev.backplane.kernel.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.governance.Approvals.Approval;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What a notification says in each format: the request as approvers see it, never its params. */
class ApprovalMessagesTest {

    private static final String CANARY = "canary-" + UUID.randomUUID();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID TENANT = UUID.randomUUID();
    private static final String LINK = "https://svc.example.com/ui/approvals/x";

    private static Approval approval(String status, Optional<String> decidedBy, String target) {
        Map<String, Object> resolved = new LinkedHashMap<>();
        resolved.put("safety_level", "dangerous");
        resolved.put("params", Map.of("name", "victim", "password", CANARY));
        return new Approval(UUID.randomUUID(), status, "sub-alice", "pg-1.x", "pg.table.drop", target,
                Optional.of("CHG-7"), resolved, Instant.parse("2026-11-30T06:00:00Z"),
                Instant.parse("2026-11-30T07:00:00Z"), decidedBy, decidedBy.map(d -> Instant.parse("2026-11-30T06:10:00Z")),
                decidedBy.map(d -> "looks fine"), false, Optional.empty(), Optional.of("alice"),
                decidedBy.map(d -> "bob"));
    }

    private static JsonNode body(String format, Map<String, Object> m) throws Exception {
        byte[] bytes = ApprovalMessages.webhookBody(format, m, LINK, Instant.parse("2026-11-30T06:00:01Z"));
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertThat(text).as(format).doesNotContain(CANARY).doesNotContain("victim");
        return JSON.readTree(text);
    }

    @Test
    void theSnapshotKeepsWhoWhatWhereAndWhenButNoParams() {
        Map<String, Object> m = ApprovalMessages.snapshot(TENANT, approval("pending", Optional.empty(), "prod-db"),
                "parked");
        assertThat(m).doesNotContainKey("params").doesNotContainKey("resolved");
        assertThat(m.toString()).doesNotContain(CANARY).doesNotContain("victim");
        assertThat(m).containsEntry("safety_level", "dangerous").containsEntry("work_ref", "CHG-7")
                .containsEntry("requester_username", "alice").containsEntry("tenant_id", TENANT.toString())
                .containsEntry("expires_at", "2026-11-30T07:00:00Z").containsEntry("status", "pending");
    }

    @Test
    void eachFormatCarriesTheHeadlineTheFactsAndTheLink() throws Exception {
        Map<String, Object> m = ApprovalMessages.snapshot(TENANT, approval("approved", Optional.of("sub-bob"),
                "prod-db"), "approved");
        JsonNode json = body("json", m);
        assertThat(json.path("type").asText()).isEqualTo("approval.approved");
        assertThat(json.path("timestamp").asText()).isEqualTo("2026-11-30T06:00:01Z");
        assertThat(json.path("data").path("url").asText()).isEqualTo(LINK);
        assertThat(json.path("data").path("decided_by_username").asText()).isEqualTo("bob");

        JsonNode slack = body("slack", m);
        assertThat(slack.path("text").asText()).isEqualTo("Approved: pg-1.x/pg.table.drop on prod-db <" + LINK
                + "|Open in svc>");
        assertThat(slack.path("blocks").get(1).path("fields").toString()).contains("bob (sub-bob)")
                .contains("looks fine").contains("dangerous");
        assertThat(slack.path("blocks").get(2).path("elements").get(0).path("url").asText()).isEqualTo(LINK);

        JsonNode teams = body("teams", m);
        assertThat(teams.path("@type").asText()).isEqualTo("MessageCard");
        assertThat(teams.path("title").asText()).isEqualTo("Approved: pg-1.x/pg.table.drop on prod-db");
        assertThat(teams.path("sections").get(0).path("facts").toString()).contains("Requested by")
                .contains("alice (sub-alice)");
        assertThat(teams.path("potentialAction").get(0).path("targets").get(0).path("uri").asText()).isEqualTo(LINK);
    }

    @Test
    void slackMarkupInANameIsEscapedAndTheMailSubjectIsOneLine() throws Exception {
        Map<String, Object> m = ApprovalMessages.snapshot(TENANT, approval("pending", Optional.empty(),
                "<!channel> & co\nnext"), "parked");
        JsonNode slack = body("slack", m);
        assertThat(slack.path("text").asText()).contains("&lt;!channel&gt; &amp; co").doesNotContain("<!channel>");
        assertThat(ApprovalMessages.mailSubject(m)).doesNotContain("\n").startsWith("[svc] Approval needed: ");
        String mail = ApprovalMessages.mailBody(m, LINK);
        assertThat(mail).contains("Review and decide: " + LINK).contains("Expires:").contains("CHG-7")
                .doesNotContain(CANARY);
    }
}
