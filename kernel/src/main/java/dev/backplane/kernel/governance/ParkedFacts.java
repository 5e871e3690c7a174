package dev.backplane.kernel.governance;

import java.util.Map;
import java.util.Optional;

/**
 * What the dispatcher records in an approval request's {@code resolved} beside the call itself, typed: the preview
 * of what the call would send, the requester's principal kind and the audit session it was parked in. The
 * dispatcher writes these keys when it parks a call; the console and the API read them back. Requests parked by
 * an older kernel may lack any of them.
 *
 * @param preview       {@code available} and, when true, {@code method}, {@code path}, {@code query}, {@code body};
 *                      when false, {@code why}
 * @param requesterKind {@code human}, {@code agent}, ...
 * @param sessionId     the agent or runbook run (audit session) the call was parked in
 */
public record ParkedFacts(Optional<Map<String, Object>> preview, Optional<String> requesterKind,
                          Optional<String> sessionId) {

    public static final String PREVIEW = "preview";
    public static final String REQUESTER_KIND = "requester_kind";
    public static final String SESSION_ID = "session_id";

    /** Writes these facts into a request's {@code resolved} map (the keys absent stay absent). */
    public void writeTo(Map<String, Object> resolved) {
        preview.ifPresent(p -> resolved.put(PREVIEW, p));
        requesterKind.ifPresent(k -> resolved.put(REQUESTER_KIND, k));
        sessionId.ifPresent(s -> resolved.put(SESSION_ID, s));
    }

    /** The facts recorded in {@code approval}'s {@code resolved}. */
    @SuppressWarnings("unchecked")
    public static ParkedFacts of(Approvals.Approval approval) {
        Map<String, Object> resolved = approval.resolved();
        return new ParkedFacts(
                resolved.get(PREVIEW) instanceof Map<?, ?> m ? Optional.of((Map<String, Object>) m) : Optional.empty(),
                Optional.ofNullable(resolved.get(REQUESTER_KIND)).map(String::valueOf),
                Optional.ofNullable(resolved.get(SESSION_ID)).map(String::valueOf));
    }
}
