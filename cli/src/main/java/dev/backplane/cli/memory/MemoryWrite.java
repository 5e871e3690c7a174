package dev.backplane.cli.memory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.backplane.cli.common.RequestBody;
import java.time.Instant;
import java.util.List;

/**
 * The body of {@code POST /api/v1/memory}. {@code expiresAt} is three-way: absent (null here) takes the
 * scope's default lifetime, {@link #NEVER} (JSON null) never expires, a time expires then.
 */
@RequestBody
record MemoryWrite(String body, String scope, String slug, List<String> tags, String targetName, JsonNode expiresAt) {

    static final JsonNode NEVER = NullNode.getInstance();

    static JsonNode expiresAt(Instant at) {
        return TextNode.valueOf(at.toString());
    }
}
