package dev.backplane.plugin.api.testkit;

import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One fixture (a lab, a replay server, a fake vendor) started before a test class's first test and closed
 * after its last, registered as {@code @RegisterExtension static final ClassFixture<NftLab> LAB = ...}.
 * A fixture that needs something the machine may lack (sshd, named, nft) says why it is unavailable, and
 * the class's tests are then skipped with that reason instead of failing.
 *
 * @param <T> the fixture
 */
public final class ClassFixture<T extends AutoCloseable> implements BeforeAllCallback, AfterAllCallback {

    /** Starts the fixture; may throw whatever starting it throws. */
    @FunctionalInterface
    public interface Start<T> {
        /** The started fixture. */
        T start() throws Exception;
    }

    private final Supplier<Optional<String>> unavailable;
    private final Start<T> start;
    private T fixture;

    private ClassFixture(Supplier<Optional<String>> unavailable, Start<T> start) {
        this.unavailable = unavailable;
        this.start = start;
    }

    /** A fixture this machine can always start. */
    public static <T extends AutoCloseable> ClassFixture<T> of(Start<T> start) {
        return new ClassFixture<>(Optional::empty, start);
    }

    /** A fixture that is started only when {@code unavailable} names no reason; otherwise the class is skipped. */
    public static <T extends AutoCloseable> ClassFixture<T> unless(Supplier<Optional<String>> unavailable, Start<T> start) {
        return new ClassFixture<>(unavailable, start);
    }

    /** The started fixture. */
    public T get() {
        if (fixture == null) {
            throw new IllegalStateException("the fixture is started before the class's first test");
        }
        return fixture;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Optional<String> why = unavailable.get();
        Assumptions.assumeTrue(why.isEmpty(), why.orElse(""));
        fixture = start.start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (fixture != null) {
            T closing = fixture;
            fixture = null;
            closing.close();
        }
    }
}
