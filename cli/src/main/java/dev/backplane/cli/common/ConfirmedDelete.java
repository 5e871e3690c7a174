package dev.backplane.cli.common;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import picocli.CommandLine.Mixin;

/**
 * A verb that removes one thing the user names, only with {@code --confirm}: {@code DELETE} on its
 * route, then {@code deleted <noun> <key>}. A verb declares its key as its one positional parameter
 * (so {@code --help} shows its own label, such as {@code <slug>}) and passes the rest to the
 * constructor; the key is read from that parameter here.
 */
public abstract class ConfirmedDelete extends BackplaneCommand {

    @Mixin private ConfirmOption confirm;

    private final String noun;
    private final String routeTemplate;
    private final String consequence;

    /**
     * @param noun what is deleted, as the messages name it ({@code kb entry})
     * @param routeTemplate the route with one {@code {key}} placeholder ({@link ApiPaths})
     * @param consequence what confirming accepts, shown when {@code --confirm} is missing ({@code it cannot be restored})
     */
    protected ConfirmedDelete(String noun, String routeTemplate, String consequence) {
        this.noun = noun;
        this.routeTemplate = routeTemplate;
        this.consequence = consequence;
    }

    private String key() {
        Object key = spec.positionalParameters().get(0).getValue();
        return key.toString();
    }

    @Override
    protected final void validate() {
        confirm.require("delete " + noun + " " + key() + ": " + consequence);
    }

    @Override
    protected final void execute(Session s) {
        send(s, "DELETE", ApiPaths.expand(routeTemplate, key()), null, r -> ctx.out().println("deleted " + noun + " "
                + key()));
    }
}
