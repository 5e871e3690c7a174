package dev.backplane.cli.auth;

import java.util.Optional;

/** Where login tokens are kept, per backplane URL. */
public interface TokenStore {

    Optional<Tokens> load(String backplane);

    void save(String backplane, Tokens tokens);

    void delete(String backplane);

    /** A short description for messages, such as "the OS keyring" or a file path. */
    String describe();
}
