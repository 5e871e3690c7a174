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
 * {@code finish_reason}; with {@code "stream": true}, server-sent {@code chat.completion.chunk} events
 * that split the text and the tool-call arguments across deltas, then {@code [DONE]}). Not a mock of
 * our classes: the kernel's LangChain4j client talks HTTP to it.
 * Each request takes the next scripted answer (a function of the request, so an answer can echo what
 * the model was sent); every request is recorded.
 */
public final class ScriptedModel implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpServer server;
    private final BlockingQueue<Function<JsonNode, ObjectNode>> script = new LinkedBlockingQueue<>();
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private volatile Function<JsonNode, ObjectNode> otherwise;

    /** A model the kernel of {@code setup} talks to (SVC_AGENTS_MODEL_BASE_URL), closed after that kernel. */
    public static ScriptedModel forKernel(KernelSetup setup) {
        ScriptedModel model = setup.closeAfter(new ScriptedModel());
        setup.setting("SVC_AGENTS_MODEL_BASE_URL", model.baseUrl());
        return model;
    }

    public ScriptedModel() {
        this(null);
    }

    /**
     * A model that answers requests concurrently, each on its own virtual thread (as a real model service
     * does): a request waiting for its script entry does not hold up the next one (several replicas asking).
     */
    public static ScriptedModel concurrent() {
        return new ScriptedModel(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
    }

    private ScriptedModel(java.util.concurrent.Executor executor) {
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
            ObjectNode completion = next.apply(request);
            if (request.path("stream").asBoolean(false)) {
                x.getResponseHeaders().add("Content-Type", "text/event-stream");
                x.sendResponseHeaders(200, 0);
                try (var out = x.getResponseBody()) {
                    for (ObjectNode chunk : chunks(completion)) {
                        out.write(("data: " + JSON.writeValueAsString(chunk) + "\n\n").getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                    out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
                }
                x.close();
                return;
            }
            byte[] body = JSON.writeValueAsBytes(completion);
            x.getResponseHeaders().add("Content-Type", "application/json");
            x.sendResponseHeaders(200, body.length);
            x.getResponseBody().write(body);
            x.close();
        }, executor);
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

    /** A completion as the stream of chunks OpenAI sends: text and tool-call arguments split across deltas. */
    static List<ObjectNode> chunks(ObjectNode completion) {
        JsonNode choice = completion.path("choices").get(0);
        JsonNode message = choice.path("message");
        List<ObjectNode> out = new java.util.ArrayList<>();
        ObjectNode first = chunk(completion);
        ((ObjectNode) first.path("choices").get(0)).putObject("delta").put("role", "assistant");
        out.add(first);
        String text = message.path("content").isTextual() ? message.path("content").asText() : "";
        if (!text.isEmpty()) {
            int half = text.length() / 2;
            for (String part : new String[] {text.substring(0, half), text.substring(half)}) {
                ObjectNode c = chunk(completion);
                ((ObjectNode) c.path("choices").get(0)).putObject("delta").put("content", part);
                out.add(c);
            }
        }
        int index = 0;
        for (JsonNode call : message.path("tool_calls")) {
            ObjectNode head = chunk(completion);
            ObjectNode tc = ((ObjectNode) head.path("choices").get(0)).putObject("delta").putArray("tool_calls")
                    .addObject().put("index", index).put("id", call.path("id").asText()).put("type", "function");
            tc.putObject("function").put("name", call.path("function").path("name").asText()).put("arguments", "");
            out.add(head);
            String args = call.path("function").path("arguments").asText();
            int half = args.length() / 2;
            for (String part : new String[] {args.substring(0, half), args.substring(half)}) {
                ObjectNode c = chunk(completion);
                ((ObjectNode) c.path("choices").get(0)).putObject("delta").putArray("tool_calls").addObject().put("index", index)
                        .putObject("function")
                        .put("arguments", part);
                out.add(c);
            }
            index++;
        }
        ObjectNode last = chunk(completion);
        ((ObjectNode) last.path("choices").get(0)).putObject("delta");
        ((ObjectNode) last.path("choices").get(0)).put("finish_reason", choice.path("finish_reason").asText());
        last.set("usage", completion.path("usage"));
        out.add(last);
        return out;
    }

    private static ObjectNode chunk(ObjectNode completion) {
        ObjectNode c = JSON.createObjectNode().put("id", completion.path("id").asText())
                .put("object", "chat.completion.chunk").put("created", completion.path("created").asLong())
                .put("model", completion.path("model").asText());
        c.putArray("choices").addObject().put("index", 0).putNull("finish_reason");
        return c;
    }

    /** The text of every message of a recorded request, joined (what the model was told). */
    public static String transcript(JsonNode request) {
        StringBuilder b = new StringBuilder();
        request.path("messages").forEach(m -> b.append(m.path("role").asText()).append(": ")
                .append(m.path("content").isTextual() ? m.path("content").asText() : m.path("content").toString())
                .append('\n'));
        return b.toString();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
