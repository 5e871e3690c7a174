package dev.backplane.kernel.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An integration test against one real kernel per test class (see {@link KernelExtension}).
 *
 * <p>Before the class's {@code @BeforeAll} methods run: a {@link TestIssuer} is started; a temporary work
 * directory gets {@code plugins/} and {@code data/}; the kernel settings start as
 * {@link TestKernel#settings(TestIssuer, java.nio.file.Path)} (tokens from the issuer, plugins from
 * {@code plugins/}, loopback targets allowed) plus {@link #settings()}; every static
 * {@link BeforeKernel} method of the class is called with the {@link KernelSetup} (to build plugins,
 * change settings, start fixtures); then the kernel starts on {@code data/}. The class's static fields of
 * type {@link TestKernel} and {@link TestIssuer} (its own and inherited ones: {@link PerTestTenant}) are set,
 * and test methods, constructors and lifecycle methods may take either as a parameter.
 *
 * <p>After the class's {@code @AfterAll} methods: the kernel is closed, then the issuer, then the
 * fixtures registered with {@link KernelSetup#closeAfter(AutoCloseable)}, last registered first.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(KernelExtension.class)
public @interface KernelTest {

    /** Extra kernel settings, each {@code "SVC_NAME=value"}, applied before the {@link BeforeKernel} methods run. */
    String[] settings() default {};
}
