package dev.backplane.cli.auth;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.github.javakeyring.Keyring;
import com.github.javakeyring.PasswordAccessException;
import dev.backplane.cli.common.CliException;
import java.io.IOException;
import java.util.Optional;

/** Tokens in the OS keyring (Secret Service, macOS Keychain, Windows Credential Manager). */
public final class KeyringTokenStore implements TokenStore {

    static final String SERVICE = "svc-backplane";
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private final Keyring keyring;

    private KeyringTokenStore(Keyring keyring) {
        this.keyring = keyring;
    }

    /** The keyring, when one answers on this machine. */
    static Optional<TokenStore> open() {
        try {
            Keyring keyring = Keyring.create();
            try {
                keyring.getPassword(SERVICE, "probe");
            } catch (PasswordAccessException notFound) {
                // a reachable keyring without that entry: usable
            }
            return Optional.of(new KeyringTokenStore(keyring));
        } catch (Exception | LinkageError e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<Tokens> load(String backplane) {
        try {
            return Optional.of(JSON.readValue(keyring.getPassword(SERVICE, backplane), Tokens.class));
        } catch (PasswordAccessException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw CliException.failed("the keyring entry for " + backplane + " is unreadable; log in again");
        }
    }

    @Override
    public void save(String backplane, Tokens tokens) {
        try {
            keyring.setPassword(SERVICE, backplane, JSON.writeValueAsString(tokens));
        } catch (PasswordAccessException | IOException e) {
            throw CliException.failed("cannot store tokens in the OS keyring: " + e.getMessage());
        }
    }

    @Override
    public void delete(String backplane) {
        try {
            keyring.deletePassword(SERVICE, backplane);
        } catch (PasswordAccessException e) {
            // nothing stored
        }
    }

    @Override
    public String describe() {
        return "the OS keyring";
    }
}
