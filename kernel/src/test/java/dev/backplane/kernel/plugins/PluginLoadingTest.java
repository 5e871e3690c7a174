package dev.backplane.kernel.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.testing.TestPlugins;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plugin jars built during the test: isolation, side-by-side versions, and every way a jar can be broken. */
class PluginLoadingTest {

    private static final String VISIBILITY = """
            " visible:" + java.util.stream.Stream.of("io.helidon.webserver.WebServer",
                "com.fasterxml.jackson.databind.ObjectMapper", "dev.backplane.kernel.app.Kernel",
                "com.zaxxer.hikari.HikariDataSource", "dev.backplane.plugin.api.Catalog", "org.pf4j.Plugin")
              .map(n -> { try { Class.forName(n, false, FixturePlugin.class.getClassLoader()); return n + "=yes"; }
                          catch (ClassNotFoundException e) { return n + "=no"; } })
              .collect(java.util.stream.Collectors.joining(","))""";

    private static PluginLoading.Result load(Path dir) {
        return PluginLoading.load(dir, Duration.ofSeconds(5));
    }

    private static String firstDescription(LoadedConnector c) {
        return c.catalog().operations().getFirst().description();
    }

    @Test
    void aPluginSeesTheJdkPf4jAndPluginApiButNoKernelClass(@TempDir Path dir) {
        TestPlugins.build(dir, TestPlugins.connector("probe", "1.x").describeWith(VISIBILITY));
        PluginLoading.Result r = load(dir);
        assertThat(r.broken()).isEmpty();
        String seen = firstDescription(r.connectors().getFirst());
        assertThat(seen).contains("io.helidon.webserver.WebServer=no", "com.fasterxml.jackson.databind.ObjectMapper=no",
                "dev.backplane.kernel.app.Kernel=no", "com.zaxxer.hikari.HikariDataSource=no",
                "dev.backplane.plugin.api.Catalog=yes", "org.pf4j.Plugin=yes");
    }

    @Test
    void twoPluginsCarryConflictingVersionsOfOneLibraryAndOfAKernelLibrary(@TempDir Path dir) {
        for (String v : new String[] {"1", "2"}) {
            TestPlugins.build(dir, TestPlugins.connector("lib" + v, "1.x")
                    .withClass("com.example.shared.Lib", "package com.example.shared; public class Lib { "
                            + "public static final String VERSION = \"lib-v" + v + "\"; }")
                    .withClass("com.fasterxml.jackson.databind.ObjectMapper", "package com.fasterxml.jackson.databind; "
                            + "public class ObjectMapper { public static String who() { return \"plugin-jackson-" + v
                            + "\"; } }")
                    .describeWith("\" \" + com.example.shared.Lib.VERSION + \" \" "
                            + "+ com.fasterxml.jackson.databind.ObjectMapper.who()"));
        }
        PluginLoading.Result r = load(dir);
        assertThat(r.broken()).isEmpty();
        Map<String, LoadedConnector> byId = r.connectors().stream()
                .collect(Collectors.toMap(LoadedConnector::connectorId, Function.identity()));
        assertThat(firstDescription(byId.get("lib1-1.x"))).contains("lib-v1", "plugin-jackson-1");
        assertThat(firstDescription(byId.get("lib2-1.x"))).contains("lib-v2", "plugin-jackson-2");
        // the kernel's Jackson is untouched: its ObjectMapper is the library's, not a plugin's stand-in (F14)
        assertThat(java.util.Arrays.stream(com.fasterxml.jackson.databind.ObjectMapper.class.getMethods())
                .map(java.lang.reflect.Method::getName)).as("the kernel's Jackson is untouched").doesNotContain("who")
                .contains("readTree");
        assertThat(com.fasterxml.jackson.databind.ObjectMapper.class.getClassLoader())
                .isSameAs(PluginLoadingTest.class.getClassLoader());
    }

    @Test
    void twoVersionsOfOneImplementationLoadSideBySide(@TempDir Path dir) {
        TestPlugins.build(dir, TestPlugins.connector("harbor", "1.x").ranges("1.x"));
        TestPlugins.build(dir, TestPlugins.connector("harbor", "2.x").ranges("2.x"));
        PluginLoading.Result r = load(dir);
        assertThat(r.broken()).isEmpty();
        assertThat(r.connectors()).extracting(LoadedConnector::connectorId).containsExactly("harbor-1.x", "harbor-2.x");
        assertThat(r.connectors().get(0).classLoader()).isNotSameAs(r.connectors().get(1).classLoader());
    }

    /** A minor version newer than this kernel's plugin-api. */
    private static final String NEWER = dev.backplane.plugin.api.PluginApiVersion.CURRENT.major() + "."
            + (dev.backplane.plugin.api.PluginApiVersion.CURRENT.minor() + 1);

