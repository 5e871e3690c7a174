package dev.backplane.kernel.events;

import static dev.backplane.kernel.events.WebhookAuth.DEFAULT_ID_HEADER;
import static dev.backplane.kernel.events.WebhookAuth.DEFAULT_REPLAY_WINDOW;
import static dev.backplane.kernel.events.WebhookAuth.DEFAULT_SIGNATURE_HEADER;
import static dev.backplane.kernel.events.WebhookAuth.DEFAULT_TIMESTAMP_HEADER;
import static dev.backplane.kernel.events.WebhookMacs.constantTimeEquals;
import static dev.backplane.kernel.events.WebhookMacs.mac;
import static dev.backplane.kernel.events.WebhookMacs.standardKey;

import dev.backplane.kernel.events.WebhookAuth.Binding;
import dev.backplane.kernel.events.WebhookAuth.Verdict;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The {@code hmac-sha256} strategy of {@link WebhookAuth}: a Standard Webhooks signature (id, timestamp and body
 * signed together), a plain signature of the body with a signed timestamp (Grafana), or of the body alone (GitHub).
 */
final class HmacProofs {

    private HmacProofs() {
    }

    static Verdict verify(EventSource source, List<byte[]> keys, Function<String, Optional<String>> header,
                          byte[] body, Instant now) {
        Optional<String> signature = header.apply(source.setting("signature_header", DEFAULT_SIGNATURE_HEADER));
        if (signature.isEmpty()) {
            return Verdict.no("missing signature header");
        }
        String sig = signature.get().strip();
        if (sig.startsWith("v1,") || sig.contains(" v1,")) {
            Optional<String> id = header.apply(source.setting("id_header", DEFAULT_ID_HEADER));
            Optional<String> ts = header.apply(source.setting("timestamp_header", DEFAULT_TIMESTAMP_HEADER));
            if (id.isEmpty() || ts.isEmpty()) {
                return Verdict.no("signature without id or timestamp header");
            }
            long seconds;
            try {
                seconds = Long.parseLong(ts.get().strip());
            } catch (NumberFormatException e) {
                return Verdict.no("malformed timestamp");
            }
            long window = source.number("replay_window_seconds", DEFAULT_REPLAY_WINDOW);
            if (Math.abs(now.getEpochSecond() - seconds) > window) {
                return Verdict.no("timestamp outside the replay window");
            }
            byte[] prefix = (id.get() + "." + ts.get().strip() + ".").getBytes(StandardCharsets.UTF_8);
            boolean ok = false;
            for (byte[] key : keys) {
                byte[] expected = Base64.getEncoder().encode(mac(standardKey(key), prefix, body));
                for (String part : sig.split(" ")) {
                    if (part.startsWith("v1,")) {
                        ok |= constantTimeEquals(expected, part.substring(3).getBytes(StandardCharsets.UTF_8));
                    }
                }
            }
            return ok ? Verdict.ok(Binding.DELIVERY_ID) : Verdict.no("bad signature");
        }
        String hex = sig.regionMatches(true, 0, "sha256=", 0, 7) ? sig.substring(7) : sig;
        byte[] presented;
        try {
            presented = HexFormat.of().parseHex(hex.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return Verdict.no("malformed signature");
        }
        boolean required = source.flag("require_timestamp");
        Optional<String> ts = header.apply(source.setting("timestamp_header", DEFAULT_TIMESTAMP_HEADER))
                .map(String::strip);
        if (ts.isPresent()) {
            boolean stamped = false;
            byte[] prefix = (ts.get() + ":").getBytes(StandardCharsets.UTF_8);
            for (byte[] key : keys) {
                stamped |= constantTimeEquals(mac(key, prefix, body), presented);
            }
            if (stamped) {
                long seconds;
                try {
                    seconds = Long.parseLong(ts.get());
                } catch (NumberFormatException e) {
                    return Verdict.no("malformed timestamp");
                }
                long window = source.number("replay_window_seconds", DEFAULT_REPLAY_WINDOW);
                return Math.abs(now.getEpochSecond() - seconds) > window
                        ? Verdict.no("timestamp outside the replay window") : Verdict.ok(Binding.BODY);
            }
        }
        if (required) {
            return Verdict.no(ts.isEmpty() ? "no signed timestamp (the source requires one)" : "bad signature");
        }
        boolean ok = false;
        for (byte[] key : keys) {
            ok |= constantTimeEquals(mac(key, new byte[0], body), presented);
        }
        return ok ? Verdict.ok(Binding.BODY) : Verdict.no("bad signature");
    }
}
