package dev.backplane.cli.docs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Parameters;

/** A verb on one collection: POST or DELETE on its path (plus a suffix) with no body. */
abstract class KeyCommand extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<key>") String key;

    JsonNode call(Session s, String method, String suffix) {
        return s.client().call(method, ApiPaths.expand(ApiPaths.DOCS_COLLECTION, key) + suffix, null).json();
    }
}
