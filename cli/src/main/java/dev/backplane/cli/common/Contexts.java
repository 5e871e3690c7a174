package dev.backplane.cli.common;

import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Which backplane, identity, tenant and output a command uses. The backplane: {@code --backplane}, else
 * {@code SVC_BACKPLANE} (both with the URL's own login and no context defaults), else the context named by
 * {@code --context} or {@code SVC_CONTEXT}, else the current context. The tenant: {@code --tenant}, else
 * {@code SVC_TENANT}, else the context's. The output: {@code -o}/{@code --json}, else {@code SVC_OUTPUT}, else the
 * context's, else a table.
 */
public final class Contexts {

    /** What a context name may be: it is typed on command lines and shown in tables. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");

    private Contexts() {
    }

    /** A usage error unless {@code name} can be a context's name. */
    public static void checkName(String name) {
        if (!NAME.matcher(name).matches()) {
            throw CliException.usage("context name '" + name + "': letters, digits, '.', '_' and '-', at most 63, "
                    + "starting with a letter or digit");
        }
    }

    /** A tenant uuid as typed ({@code --tenant}, {@code SVC_TENANT}, a context's), normalised; else a usage error. */
    public static String checkedTenant(String t) {
        try {
            return UUID.fromString(t.trim()).toString();
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--tenant must be a tenant uuid (or current), got '" + t + "'");
        }
    }

    /** The backplane a command talks to, and as whom. */
    public record Chosen(Optional<String> context, String backplane, String identity, Optional<String> tenant) {

        /** How to log this identity in again, for messages. */
        public String loginHint() {
            return "svc login " + backplane + context.filter(c -> !identity.equals(backplane))
                    .map(c -> " --context " + c).orElse("");
        }
    }

    /** The context {@code --context} or {@code SVC_CONTEXT} names, checked to exist. */
    public static Optional<String> named(CliContext ctx, GlobalOptions global, CliConfig config) {
        Optional<String> name = Optional.ofNullable(global.context()).or(() -> ctx.env("SVC_CONTEXT")).map(String::trim);
        name.ifPresent(n -> {
            if (config.context(n).isEmpty()) {
                throw CliException.usage("no context '" + n + "'" + (config.contexts().isEmpty()
                        ? "; svc login <backplane-url> --context " + n + " makes one"
                        : "; the contexts are: " + String.join(", ", config.contexts().keySet())));
            }
        });
        return name;
    }

    /**
     * The backplane, identity and tenant for a command.
     *
     * @param flagBackplane {@code --backplane}, or null
     * @param flagTenant    {@code --tenant}, or null
     */
    public static Chosen choose(CliContext ctx, GlobalOptions global, CliConfig config, String flagBackplane,
                                String flagTenant) {
        Optional<String> explicit = Optional.ofNullable(flagBackplane).or(() -> ctx.env("SVC_BACKPLANE"))
                .map(u -> u.trim().replaceAll("/+$", ""));
        Optional<String> named = named(ctx, global, config);
        Optional<String> tenant = Optional.ofNullable(flagTenant).or(() -> ctx.env("SVC_TENANT"));
        if (explicit.isPresent()) {
            if (named.isPresent() && !config.context(named.get()).orElseThrow().backplane().equals(explicit.get())) {
                throw CliException.usage("context '" + named.get() + "' is for "
                        + config.context(named.get()).orElseThrow().backplane() + ", not " + explicit.get()
                        + "; pass one of --context and --backplane (or SVC_BACKPLANE)");
            }
            if (named.isEmpty()) {
                return new Chosen(Optional.empty(), explicit.get(), explicit.get(), tenant);
            }
        }
        Optional<String> name = named.or(config::currentName);
        if (name.isEmpty()) {
            throw new CliException(ExitCodes.NOT_LOGGED_IN,
                    "no backplane chosen: run svc login <backplane-url> first, or pass --backplane or --context");
        }
        CliConfig.Context c = config.context(name.get()).orElseThrow();
        return new Chosen(name, c.backplane(), c.identity(), tenant.or(() -> Optional.ofNullable(c.tenant())));
    }

    /** Sets the output a command prints when it names none: {@code SVC_OUTPUT}, else the chosen context's. */
    public static void applyOutputDefault(CliContext ctx, GlobalOptions global, BackplaneOptions options) {
        applyOutputDefault(ctx, global, () -> CliConfig.load(global.configFile(ctx)), options);
    }

    static void applyOutputDefault(CliContext ctx, GlobalOptions global, java.util.function.Supplier<CliConfig> file,
                                   BackplaneOptions options) {
        OutputOptions output = options.output();
        if (output.named()) {
            return; // -o or --json: nothing to look up
        }
        Optional<String> fromEnv = ctx.env("SVC_OUTPUT");
        if (fromEnv.isPresent()) {
            output.defaultTo(parse(fromEnv.get(), "SVC_OUTPUT"));
            return;
        }
        boolean byUrl = options.backplane() != null || ctx.env("SVC_BACKPLANE").isPresent();
        if (byUrl && Optional.ofNullable(global.context()).or(() -> ctx.env("SVC_CONTEXT")).isEmpty()) {
            return; // a backplane named by URL uses no context's defaults
        }
        CliConfig config = file.get();
        named(ctx, global, config).or(config::currentName).flatMap(config::context)
                .map(CliConfig.Context::output).filter(o -> !o.isBlank())
                .ifPresent(o -> output.defaultTo(parse(o, "the context's output")));
    }

    private static OutputFormat parse(String value, String where) {
        try {
            return OutputFormat.parse(value);
        } catch (IllegalArgumentException e) {
            throw CliException.usage(where + ": " + e.getMessage());
        }
    }
}
