package dev.backplane.kernel.targets;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Target fields as a client sends them, for create (name, product, host required) and sparse patch
 * (absent fields stay). {@code fingerprint} is accepted only to refuse it: the probe writes it.
 */
public record TargetFields(Optional<String> name, Optional<List<String>> aliases, Optional<String> product,
                           Optional<String> host, Optional<Integer> port, Optional<String> fqdn,
                           Optional<String> secretRef, Optional<String> authModel, Optional<Boolean> vpnRequired,
                           Optional<String> notes, Optional<String> preferredImplId, Optional<Boolean> verifyTls,
                           Optional<String> tlsCaPin, Optional<String> tlsServerName,
                           Optional<Map<String, Object>> extras, Optional<String> version,
                           Optional<Object> fingerprint) {

    public TargetFields {
        name = orEmpty(name);
        aliases = orEmpty(aliases);
        product = orEmpty(product);
        host = orEmpty(host);
        port = orEmpty(port);
        fqdn = orEmpty(fqdn);
        secretRef = orEmpty(secretRef);
        authModel = orEmpty(authModel);
        vpnRequired = orEmpty(vpnRequired);
        notes = orEmpty(notes);
        preferredImplId = orEmpty(preferredImplId);
        verifyTls = orEmpty(verifyTls);
        tlsCaPin = orEmpty(tlsCaPin);
        tlsServerName = orEmpty(tlsServerName);
        extras = orEmpty(extras);
        version = orEmpty(version);
        fingerprint = orEmpty(fingerprint);
    }

    private static <T> Optional<T> orEmpty(Optional<T> o) {
        return o == null ? Optional.empty() : o;
    }
}
