package dev.backplane.plugins.firewall;

import dev.backplane.plugins.ssh.SshCommand;
import java.util.List;
import java.util.Map;

/**
 * One validated firewall write: the nft script that makes it and what the preview and result show.
 *
 * @param opId the operation
 * @param script the nft lines, applied as one transaction
 * @param describe the change's fields, for the preview and the result
 * @param verify the listing that is read back to prove the change
 */
record FirewallChange(String opId, List<String> script, Map<String, Object> describe, SshCommand verify) {
}
