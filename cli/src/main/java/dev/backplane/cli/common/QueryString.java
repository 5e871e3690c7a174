package dev.backplane.cli.common;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds {@code ?a=1&b=x} from optional values; nulls and false flags are left out. */
public final class QueryString {

    private final Map<String, Object> params = new LinkedHashMap<>();

    public static QueryString of() {
        return new QueryString();
    }

    public QueryString add(String name, Object value) {
        if (value != null && !Boolean.FALSE.equals(value)) {
            params.put(name, value);
        }
        return this;
    }

    /** {@code limit} and {@code offset}, each only when given. */
    public QueryString add(Paging paging) {
        return add("limit", paging.limit).add("offset", paging.offset);
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        params.forEach((k, v) -> parts.add(k + "=" + URLEncoder.encode(String.valueOf(v), StandardCharsets.UTF_8)));
        return parts.isEmpty() ? "" : "?" + String.join("&", parts);
    }
}
