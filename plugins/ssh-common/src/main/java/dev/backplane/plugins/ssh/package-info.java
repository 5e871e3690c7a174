/**
 * The SSH layer the SSH-shaped connector plugins (dns-ssh, firewall-ssh) share. It is not a plugin:
 * each plugin jar packs its own copy (with Apache MINA SSHD) inside its own class loader, so
 * plugin-api stays JDK-only.
 *
 * <p>What it guarantees: the server's host key is pinned per target and a missing, unknown or
 * changed key fails closed ({@code connector_host_key_mismatch}); every connect passes the kernel's
 * SSRF guard and dials exactly the address the guard checked; commands are a fixed program and
 * arguments that must not need shell quoting (refused with {@code invalid_params}, never escaped);
 * every command has a timeout and an output cap; sessions are reused per target and credential.
 */
package dev.backplane.plugins.ssh;
