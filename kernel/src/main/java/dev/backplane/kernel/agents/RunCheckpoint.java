package dev.backplane.kernel.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.util.JsonMapping;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Where a run's model loop stands between two steps: the conversation so far, the next turn, whether the
 * one repair turn was spent, the tool calls of the last model answer not yet answered, and the approval the
 * first of them waits for. A replica that shuts down hands a run off at such a point ({@code resume_state}
 * on its row) and another replica continues it from there: no tool call runs twice, and a model call cut
 * off mid-answer is asked again (asking a model again has no effect on any target).
 *
 * @param messages the conversation, starting with the system prompt and the run's input
 * @param turn the turn to run next (1-based); the pending calls belong to the turn before it
 * @param pendingCalls tool calls the model asked for in its last answer that have no result yet, in order
 * @param awaitingApproval the approval request the first pending call parked on, if it did
 */
record RunCheckpoint(List<ChatMessage> messages, int turn, boolean repaired, List<ToolExecutionRequest> pendingCalls,
                     Optional<UUID> awaitingApproval) {

    RunCheckpoint {
        messages = List.copyOf(messages);
        pendingCalls = List.copyOf(pendingCalls);
    }

    /** A run's start: the system prompt and the input, turn 1. */
    static RunCheckpoint start(String systemPrompt, String input) {
        return new RunCheckpoint(List.of(SystemMessage.from(systemPrompt), UserMessage.from(input)), 1, false, List.of(),
                Optional.empty());
    }

    String toJson() {
        ObjectNode o = JsonMapping.mapper().createObjectNode();
        o.put("version", 1);
        o.set("messages", read(ChatMessageSerializer.messagesToJson(messages)));
        o.put("turn", turn);
        o.put("repaired", repaired);
        ArrayNode calls = o.putArray("pending_calls");
        for (ToolExecutionRequest c : pendingCalls) {
            calls.addObject().put("id", c.id()).put("name", c.name()).put("arguments", c.arguments());
        }
        awaitingApproval.ifPresent(a -> o.put("awaiting_approval", a.toString()));
        return JsonMapping.write(o);
    }

    static RunCheckpoint fromJson(String json) {
        JsonNode o = read(json);
        if (o.path("version").asInt() != 1) {
            throw new IllegalArgumentException("unknown resume state version " + o.path("version"));
        }
        List<ToolExecutionRequest> calls = new ArrayList<>();
        for (JsonNode c : o.path("pending_calls")) {
            calls.add(ToolExecutionRequest.builder().id(c.path("id").isNull() ? null : c.path("id").asText())
                    .name(c.path("name").asText()).arguments(c.path("arguments").isNull() ? null
                            : c.path("arguments").asText()).build());
        }
        return new RunCheckpoint(ChatMessageDeserializer.messagesFromJson(JsonMapping.write(o.path("messages"))),
                o.path("turn").asInt(1), o.path("repaired").asBoolean(false), calls,
                o.hasNonNull("awaiting_approval") ? Optional.of(UUID.fromString(o.path("awaiting_approval").asText()))
                        : Optional.empty());
    }

    private static JsonNode read(String json) {
        try {
            return JsonMapping.mapper().readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("resume state is not JSON", e);
        }
    }

    /** Thrown by the loop when the run is handed off; carries where it stands. */
    static final class HandedOff extends Exception {
        private final transient RunCheckpoint checkpoint;

        HandedOff(RunCheckpoint checkpoint) {
            super("handed off at turn " + checkpoint.turn(), null, false, false);
            this.checkpoint = checkpoint;
        }

        RunCheckpoint checkpoint() {
            return checkpoint;
        }
    }
}
