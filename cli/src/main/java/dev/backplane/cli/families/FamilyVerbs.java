package dev.backplane.cli.families;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.BackplaneOptions;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.GlobalOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine;

/**
 * {@code svc <family> <noun> <verb> --target <t>}: verbs built at run time from the operation catalog
 * the backplane serves (cached, {@link OperationCatalogCache}), so a new connector — a plugin or an
 * ingested vendor spec — gets its verbs with no CLI change. The family is the connector's impl_id;
 * {@code k8s.pod.list} becomes {@code svc k8s pod list}, {@code k8s.about} becomes {@code svc k8s about}, and an
 * ingested spec's {@code docker.container.container_list} becomes {@code svc docker container list}
 * ({@link VerbNames}: the op-id spellings stay as aliases). Params become flags ({@code all_namespaces} →
 * {@code --all-namespaces}, {@code name__ic} → {@code --name-ic}); {@code name} and {@code path} are positional.
 * {@code svc <family> operation search|call|preview ...} are the generic verbs with the family's connector
 * filled in.
 *
 * <p>A family can have several connectors (two versions of one product, a modern and a legacy
 * implementation): its verbs are the union of theirs, and a verb names the newest connector that offers the
 * operation. The CLI never picks the implementation for a target: the backplane's resolver sends the call to
 * the enabled connector that serves {@code --target}'s product and version, and says so in the result.
 */
public final class FamilyVerbs {

    private static final Pattern FAMILY = Pattern.compile("[a-z][a-z0-9-]{0,62}");
    private static final Set<String> WRAPPED = Set.of("search", "call", "preview");
    /** Flags every family verb has already; a params property of the same name gets a --param- prefix. */
    private static final Set<String> RESERVED = Set.of("target", "work-ref", "preview-hash", "json", "tenant",
            "backplane", "config", "verbose", "help", "version", "output");

    private FamilyVerbs() {
    }

    /** Options the root command understands anywhere, read before the real parse to reach the backplane. */
    @CommandLine.Command(name = "svc")
    static final class Early {
        @CommandLine.Mixin
        GlobalOptions global;
        // only what picks the catalog: a bad value of any other option is the verb's to report
        @CommandLine.Option(names = "--backplane")
        String backplane;
        @CommandLine.Option(names = "--tenant")
        String tenant;
        @CommandLine.Parameters
        List<String> rest;
    }

    /**
     * If the command names a family rather than a built-in command, registers that family's verbs on
     * {@code root} (or rewrites a wrapped {@code operation} verb) and returns the arguments to run;
     * otherwise returns them unchanged and picocli reports what it does not know.
     */
    public static String[] prepare(CommandLine root, String[] args, CliContext ctx) {
        int at = commandIndex(args);
        if (at < 0 || root.getSubcommands().containsKey(args[at]) || !FAMILY.matcher(args[at]).matches()) {
            return args;
        }
        String family = args[at];
        Early early = new Early();
        CommandLine parser = new CommandLine(early);
        parser.setUnmatchedArgumentsAllowed(true);
        parser.setUnmatchedOptionsArePositionalParams(true);
        try {
            parser.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            return args;
        }
        List<JsonNode> connectors;
        OperationCatalogCache cache;
        try (Session session = Session.open(ctx, early.global, BackplaneOptions.of(early.backplane, early.tenant))) {
            cache = new OperationCatalogCache(early.global.configFile(ctx).toAbsolutePath().getParent(),
                    session.backplane().toString(), session.tenant());
            String next = args.length > at + 1 ? args[at + 1] : "-";
            connectors = cache.cached().map(c -> connectorsOf(c, family))
                    .filter(l -> !l.isEmpty() && (next.startsWith("-") || names(l).contains(next)))
                    .orElseGet(() -> connectorsOf(cache.fetch(session), family)); // new family or verb: refetch
        } catch (CliException e) {
            return args; // not logged in or unreachable: let picocli say the command is unknown
        }
        if (connectors.isEmpty()) {
            return args;
        }
        String connectorId = connectors.getFirst().path("connector_id").asText();
        if (args.length > at + 2 && args[at + 1].equals("operation") && WRAPPED.contains(args[at + 2])) {
            List<String> rewritten = new ArrayList<>(Arrays.asList(args).subList(0, at));
            rewritten.addAll(List.of("operation", args[at + 2], connectorId));
            rewritten.addAll(Arrays.asList(args).subList(at + 3, args.length));
            return rewritten.toArray(String[]::new);
        }
        root.addSubcommand(family, familySpec(ctx, family, connectors, cache, root.getFactory()));
        return args;
    }

