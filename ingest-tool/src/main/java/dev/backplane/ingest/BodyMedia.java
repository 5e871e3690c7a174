package dev.backplane.ingest;

import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import java.util.Locale;
import java.util.Map;

/** How a request body is sent, by media type; JSON is preferred, then form-urlencoded, then anything else. */
enum BodyMedia {
    JSON,
    FORM,
    OTHER;

    static BodyMedia of(String mediaType) {
        String base = base(mediaType);
        if (isPlainJson(mediaType) || base.endsWith("+json") || base.endsWith("/json")) {
            return JSON;
        }
        return base.equals("application/x-www-form-urlencoded") ? FORM : OTHER;
    }

    /** JSON that needs no explicit content type: {@code application/json} or a wildcard. */
    static boolean isPlainJson(String mediaType) {
        String base = base(mediaType);
        return base.equals("application/json") || base.equals("*/*") || base.equals("application/*");
    }

    /** The preferred entry of {@code content}, or null when it has none. */
    static Map.Entry<String, MediaType> choose(Content content) {
        if (content == null) {
            return null;
        }
        Map.Entry<String, MediaType> best = null;
        int bestRank = Integer.MAX_VALUE;
        for (Map.Entry<String, MediaType> entry : content.entrySet()) {
            int rank = rank(entry.getKey());
            if (rank < bestRank) {
                best = entry;
                bestRank = rank;
            }
        }
        return best;
    }

    private static int rank(String mediaType) {
        String base = base(mediaType);
        if (base.equals("application/json")) {
            return 0;
        }
        return switch (of(mediaType)) {
            case JSON -> isPlainJson(mediaType) ? 2 : 1;
            case FORM -> 3;
            case OTHER -> 4;
        };
    }

    private static String base(String mediaType) {
        int semicolon = mediaType.indexOf(';');
        return (semicolon < 0 ? mediaType : mediaType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    }
}
