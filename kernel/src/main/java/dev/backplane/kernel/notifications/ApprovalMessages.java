package dev.backplane.kernel.notifications;

import dev.backplane.kernel.governance.ApprovalEvents;
import dev.backplane.kernel.governance.Approvals.Approval;
import dev.backplane.kernel.util.JsonMapping;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What an approval notification says, in each format. The message is taken when the transition commits, from the
 * request as approvers see it — who asked, the connector and operation, the target, the safety level, the work_ref,
 * the expiry, the state and the decision — and never from its params (not even their redacted form: a message
 * leaves the backplane). Each links to the request's console page.
 */
final class ApprovalMessages {

    private ApprovalMessages() {
    }

    /** The message of {@code event} of {@code a}, as stored in the outbox. */
    static Map<String, Object> snapshot(UUID tenant, Approval a, String event) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("event", event);
        m.put("approval_id", a.id().toString());
        m.put("tenant_id", tenant.toString());
        m.put("status", a.status());
        m.put("requester", a.requester());
        m.put("requester_username", a.requesterUsername().orElse(null));
        m.put("connector_id", a.connectorId());
        m.put("op_id", a.opId());
        m.put("target", a.target());
        Object safety = a.resolved().get("safety_level");
        m.put("safety_level", safety == null ? null : safety.toString());
        m.put("work_ref", a.workRef().orElse(null));
        m.put("created_at", a.createdAt().toString());
        m.put("expires_at", a.expiresAt().toString());
        m.put("decided_by", a.decidedBy().orElse(null));
        m.put("decided_by_username", a.decidedByUsername().orElse(null));
        m.put("decided_at", a.decidedAt().map(Instant::toString).orElse(null));
        m.put("reason", a.reason().orElse(null));
        m.put("break_glass", a.breakGlass());
        return m;
    }

    /** The request's page in the console. */
    static String link(String publicUrl, Object approvalId) {
        return publicUrl.replaceAll("/+$", "") + "/ui/approvals/" + approvalId;
    }

    /** One line saying what happened, e.g. {@code Approval needed: pg-1.x/pg.table.drop on prod-db}. */
    static String headline(Map<String, Object> m) {
        String what = m.get("connector_id") + "/" + m.get("op_id") + " on " + m.get("target");
        return switch (String.valueOf(m.get("event"))) {
            case ApprovalEvents.PARKED -> "Approval needed: " + what;
            case ApprovalEvents.APPROVED -> "Approved: " + what;
            case ApprovalEvents.REJECTED -> "Rejected: " + what;
            case ApprovalEvents.WITHDRAWN -> "Withdrawn: " + what;
            case ApprovalEvents.EXPIRED -> "Expired without a decision: " + what;
            default -> m.get("event") + ": " + what;
        };
    }

    /** The facts shown under the headline, in order, those without a value left out. */
    static List<Map.Entry<String, String>> facts(Map<String, Object> m) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        fact(out, "Requested by", who(m, "requester_username", "requester"));
        fact(out, "Operation", m.get("connector_id") + " / " + m.get("op_id"));
        fact(out, "Target", m.get("target"));
        fact(out, "Safety level", m.get("safety_level"));
        fact(out, "Work ref", m.get("work_ref"));
        fact(out, "State", m.get("status"));
        if (ApprovalEvents.PARKED.equals(m.get("event"))) {
            fact(out, "Expires", m.get("expires_at"));
        }
        fact(out, "Decided by", m.get("decided_by") == null ? null : who(m, "decided_by_username", "decided_by"));
        fact(out, "Reason", m.get("reason"));
        if (Boolean.TRUE.equals(m.get("break_glass"))) {
            fact(out, "Break-glass", "yes (the requester approved their own request)");
        }
        fact(out, "Request id", m.get("approval_id"));
        return out;
    }

    private static String who(Map<String, Object> m, String name, String sub) {
        return m.get(name) == null ? String.valueOf(m.get(sub)) : m.get(name) + " (" + m.get(sub) + ")";
    }

    private static void fact(List<Map.Entry<String, String>> out, String label, Object value) {
        if (value != null && !String.valueOf(value).isBlank()) {
            out.add(Map.entry(label, String.valueOf(value)));
        }
    }

    static String mailSubject(Map<String, Object> m) {
        return "[svc] " + oneLine(headline(m));
    }

    static String mailBody(Map<String, Object> m, String link) {
        StringBuilder b = new StringBuilder(headline(m)).append("\n\n");
        for (var f : facts(m)) {
            b.append(String.format("%-14s %s%n", f.getKey() + ":", f.getValue()));
        }
        b.append('\n').append(ApprovalEvents.PARKED.equals(m.get("event")) ? "Review and decide: " : "See: ")
                .append(link).append('\n')
                .append("\nThe request's parameters are not in this message; the page shows them (secrets hidden).\n");
        return b.toString();
    }

    /** The webhook's body in {@code format}: {@code json}, {@code slack} or {@code teams}. */
    static byte[] webhookBody(String format, Map<String, Object> m, String link, Instant now) {
        Object body = switch (format) {
            case "slack" -> slack(m, link);
            case "teams" -> teams(m, link);
            default -> json(m, link, now);
        };
        return JsonMapping.write(body).getBytes(StandardCharsets.UTF_8);
    }

    /** Our own body, after Standard Webhooks' shape: {@code type}, {@code timestamp}, {@code data}. */
    private static Map<String, Object> json(Map<String, Object> m, String link, Instant now) {
        Map<String, Object> data = new LinkedHashMap<>(m);
        data.put("url", link);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "approval." + m.get("event"));
        body.put("timestamp", now.toString());
        body.put("data", data);
        return body;
    }

    /** A Slack incoming-webhook message: {@code text} (the fallback) and Block Kit {@code blocks}. */
    private static Map<String, Object> slack(Map<String, Object> m, String link) {
        String headline = slackEscape(headline(m));
        List<Object> fields = new ArrayList<>();
        for (var f : facts(m)) {
            fields.add(Map.of("type", "mrkdwn", "text", "*" + slackEscape(f.getKey()) + "*\n" + slackEscape(f.getValue())));
        }
        List<Object> blocks = new ArrayList<>();
        blocks.add(Map.of("type", "section", "text", Map.of("type", "mrkdwn", "text", "*" + headline + "*")));
        // a section holds at most 10 fields
        for (int i = 0; i < fields.size(); i += 10) {
            blocks.add(Map.of("type", "section", "fields", fields.subList(i, Math.min(fields.size(), i + 10))));
        }
        blocks.add(Map.of("type", "actions", "elements", List.of(Map.of("type", "button", "text",
                Map.of("type", "plain_text", "text", "Open in svc"), "url", link))));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("text", headline + " <" + link + "|Open in svc>");
        body.put("blocks", blocks);
        return body;
    }

    /** A Microsoft Teams connector message (MessageCard): title, facts, and an OpenUri action. */
    private static Map<String, Object> teams(Map<String, Object> m, String link) {
        List<Object> facts = new ArrayList<>();
        for (var f : facts(m)) {
            facts.add(Map.of("name", f.getKey(), "value", f.getValue()));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("@type", "MessageCard");
        body.put("@context", "https://schema.org/extensions");
        body.put("summary", headline(m));
        body.put("themeColor", switch (String.valueOf(m.get("event"))) {
            case ApprovalEvents.PARKED -> "F2C744";
            case ApprovalEvents.APPROVED -> "2EB67D";
            default -> "E01E5A";
        });
        body.put("title", headline(m));
        body.put("sections", List.of(Map.of("facts", facts)));
        body.put("potentialAction", List.of(Map.of("@type", "OpenUri", "name", "Open in svc", "targets",
                List.of(Map.of("os", "default", "uri", link)))));
        return body;
    }

    /** Slack's mrkdwn reserves {@code & < >}: escaped, so a target named {@code <!channel>} pings nobody. */
    static String slackEscape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String oneLine(String s) {
        return s.replaceAll("[\\r\\n]+", " ");
    }
}
