package dev.backplane.kernel.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * An OpenAI-compatible chat-completions server on loopback that answers from a script, speaking the
 * real wire format ({@code POST /v1/chat/completions}, {@code tool_calls} with JSON-string arguments,
 * {@code finish_reason}). Not a mock of our classes: the kernel's LangChain4j client talks HTTP to it.
 * Each request takes the next scripted answer (a function of the request, so an answer can echo what
 * the model was sent); every request is recorded.
 */
public final class ScriptedModel implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpServer server;
    private final BlockingQueue<Function<JsonNode, ObjectNode>> script = new LinkedBlockingQueue<>();
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private volatile Function<JsonNode, ObjectNode> otherwise;

    public ScriptedModel() {
        server = LoopbackHttp.start(x -> {
            JsonNode request = JSON.readTree(x.getRequestBody().readAllBytes());
            requests.add(request);
            Function<JsonNode, ObjectNode> next = script.poll();
            try {
                if (next == null) {
                    next = otherwise != null ? otherwise : script.poll(30, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                next = null;
            }
            if (next == null) {
                LoopbackHttp.answer(x, 500, "{\"error\": {\"message\": \"script exhausted\"}}");
                return;
            }
            byte[] body = JSON.writeValueAsBytes(next.apply(request));
            x.getResponseHeaders().add("Content-Type", "application/json");
            x.sendResponseHeaders(200, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
    }

    /** The base URL to configure ({@code agents.model.base-url}). */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** Queues answers, in order. */
    @SafeVarargs
    public final ScriptedModel then(Function<JsonNode, ObjectNode>... answers) {
        script.addAll(List.of(answers));
        return this;
    }

    /** The answer to every request the script has no entry for (instead of waiting for one). */
    public ScriptedModel otherwise(Function<JsonNode, ObjectNode> answer) {
        this.otherwise = answer;
        return this;
    }

    public List<JsonNode> requests() {
        return requests;
    }

    public void reset() {
        script.clear();
        otherwise = null;
        requests.clear();
    }

    /** An answer calling one tool with {@code arguments}. */
    public static Function<JsonNode, ObjectNode> toolCall(String tool, Map<String, ?> arguments) {
        return request -> {
            ObjectNode message = JSON.createObjectNode().put("role", "assistant");
            message.putNull("content");
            ArrayNode calls = message.putArray("tool_calls");
            ObjectNode call = calls.addObject().put("id", "call_" + Math.abs(arguments.hashCode())).put("type", "function");
            try {
                call.putObject("function").put("name", tool).put("arguments", JSON.writeValueAsString(arguments));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return completion(message, "tool_calls");
        };
    }

    /** A final answer with {@code text}. */
    public static Function<JsonNode, ObjectNode> text(String text) {
        return request -> completion(JSON.createObjectNode().put("role", "assistant").put("content", text), "stop");
    }

    /** An answer that arrives after {@code millis}. */
    public static Function<JsonNode, ObjectNode> slow(long millis, Function<JsonNode, ObjectNode> answer) {
        return request -> {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return answer.apply(request);
        };
    }

    private static ObjectNode completion(ObjectNode message, String finish) {
        ObjectNode r = JSON.createObjectNode().put("id", "chatcmpl-test").put("object", "chat.completion")
                .put("created", 1_700_000_000L).put("model", "scripted");
        r.putArray("choices").addObject().put("index", 0).put("finish_reason", finish).set("message", message);
        r.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 5).put("total_tokens", 15);
        return r;
    }

    /** The text of every message of a recorded request, joined (what the model was told). */
    public static String transcript(JsonNode request) {
        StringBuilder b = new StringBuilder();
        request.path("messages").forEach(m -> b.append(m.path("role").asText()).append(": ")
                .append(m.path("content").isTextual() ? m.path("content").asText() : m.path("content").toString())
                .append('\n'));
        return new String(b.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
