package dev.backplane.plugins.firewall;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The SSH connection this connector manages the firewall through, as the server sees it
 * ({@code SSH_CONNECTION}: client address and port, server address and port). A rule or set element
 * that would drop it would lock the backplane out of the appliance.
 *
 * @param client the backplane's address as the server sees it
 * @param server the server's address the session arrived on
 * @param serverPort the SSH port
 */
record Management(InetAddress client, InetAddress server, int serverPort) {

    /** Parses {@code SSH_CONNECTION}; fails closed when the server does not tell. */
    static Management parse(String sshConnection) {
        String[] f = sshConnection.strip().split("\\s+");
        try {
            if (f.length == 4 && f[0].matches("[0-9A-Fa-f:.]+") && f[2].matches("[0-9A-Fa-f:.]+")) {
                return new Management(InetAddress.getByName(f[0]), InetAddress.getByName(f[2]), Integer.parseInt(f[3]));
            }
        } catch (UnknownHostException | NumberFormatException e) {
            // reported below
        }
        throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the server did not report this session's "
                + "addresses (SSH_CONNECTION), so the lock-out check cannot run; pass allow_lockout: true to skip it");
    }

    String describe() {
        return client.getHostAddress() + " to " + server.getHostAddress() + " port " + serverPort;
    }
}
