package dev.backplane.kernel.broadcast;

import dev.backplane.kernel.util.JsonMapping;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * One {@code GET /api/v1/broadcast/stream}: server-sent events, each {@code id: <stream id>},
 * {@code event: <kind>} and the event as JSON data. With {@code Last-Event-ID} the stream first
 * replays what the client missed (up to {@value #MAX_REPLAY} events; beyond that a {@code gap} event
 * says to page {@code broadcast recent}), then goes live. A comment line is a heartbeat while nothing
 * happens; a stream the hub drops ends with a {@code dropped} event giving the reason. The console's change signal
 * ({@link #signals}) is the same live loop with each event reduced to its kind.
 */
public final class BroadcastStream {

    static final int MAX_REPLAY = 10_000;
    private static final int REPLAY_PAGE = 500;

    private BroadcastStream() {
    }

    /** Streams to {@code out} until the client goes away or the hub drops {@code sub} (opened before the replay). */
    static void run(BroadcastFeed feed, BroadcastHub hub, BroadcastSubscription sub, UUID tenant, BroadcastFilter filter,
                    Optional<Long> lastEventId, Duration heartbeat, OutputStream out) throws IOException, InterruptedException {
        try {
            write(out, "retry: 3000\n: streaming broadcast events\n\n");
            Set<Long> replayed = new HashSet<>();
            if (lastEventId.isPresent()) {
                long after = lastEventId.get();
                while (replayed.size() < MAX_REPLAY) {
                    List<BroadcastEvent> page = feed.after(tenant, filter, after, REPLAY_PAGE);
                    for (BroadcastEvent e : page) {
                        write(out, event(e));
                        replayed.add(e.id());
                        after = e.id();
                    }
                    if (page.size() < REPLAY_PAGE) {
                        break;
                    }
                }
                if (replayed.size() >= MAX_REPLAY) {
                    write(out, "event: gap\ndata: " + JsonMapping.write(Map.of("reason", "more than " + MAX_REPLAY
                            + " events were missed; page the rest with svc broadcast recent --cursor " + after))
                            + "\n\n");
                }
            }
            live(sub, heartbeat, out, e -> replayed.remove(e.id()) ? null : event(e));
        } finally {
            hub.unsubscribe(sub);
        }
    }

    /**
     * The console's change signal: {@code event: change} with only the event's kind as data, one per event {@code sub}
     * receives, no replay (a page reads its own live parts again on every (re)connect); heartbeats and the
     * {@code dropped} end as {@link #run}'s. Unsubscribes {@code sub} when it returns.
     */
    public static void signals(BroadcastHub hub, BroadcastSubscription sub, Duration heartbeat, OutputStream out)
            throws IOException, InterruptedException {
        try {
            write(out, "retry: 3000\n: console live updates\n\n");
            live(sub, heartbeat, out, e -> "event: change\ndata: " + e.kind() + "\n\n");
        } finally {
            hub.unsubscribe(sub);
        }
    }

    /** Each event {@code sub} receives as {@code render} writes it (null: skip it), a heartbeat while none comes. */
    private static void live(BroadcastSubscription sub, Duration heartbeat, OutputStream out,
                             Function<BroadcastEvent, String> render) throws IOException, InterruptedException {
        while (true) {
            Optional<BroadcastEvent> next = sub.next(heartbeat.toMillis());
            if (next.isPresent()) {
                String text = render.apply(next.get());
                if (text != null) {
                    write(out, text);
                }
                continue;
            }
            if (sub.droppedBecause().isPresent()) {
                write(out, "event: dropped\ndata: " + JsonMapping.write(Map.of("reason", sub.droppedBecause().get()))
                        + "\n\n");
                return;
            }
            write(out, ": heartbeat\n\n");
        }
    }

    private static String event(BroadcastEvent e) {
        return "id: " + e.id() + "\nevent: " + e.kind() + "\ndata: " + JsonMapping.write(e) + "\n\n";
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
