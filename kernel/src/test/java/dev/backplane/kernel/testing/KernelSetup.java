package dev.backplane.kernel.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Deque;
import java.util.Map;

/** What a {@link BeforeKernel} method may prepare before a {@link KernelTest} class's kernel starts. */
public final class KernelSetup {

    private final Path work;
    private final TestIssuer issuer;
    private final Map<String, String> settings;
    private final Deque<AutoCloseable> fixtures;

    KernelSetup(Path work, TestIssuer issuer, Map<String, String> settings, Deque<AutoCloseable> fixtures) {
        this.work = work;
        this.issuer = issuer;
        this.settings = settings;
        this.fixtures = fixtures;
    }

    /** The class's temporary work directory. */
    public Path work() {
        return work;
    }

    /** The kernel's plugin directory ({@code work/plugins}). */
    public Path plugins() {
        return work.resolve("plugins");
    }

    /** The kernel's data directory ({@code work/data}). */
    public Path data() {
        return work.resolve("data");
    }

    /** The issuer the kernel will trust. */
    public TestIssuer issuer() {
        return issuer;
    }

    /** Sets a kernel setting by environment-variable name; {@code null} removes it. */
    public KernelSetup setting(String name, String value) {
        settings.compute(name, (n, old) -> value); // a null value removes the entry
        return this;
    }

    /** Builds a plugin jar into the plugin directory. */
    public Path plugin(TestPlugins.Spec spec) {
        return TestPlugins.build(plugins(), spec);
    }

    /**
     * Copies the plugin jar the build names in the system property {@code jarProperty} (a plugin module's own
     * jar, for its ITs) into the plugin directory as {@code fileName}.
     */
    public Path pluginJar(String jarProperty, String fileName) throws IOException {
        return Files.copy(Path.of(System.getProperty(jarProperty)), plugins().resolve(fileName));
    }

    /** Closes {@code fixture} after the kernel and the issuer (fixtures close last registered first). */
    public <T extends AutoCloseable> T closeAfter(T fixture) {
        fixtures.push(fixture);
        return fixture;
    }
}
