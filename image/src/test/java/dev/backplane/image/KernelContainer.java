package dev.backplane.image;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.ChangeLog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.utility.DockerImageName;

/**
 * A container of the image as the drills run it, through Testcontainers: on the host's network (the kernel, its
 * database, Keycloak and haproxy all meet on loopback), on a read-only root, as the image's own user. Never pulled:
 * the image is the one this build loaded. {@link #close} removes it.
 */
final class KernelContainer extends GenericContainer<KernelContainer> {

    /** How a one-shot container ended: its exit code and everything it printed. */
    record Exit(long code, String log) {
    }

    KernelContainer(String image, String name) {
        super(DockerImageName.parse(image));
        withNetworkMode("host");
        withCreateContainerCmdModifier(cmd -> {
            cmd.withName(name);
            cmd.getHostConfig().withReadonlyRootfs(true);
        });
        // the drills wait for /health/ready themselves (Deployment#awaitReady), with the replica's log at hand
        waitingFor(new AbstractWaitStrategy() {
            @Override
            protected void waitUntilReady() {
            }
        });
    }

    KernelContainer env(Map<String, String> env) {
        env.forEach(this::withEnv);
        return this;
    }

    KernelContainer mount(Path host, String inContainer, BindMode mode) {
        withFileSystemBind(host.toString(), inContainer, mode);
        return this;
    }

    /**
     * Runs the image once with {@code env} and {@code command} (none: the image's default), waits for it to exit and
     * removes it; a non-zero exit is a result here, not an error.
     */
    static Exit runOnce(String image, Map<String, String> env, String... command) {
        try (KernelContainer once = new KernelContainer(image, "svc-once-" + UUID.randomUUID().toString().substring(0, 8))) {
            once.env(env);
            if (command.length > 0) {
                once.withCommand(command);
            }
            return once.runToEnd();
        }
    }

    /** Starts this container, waits up to three minutes for it to exit by itself, and says how it ended. */
    Exit runToEnd() {
        withStartupCheckStrategy(new Exited().withTimeout(Duration.ofMinutes(3)));
        start();
        return new Exit(getCurrentContainerInfo().getState().getExitCodeLong(), getLogs());
    }

    /** {@code docker stop}: SIGTERM, then SIGKILL if it has not exited within {@code seconds}. */
    void terminate(int seconds) {
        getDockerClient().stopContainerCmd(getContainerId()).withTimeout(seconds).exec();
    }

    boolean running() {
        InspectContainerResponse.ContainerState state = getCurrentContainerInfo().getState();
        return Boolean.TRUE.equals(state.getRunning());
    }

    long pid() {
        return getCurrentContainerInfo().getState().getPidLong();
    }

    /** What the container changed on its root filesystem, as {@code podman diff} prints it: "A /path", "C /path". */
    List<String> changes() {
        List<ChangeLog> changes = getDockerClient().containerDiffCmd(getContainerId()).exec();
        return changes.stream().map(c -> switch (c.getKind()) {
            case 0 -> "C ";
            case 1 -> "A ";
            default -> "D ";
        } + c.getPath()).toList();
    }

    /** Started once the container has run to its end, whatever its exit code. */
    private static final class Exited extends StartupCheckStrategy {
        @Override
        public StartupStatus checkStartupState(com.github.dockerjava.api.DockerClient client, String id) {
            InspectContainerResponse.ContainerState state = getCurrentState(client, id);
            return "exited".equals(state.getStatus()) || "dead".equals(state.getStatus())
                    ? StartupStatus.SUCCESSFUL : StartupStatus.NOT_YET_KNOWN;
        }
    }
}
