package dev.backplane.plugins.ssh;

import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.TargetSpec;
import java.util.Set;

/**
 * One connector session's view of its SSH target: runs allowlisted commands on a pooled session.
 * The credential and settings are read on first use, so opening a session never fails by itself.
 */
public final class SshTarget {

    private final ConnectorContext context;
    private final TargetSpec target;
    private final Credential credential;
    private final Set<String> allowlist;
    private SshSettings settings;
    private SshCredential login;

    /**
     * @param allowlist the programs this connector may run; anything else is a programming error
     */
    public SshTarget(ConnectorContext context, TargetSpec target, Credential credential, Set<String> allowlist) {
        this.context = context;
        this.target = target;
        this.credential = credential;
        this.allowlist = Set.copyOf(allowlist);
    }

    /**
     * Runs {@code command} and returns what it printed, whatever its exit status. Nothing runs once the
     * call is cancelled or the thread interrupted ({@code connector_timeout}).
     */
    public SshOutput run(SshCommand command) {
        command.allowedBy(allowlist);
        SshExec.requireNotCancelled(command, context);
        if (login == null || settings == null) {
            SshSettings readSettings = SshSettings.of(target, context);
            SshCredential readLogin = SshCredential.of(credential);
            settings = readSettings;
            login = readLogin;
        }
        return SshExec.run(SshSessions.acquire(context, target, login, settings), command, settings, context);
    }

    public TargetSpec spec() {
        return target;
    }
}
