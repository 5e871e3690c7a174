package dev.backplane.cli.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which backplane, login, tenant and output a command uses: flags, then the environment, then the context. */
class ContextsTest {

    private static final String A = "https://a.example.com";
    private static final String B = "https://b.example.com";

    private final CliConfig config = new CliConfig();
    private final GlobalOptions global = new GlobalOptions();
    private final Map<String, String> env = new HashMap<>();

    ContextsTest() {
        config.putContext("a", new CliConfig.Context(A, A, null, null));
        config.putContext("b-admin", new CliConfig.Context(B, B + "#b-admin", "11111111-1111-1111-1111-111111111111",
                "yaml"));
        config.use("a");
    }

    private CliContext ctx() {
        return new CliContext(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
                new ByteArrayInputStream(new byte[0]), env);
    }

    private Contexts.Chosen choose(String flagBackplane, String flagTenant) {
        return Contexts.choose(ctx(), global, config, flagBackplane, flagTenant);
    }

    @Test
    void theCurrentContextThenSvcContextThenTheFlag() {
        assertThat(choose(null, null)).isEqualTo(new Contexts.Chosen(Optional.of("a"), A, A, Optional.empty()));
        env.put("SVC_CONTEXT", "b-admin");
        Contexts.Chosen b = choose(null, null);
        assertThat(b.backplane()).isEqualTo(B);
        assertThat(b.identity()).isEqualTo(B + "#b-admin");
        assertThat(b.tenant()).contains("11111111-1111-1111-1111-111111111111");
        assertThat(b.loginHint()).isEqualTo("svc login " + B + " --context b-admin");
        global.context = "a";
        assertThat(choose(null, null).context()).contains("a");
    }

    @Test
    void aBackplaneNamedByUrlUsesItsOwnLoginAndNoContext() {
        env.put("SVC_BACKPLANE", B + "/");
        assertThat(choose(null, null)).isEqualTo(new Contexts.Chosen(Optional.empty(), B, B, Optional.empty()));
        assertThat(choose(A, null).backplane()).as("the flag before the environment").isEqualTo(A);
    }

    @Test
    void tenantFlagThenSvcTenantThenTheContexts() {
        global.context = "b-admin";
        env.put("SVC_TENANT", "22222222-2222-2222-2222-222222222222");
        assertThat(choose(null, null).tenant()).contains("22222222-2222-2222-2222-222222222222");
        assertThat(choose(null, "current").tenant()).contains("current");
    }

    @Test
    void badChoicesAreUsageErrors() {
        global.context = "nope";
        CliException unknown = catchThrowableOfType(CliException.class, () -> choose(null, null));
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.getMessage()).contains("no context 'nope'").contains("a, b-admin");
        global.context = "a";
        CliException both = catchThrowableOfType(CliException.class, () -> choose(B, null));
        assertThat(both.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(both.getMessage()).contains("context 'a' is for " + A);
        global.context = null;
        config.remove("a");
        CliException none = catchThrowableOfType(CliException.class, () -> choose(null, null));
        assertThat(none.exitCode()).isEqualTo(ExitCodes.NOT_LOGGED_IN);
    }

    @Test
    void outputFlagThenSvcOutputThenTheContexts() {
        global.context = "b-admin";
        BackplaneOptions options = new BackplaneOptions();
        Contexts.applyOutputDefault(ctx(), global, () -> config, options);
        assertThat(options.format()).isEqualTo(OutputFormat.YAML);
        env.put("SVC_OUTPUT", "jsonpath={.items[*].id}");
        Contexts.applyOutputDefault(ctx(), global, () -> config, options);
        assertThat(options.format().label()).isEqualTo("jsonpath=$.items[*].id");
        env.put("SVC_OUTPUT", "xml");
        CliException bad = catchThrowableOfType(CliException.class,
                () -> Contexts.applyOutputDefault(ctx(), global, () -> config, options));
        assertThat(bad.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.getMessage()).startsWith("SVC_OUTPUT: expected one of table, wide, json, yaml, jsonpath=<expr>");
    }
}
