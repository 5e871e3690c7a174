package dev.backplane.plugins.firewall;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugins.ssh.SshOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** nft's listings as rows: its JSON output ({@code nft -j}) and the text of a chain with handles. */
final class NftRows {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern RULE = Pattern.compile("^\\s*(.+?)\\s+# handle (\\d+)$");
    private static final Pattern COUNTER = Pattern.compile("counter packets (\\d+) bytes (\\d+)");

    private NftRows() {
    }

    /** The objects of one kind ({@code table}, {@code chain}, {@code set}, {@code counter}) in a JSON listing. */
    static List<JsonNode> objects(SshOutput out, String kind, String what) {
        requireOk(out, what);
        try {
            List<JsonNode> found = new ArrayList<>();
            for (JsonNode item : JSON.readTree(out.stdout()).path("nftables")) {
                if (item.has(kind)) {
                    found.add(item.get(kind));
                }
            }
            return found;
        } catch (IOException e) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, what + ": nft printed no JSON");
        }
    }

    /** The whole JSON listing as plain Java values, without nft's metainfo. */
    static List<Object> plain(SshOutput out, String what) {
        requireOk(out, what);
        try {
            List<Object> items = new ArrayList<>();
            for (JsonNode item : JSON.readTree(out.stdout()).path("nftables")) {
                if (!item.has("metainfo")) {
                    items.add(JSON.convertValue(item, Object.class));
                }
            }
            return items;
        } catch (IOException e) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, what + ": nft printed no JSON");
        }
    }

    /** Rows of the given fields of each object; absent fields are left out. */
    static List<Map<String, Object>> rows(List<JsonNode> objects, String... fields) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (JsonNode o : objects) {
            Map<String, Object> row = new LinkedHashMap<>();
            for (String f : fields) {
                if (o.has(f)) {
                    row.put(f, JSON.convertValue(o.get(f), Object.class));
                }
            }
            rows.add(row);
        }
        return rows;
    }

    /** The rules of a chain listing: handle, rule text, and packets and bytes when the rule counts. */
    static List<Map<String, Object>> rules(SshOutput out, String what) {
        requireOk(out, what);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String line : out.lines()) {
            Matcher m = RULE.matcher(line);
            String text = m.matches() ? m.group(1) : "";
            if (!m.matches() || text.startsWith("chain ") || text.startsWith("table ")) {
                continue;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("handle", Long.parseLong(m.group(2)));
            row.put("rule", text);
            Matcher c = COUNTER.matcher(text);
            if (c.find()) {
                row.put("packets", Long.parseLong(c.group(1)));
                row.put("bytes", Long.parseLong(c.group(2)));
            }
            rows.add(row);
        }
        return rows;
    }

    /** True when the chain listing says {@code policy drop}. */
    static boolean dropPolicy(SshOutput out) {
        return out.stdout().contains("policy drop;");
    }

    /** A set's elements as prefixes (single addresses and prefixes; ranges and other kinds are left out). */
    static List<FwNames.Prefix> elements(JsonNode set) {
        List<FwNames.Prefix> out = new ArrayList<>();
        for (JsonNode e : set.path("elem")) {
            JsonNode v = e.has("elem") ? e.get("elem").path("val") : e;
            if (v.isTextual()) {
                out.add(FwNames.address("element", v.asText()));
            } else if (v.has("prefix")) {
                out.add(FwNames.address("element", v.get("prefix").path("addr").asText() + "/"
                        + v.get("prefix").path("len").asInt()));
            }
        }
        return out;
    }

    static void requireOk(SshOutput out, String what) {
        if (!out.ok()) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, what + " failed (exit " + out.exitStatus() + "): "
                    + out.diagnostic(), Map.of("exit_status", out.exitStatus()), null);
        }
    }
}
