package dev.backplane.cli;

import dev.backplane.cli.admin.AdminCommand;
import dev.backplane.cli.agents.AgentCommand;
import dev.backplane.cli.automation.AutomationCommand;
import dev.backplane.cli.broadcast.BroadcastCommand;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.GlobalOptions;
import dev.backplane.cli.common.Terminal;
import dev.backplane.cli.connectors.ConnectorCommand;
import dev.backplane.cli.contexts.ContextCommand;
import dev.backplane.cli.connectors.OperationCommand;
import dev.backplane.cli.conventions.ConventionsCommand;
import dev.backplane.cli.dashboards.DashboardCommand;
import dev.backplane.cli.docs.DocsCommand;
import dev.backplane.cli.events.EventSourceCommand;
import dev.backplane.cli.events.EventsCommand;
import dev.backplane.cli.features.FeaturesCommand;
import dev.backplane.cli.governance.AgentPrincipalCommand;
import dev.backplane.cli.governance.ApprovalsCommand;
import dev.backplane.cli.governance.AuditCommand;
import dev.backplane.cli.governance.ServicePrincipalsCommand;
import dev.backplane.cli.kb.KbCommand;
import dev.backplane.cli.memory.ListMemory;
import dev.backplane.cli.memory.MigrateCommand;
import dev.backplane.cli.memory.Promote;
import dev.backplane.cli.memory.Recall;
import dev.backplane.cli.memory.Remember;
import dev.backplane.cli.retrieval.RetrievalCommand;
import dev.backplane.cli.runbooks.RunbookCommand;
import dev.backplane.cli.topology.TopologyCommand;
import dev.backplane.cli.scheduler.SchedulerCommand;
import dev.backplane.cli.sensors.SensorCommand;
import dev.backplane.cli.targets.TargetsCommand;
import dev.backplane.cli.tenants.TenantsCommand;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine;

/**
 * The {@code svc} operator CLI. {@link #run} is the in-process entry point tests use; {@link #main}
 * is the only place that exits the JVM.
 */
@Command(name = "svc", mixinStandardHelpOptions = true, versionProvider = VersionCommand.Provider.class,
        description = "Operator CLI of the svc governance backplane.")
public final class Svc implements Runnable, dev.backplane.cli.common.Commands.Root {

    /**
     * The top-level commands, in the order help lists them. A command line gets only the one it names (see
     * {@link #addCommands}): picocli reads every command's and verb's annotations when a command is added, and the
     * whole tree (about 190 verbs) costs about 200 ms — most of a command's start-up.
     */
    static final List<Class<?>> COMMANDS = List.of(LoginCommand.class, LogoutCommand.class, StatusCommand.class,
            VersionCommand.class, FeaturesCommand.class, TenantsCommand.class, TargetsCommand.class, ConnectorCommand.class,
            OperationCommand.class, ApprovalsCommand.class, AuditCommand.class, KbCommand.class, DocsCommand.class,
            Remember.class, Recall.class, ListMemory.class, Promote.class, MigrateCommand.class,
            RetrievalCommand.class, AgentPrincipalCommand.class, AgentCommand.class, SchedulerCommand.class,
            ServicePrincipalsCommand.class, AdminCommand.class, EventSourceCommand.class, EventsCommand.class,
            BroadcastCommand.class, AutomationCommand.class, RunbookCommand.class, TopologyCommand.class,
            SensorCommand.class, DashboardCommand.class, ConventionsCommand.class, CompletionCommand.class,
            ContextCommand.class, CommandLine.HelpCommand.class, CompleteCommand.class);

    /** Commands that walk all the others: help lists them, completion describes them. */
    private static final java.util.Set<Class<?>> WHOLE_TREE = java.util.Set.of(CompletionCommand.class,
            CommandLine.HelpCommand.class);

