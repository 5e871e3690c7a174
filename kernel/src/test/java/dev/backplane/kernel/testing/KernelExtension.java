package dev.backplane.kernel.testing;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/** Starts the issuer and the kernel of a {@link KernelTest} class once, and closes them after it. */
public final class KernelExtension implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(KernelExtension.class);

    /** One class's issuer, kernel and fixtures; the store closes it when the class is done. */
    private static final class Started implements AutoCloseable {
        final Deque<AutoCloseable> fixtures = new ArrayDeque<>();
        TestIssuer issuer;
        TestKernel kernel;
        Path work;

        @Override
        public void close() throws Exception {
            List<AutoCloseable> all = new ArrayList<>();
            all.add(kernel);
            all.add(issuer);
            all.addAll(fixtures);
            all.add(work == null ? null : () -> TempDirs.delete(work)); // last: the kernel's PostgreSQL has stopped writing to it
            Fixtures.closeAll(all.toArray(AutoCloseable[]::new));
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Class<?> testClass = context.getRequiredTestClass();
        Started started = context.getStore(NAMESPACE).get(Started.class, Started.class);
        if (started == null) {
            started = new Started();
            context.getStore(NAMESPACE).put(Started.class, started);
            start(testClass, started);
        }
        inject(testClass, started);
    }

    private static void start(Class<?> testClass, Started started) throws Exception {
        started.issuer = new TestIssuer();
        Path work = TempDirs.create("svc-" + testClass.getSimpleName() + "-");
        started.work = work;
        Map<String, String> settings = TestKernel.settings(started.issuer, Files.createDirectories(work.resolve("plugins")));
        KernelSetup setup = new KernelSetup(work, started.issuer, settings, started.fixtures);
        AnnotationSupport.findAnnotation(testClass, KernelTest.class).ifPresent(a -> {
            for (String s : a.settings()) {
                int eq = s.indexOf('=');
                if (eq < 1) {
                    throw new ExtensionConfigurationException("@KernelTest setting is not NAME=value: " + s);
                }
                setup.setting(s.substring(0, eq), s.substring(eq + 1));
            }
        });
        for (Method m : AnnotationSupport.findAnnotatedMethods(testClass, BeforeKernel.class,
                HierarchyTraversalMode.TOP_DOWN)) {
            if (!Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 1
                    || m.getParameterTypes()[0] != KernelSetup.class) {
                throw new ExtensionConfigurationException("@BeforeKernel method must be static and take one "
                        + "KernelSetup: " + m);
            }
            ReflectionSupport.invokeMethod(m, null, setup);
        }
        started.kernel = TestKernel.start(setup.data(), settings);
    }

    private static void inject(Class<?> testClass, Started started) throws IllegalAccessException {
        for (Field f : ReflectionSupport.findFields(testClass, f -> Modifier.isStatic(f.getModifiers())
                && !Modifier.isFinal(f.getModifiers()) && (f.getType() == TestKernel.class
                || f.getType() == TestIssuer.class), HierarchyTraversalMode.TOP_DOWN)) {
            f.setAccessible(true);
            f.set(null, f.getType() == TestKernel.class ? started.kernel : started.issuer);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == TestKernel.class || type == TestIssuer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Started started = context.getStore(NAMESPACE).get(Started.class, Started.class);
        if (started == null) {
            throw new ExtensionConfigurationException("no kernel started for " + context.getDisplayName());
        }
        return parameter.getParameter().getType() == TestKernel.class ? started.kernel : started.issuer;
    }
}
