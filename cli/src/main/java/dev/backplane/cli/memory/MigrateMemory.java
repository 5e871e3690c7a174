package dev.backplane.cli.memory;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.cli.CliCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.BackplaneOptions;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Commands;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.Tables;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code svc migrate memory}: an agent's local memory directory (one Markdown file per memory with
 * front matter, plus a MEMORY.md index) becomes backplane memory, written through
 * {@code POST /api/v1/memory} with no expiry. Runs on the CLI side: the files never leave the
 * laptop except as the entries the operator confirmed.
 */
@Command(name = "memory", description = {
        "Migrate an agent's local memory files (Markdown with name/description/type front matter) into "
                + "backplane memory.",
        "type user and feedback go to scope user, project, reference and others to user-tenant (front matter "
                + "scope: overrides); entries keep no expiry and are tagged migrated and type:<type>.",
        "Files that look machine-local (home paths, ~/, drive letters, your user name) are skipped unless "
                + "--include-machine-local; MEMORY.md (the index) is never migrated."})
final class MigrateMemory extends CliCommand {
    @Spec CommandSpec spec;
    @Mixin BackplaneOptions options;
    @Option(names = "--source", paramLabel = "<dir>",
            description = "memory directory (default ~/.claude/projects/<project dir as dashes>/memory)")
    Path source;
    @Option(names = "--dry-run", description = "print the plan; write nothing")
    boolean dryRun;
    @Option(names = "--include-machine-local", description = "migrate entries that look machine-local too")
    boolean includeMachineLocal;
    @Option(names = "--mark-migrated", description = "record migrated files (in the CLI config directory) so a "
            + "re-run skips them while they are unchanged")
    boolean markMigrated;
    @Option(names = "--non-interactive", description = "do not ask for confirmation (needed without a terminal)")
    boolean nonInteractive;

    @Override
    public void run() {
        Path dir = Optional.ofNullable(source).orElseGet(() -> LocalMemory.defaultSource(ctx.env()));
        if (!Files.isDirectory(dir)) {
            throw CliException.usage("no memory directory at " + dir + "; name one with --source");
        }
        List<LocalMemory.Planned> plan;
        try {
            plan = LocalMemory.scan(dir, ctx.env("USER").orElse(System.getProperty("user.name")));
        } catch (IOException e) {
            throw CliException.failed("cannot read " + dir + ": " + e.getMessage());
        }
        Optional<Session> session = openSession();
        String backplane = session.map(s -> s.backplane().toString()).orElse("");
        MigrationLedger ledger = MigrationLedger.load(ctx.configDir(), dir);
        List<Row> rows = new ArrayList<>();
        for (LocalMemory.Planned p : plan) {
            Optional<String> skip = p.skip();
            if (skip.isEmpty() && p.machineLocal().isPresent() && !includeMachineLocal) {
                skip = Optional.of("machine-local: " + p.machineLocal().get() + " (--include-machine-local)");
            }
            if (skip.isEmpty() && !backplane.isEmpty() && ledger.migrated(backplane, p.file(), p.sha256())) {
                skip = Optional.of("already migrated, unchanged since (ledger " + ledger.file() + ")");
            }
            rows.add(new Row(p, skip));
        }
        long toMigrate = rows.stream().filter(r -> r.skip().isEmpty()).count();
        try (Session s = session.orElse(null)) {
            if (!dryRun && toMigrate > 0) {
                Session live = session.orElseThrow(() -> new CliException(ExitCodes.NOT_LOGGED_IN, "no backplane "
                        + "chosen: run svc login <backplane-url> first, or pass --backplane"));
                if (!options.json()) {
                    printPlan(dir, backplane, rows);
                }
                confirm(toMigrate, backplane);
                for (Row r : rows) {
                    if (r.skip().isEmpty()) {
                        r.outcome = write(live, r.planned());
                        if (r.outcome.equals("migrated") && markMigrated) {
                            ledger.mark(backplane, r.planned().file(), r.planned().sha256(), r.planned().scope() + "/"
                                    + r.planned().slug());
                        }
                    }
                }
                if (markMigrated) {
                    ledger.save();
                }
            }
        }
        report(dir, backplane, rows, toMigrate);
    }

    /** One file's plan and what became of it. */
    private static final class Row {
        final LocalMemory.Planned planned;
        final Optional<String> skip;
        String outcome;

        Row(LocalMemory.Planned planned, Optional<String> skip) {
            this.planned = planned;
            this.skip = skip;
            this.outcome = skip.isPresent() ? "skipped" : "planned";
        }

        LocalMemory.Planned planned() {
            return planned;
        }

        Optional<String> skip() {
            return skip;
        }
    }

