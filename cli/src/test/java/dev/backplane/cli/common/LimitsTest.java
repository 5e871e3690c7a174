package dev.backplane.cli.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.cli.Svc;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** A range label ({@code paramLabel = "1..500"}) is the one declaration of a flag's range, and is enforced. */
class LimitsTest {

    @Command
    static final class Sample {
        @Option(names = "--limit", paramLabel = "1..500") Integer limit;
        @Option(names = "--offset") Integer offset;
        @Option(names = "--name", paramLabel = "<name>") String name;
        @Parameters(index = "0", paramLabel = "-3..3", arity = "0..1") Integer shift;
    }

    private static CommandLine.Model.CommandSpec parsed(String... args) {
        CommandLine cl = new CommandLine(new Sample());
        cl.parseArgs(args);
        return cl.getCommandSpec();
    }

    @Test
    void valuesInsideTheLabelledRangePass() {
        assertThatCode(() -> Limits.checkRanges(parsed("--limit", "1", "--offset", "9999", "-3"))).doesNotThrowAnyException();
        assertThatCode(() -> Limits.checkRanges(parsed("--limit", "500", "3"))).doesNotThrowAnyException();
        assertThatCode(() -> Limits.checkRanges(parsed())).as("absent flags are not checked").doesNotThrowAnyException();
    }

    @Test
    void valuesOutsideAreUsageErrorsNamingTheFlag() {
        assertThatThrownBy(() -> Limits.checkRanges(parsed("--limit", "501"))).isInstanceOf(CliException.class)
                .hasMessage("--limit must be 1..500, got 501");
        assertThatThrownBy(() -> Limits.checkRanges(parsed("--limit", "0"))).hasMessageContaining("got 0");
        assertThatThrownBy(() -> Limits.checkRanges(parsed("-4"))).hasMessage("-3..3 must be -3..3, got -4");
    }

    /** A range label on a non-numeric flag would be shown in --help but never enforced. */
    @Test
    void everyRangeLabelInTheCommandTreeIsOnANumericFlag() {
        Pattern range = Pattern.compile("-?\\d+\\.\\.-?\\d+");
        List<String> wrong = new ArrayList<>();
        List<String> labelled = new ArrayList<>();
        walk(Svc.commandTree(), cl -> {
            for (ArgSpec arg : cl.getCommandSpec().args()) {
                if (range.matcher(arg.paramLabel()).matches()) {
                    labelled.add(cl.getCommandSpec().qualifiedName() + " " + arg.paramLabel());
                    if (!Number.class.isAssignableFrom(box(arg.type()))) {
                        wrong.add(cl.getCommandSpec().qualifiedName() + " " + arg.paramLabel() + " " + arg.type());
                    }
                }
            }
        });
        assertThat(labelled).as("the CLI declares its ranges as labels").hasSizeGreaterThan(20);
        assertThat(wrong).isEmpty();
    }

    private static Class<?> box(Class<?> type) {
        return type == int.class ? Integer.class : type == long.class ? Long.class : type;
    }

    private static void walk(CommandLine cl, java.util.function.Consumer<CommandLine> visit) {
        visit.accept(cl);
        cl.getSubcommands().values().forEach(sub -> walk(sub, visit));
    }
}
