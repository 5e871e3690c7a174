package dev.backplane.kernel;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The kernel's package graph as rules, so a regression fails the build instead of waiting for a
 * review (ARCHITECTURE §4, CONVENTIONS "Where to go further"). Run alone with
 * {@code mvn -pl kernel test -Dtest=ArchitectureTest}.
 */
class ArchitectureTest {

    /**
     * The kernel's top-level packages from the bottom up: a package may depend only on packages
     * before it. {@code errors} and {@code util} are leaves; {@code http} sits on {@code identity};
     * capabilities follow in the order they build on each other; {@code mcp} and {@code app} (the
     * wiring) are on top.
     */
    static final List<String> LAYERS = List.of("errors", "util", "persistence", "identity", "http", "tenancy", "audit",
            "tools", "broadcast", "jobs", "results", "retrieval", "credentials", "egress", "plugins", "catalog", "targets", "governance",
            "dispatch", "kb", "memory", "docs", "conventions", "events", "agents", "scheduler", "runbooks", "topology",
            "sensors", "dashboards", "notifications", "quality", "mcp", "console",
            "app");

    /** Dependencies that run against {@link #LAYERS}, allowed by name (the budget is two; today none). */
    static final Set<String> ALLOWED_BACK_EDGES = Set.of();

    private static JavaClasses kernel;
    private static JavaClasses pluginApi;

    @BeforeAll
    static void importClasses() {
        kernel = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.backplane.kernel");
        pluginApi = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("dev.backplane.plugin.api");
    }

    private static String topPackage(JavaClass c) {
        String rest = c.getPackageName().substring("dev.backplane.kernel".length());
        if (rest.isEmpty()) {
            return "";
        }
        int dot = rest.indexOf('.', 1);
        return dot < 0 ? rest.substring(1) : rest.substring(1, dot);
    }

    @Test
    void everyTopLevelPackageHasAPlaceInTheLayers() {
        Set<String> packages = new TreeSet<>();
        kernel.forEach(c -> packages.add(topPackage(c)));
        assertThat(LAYERS).containsAll(packages);
    }

    /**
     * Every top-level kernel package says what it owns in a {@code package-info.java}: a javadoc paragraph of a
     * sentence or more on the package declaration (CONVENTIONS: a newcomer reads the package before its classes).
     */
    @Test
    void everyTopLevelPackageSaysWhatItOwns() throws java.io.IOException {
        java.nio.file.Path root = java.nio.file.Path.of("src/main/java/dev/backplane/kernel");
        Set<String> missing = new TreeSet<>();
        for (String pkg : LAYERS) {
            java.nio.file.Path info = root.resolve(pkg).resolve("package-info.java");
            String text = java.nio.file.Files.isRegularFile(info) ? java.nio.file.Files.readString(info) : "";
            int open = text.indexOf("/**");
            int close = text.indexOf("*/");
            String doc = open >= 0 && close > open ? text.substring(open + 3, close).replaceAll("(?m)^\\s*\\*", " ")
                    .strip() : "";
            if (!text.contains("package dev.backplane.kernel." + pkg + ";") || doc.split("\\s+").length < 12
                    || !doc.contains(".")) {
                missing.add(pkg);
            }
        }
        assertThat(missing).as("packages without a package-info.java that says what they own").isEmpty();
    }

    @Test
    void thePackageGraphHasNoCycles() {
        slices().matching("dev.backplane.kernel.(*)..").should().beFreeOfCycles().check(kernel);
    }

