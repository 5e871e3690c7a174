package dev.backplane.cli.broadcast;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.OutputFormat;
import dev.backplane.cli.common.Pause;
import dev.backplane.cli.common.QueryString;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * The live tail of {@code svc broadcast watch} and {@code svc status --watch}: prints each event as it
 * arrives (a line, its JSON on one line with {@code --json}, or a YAML document after {@code ---}
 * with {@code -o yaml}). When the server drops the stream (a slow reader,
 * a restart) it says why on stderr and reconnects after the last event it printed, so nothing is
 * skipped; it ends on Ctrl-C or after {@code --count} events.
 */
public final class Watcher {

    private final CliContext ctx;
    private final OutputFormat format;
    private long printed;
    private Optional<String> lastId;

    private Watcher(CliContext ctx, OutputFormat format, Optional<String> from) {
        this.ctx = ctx;
        this.format = format;
        this.lastId = from;
    }

    /** Tails the feed until interrupted, or until {@code count} events were printed. */
    public static void tail(CliContext ctx, Session s, OutputFormat format, String opClass, String principal, String target,
                            Integer count, String fromId) {
        if (opClass != null && !java.util.List.of("read", "write", "credential_read", "other").contains(opClass)) {
            throw CliException.usage("--op-class must be read, write, credential_read or other, got '" + opClass + "'");
        }
        Watcher w = new Watcher(ctx, format, Optional.ofNullable(fromId));
        String path = ApiPaths.BROADCAST_STREAM + QueryString.of().add("op_class", opClass).add("principal", principal)
                .add("target", target);
        int reconnects = 0;
        while (count == null || w.printed < count) {
            boolean[] dropped = {false};
            String[] event = {""};
            s.client().watch(path, w.lastId, l -> {
                if (l.startsWith("event: ")) {
                    event[0] = l.substring(7);
                } else if (l.startsWith("data: ")) {
                    if (event[0].equals("dropped") || event[0].equals("gap")) {
                        ctx.err().println("svc: the stream " + event[0] + ": " + reason(l.substring(6)));
                        ctx.err().flush();
                        dropped[0] = event[0].equals("dropped");
                    } else {
                        w.print(l.substring(6));
                    }
                } else if (l.isEmpty()) {
                    event[0] = "";
                }
                return count == null || w.printed < count;
            });
            if (count != null && w.printed >= count) {
                return;
            }
            if (!dropped[0] && ++reconnects > 5) {
                throw CliException.failed("the broadcast stream keeps ending; giving up after 5 reconnects");
            }
            ctx.err().println("svc: reconnecting" + w.lastId.map(id -> " after event " + id).orElse("") + " ...");
            ctx.err().flush();
            Pause.sleep(Duration.ofMillis(dropped[0] ? 200 : 1_000L * reconnects), "interrupted");
        }
    }

    private void print(String data) {
        try {
            JsonNode e = Http.JSON.readTree(data);
            lastId = Optional.of(e.path("id").asText());
            ctx.out().println(switch (format.kind()) {
                case JSON -> data;
                case YAML -> "---\n" + format.render(e);
                case JSONPATH -> format.render(e);
                case TABLE, WIDE -> BroadcastCommand.line(e);
            });
        } catch (IOException e) {
            ctx.out().println(data);
        }
        ctx.out().flush();
        printed++;
    }

    private static String reason(String data) {
        try {
            return Http.JSON.readTree(data).path("reason").asText(data);
        } catch (IOException e) {
            return data;
        }
    }
}