    /**
     * Registers the verbs of every family in the catalog of the backplane {@code options} name (the cached
     * copy while it is fresh, else fetched) on {@code root}, for a completion script that knows them all.
     * A family named like a built-in command is left out, as {@link #prepare} does.
     *
     * @return the families registered
     * @throws CliException when no backplane is chosen, the caller is not logged in or it cannot be reached
     */
    public static List<String> registerAll(CommandLine root, CliContext ctx, GlobalOptions global,
                                           BackplaneOptions options) {
        JsonNode catalog;
        OperationCatalogCache cache;
        try (Session session = Session.open(ctx, global, options)) {
            cache = new OperationCatalogCache(global.configFile(ctx).toAbsolutePath().getParent(),
                    session.backplane().toString(), session.tenant());
            catalog = cache.cached().orElseGet(() -> cache.fetch(session));
        }
        Set<String> families = new java.util.TreeSet<>();
        catalog.path("connectors").forEach(c -> {
            families.add(c.path("impl_id").asText());
            opPrefix(c).ifPresent(families::add);
        });
        List<String> added = new ArrayList<>();
        for (String family : families) {
            if (FAMILY.matcher(family).matches() && !root.getSubcommands().containsKey(family)) {
                List<JsonNode> connectors = connectorsOf(catalog, family);
                root.addSubcommand(family, familySpec(ctx, family, connectors, cache, root.getFactory()));
                added.add(family);
            }
        }
        return added;
    }

    /**
     * The operation catalog of {@code session}'s backplane as the family verbs see it: the cached copy while it is
     * fresh, else fetched (and cached). Shell completion of operation ids reads it.
     */
    public static JsonNode catalog(Session session, CliContext ctx, GlobalOptions global) {
        OperationCatalogCache cache = new OperationCatalogCache(global.configFile(ctx).toAbsolutePath().getParent(),
                session.backplane().toString(), session.tenant());
        return cache.cached().orElseGet(() -> cache.fetch(session));
    }

