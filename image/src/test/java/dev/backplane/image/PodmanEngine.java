package dev.backplane.image;

import dev.backplane.kernel.testing.TempDirs;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.testcontainers.dockerclient.DockerClientProviderStrategy;
import org.testcontainers.dockerclient.InvalidConfigurationException;
import org.testcontainers.dockerclient.TransportConfig;

/**
 * Testcontainers' way to a container engine on these machines: no Docker daemon runs, but podman serves the Docker
 * API. The first time Testcontainers asks, this starts {@code podman --runtime runc system service --time=0} on a
 * socket of its own (with {@link Podman}'s containers.conf), for the rest of the JVM; the service stops with it.
 *
 * <p>Found through {@code META-INF/services} and chosen before Docker's own strategies (a higher priority). Where
 * podman cannot run, it says why and stands aside, and {@code @Testcontainers(disabledWithoutDocker = true)} skips
 * the drills; CI counts that skip as a failure (bin/test-skips.sh).
 */
public final class PodmanEngine extends DockerClientProviderStrategy {

    private static URI socket;

    @Override
    public String getDescription() {
        return "podman system service (runc) on " + (socket == null ? "a socket of this JVM" : socket);
    }

    @Override
    protected boolean isApplicable() {
        String why = Podman.unusable();
        if (why != null) {
            System.err.println("PodmanEngine: no container engine for Testcontainers: " + why);
        }
        return why == null;
    }

    @Override
    protected int getPriority() {
        return 1_000;
    }

    @Override
    protected boolean isPersistable() {
        return false; // never written to ~/.testcontainers.properties: the socket lives as long as this JVM
    }

    @Override
    public TransportConfig getTransportConfig() throws InvalidConfigurationException {
        try {
            return TransportConfig.builder().dockerHost(service()).build();
        } catch (IOException | InterruptedException e) {
            throw new InvalidConfigurationException("podman system service did not start: " + e.getMessage(), e);
        }
    }

    private static synchronized URI service() throws IOException, InterruptedException {
        if (socket != null) {
            return socket;
        }
        Path dir = TempDirs.create("svc-podman-"); // short: a unix socket path holds at most 107 bytes
        Path sock = dir.resolve("podman.sock");
        Path log = dir.resolve("service.log");
        ProcessBuilder pb = new ProcessBuilder(List.of("podman", "--runtime", "runc", "system", "service", "--time=0",
                "unix://" + sock)).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("CONTAINERS_CONF", Podman.containersConf().toString());
        Process service = pb.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            service.destroy();
            try {
                service.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            service.destroyForcibly();
        }, "podman-service-stop"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(sock)) {
            if (!service.isAlive() || System.nanoTime() > deadline) {
                service.destroyForcibly();
                throw new IOException("no socket at " + sock + (service.isAlive() ? " after 30 s" : ", it exited "
                        + service.exitValue()) + "; its log:\n" + Files.readString(log));
            }
            Thread.sleep(50);
        }
        socket = URI.create("unix://" + sock);
        return socket;
    }
}
