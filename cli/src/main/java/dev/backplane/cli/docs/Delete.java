package dev.backplane.cli.docs;

import picocli.CommandLine.Command;

/** {@code svc docs collections delete} */
@Command(name = "delete", description = "Delete a disabled, tenant-owned collection [tenant_admin].")
final class Delete extends StateVerb {
}
