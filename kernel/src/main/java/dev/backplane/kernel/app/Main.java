package dev.backplane.kernel.app;

import io.helidon.logging.common.LogConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * Starts the backplane. Settings come from the YAML file named by {@code --config <file>} or
 * {@code SVC_CONFIG} (optional), overridden by environment variables; see {@link Setting}.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (System.getProperty("java.util.logging.manager") == null) {
            // before the first logger: what the graceful shutdown logs must outlive the JDK's own log hook
            System.setProperty("java.util.logging.manager", ShutdownSafeLogManager.class.getName());
        }
        LogConfig.configureRuntime();
        Optional<Path> configFile = configFile(args);
        if (args.length > 0 && "migrate".equals(args[0])) { // the pre-upgrade job: migrate the database, serve nothing
            System.exit(Migrate.run(configFile, System.getenv(), System.out, System.err));
            return;
        }
        KernelConfig config;
        try {
            config = KernelConfig.load(configFile, System.getenv());
            config.required(Setting.IDENTITY_ISSUER);
        } catch (KernelConfig.ConfigException e) {
            System.err.println("svc kernel: configuration error: " + e.getMessage());
            System.exit(2);
            return;
        }
        String format = config.get(Setting.LOG_FORMAT);
        if (format.equals("json")) {
            JsonLogFormatter.install();
        } else if (!format.equals("text")) {
            System.err.println("svc kernel: configuration error: log.format must be text or json, got '" + format + "'");
            System.exit(2);
            return;
        }
        LogLevels.apply(config.logLevel()); // log.level (checked when the settings were loaded)
        Kernel kernel;
        try {
            kernel = Kernel.start(config);
        } catch (KernelConfig.ConfigException | IllegalArgumentException e) {
            System.err.println("svc kernel: configuration error: " + e.getMessage());
            System.exit(2);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        // SIGTERM (a pod being stopped, Ctrl-C): readiness 503, a delay for the load balancer, then a bounded drain
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            kernel.shutdown();
            ShutdownSafeLogManager.flushAtExit();
            stopped.countDown();
        }, "svc-shutdown"));
        stopped.await();
    }

    private static Optional<Path> configFile(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if ("--config".equals(args[i]) && i + 1 < args.length) {
                return Optional.of(Path.of(args[i + 1]));
            }
            if (args[i].startsWith("--config=")) {
                return Optional.of(Path.of(args[i].substring("--config=".length())));
            }
        }
        String env = System.getenv("SVC_CONFIG");
        if (env != null && !env.isBlank()) {
            return Optional.of(Path.of(env));
        }
        Path local = Path.of("svc.yaml");
        return Files.isRegularFile(local) ? Optional.of(local) : Optional.empty();
    }
}