    @Mixin GlobalOptions global;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command; see svc --help");
    }

    @Override
    public GlobalOptions global() {
        return global;
    }

    public static void main(String[] args) {
        // the CLI logs nothing through its libraries (json-path, dbus-java use slf4j, with no provider here): without
        // this slf4j would warn on stderr that it has none. A provider jar is no answer: the CLI jar's manifest would
        // put it on the class path of every JVM that has the CLI jar, the kernel's tests among them.
        System.setProperty("slf4j.internal.verbosity", "ERROR");
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        int code = run(args, new CliContext(out, err, System.in, System.getenv(), Terminal.detect(System.getenv())));
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Runs one command line and returns its exit code; never exits the JVM. */
    public static int run(String[] args, CliContext ctx) {
        CommandLine cl = new CommandLine(Svc.class, new Factory(ctx));
        // commands and family verbs are added first: the settings below reach every subcommand present when they are made
        String[] effective = addCommands(cl, args, ctx);
        addHelpOptions(cl);
        cl.setOut(ctx.out());
        cl.setErr(ctx.err());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExpandAtFiles(false); // @path means "read this value from a file" on svc flags
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof CliException e) {
                if (!e.reported()) {
                    ctx.err().println("error: " + e.getMessage());
                }
                ctx.err().flush();
                return e.exitCode();
            }
            ctx.err().println("error: " + ex);
            ex.printStackTrace(ctx.err());
            ctx.err().flush();
            return ExitCodes.FAILED;
        });
        cl.setParameterExceptionHandler((ex, args2) -> {
            if (ex instanceof CommandLine.UnmatchedArgumentException u) {
                // name what was not understood, but never echo the value typed after an unknown option:
                // it may be a secret (svc event-source add --secret <value>)
                List<String> shown = new java.util.ArrayList<>();
                int hidden = 0;
                boolean afterOption = false;
                for (String a : u.getUnmatched()) {
                    if (a.startsWith("-")) {
                        shown.add("'" + (a.contains("=") ? a.substring(0, a.indexOf('=')) + "=…" : a) + "'");
                        afterOption = !a.contains("=");
                    } else if (afterOption) {
                        hidden++;
                        afterOption = false;
                    } else {
                        shown.add("'" + a + "'");
                    }
                }
                ctx.err().println("error: not understood: " + String.join(", ", shown)
                        + (hidden > 0 ? " (and " + hidden + " value(s) after unknown options, not shown)" : ""));
            } else {
                ctx.err().println("error: " + ex.getMessage());
            }
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, ctx.err());
            ctx.err().println("see: " + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help");
            ctx.err().flush();
            return ExitCodes.USAGE;
        });
        int code = cl.execute(effective);
        ctx.out().flush();
        ctx.err().flush();
        return code;
    }

    /**
     * Adds the top-level command {@code args} names, or the connector family verbs it names (then the command a
     * family's line is rewritten to, if any), and answers the arguments to run. A line that names no command, names
     * help or completion, or names a word that is neither a command nor a family gets every command, so help lists
     * them all and picocli can suggest the nearest to a mistyped one.
     */
    static String[] addCommands(CommandLine cl, String[] args, CliContext ctx) {
        java.util.Optional<Class<?>> named = named(args);
        if (named.isPresent() && !WHOLE_TREE.contains(named.get())) {
            cl.addSubcommand(named.get());
            return args;
        }
        if (named.isEmpty() && dev.backplane.cli.families.FamilyVerbs.commandIndex(args) >= 0) {
            String[] effective = dev.backplane.cli.families.FamilyVerbs.prepare(cl, args, ctx);
            if (!cl.getSubcommands().isEmpty()) {
                return effective; // the family's verbs
            }
            java.util.Optional<Class<?>> rewritten = named(effective);
            if (effective != args && rewritten.isPresent()) {
                cl.addSubcommand(rewritten.get()); // svc <family> operation <verb> ... runs svc operation <verb>
                return effective;
            }
        }
        COMMANDS.forEach(cl::addSubcommand);
        return args;
    }

    /** The whole command tree, as {@code svc --help} sees it (for tests that walk every verb). */
    public static CommandLine commandTree() {
        CommandLine cl = new CommandLine(Svc.class);
        COMMANDS.forEach(cl::addSubcommand);
        return cl;
    }

    /** The top-level command whose name or alias is the line's command word. */
    private static java.util.Optional<Class<?>> named(String[] args) {
        int at = dev.backplane.cli.families.FamilyVerbs.commandIndex(args);
        if (at < 0) {
            return java.util.Optional.empty();
        }
        return COMMANDS.stream().filter(c -> {
            Command command = c.getAnnotation(Command.class);
            return command.name().equals(args[at]) || List.of(command.aliases()).contains(args[at]);
        }).findFirst();
    }

    /** {@code -h/--help} on every command and verb, not only on {@code svc} itself. */
    static void addHelpOptions(CommandLine cl) {
        CommandLine.Model.CommandSpec spec = cl.getCommandSpec();
        if (spec.findOption("--help") == null && spec.findOption("-h") == null) {
            spec.addOption(CommandLine.Model.OptionSpec.builder("-h", "--help").usageHelp(true)
                    .description("Show this help message and exit.").build());
        }
        cl.getSubcommands().values().forEach(Svc::addHelpOptions);
    }

    /** Convenience for tests and scripts. */
    public static int run(String[] args, PrintWriter out, PrintWriter err, InputStream in, Map<String, String> env) {
        return run(args, new CliContext(out, err, in, env));
    }

    /** Creates commands with picocli's default factory and hands each {@link CliCommand} the context. */
    private record Factory(CliContext ctx) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> cls) throws Exception {
            K created = CommandLine.defaultFactory().create(cls);
            if (created instanceof CliCommand command) {
                command.useContext(ctx);
            }
            return created;
        }
    }
}
