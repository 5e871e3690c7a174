package dev.backplane.kernel.events;

import static dev.backplane.kernel.events.WebhookMacs.anyEqual;
import static dev.backplane.kernel.events.WebhookMacs.constantTimeEquals;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Checks a delivery's proof against a source's secrets (SPEC "Authentication" 8), in constant time.
 * Every refusal is the same to the sender; {@link Verdict#reason()} is for the server log only.
 * <ul>
 *   <li>{@code hmac-sha256}, Standard Webhooks form: headers {@code webhook-id}, {@code webhook-timestamp}
 *       (unix seconds, inside the replay window, default 300 s) and {@code webhook-signature}
 *       ({@code v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">}, several space-separated allowed);
 *       a secret written {@code whsec_<base64>} is used base64-decoded, as Standard Webhooks senders do.</li>
 *   <li>{@code hmac-sha256}, plain form (GitHub/Grafana style): the signature header holds
 *       {@code sha256=<hex>} or bare hex of the HMAC of the body alone. Nothing but the body is signed: no
 *       timestamp, and no delivery id (a {@code webhook-id} or {@code X-GitHub-Delivery} header next to it
 *       is the sender's word, which anyone replaying the body can change).</li>
 *   <li>{@code hmac-sha256}, plain form with a timestamp (Grafana's {@code hmacConfig.timestampHeader}):
 *       the timestamp header holds unix seconds and the signature is the hex HMAC of
 *       {@code "<timestamp>:<body>"}; the timestamp must be inside the replay window. A source whose extras
 *       set {@code require_timestamp: true} refuses the body-only form.</li>
 *   <li>{@code static-header}: the secret verbatim in {@code secret_header} (default {@code X-Svc-Token}).</li>
 *   <li>{@code basic}: HTTP Basic; user {@code basic_username} (default {@code svc}), password the secret.</li>
 * </ul>
 * Header names are per-source settings ({@code signature_header}, {@code timestamp_header}, {@code id_header},
 * {@code secret_header}).
 *
 * <h2>Replays</h2>
 * An accepted verdict says what its proof covers ({@link Binding}), and {@link EventIngest} keys the
 * de-duplication on signed material only:
 * <ul>
 *   <li>Standard Webhooks: the signed {@code webhook-id}. A captured delivery replays only inside the
 *       replay window (its timestamp is signed too), and there it is a duplicate of the original.</li>
 *   <li>Plain form: the body (its kind's body delivery id, else its SHA-256), never a header. A replay of
 *       a captured body and signature, with any delivery-id header, is a duplicate (idempotent 200, no
 *       second fire) for as long as the original stays in the event log ({@code SVC_EVENTS_RETENTION_DAYS},
 *       default 30): without a signed timestamp, a captured delivery fires at most once per retention
 *       period. With {@code require_timestamp} it is refused once outside the replay window, and inside it
 *       it is a duplicate (a sender's retry carries a new timestamp but the same body, and is one too). A
 *       sender that posts the same body twice on purpose must make the bodies differ (a timestamp or id
 *       inside the body), or use the Standard Webhooks form.</li>
 *   <li>{@code static-header}, {@code basic}: whoever can replay the request holds the secret and can send
 *       anything, so the delivery-id header is taken as sent.</li>
 * </ul>
 * A key is remembered as long as its event row: the retention sweep keeps events at least a day, which
 * covers both sides of a replay window (a timestamp may be up to a window ahead) unless the window is set
 * above 12 h with {@code SVC_EVENTS_RETENTION_DAYS=1}.
 */
final class WebhookAuth {

    static final String DEFAULT_SIGNATURE_HEADER = "webhook-signature";
    static final String DEFAULT_TIMESTAMP_HEADER = "webhook-timestamp";
    static final String DEFAULT_ID_HEADER = "webhook-id";
    static final String DEFAULT_SECRET_HEADER = "X-Svc-Token";
    static final String DEFAULT_BASIC_USER = "svc";
    static final long DEFAULT_REPLAY_WINDOW = 300;

    /** What an accepted proof covers, so the de-duplication keys on nothing a replayer can change. */
    enum Binding {
        /** Standard Webhooks: the delivery id, the timestamp and the body are signed together. */
        DELIVERY_ID,
        /** Plain HMAC: the body alone is signed; every header next to it is unsigned. */
        BODY,
        /** static-header, basic: no signature; the request is as good as its secret. */
        SECRET
    }

    /** The outcome: accepted (with what its proof covers), or refused with a reason that is logged and never sent. */
    record Verdict(boolean accepted, String reason, Binding binding) {

        static Verdict ok(Binding binding) {
            return new Verdict(true, "", binding);
        }

        static Verdict no(String reason) {
            return new Verdict(false, reason, Binding.SECRET);
        }
    }

    private WebhookAuth() {
    }

    static Verdict verify(EventSource source, SourceSecrets.Keys secrets, Function<String, Optional<String>> header,
                          byte[] body, Instant now) {
        List<byte[]> keys = new ArrayList<>(2);
        keys.add(secrets.current());
        secrets.previous().ifPresent(keys::add);
        return switch (source.authStrategy()) {
            case STATIC_HEADER -> {
                Optional<String> presented = header.apply(source.setting("secret_header", DEFAULT_SECRET_HEADER));
                yield presented.isEmpty() ? Verdict.no("missing secret header")
                        : anyEqual(keys, presented.get().getBytes(StandardCharsets.UTF_8)) ? Verdict.ok(Binding.SECRET)
                        : Verdict.no("wrong secret");
            }
            case BASIC -> basic(source, keys, header.apply("Authorization"));
            case HMAC_SHA256 -> HmacProofs.verify(source, keys, header, body, now);
        };
    }

    private static Verdict basic(EventSource source, List<byte[]> keys, Optional<String> authorization) {
        if (authorization.isEmpty() || !authorization.get().regionMatches(true, 0, "Basic ", 0, 6)) {
            return Verdict.no("missing basic credentials");
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorization.get().substring(6).strip()),
                    StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Verdict.no("malformed basic credentials");
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return Verdict.no("malformed basic credentials");
        }
        boolean user = constantTimeEquals(decoded.substring(0, colon).getBytes(StandardCharsets.UTF_8),
                source.setting("basic_username", DEFAULT_BASIC_USER).getBytes(StandardCharsets.UTF_8));
        boolean password = anyEqual(keys, decoded.substring(colon + 1).getBytes(StandardCharsets.UTF_8));
        return user & password ? Verdict.ok(Binding.SECRET) : Verdict.no("wrong basic credentials");
    }
}
