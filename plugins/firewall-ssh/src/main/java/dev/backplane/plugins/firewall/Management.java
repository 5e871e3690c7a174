package dev.backplane.plugins.firewall;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.net.InetAddress;

/**
 * The SSH connection this connector manages the firewall through, as the server sees it
 * ({@code SSH_CONNECTION}: client address and port, server address and port). A rule or set element
 * that would drop it would lock the backplane out of the appliance.
 *
 * @param client the backplane's address as the server sees it
 * @param clientPort the backplane's source port
 * @param server the server's address the session arrived on
 * @param serverPort the SSH port
 */
record Management(InetAddress client, int clientPort, InetAddress server, int serverPort) {

    /** Parses {@code SSH_CONNECTION} (address literals only: no name is ever looked up); fails closed. */
    static Management parse(String sshConnection) {
        String[] f = sshConnection.strip().split("\\s+");
        try {
            if (f.length == 4) {
                int clientPort = Integer.parseInt(f[1]);
                int serverPort = Integer.parseInt(f[3]);
                if (clientPort > 0 && clientPort < 65536 && serverPort > 0 && serverPort < 65536) {
                    return new Management(FwNames.address("client", f[0]).address(), clientPort,
                            FwNames.address("server", f[2]).address(), serverPort);
                }
            }
        } catch (ConnectorException | NumberFormatException e) {
            // reported below
        }
        throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the server did not report this session's "
                + "addresses (SSH_CONNECTION), so the lock-out check cannot run; pass allow_lockout: true to skip it");
    }

    String describe() {
        return client.getHostAddress() + " port " + clientPort + " to " + server.getHostAddress() + " port " + serverPort;
    }
}