    /** Index of the first argument that is not a root option (or an option's value); -1 when there is none. */
    public static int commandIndex(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--config") || a.equals("--backplane") || a.equals("--tenant") || a.equals("--context")) {
                i++;
            } else if (!a.startsWith("-")) {
                return i;
            }
        }
        return -1;
    }

    /** The first words of the family's verbs (nouns and top-level verbs, with their aliases), plus operation. */
    private static Set<String> names(List<JsonNode> connectors) {
        Set<String> out = new LinkedHashSet<>(VerbNames.FAMILY_WORDS);
        out.addAll(VerbNames.of(opIds(connectors)).firstWords());
        return out;
    }

    private static Set<String> opIds(List<JsonNode> connectors) {
        Set<String> out = new LinkedHashSet<>();
        connectors.forEach(c -> c.path("operations").forEach(op -> out.add(op.path("op_id").asText())));
        return out;
    }

    /**
     * The family's connectors, newest version first: those whose impl_id is the family, else those whose
     * operations all start with {@code <family>.} ({@code dns-ssh}'s {@code dns.zone.list} is family dns).
     */
    private static List<JsonNode> connectorsOf(JsonNode catalog, String family) {
        List<JsonNode> out = new ArrayList<>();
        catalog.path("connectors").forEach(c -> {
            if (c.path("impl_id").asText().equals(family)) {
                out.add(c);
            }
        });
        if (out.isEmpty()) {
            catalog.path("connectors").forEach(c -> {
                if (opPrefix(c).filter(family::equals).isPresent()) {
                    out.add(c);
                }
            });
        }
        out.sort(Comparator.comparing((JsonNode c) -> c.path("version").asText()).reversed());
        return out;
    }

    /** The first word every operation of the connector shares, if they share one. */
    private static Optional<String> opPrefix(JsonNode connector) {
        Set<String> prefixes = new java.util.HashSet<>();
        connector.path("operations").forEach(op -> prefixes.add(op.path("op_id").asText().split("\\.")[0]));
        return prefixes.size() == 1 ? Optional.of(prefixes.iterator().next()) : Optional.empty();
    }

    /** @param connectors the family's connectors, newest first: an operation several offer is the newest's verb */
    private static CommandSpec familySpec(CliContext ctx, String family, List<JsonNode> connectors,
                                          OperationCatalogCache cache, CommandLine.IFactory factory) {
        String connectorId = connectors.getFirst().path("connector_id").asText();
        List<String> ids = connectors.stream().map(c -> c.path("connector_id").asText()).toList();
        CommandSpec root = node(family, "Verbs of " + String.join(", ", ids) + " (from the backplane's catalog; "
                + (ids.size() > 1 ? "the backplane sends each call to the one that serves --target's version; " : "")
                + "write verbs park for approval like any call).");
        VerbList.install(root);
        Map<String, CommandSpec> nouns = new TreeMap<>();
        Map<String, Set<String>> nounVerbs = new TreeMap<>();
        // newest first, so an operation several connectors offer becomes the newest's verb
        Map<String, String> offeredBy = new java.util.LinkedHashMap<>();
        Map<String, JsonNode> operations = new java.util.LinkedHashMap<>();
        for (JsonNode connector : connectors) {
            for (JsonNode op : connector.path("operations")) {
                String opId = op.path("op_id").asText();
                if (operations.putIfAbsent(opId, op) == null) {
                    offeredBy.put(opId, connector.path("connector_id").asText());
                }
            }
        }
        VerbNames names = VerbNames.of(operations.keySet());
        for (var entry : operations.entrySet()) {
            String opId = entry.getKey();
            VerbNames.Name name = names.name(opId);
            if (name == null) {
                continue;
            }
            CommandSpec leaf = verbSpec(ctx, offeredBy.get(opId), entry.getValue(), name.noun(), cache, factory);
            leaf.aliases(name.verbAliases().toArray(String[]::new));
            if (name.noun() == null) {
                addUnique(root, name.verb(), leaf);
            } else {
                CommandSpec n = nouns.computeIfAbsent(name.noun(), k -> {
                    CommandSpec spec = node(k, "");
                    spec.aliases(name.nounAliases().toArray(String[]::new));
                    VerbList.install(spec);
                    return spec;
                });
                nounVerbs.computeIfAbsent(name.noun(), k -> new LinkedHashSet<>()).add(name.verb());
                addUnique(n, name.verb(), leaf);
            }
        }
        nouns.forEach((noun, spec) -> {
            spec.usageMessage().description(VerbList.summary(nounVerbs.get(noun)));
            addUnique(root, noun, spec);
        });
        CommandSpec operation = node("operation", "The generic verbs with " + connectorId + " filled in: svc " + family
                + " operation search <query> | preview <op_id> | call <op_id> (--target, --params ...).");
        addUnique(root, "operation", operation);
        return root;
    }

    private static void addUnique(CommandSpec parent, String name, CommandSpec child) {
        if (!parent.subcommands().containsKey(name)) {
            parent.addSubcommand(name, new CommandLine(child));
        }
    }

    /** An inner node: running it alone asks for a verb. */
    private static CommandSpec node(String name, String description) {
        CommandSpec[] self = new CommandSpec[1];
        CommandSpec spec = CommandSpec.wrapWithoutInspection((Runnable) () -> {
            throw new CommandLine.ParameterException(self[0].commandLine(), "name a verb; see svc "
                    + self[0].qualifiedName().replaceFirst("^svc ", "") + " --help");
        });
        self[0] = spec;
        spec.name(name).mixinStandardHelpOptions(true);
        spec.usageMessage().description(description);
        return spec;
    }

    private static CommandSpec verbSpec(CliContext ctx, String connectorId, JsonNode op, String noun,
                                        OperationCatalogCache cache, CommandLine.IFactory factory) {
        String opId = op.path("op_id").asText();
        FamilyVerb verb = new FamilyVerb(ctx, connectorId, opId, cache);
        CommandSpec spec = CommandSpec.forAnnotatedObject(verb, factory);
        spec.usageMessage().description(op.path("description").asText() + " [" + opId + ", "
                + op.path("safety_level").asText() + (op.path("requires_approval").asBoolean() ? ", needs approval" : "")
                + "]");
        JsonNode schema = op.path("params_schema");
        Set<String> required = new LinkedHashSet<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        int position = 0;
        for (String property : List.of("name", "path")) {
            JsonNode p = schema.path("properties").path(property);
            if (p.isMissingNode()) {
                continue;
            }
            boolean mandatory = required.contains(property);
            String label = property.equals("name") && noun != null ? "<" + noun + ">" : "<" + property + ">";
            PositionalParamSpec positional = PositionalParamSpec.builder().index(String.valueOf(position++))
                    .arity(mandatory ? "1" : "0..1").paramLabel(mandatory ? label : "[" + property + "]")
                    .type(String.class).description(describe(p)).build();
            spec.addPositional(positional);
            verb.bind(new FamilyVerb.Binding(property, "string", positional));
        }
        schema.path("properties").fieldNames().forEachRemaining(property -> {
            if (property.equals("name") || property.equals("path")) {
                return;
            }
            JsonNode p = schema.path("properties").path(property);
            String type = typeOf(schema, p, 0);
            Set<String> othersOld = new java.util.HashSet<>();
            schema.path("properties").fieldNames().forEachRemaining(other -> {
                if (!other.equals(property)) {
                    String flag = oldFlagName(other);
                    othersOld.add("--" + (RESERVED.contains(flag) ? "param-" + flag : flag));
                }
            });
            List<String> names = optionNames(spec, property, othersOld);
            if (names.isEmpty()) {
                return; // settable through svc operation call --params only
            }
            String flag = flagName(property);
            OptionSpec.Builder b = OptionSpec.builder(names.toArray(String[]::new))
                    .description(describe(p) + (required.contains(property) ? " (required)" : ""))
                    .required(required.contains(property));
            switch (type) {
                case "boolean" -> b.type(Boolean.class).arity("0");
                case "integer" -> b.type(Long.class).paramLabel("<n>");
                case "number" -> b.type(Double.class).paramLabel("<x>");
                case "array" -> b.type(List.class).auxiliaryTypes(String.class).paramLabel("<value>");
                case "object", "json" -> b.type(String.class).paramLabel("<json|@file>");
                default -> b.type(String.class).paramLabel("<" + flag + ">");
            }
            OptionSpec option = b.build();
            spec.addOption(option);
            verb.bind(new FamilyVerb.Binding(property, type, option));
        });
        return spec;
    }

    /**
     * The JSON type a flag takes: the property's {@code type} (the first non-null of a type list), that
     * of a {@code $ref}'d definition, or {@code json} for a composed schema (its value is parsed as JSON).
     */
    static String typeOf(JsonNode root, JsonNode p, int depth) {
        JsonNode type = p.path("type");
        if (type.isTextual()) {
            return type.asText();
        }
        if (type.isArray()) {
            for (JsonNode t : type) {
                if (!t.asText().equals("null")) {
                    return t.asText();
                }
            }
        }
        String ref = p.path("$ref").asText("");
        if (ref.startsWith("#/$defs/") && depth < 8) {
            return typeOf(root, root.path("$defs").path(ref.substring("#/$defs/".length())), depth + 1);
        }
        if (p.has("properties") || p.has("allOf") || p.has("anyOf") || p.has("oneOf")) {
            return "json";
        }
        return "string";
    }

    /**
     * The option names of a params property: its readable flag first ({@code name__ic} → {@code --name-ic}), then
     * the flag it had before ({@code --name--ic}) as an alias. A flag named like a built-in one takes a
     * {@code --param-} prefix; a readable flag that is another property's old flag, or that an option of the verb
     * has already, is left out, so an old flag always means what it meant. A property whose every spelling is taken
     * gets {@code --param-<flag>}, or (should that be taken too) no flag.
     */
    static List<String> optionNames(CommandSpec spec, String property, Set<String> othersOldFlags) {
        List<String> out = new ArrayList<>();
        String readable = flagName(property);
        String old = oldFlagName(property);
        for (String flag : new LinkedHashSet<>(List.of(readable, old))) {
            String name = "--" + (RESERVED.contains(flag) ? "param-" + flag : flag);
            boolean othersOld = !flag.equals(old) && othersOldFlags.contains(name);
            if (!othersOld && !spec.optionsMap().containsKey(name) && !out.contains(name)) {
                out.add(name);
            }
        }
        for (String flag : List.of(readable, old)) {
            String name = "--param-" + flag;
            if (out.isEmpty() && !othersOldFlags.contains(name) && !spec.optionsMap().containsKey(name)) {
                out.add(name); // every other spelling is taken: still settable, never a clash
            }
        }
        return out;
    }

    /**
     * all_namespaces → all-namespaces, labelSelector → label-selector, name__ic → name-ic, X-Request-Id →
     * x-request-id; continue → continue-token (SPEC).
     */
    static String flagName(String property) {
        if (property.equals("continue")) {
            return "continue-token";
        }
        String flag = VerbNames.kebab(VerbNames.words(property));
        return flag.isEmpty() ? oldFlagName(property) : flag;
    }

    /** The flag a property had before readable flags ({@code name__ic} → {@code name--ic}), kept as an alias. */
    static String oldFlagName(String property) {
        if (property.equals("continue")) {
            return "continue-token";
        }
        String flag = property.replaceAll("([a-z0-9])([A-Z])", "$1-$2").replace('_', '-').toLowerCase(Locale.ROOT);
        return flag.replaceAll("^-+", "").isEmpty() ? "param" : flag;
    }

    private static String describe(JsonNode p) {
        StringBuilder d = new StringBuilder(p.path("description").asText(""));
        if (p.has("minimum") || p.has("maximum")) {
            d.append(d.isEmpty() ? "" : " ").append("(").append(p.path("minimum").asText("")).append("..")
                    .append(p.path("maximum").asText("")).append(")");
        }
        if (p.has("enum")) {
            List<String> values = new ArrayList<>();
            p.path("enum").forEach(v -> values.add(v.asText()));
            d.append(d.isEmpty() ? "" : " ").append("one of ").append(values);
        }
        return d.toString();
    }
}
