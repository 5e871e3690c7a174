package dev.backplane.cli.runbooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.Render;
import picocli.CommandLine.Command;

/** {@code svc runbook}: runbook templates and step-by-step runs. */
@Command(name = "runbook", description = "Runbook templates (YAML, versioned: draft, published, deprecated) and "
        + "step-by-step runs whose operations take the governed pipeline [tenant_admin for template writes].",
        subcommands = {ListTemplates.class, ShowTemplate.class, DraftTemplate.class, EditTemplate.class,
                PublishTemplate.class, DeprecateTemplate.class, Start.class, Next.class, Abort.class, Show.class,
                ListRuns.class})
public final class RunbookCommand {

    private RunbookCommand() {
    }

    /** A template after what happened to it ({@code drafted: }, {@code published: }, ...). */
    static Render template(String what) {
        return (ctx, t) -> {
            ctx.out().print(what);
            printTemplate(ctx, t);
        };
    }

    static void printTemplate(CliContext ctx, JsonNode t) {
        ctx.out().println(t.path("slug").asText() + "  v" + t.path("version").asInt() + "  " + t.path("status").asText()
                + "  " + t.path("title").asText() + (t.hasNonNull("target_kind") ? "  (" + t.path("target_kind").asText()
                + " targets)" : "") + "  " + t.path("steps").asInt() + " steps");
    }

    /** A run: its state, and its current step with what to do next. */
    static void printRun(CliContext ctx, JsonNode r) {
        String id = r.path("id").asText();
        ctx.out().println("run " + id + "  " + r.path("slug").asText() + " v" + r.path("version").asInt() + "  "
                + r.path("status").asText() + (r.hasNonNull("target") ? "  target " + r.path("target").asText() : "")
                + "  assignee " + r.path("assignee").asText());
        if (r.hasNonNull("reason")) {
            ctx.out().println("reason: " + r.path("reason").asText());
        }
        JsonNode step = r.path("current_step");
        if (step.isMissingNode() || step.isNull()) {
            ctx.out().println("all " + r.path("steps_total").asInt() + " steps done");
            return;
        }
        ctx.out().println("step " + step.path("index").asInt() + "/" + r.path("steps_total").asInt()
                + (step.has("name") ? ": " + step.path("name").asText() : ""));
        ctx.out().println("  " + step.path("instruction").asText());
        if (step.has("operation")) {
            JsonNode op = step.path("operation");
            ctx.out().println("  operation: " + op.path("connector_id").asText() + " " + op.path("op_id").asText()
                    + " on " + op.path("target").asText() + "  params " + op.path("params"));
        }
        if (step.has("result")) {
            JsonNode res = step.path("result");
            ctx.out().println("  result: " + res.path("status").asText() + (res.has("error") ? " - " + res.path("error")
                    .asText() : "") + (res.path("result").isMissingNode() || res.path("result").isNull() ? ""
                    : "  " + abbreviate(res.path("result").toString())));
        }
        if (step.has("approval_request_id")) {
            ctx.out().println("  parked for approval: request " + step.path("approval_request_id").asText()
                    + " (svc approvals show ...); then svc runbook next " + id);
        }
        ctx.out().println("  verify: " + step.path("verify").asText());
        String status = r.path("status").asText();
        if (status.equals("in_progress")) {
            boolean mustRun = step.has("operation") && step.path("phase").asText().equals("pending");
            ctx.out().println("  next: " + (mustRun ? "svc runbook next " + id + "   (runs the operation)"
                    : "svc runbook next " + id + " --verify-response yes|no|escalate"));
        } else if (status.equals("escalated")) {
            ctx.out().println("  escalated: another tenant_admin answers with svc runbook next " + id
                    + " --verify-response yes|no");
        }
    }

    /** Exit 4 when the run waits for an approval (not an error), as a parked call does. */
    static void exitIfParked(JsonNode r) {
        if (r.path("status").asText().equals("awaiting_approval")) {
            throw CliException.alreadyReported(ExitCodes.AWAITING_APPROVAL, "run " + r.path("id").asText() + ": awaiting_approval");
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "…";
    }

    /** A run's log, then the run ({@code svc runbook show}). */
    static void printRunWithLog(CliContext ctx, JsonNode r) {
        r.path("log").forEach(e -> ctx.out().println("  [" + e.path("at").asText() + "] step " + e.path("step").asInt()
                + " " + e.path("action").asText() + (e.hasNonNull("outcome") ? ": " + e.path("outcome").asText() : "")
                + " by " + e.path("actor").asText()));
        printRun(ctx, r);
    }
}
