package dev.backplane.kernel.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.util.JsonMapping;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The tool-call step of a run: each call of a model answer goes to the agent tools as the run's agent principal,
 * in order, with a stop check before each; a call that needs a second person's approval parks the run until it is
 * decided. Each result goes back to the model as untrusted data, and the run's events record call and result.
 */
final class ToolCallStep {

    static final int MAX_TOOL_RESULT_CHARS = 32_768;
    private static final long APPROVAL_POLL_MS = 500;

    private final AgentRunStore runs;
    private final LocalRuns local;
    private final AgentToolbox tools;
    private final RunStops stops;

    ToolCallStep(AgentRunStore runs, LocalRuns local, AgentToolbox tools, RunStops stops) {
        this.runs = runs;
        this.local = local;
        this.tools = tools;
        this.stops = stops;
    }

    /**
     * Answers the tool calls of one model answer in order, each result appended to {@code messages}; the first
     * may already wait for {@code approval} (a run handed off while parked). Empty when all were answered.
     */
    Optional<RunLoop.Outcome> answerCalls(UUID handle, Caller agent, Map<String, AgentToolbox.Offered> offered,
                                      List<ToolExecutionRequest> calls, Optional<UUID> approval,
                                      List<ChatMessage> messages, int turn, boolean repaired,
                                      Optional<String> workRef) throws RunCheckpoint.HandedOff {
        for (int i = 0; i < calls.size(); i++) {
            List<ToolExecutionRequest> rest = calls.subList(i, calls.size());
            Optional<UUID> parked = i == 0 ? approval : Optional.empty();
            if (parked.isEmpty()) {
                Optional<RunLoop.Outcome> halted = stops.stopped(handle, agent, turn, messages, turn + 1, repaired, rest);
                if (halted.isPresent()) {
                    return halted;
                }
            }
            ToolExecutionRequest call = calls.get(i);
            Checkpointer here = approvalId -> new RunCheckpoint(messages, turn + 1, repaired, rest, Optional.of(approvalId));
            messages.add(ToolExecutionResultMessage.from(call, callTool(handle, agent, offered, call, workRef, parked, here)));
        }
        return Optional.empty();
    }

    /** Where the run stands while its current tool call waits for approval {@code approval}. */
    @FunctionalInterface
    private interface Checkpointer {
        RunCheckpoint at(UUID approval);
    }

    private String callTool(UUID handle, Caller agent, Map<String, AgentToolbox.Offered> offered, ToolExecutionRequest call,
                            Optional<String> workRef, Optional<UUID> parked, Checkpointer here)
            throws RunCheckpoint.HandedOff {
        Object result;
        String status;
        if (parked.isEmpty()) {
            // what was acted on, never the arguments themselves (an operation's params may be secrets): ToolEvents
            runs.event(handle, "tool_call", ToolEvents.call(call.name(), call.arguments()));
        }
        if (parked.isPresent()) {
            // handed off while this call waited for its approval: it was made once, so only the wait goes on
            status = awaitApproval(handle, agent, parked.get(), here);
            result = decided(status, parked.get());
        } else if (!offered.containsKey(call.name())) {
            status = "refused";
            result = Map.of("error", "tool_not_in_toolset", "message", "tool '" + call.name() + "' is not in this run's "
                    + "toolset; available: " + offered.keySet());
        } else {
            try {
                JsonNode args = json(call.arguments() == null || call.arguments().isBlank() ? "{}" : call.arguments());
                if (call.name().equals("call_operation") && args instanceof ObjectNode o && !o.hasNonNull("work_ref")) {
                    workRef.ifPresent(w -> o.put("work_ref", w));
                }
                result = tools.run(call.name(), agent, args);
                status = "ok";
                JsonNode tree = JsonMapping.mapper().valueToTree(result);
                if ("awaiting_approval".equals(tree.path("status").asText())) {
                    UUID approval = UUID.fromString(tree.path("extras").path("approval_request_id").asText());
                    status = awaitApproval(handle, agent, approval, here);
                    result = decided(status, approval);
                } else if (tree.has("status")) {
                    status = tree.path("status").asText();
                }
            } catch (DomainException e) {
                status = "error";
                result = Map.of("error", e.code(), "message", e.getMessage());
            } catch (IllegalArgumentException e) {
                status = "error";
                result = Map.of("error", "invalid_arguments", "message", "the arguments are not a JSON object");
            }
        }
        String text = cut(JsonMapping.write(result), MAX_TOOL_RESULT_CHARS);
        runs.event(handle, "tool_result", ToolEvents.result(call.name(), status, result, text));
        // a result carries what targets and other systems wrote: data for the model, inside a block it cannot
        // see the end of (the class of review 3's S10, for tool results)
        return UntrustedText.wrap(RunLoop.TOOL_RESULT, text, text.length() + 1);
    }

    private static Map<String, Object> decided(String status, UUID approval) {
        return Map.of("status", status.equals("approved") ? "approved_and_executed" : status,
                "approval_request_id", approval.toString(), "note", status.equals("approved")
                        ? "a second person approved the call and it ran; its outcome is in the audit log"
                        : "the call did not run (" + status + "); do not retry it");
    }

    /**
     * Parks the run until a second person decides the approval (or the run is cancelled / revoked, or handed
     * off to another replica, which then goes on waiting).
     */
    private String awaitApproval(UUID handle, Caller agent, UUID approval, Checkpointer here)
            throws RunCheckpoint.HandedOff {
        runs.setStatus(handle, AgentRun.Status.AWAITING_APPROVAL, Optional.of(approval));
        runs.event(handle, "approval_parked", Map.of("approval_request_id", approval.toString()));
        try {
            while (true) {
                String status = tools.approvalStatus(agent.tenantId(), approval);
                if (!status.equals("pending")) {
                    runs.event(handle, "approval_decided", Map.of("approval_request_id", approval.toString(),
                            "status", status));
                    return status;
                }
                if (stops.cancelledOrRevoked(handle, agent, 0).isPresent()) {
                    return "cancelled";
                }
                if (local.handingOff()) {
                    throw new RunCheckpoint.HandedOff(here.at(approval));
                }
                Thread.sleep(APPROVAL_POLL_MS);
            }
        } catch (InterruptedException e) {
            if (local.handingOff()) {
                throw new RunCheckpoint.HandedOff(here.at(approval));
            }
            Thread.currentThread().interrupt();
            return "cancelled";
        } finally {
            runs.setStatus(handle, AgentRun.Status.RUNNING, Optional.empty());
        }
    }

    /** A JSON object from its text; anything else is an {@link IllegalArgumentException}. */
    static JsonNode json(String text) {
        try {
            JsonNode n = JsonMapping.mapper().readTree(text);
            if (n == null || !n.isObject()) {
                throw new IllegalArgumentException("not an object");
            }
            return n;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** {@code s}, cut to {@code max} characters and marked with "..." when longer. */
    static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "...";
    }
}
