package dev.backplane.kernel.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.kernel.util.JsonSchemas;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One turn's model call, and what a final answer (one without tool calls) yields: the text as {@code {"text": ...}}
 * when the definition has no output schema, else the JSON value it holds (a code fence around it allowed), checked
 * against the schema.
 */
final class TurnAnswer {

    /** A final answer read: the output, or the problems that keep it from matching the output schema. */
    record Final(Optional<JsonNode> output, List<String> problems) {
    }

    private TurnAnswer() {
    }

    /** One streamed model answer; waiting is interruptible, so run-cancel stops it at once. */
    static AiMessage ask(StreamingChatModel model, ChatRequest request) throws InterruptedException,
            ExecutionException {
        CompletableFuture<ChatResponse> done = new CompletableFuture<>();
        model.chat(request, new StreamingChatResponseHandler() {
            @Override
            public void onCompleteResponse(ChatResponse response) {
                done.complete(response);
            }

            @Override
            public void onError(Throwable error) {
                done.completeExceptionally(error);
            }
        });
        return done.get().aiMessage();
    }

    /** The final answer {@code text} read against the definition's output schema, if it has one. */
    static Final read(AgentDefinition def, String text) {
        if (def.outputSchema().isEmpty()) {
            return new Final(Optional.of(JsonMapping.mapper().createObjectNode().put("text", text)), List.of());
        }
        List<String> problems = new ArrayList<>();
        Optional<JsonNode> output = parseOutput(text, problems);
        output.ifPresent(o -> problems.addAll(JsonSchemas.problems(
                JsonSchemas.compile(def.outputSchema().get()), o)));
        return new Final(output, problems);
    }

    private static Optional<JsonNode> parseOutput(String text, List<String> problems) {
        String t = text.strip();
        if (t.startsWith("```")) {
            t = t.replaceFirst("^```[a-zA-Z]*\\s*", "").replaceFirst("\\s*```$", "");
        }
        try {
            return Optional.of(JsonMapping.mapper().readTree(t));
        } catch (JsonProcessingException e) {
            problems.add("the answer is not JSON");
            return Optional.empty();
        }
    }
}
