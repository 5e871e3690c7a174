package dev.backplane.cli.governance;

import dev.backplane.cli.common.ConfirmOption;
import dev.backplane.cli.common.KeyedCall;
import dev.backplane.cli.common.Render;
import picocli.CommandLine.Mixin;

/** Revoking an agent grant or a service grant: POST on the grant's /revoke route, only with --confirm. */
abstract class GrantRevocation extends KeyedCall {

    @Mixin private ConfirmOption confirm;

    GrantRevocation(String routeTemplate, Render human) {
        super("POST " + routeTemplate, human);
    }

    @Override
    protected final void validate() {
        confirm.require("revoke " + key());
    }
}
