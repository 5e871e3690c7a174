package dev.backplane.cli.docs;

import dev.backplane.cli.Session;

/**
 * delete, enable and disable: DELETE on the collection, or POST on its /enable or /disable, each
 * answered with "&lt;verb&gt;d doc collection &lt;key&gt;".
 */
abstract class StateVerb extends KeyCommand {
    @Override
    protected void execute(Session s) {
        String verb = spec.name();
        boolean delete = verb.equals("delete");
        print(call(s, delete ? "DELETE" : "POST", delete ? "" : "/" + verb),
                () -> ctx.out().println(verb + "d doc collection " + key));
    }
}
