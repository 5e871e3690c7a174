package dev.backplane.plugins.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.ClassFixture;
import dev.backplane.plugin.api.testkit.RecordingContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** How one remote command is dialled, bounded and cancelled, against a real sshd on loopback. */
class SshExecTest {

    @RegisterExtension
    static final ClassFixture<SshLab> LAB = ClassFixture.unless(SshLab::unavailable,
            () -> SshLab.start(Files.createTempDirectory("ssh-exec")));

    /** A target registered by host NAME (localhost), so the guard's InetAddress carries a name. */
    private static SshTarget target(int timeoutSeconds) throws Exception {
        TargetSpec spec = new TargetSpec("box", "test", "localhost", LAB.get().port(), Optional.empty(), true,
                Optional.empty(), Optional.empty(), Map.of(HostKeyPin.EXTRA, LAB.get().hostKeyLine(),
                SshSettings.TIMEOUT_EXTRA, timeoutSeconds));
        return new SshTarget(new RecordingContext(), spec, new Credential(Map.of("username", LAB.get().user(),
                "private_key", LAB.get().privateKey())), Set.of("sleep", "echo", "pgrep"));
    }

    @Test
    void theAddressHandedToTheClientIsTheCheckedLiteralNotTheName() throws Exception {
        InetAddress checked = InetAddress.getByName("localhost"); // what the guarded probe socket reports
        assertThat(new InetSocketAddress(checked, 22).getHostString()).as("the bug: a name MINA re-resolves")
                .isEqualTo("localhost");
        InetSocketAddress dialled = SshSessions.dialAddress(checked, 22);
        assertThat(dialled.getHostString()).isEqualTo(checked.getHostAddress());
        assertThat(dialled.getAddress().toString()).as("no name attached, so nothing resolves it again")
                .isEqualTo("/" + checked.getHostAddress());
        assertThat(dialled.isUnresolved()).isFalse();
        assertThat(target(10).run(new SshCommand("echo", List.of("ok"))).stdout().strip()).isEqualTo("ok");
    }

    @Test
    void aBadPinFailsTheSameWayOnEveryRunNotWithANullPointer() throws Exception {
        TargetSpec spec = new TargetSpec("box", "test", "127.0.0.1", LAB.get().port(), Optional.empty(), true,
                Optional.empty(), Optional.empty(), Map.of(HostKeyPin.EXTRA, "trust-me"));
        SshTarget t = new SshTarget(new RecordingContext(), spec, new Credential(Map.of("username", LAB.get().user(),
                "private_key", LAB.get().privateKey())), Set.of("echo"));
        for (int i = 0; i < 2; i++) {
            ConnectorException e = catchThrowableOfType(ConnectorException.class,
                    () -> t.run(new SshCommand("echo", List.of("x"))));
            assertThat(e).as("run " + i).isNotNull();
            assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_HOST_KEY_MISMATCH);
        }
    }

    @Test
    void aTimedOutCommandIsAlsoKilledOnTheServer() throws Exception {
        String seconds = String.valueOf(600 + ThreadLocalRandom.current().nextInt(300));
        ConnectorException e = catchThrowableOfType(ConnectorException.class,
                () -> target(2).run(new SshCommand("sleep", List.of(seconds))));
        assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_TIMEOUT);
        assertThat(SshExec.remoteLine(new SshCommand("sleep", List.of(seconds)), new SshSettings(Optional.empty(),
                Duration.ofSeconds(2), 1024))).isEqualTo("timeout -k 5 2 sleep " + seconds);
        boolean gone = false;
        for (int i = 0; i < 50 && !gone; i++) {
            Process p = new ProcessBuilder("pgrep", "-f", "^sleep " + seconds + "$").start();
            gone = p.waitFor() == 1;
            if (!gone) {
                Thread.sleep(200);
            }
        }
        assertThat(gone).as("the remote sleep " + seconds + " ended with the command timeout").isTrue();
    }

    @Test
    void anInterruptStopsTheCommandAtOnceAndKeepsTheFlag() throws Exception {
        SshTarget t = target(30);
        t.run(new SshCommand("echo", List.of("warm"))); // connected and pooled
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean flag = new AtomicBoolean();
        Thread worker = new Thread(() -> {
            try {
                t.run(new SshCommand("sleep", List.of("20")));
            } catch (Throwable e) {
                thrown.set(e);
            }
            flag.set(Thread.currentThread().isInterrupted());
        });
        worker.start();
        Thread.sleep(1000);
        long interruptedAt = System.nanoTime();
        worker.interrupt();
        worker.join(15_000);
        assertThat(worker.isAlive()).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - interruptedAt)).isLessThan(Duration.ofSeconds(3));
        assertThat(thrown.get()).isInstanceOf(ConnectorException.class);
        assertThat(((ConnectorException) thrown.get()).code()).isEqualTo(ErrorCode.CONNECTOR_TIMEOUT);
        assertThat(flag.get()).as("the interrupt flag is restored").isTrue();

        Thread.currentThread().interrupt();
        try {
            ConnectorException e = catchThrowableOfType(ConnectorException.class,
                    () -> t.run(new SshCommand("echo", List.of("never"))));
            assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_TIMEOUT);
            assertThat(e.getMessage()).contains("was not run");
        } finally {
            Thread.interrupted();
        }
        assertThat(t.run(new SshCommand("echo", List.of("again"))).stdout().strip()).isEqualTo("again");
    }
}
