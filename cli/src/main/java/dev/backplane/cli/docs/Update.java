package dev.backplane.cli.docs;

import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import picocli.CommandLine.Command;

/** {@code svc docs collections update} */
@Command(name = "update", description = "Change a doc collection's fields [tenant_admin; global: platform_admin].")
final class Update extends FieldsCommand {
    @Override
    protected void validate() {
        super.validate();
        fields.remove("enabled");
        fields.remove("global");
        if (fields.isEmpty()) {
            throw CliException.usage("nothing to update: give at least one field flag or --from-file");
        }
    }

    @Override
    protected void execute(Session s) {
        send(s, "PATCH", ApiPaths.expand(ApiPaths.DOCS_COLLECTION, key), fields, r -> printCollection("updated", r));
    }
}
