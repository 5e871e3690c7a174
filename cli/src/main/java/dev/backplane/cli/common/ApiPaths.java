package dev.backplane.cli.common;

import java.util.List;

/**
 * Every backplane REST path the CLI calls. The kernel's tests hold these to its OpenAPI document,
 * so the CLI and the server cannot drift apart unnoticed.
 */
public final class ApiPaths {

    public static final String INFO = "/api/v1/info";
    public static final String WHOAMI = "/api/v1/whoami";
    public static final String FLIGHT_RECORDER_POLICY = "/api/v1/tenants/current/flight-recorder-policy";

    /** Method and path of each call the CLI makes. */
    public static final List<String> CALLS = List.of(
            "GET " + INFO,
            "GET " + WHOAMI,
            "GET " + FLIGHT_RECORDER_POLICY,
            "PATCH " + FLIGHT_RECORDER_POLICY);

    private ApiPaths() {
    }
}
