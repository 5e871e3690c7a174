package dev.backplane.cli.common;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.function.Consumer;

/**
 * Ends every command that prints a dispatch result envelope: the envelope itself with
 * {@code --json} (or {@code -o yaml}), else a human render; then the exit code of the status (ok 0, error 1, denied 3,
 * awaiting_approval 4) — parked, denied and failed calls are never reported as success. A parked call
 * is an outcome, not an error: it is said once (the approval request to act on) and exits 4 with no
 * {@code error:} line.
 */
public final class Envelopes {

    private Envelopes() {
    }

    /**
     * @param okRender prints an {@code ok} result for a human
     */
    public static void finish(CliContext ctx, JsonNode env, String opId, OutputFormat format, Consumer<JsonNode> okRender) {
        if (format.machine()) {
            ctx.out().println(format.render(env));
        } else {
            render(ctx, env, okRender);
        }
        String status = env.path("status").asText();
        int code = switch (status) {
            case "ok" -> ExitCodes.OK;
            case "denied" -> ExitCodes.DENIED;
            case "awaiting_approval" -> ExitCodes.AWAITING_APPROVAL;
            default -> ExitCodes.FAILED;
        };
        if (code == ExitCodes.AWAITING_APPROVAL) {
            throw CliException.alreadyReported(code, opId + ": awaiting_approval");
        }
        if (code != ExitCodes.OK) {
            throw new CliException(code, opId + ": " + status + (env.path("error").isNull() ? ""
                    : " — " + env.path("error").asText()));
        }
    }

    private static void render(CliContext ctx, JsonNode env, Consumer<JsonNode> okRender) {
        JsonNode extras = env.path("extras");
        if (extras.hasNonNull("resolved_connector_id")) {
            // the backplane's resolver sent the call to another connector than named: say which, and why
            ctx.err().println("served by " + extras.path("resolved_connector_id").asText() + ": "
                    + extras.path("resolution").asText());
        }
        switch (env.path("status").asText()) {
            case "ok" -> {
                okRender.accept(env.path("result"));
                if (extras.path("reduced").asBoolean()) {
                    String handle = extras.path("fetch_more").path("drill_in").path("handle_id").asText();
                    ctx.out().println("(showing " + extras.path("sample_rows").asInt() + " of "
                            + extras.path("total_rows").asInt() + " rows; more: svc operation result-query " + handle + ")");
                }
                if (extras.hasNonNull("continue_token")) {
                    ctx.out().println("(more pages: --continue-token " + extras.path("continue_token").asText() + ")");
                }
            }
            case "awaiting_approval" -> ctx.out().println("parked for approval: request "
                    + extras.path("approval_request_id").asText() + " (another approver must approve it: svc approvals "
                    + "approve " + extras.path("approval_request_id").asText() + ")");
            case "denied" -> ctx.out().println("denied: " + env.path("error").asText());
            default -> {
                ctx.out().println("error (" + extras.path("error_code").asText() + "): " + env.path("error").asText());
                extras.path("validation_errors").forEach(v -> ctx.out().println("  - " + v.asText()));
            }
        }
    }
}
