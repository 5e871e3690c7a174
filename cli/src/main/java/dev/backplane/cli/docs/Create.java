package dev.backplane.cli.docs;

import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc docs collections create} */
@Command(name = "create", description = "Create a doc collection [tenant_admin; --global: platform_admin].")
final class Create extends FieldsCommand {
    @Option(names = "--global", description = "a global collection, granted to tenants one by one [platform_admin]")
    boolean global;

    @Override
    protected void validate() {
        super.validate();
        fields.put("key", key);
        if (global) {
            fields.put("global", true);
        }
        if (!fields.containsKey("backend_type")) {
            throw CliException.usage("name the backend with --backend-type (corpus-http) or in --from-file");
        }
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.DOCS_COLLECTIONS, fields, r -> printCollection("created", r));
    }
}