    @Test
    void brokenJarsAreReportedWithTheReasonAndTheRestStillLoad(@TempDir Path dir) {
        TestPlugins.build(dir, TestPlugins.connector("good", "1.x"));
        TestPlugins.build(dir, TestPlugins.connector("noapi", "1.x").manifest("Plugin-Api-Version", null));
        TestPlugins.build(dir, TestPlugins.connector("future", "1.x").manifest("Plugin-Api-Version", "2.0"));
        TestPlugins.build(dir, TestPlugins.connector("newer", "1.x").manifest("Plugin-Api-Version", NEWER));
        TestPlugins.build(dir, TestPlugins.connector("empty", "1.x").withoutExtension());
        TestPlugins.build(dir, TestPlugins.connector("misnamed", "1.x").manifest("Plugin-Id", "something-else"));
        TestPlugins.build(dir, TestPlugins.connector("throws", "1.x")
                .onConnectors("if (true) throw new IllegalStateException(\"boom at start\");"));
        TestPlugins.build(dir, TestPlugins.connector("hangs", "1.x")
                .onConnectors("try { Thread.sleep(60_000); } catch (InterruptedException e) { }"));
        TestPlugins.garbage(dir, "zz-garbage.jar");

        PluginLoading.Result r = PluginLoading.load(dir, Duration.ofMillis(1500));
        assertThat(r.connectors()).extracting(LoadedConnector::connectorId).containsExactly("good-1.x");
        Map<String, String> reasons = r.broken().stream()
                .collect(Collectors.toMap(BrokenPlugin::file, BrokenPlugin::reason));
        assertThat(reasons).hasSize(8);
        assertThat(reasons.get("noapi-1.x.jar")).contains("lacks Plugin-Api-Version");
        assertThat(reasons.get("future-1.x.jar")).contains("built for plugin-api 2.0").contains("offers plugin-api " + dev.backplane.plugin.api.PluginApiVersion.CURRENT);
        assertThat(reasons.get("newer-1.x.jar")).contains("built for plugin-api " + NEWER);
        assertThat(reasons.get("empty-1.x.jar")).contains("registers no ConnectorPlugin");
        assertThat(reasons.get("misnamed-1.x.jar")).contains("must be <Connector-Impl-Id>-<Connector-Version>");
        assertThat(reasons.get("throws-1.x.jar")).contains("boom at start");
        assertThat(reasons.get("hangs-1.x.jar")).contains("did not answer within 1500 ms");
        assertThat(reasons.get("zz-garbage.jar")).contains("not a readable jar");
    }

    @Test
    void aSecondJarWithTheSamePluginIdIsBroken(@TempDir Path dir) throws Exception {
        Path first = TestPlugins.build(dir, TestPlugins.connector("dup", "1.x"));
        java.nio.file.Files.copy(first, dir.resolve("zz-dup-copy.jar"));
        PluginLoading.Result r = load(dir);
        assertThat(r.connectors()).hasSize(1);
        assertThat(r.broken()).singleElement().satisfies(b -> {
            assertThat(b.file()).isEqualTo("zz-dup-copy.jar");
            assertThat(b.reason()).contains("already loaded from dup-1.x.jar");
        });
    }

    @Test
    void aMissingPluginDirectoryLoadsNothing(@TempDir Path dir) {
        PluginLoading.Result r = load(dir.resolve("absent"));
        assertThat(r.connectors()).isEmpty();
        assertThat(r.broken()).isEmpty();
    }

    /** Plugins are trusted code: with a SHA256SUMS list, only listed jars with their exact digest load. */
    @Test
    void withASha256SumsListOnlyListedUnchangedJarsLoad(@TempDir Path dir) throws Exception {
        Path trusted = TestPlugins.build(dir, TestPlugins.connector("trusted", "1.x"));
        Path changed = TestPlugins.build(dir, TestPlugins.connector("changed", "1.x"));
        TestPlugins.build(dir, TestPlugins.connector("unlisted", "1.x"));
        String trustedSum = sha256(trusted);
        String changedSum = sha256(changed);
        java.nio.file.Files.writeString(dir.resolve("SHA256SUMS"), "# deployer-approved plugin jars\n"
                + trustedSum + "  trusted-1.x.jar\n" + changedSum + " *changed-1.x.jar\n");
        java.nio.file.Files.write(changed, new byte[] {1}, java.nio.file.StandardOpenOption.APPEND); // tampered
        PluginLoading.Result r = load(dir);
        assertThat(r.connectors()).extracting(c -> c.connectorId()).containsExactly("trusted-1.x");
        var reasons = new java.util.HashMap<String, String>();
        r.broken().forEach(b -> reasons.put(b.file(), b.reason()));
        assertThat(reasons.get("changed-1.x.jar")).contains("is not the one SHA256SUMS lists");
        assertThat(reasons.get("unlisted-1.x.jar")).contains("not listed in SHA256SUMS");
        assertThat(r.digests()).as("every jar read once, loaded or refused: the plugin set replicas compare")
                .containsEntry("trusted-1.x.jar", trustedSum).containsEntry("changed-1.x.jar", sha256(changed))
                .containsKey("unlisted-1.x.jar").hasSize(3);
    }

    private static String sha256(Path p) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(java.nio.file.Files.readAllBytes(p)));
    }
}
