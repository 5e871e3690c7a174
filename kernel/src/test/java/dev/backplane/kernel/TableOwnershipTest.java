package dev.backplane.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each table belongs to one capability: the package whose code writes it ({@code INSERT INTO}, {@code UPDATE},
 * {@code DELETE FROM}). Another package that names it in SQL reaches into that capability's room, past its service.
 * ArchUnit sees calls, not the text of SQL strings, so this rule reads the sources: the tables the Flyway migrations
 * create, and the table names after {@code FROM}, {@code JOIN}, {@code INTO}, {@code UPDATE} in each kernel package's
 * code (comments left out). {@link #FOREIGN_TABLES} is the debt when the rule came in, a ratchet like
 * {@link ArchitectureTest#SQL_OUTSIDE_STORES}: a new foreign use fails, and so does an entry no longer true.
 */
class TableOwnershipTest {

    private static final Path KERNEL = Path.of("src/main/java/dev/backplane/kernel");
    private static final Path MIGRATIONS = Path.of("src/main/resources/db/migration");
    private static final Pattern CREATE = Pattern.compile(
            "CREATE\\s+(?:UNLOGGED\\s+)?TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?([a-z_][a-z0-9_]*)", Pattern.CASE_INSENSITIVE);
    private static final Pattern NAMED = Pattern.compile("\\b(FROM|JOIN|INTO|UPDATE)\\s+([a-z_][a-z0-9_]*)");
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    /** {@code package -> table}: a package naming a table another package writes (to shrink). */
    static final Set<String> FOREIGN_TABLES = Set.of(
            "agents -> dashboards",
            "agents -> scheduler_triggers",
            "app -> agent_runs",
            "app -> background_jobs",
            "app -> event_deliveries",
            "app -> governance_approvals",
            "audit -> tenancy_principal_names",
            "dashboards -> sensor_results",
            "dashboards -> sensors",
            "governance -> tenancy_principal_names",
            "quality -> retrieval_searches",
            "topology -> targets_aliases",
            "topology -> targets_targets");

    /** Tables more than one package writes (to shrink). */
    static final Set<String> SHARED_WRITES = Set.of("retrieval_chunks");

    private static Set<String> tables;
    /** table -> the packages writing it; table -> the packages naming it at all. */
    private static final Map<String, Set<String>> writers = new TreeMap<>();
    private static final Map<String, Set<String>> users = new TreeMap<>();

    @BeforeAll
    static void read() throws IOException {
        tables = new TreeSet<>();
        try (Stream<Path> files = Files.list(MIGRATIONS)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".sql")).toList()) {
                Matcher m = CREATE.matcher(Files.readString(f));
                while (m.find()) {
                    tables.add(m.group(1).toLowerCase());
                }
            }
        }
        try (Stream<Path> files = Files.walk(KERNEL)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String pkg = KERNEL.relativize(f).getName(0).toString();
                String code = COMMENT.matcher(Files.readString(f)).replaceAll("");
                Matcher m = NAMED.matcher(code);
                while (m.find()) {
                    String table = m.group(2);
                    if (!tables.contains(table)) {
                        continue;
                    }
                    users.computeIfAbsent(table, k -> new TreeSet<>()).add(pkg);
                    boolean write = m.group(1).equals("INTO") || m.group(1).equals("UPDATE")
                            || code.startsWith("DELETE ", Math.max(0, m.start() - 7));
                    if (write) {
                        writers.computeIfAbsent(table, k -> new TreeSet<>()).add(pkg);
                    }
                }
            }
        }
    }

    @Test
    void theRuleSeesTheSchema() {
        assertThat(tables).as("tables the migrations create").hasSizeGreaterThan(40)
                .contains("targets_targets", "audit_rows", "governance_approvals");
        assertThat(writers.get("targets_targets")).containsExactly("targets");
        assertThat(writers.get("audit_rows")).containsExactly("audit");
    }

    @Test
    void eachTableIsWrittenByOnePackage() {
        Set<String> shared = new TreeSet<>();
        writers.forEach((table, pkgs) -> {
            if (pkgs.size() > 1) {
                shared.add(table);
            }
        });
        assertThat(shared).as("tables written by more than one package: " + writers).isEqualTo(SHARED_WRITES);
    }

    @Test
    void packagesNameOnlyTheTablesTheyWrite() {
        Set<String> foreign = new TreeSet<>();
        users.forEach((table, pkgs) -> pkgs.stream()
                .filter(p -> !writers.getOrDefault(table, Set.of()).contains(p))
                .filter(p -> writers.containsKey(table)) // a table only a library writes (db-scheduler) has no owner
                .forEach(p -> foreign.add(p + " -> " + table)));
        assertThat(foreign).as("SQL naming another capability's table (go through its service instead)")
                .isSubsetOf(FOREIGN_TABLES);
        assertThat(FOREIGN_TABLES).as("entries no longer true: take them off the list").isSubsetOf(foreign);
    }
}
