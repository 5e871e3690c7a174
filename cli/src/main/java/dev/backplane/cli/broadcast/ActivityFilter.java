package dev.backplane.cli.broadcast;

import picocli.CommandLine.Option;

/** The filters {@code svc broadcast recent} and {@code svc broadcast watch} share over the tenant's activity. */
final class ActivityFilter {

    @Option(names = "--op-class", description = "read, write, credential_read or other") String opClass;

    @Option(names = "--principal", description = "only events of this principal (a sub)") String principal;

    @Option(names = "--target", description = "only events on this target") String target;
}