    @Test
    void noDependencyRunsBackUpTheLayers() {
        Set<String> backEdges = new TreeSet<>();
        for (JavaClass c : kernel) {
            String from = topPackage(c);
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass target = d.getTargetClass();
                if (!target.getPackageName().startsWith("dev.backplane.kernel.")) {
                    continue;
                }
                String to = topPackage(target);
                if (!to.equals(from) && LAYERS.indexOf(to) > LAYERS.indexOf(from)) {
                    backEdges.add(from + " -> " + to + " (" + c.getSimpleName() + " uses " + target.getSimpleName() + ")");
                }
            }
        }
        assertThat(backEdges.stream().map(e -> e.substring(0, e.indexOf(" ("))).distinct().toList())
                .as("back-edges: %s", backEdges).isSubsetOf(ALLOWED_BACK_EDGES);
    }

    @Test
    void servicesAreFreeOfHelidonTypes() {
        noClasses().that().resideOutsideOfPackages("..kernel.http..", "..kernel.app..", "..kernel.mcp..")
                .and().haveSimpleNameNotEndingWith("Routes")
                .should().dependOnClassesThat().resideInAPackage("io.helidon..")
                .because("only route classes, http, mcp and the wiring speak HTTP; services raise DomainException")
                .check(kernel);
    }

    @Test
    void pluginsAreCalledOnlyThroughTheDispatcherAndTheProbe() {
        noClasses().that().resideOutsideOfPackages("..kernel.dispatch..", "..kernel.targets..", "..kernel.plugins..",
                        "..kernel.app..")
                .should().callMethodWhere(com.tngtech.archunit.core.domain.JavaCall.Predicates.target(
                        com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner(
                                com.tngtech.archunit.core.domain.properties.HasName.Predicates.name(
                                        "dev.backplane.kernel.plugins.ConnectorSessions"))))
                .because("every operation enters through the dispatcher's one entry point; a target's probe is the "
                        + "only other call into a connector")
                .check(kernel);
    }

    /**
     * Issue 42's tool registry: a tool is declared once, by the capability that owns what it calls (a class named
     * {@code <Capability>Tools}), and the surfaces that offer tools (MCP, agent runs) read them from the registry,
     * never from a capability's declarations, so a tool's name exists once.
     */
    @Test
    void toolsAreDeclaredByTheirCapabilitiesAndReadFromTheRegistry() {
        var declaresATool = com.tngtech.archunit.core.domain.JavaCall.Predicates.target(
                com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner(
                        com.tngtech.archunit.core.domain.properties.HasName.Predicates.name(
                                dev.backplane.kernel.tools.Tool.class.getName())));
        noClasses().that().haveSimpleNameNotEndingWith("Tools").and().resideOutsideOfPackage("..kernel.tools..")
                .should().callConstructorWhere(declaresATool)
                .orShould().callMethod(dev.backplane.kernel.tools.Tool.class, "of", String.class, String.class,
                        String.class, dev.backplane.kernel.identity.Role.class, dev.backplane.kernel.tools.Tool.Effect.class,
                        java.util.function.BiFunction.class)
                .because("a tool is declared by its capability's <Capability>Tools class")
                .check(kernel);
        noClasses().that().resideInAnyPackage("..kernel.mcp..", "..kernel.agents..")
                .should().dependOnClassesThat().haveSimpleNameEndingWith("Tools")
                .because("MCP and agent runs offer the tools of a ToolRegistry, which the wiring assembles")
                .check(kernel);
    }

    /**
     * Issue 42's store rule: SQL runs in a capability's {@code <Capability>Store} (or the persistence package), not
     * in its rules. {@link #SQL_OUTSIDE_STORES} is the debt left when the rule came in, a ratchet: a class not on it
     * that runs SQL fails, and so does a class on it that no longer does (take it off the list).
     */
    @Test
    void sqlRunsInStores() {
        Set<String> runsSql = new TreeSet<>();
        for (JavaClass c : kernel) {
            String outer = c.getName().contains("$") ? c.getName().substring(0, c.getName().indexOf('$')) : c.getName();
            String simple = outer.substring(outer.lastIndexOf('.') + 1);
            if (topPackage(c).equals("persistence") || simple.endsWith("Store")) {
                continue;
            }
            boolean sql = c.getMethodCallsFromSelf().stream().anyMatch(call ->
                    call.getTargetOwner().getName().equals("dev.backplane.kernel.persistence.Jdbc")
                            && Set.of("query", "queryOne", "update", "inTransaction").contains(call.getName()))
                    || c.getMethodCallsFromSelf().stream().anyMatch(call ->
                    call.getTargetOwner().getName().equals("java.sql.Connection")
                            && call.getName().startsWith("prepare"));
            if (sql) {
                runsSql.add(topPackage(c) + "." + simple);
            }
        }
        assertThat(runsSql).as("classes outside a *Store that run SQL (move it into the capability's store)")
                .isSubsetOf(SQL_OUTSIDE_STORES);
        assertThat(SQL_OUTSIDE_STORES).as("classes on the debt list that no longer run SQL: take them off")
                .isSubsetOf(runsSql);
    }

    /**
     * Classes that still run SQL outside a store (issue 42's debt, to shrink): 42 when the rule came in; one left
     * after every capability moved its SQL into stores and the audit log into AuditStore and AuditQueryStore (issue
     * 43) — the metrics gauges. One per line, so that two changes taking names off do not collide.
     */
    static final Set<String> SQL_OUTSIDE_STORES = Set.of(
            "app.KernelMetrics");

    @Test
    void pluginApiIsJdkOnly() {
        classes().that().resideInAPackage("dev.backplane.plugin.api..")
                .and().resideOutsideOfPackage("dev.backplane.plugin.api.testkit..")
                .should().onlyDependOnClassesThat(JavaClass.Predicates.resideInAnyPackage("java..", "javax..",
                        "dev.backplane.plugin.api..").or(JavaClass.Predicates.equivalentTo(org.pf4j.ExtensionPoint.class)))
                .because("the SPI is JDK-only but for PF4J's extension marker, so plugins build against nothing else")
                .check(pluginApi);
    }
}