    /** A session when a backplane is chosen; a dry run needs none. */
    private Optional<Session> openSession() {
        try {
            return Optional.of(Session.open(ctx, Commands.global(spec), options));
        } catch (CliException e) {
            if (dryRun && e.exitCode() == ExitCodes.NOT_LOGGED_IN) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Asks on standard input unless --non-interactive; without a terminal or an answer it refuses. */
    private void confirm(long n, String backplane) {
        if (nonInteractive) {
            return;
        }
        if (ctx.in() == System.in && !stdinIsTerminal()) {
            throw CliException.usage("standard input is not a terminal, so there is no one to confirm; re-run "
                    + "with --non-interactive (or --dry-run to see the plan)");
        }
        ctx.err().print("migrate " + n + " memory entr" + (n == 1 ? "y" : "ies") + " to " + backplane + "? [y/N] ");
        ctx.err().flush();
        String answer;
        try {
            answer = new BufferedReader(new InputStreamReader(ctx.in(), StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            answer = null;
        }
        if (answer == null) {
            throw CliException.usage("no answer on standard input; re-run with --non-interactive to migrate "
                    + "without asking");
        }
        if (!List.of("y", "yes").contains(answer.strip().toLowerCase(Locale.ROOT))) {
            throw CliException.failed("aborted: nothing was migrated");
        }
    }

    private static boolean stdinIsTerminal() {
        java.io.Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
        } catch (NoSuchMethodException e) {
            return true; // before Java 22 a console exists only for a terminal
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    private String write(Session s, LocalMemory.Planned p) {
        MemoryWrite req = new MemoryWrite(p.body(), p.scope(), p.slug(), p.tags(), p.target().orElse(null),
                MemoryWrite.NEVER);
        try {
            s.client().call("POST", ApiPaths.MEMORY, req);
            return "migrated";
        } catch (CliException e) {
            if (e.exitCode() == ExitCodes.NOT_LOGGED_IN) {
                throw e;
            }
            return "error: " + e.getMessage();
        }
    }

    private void printPlan(Path dir, String backplane, List<Row> rows) {
        ctx.out().println("memory files in " + dir + (backplane.isEmpty() ? "" : " -> " + backplane));
        List<List<String>> table = new ArrayList<>();
        for (Row r : rows) {
            table.add(List.of(r.planned().file(), r.planned().scope() + "/" + r.planned().slug(),
                    r.skip().map(s -> "skip: " + s).orElse("migrate")));
        }
        Tables.print(ctx, List.of("FILE", "ENTRY", "PLAN"), table);
    }

    private void report(Path dir, String backplane, List<Row> rows, long toMigrate) {
        long migrated = rows.stream().filter(r -> r.outcome.equals("migrated")).count();
        long errored = rows.stream().filter(r -> r.outcome.startsWith("error")).count();
        long skipped = rows.stream().filter(r -> r.skip().isPresent()).count();
        if (options.json()) {
            ObjectNode out = Http.JSON.createObjectNode();
            out.put("source", dir.toString());
            out.put("backplane", backplane);
            out.put("dry_run", dryRun);
            ArrayNode entries = out.putArray("entries");
            for (Row r : rows) {
                ObjectNode e = entries.addObject();
                e.put("file", r.planned().file());
                e.put("scope", r.planned().scope());
                e.put("slug", r.planned().slug());
                r.planned().target().ifPresent(t -> e.put("target_name", t));
                e.putPOJO("tags", r.planned().tags());
                e.put("machine_local", r.planned().machineLocal().orElse(null));
                e.put("action", r.skip().isPresent() ? "skip" : "migrate");
                e.put("reason", r.skip().orElse(null));
                e.put("outcome", dryRun ? "planned" : r.outcome);
            }
            out.putObject("summary").put("migrated", migrated).put("skipped", skipped).put("errored", errored)
                    .put("planned", toMigrate);
            options.output().print(ctx.out(), out);
        } else if (dryRun || toMigrate == 0) {
            printPlan(dir, backplane, rows);
            ctx.out().println(dryRun ? "dry run: " + toMigrate + " to migrate, " + skipped + " skipped; nothing written"
                    : "nothing to migrate (" + skipped + " skipped)");
        } else {
            for (Row r : rows) {
                if (r.outcome.startsWith("error")) {
                    ctx.out().println(r.planned().file() + ": " + r.outcome);
                }
            }
            ctx.out().println("migrated " + migrated + ", skipped " + skipped + ", errored " + errored
                    + (markMigrated ? "; marked in " + MigrationLedger.load(ctx.configDir(), dir).file() : ""));
        }
        if (errored > 0) {
            throw CliException.failed(errored + " memory entr" + (errored == 1 ? "y" : "ies") + " could not be written");
        }
    }
}
