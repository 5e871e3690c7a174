package dev.backplane.cli;

import dev.backplane.cli.common.BackplaneOptions;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Commands;
import dev.backplane.cli.common.GlobalOptions;
import dev.backplane.cli.families.FamilyVerbs;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code svc __complete <kind> [<prefix>]}: the names of one kind ({@link NameKind}) that start with the prefix, one a
 * line, for the completion scripts of {@code svc completion} to offer where a command takes such a name
 * ({@link NamePositions}). Hidden: shells call it, people do not.
 *
 * <p>It reaches the backplane as every command does ({@link Session#open}: the same backplane, tenant and login), but
 * a shell waiting on TAB must never hang or chatter: the whole lookup gets {@link #TIMEOUT}, after which it answers
 * nothing; it never writes to stderr or reads stdin (no prompt), and any failure — no login, an expired one that
 * cannot be refreshed, an unreachable backplane, a refusal — is an empty answer with exit 0. A login is never started;
 * a stored one is refreshed as any command refreshes it. The names are kept for {@link NameCache#FRESH} (operation ids:
 * the catalog the family verbs keep), so repeated TABs ask once.
 */
@Command(name = "__complete", hidden = true,
        description = "Names for shell completion, one a line (used by the svc completion scripts).")
final class CompleteCommand extends CliCommand {

    /** The longest a completion waits for the backplane, connect and read together, unless the environment says. */
    static final Duration TIMEOUT = Duration.ofMillis(1500);
    /** The environment variable that sets another timeout, in milliseconds (a slow link; tests on a loaded machine). */
    static final String TIMEOUT_ENV = "SVC_COMPLETION_TIMEOUT_MS";

    @Spec CommandSpec spec;

    @Option(names = "--backplane", paramLabel = "<url>", description = "backplane URL (default: SVC_BACKPLANE, else the current context's)")
    String backplane;

    @Option(names = "--tenant", paramLabel = "<uuid>", description = "the tenant whose names to offer")
    String tenant;

    @Parameters(index = "0", paramLabel = "<kind>", description = "target, connector, op-id, approval, agent, "
            + "runbook or event-source")
    String kind;

    @Parameters(index = "1", arity = "0..1", paramLabel = "<prefix>", description = "what is typed so far")
    String prefix;

    @Override
    public void run() {
        NameKind k = NameKind.of(kind).orElseThrow(() -> CliException.usage("unknown kind '" + kind
                + "'; expected one of " + String.join(", ", NameKind.words())));
        GlobalOptions global = Commands.global(spec);
        PrintWriter nowhere = new PrintWriter(Writer.nullWriter());
        CliContext quiet = new CliContext(nowhere, nowhere, new ByteArrayInputStream(new byte[0]), ctx.env());
        Duration timeout = timeout();
        FutureTask<List<String>> lookup = new FutureTask<>(() -> names(quiet, global, k, timeout));
        Thread.ofPlatform().daemon().name("svc-complete").start(lookup);
        List<String> names;
        try {
            names = lookup.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            lookup.cancel(true); // a late answer is of no use; the JVM exits without waiting for the thread
            names = List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            names = List.of();
        }
        String typed = prefix == null ? "" : prefix;
        names.stream().filter(n -> n.startsWith(typed)).forEach(ctx.out()::println);
        ctx.out().flush();
    }

    /** {@link #TIMEOUT}, or {@value #TIMEOUT_ENV} milliseconds when set (100 to 10000; anything else is ignored). */
    private Duration timeout() {
        return ctx.env(TIMEOUT_ENV).flatMap(v -> {
            try {
                long ms = Long.parseLong(v.trim());
                return ms >= 100 && ms <= 10_000 ? Optional.of(Duration.ofMillis(ms)) : Optional.empty();
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }).orElse(TIMEOUT);
    }

    private List<String> names(CliContext quiet, GlobalOptions global, NameKind k, Duration timeout) {
        try (Session session = Session.open(quiet, global, BackplaneOptions.of(backplane, tenant))) {
            if (k == NameKind.OPERATION) {
                return usable(k.names(FamilyVerbs.catalog(session, quiet, global)));
            }
            NameCache cache = new NameCache(global.configFile(quiet).toAbsolutePath().getParent(),
                    session.backplane().toString(), session.client().tenant(), k);
            Optional<List<String>> cached = cache.cached();
            if (cached.isPresent()) {
                return cached.get();
            }
            List<String> names = usable(k.names(session.client().call("GET", k.path, null, timeout).json()));
            cache.keep(names);
            return names;
        }
    }

    /**
     * Sorted, without duplicates and without names a shell should not print: blank ones, and any with a control
     * character (a name is the backplane's data, and a terminal acts on escape sequences).
     */
    static List<String> usable(List<String> names) {
        return names.stream().filter(n -> !n.isBlank() && n.codePoints().noneMatch(Character::isISOControl))
                .distinct().sorted().toList();
    }
}
