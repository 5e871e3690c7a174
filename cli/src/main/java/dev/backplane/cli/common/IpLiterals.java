package dev.backplane.cli.common;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Parses IP address literals without ever asking a resolver: text that is not a well-formed IPv4
 * or IPv6 literal is simply not an address.
 */
public final class IpLiterals {

    private static final Pattern IPV4 = Pattern.compile(
            "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern HEX_GROUP = Pattern.compile("[0-9a-fA-F]{1,4}");

    private IpLiterals() {
    }

    public static Optional<InetAddress> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String s = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        byte[] bytes = IPV4.matcher(s).matches() ? ipv4(s) : ipv6(s);
        if (bytes == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByAddress(bytes));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    private static byte[] ipv4(String s) {
        String[] parts = s.split("\\.");
        byte[] b = new byte[4];
        for (int i = 0; i < 4; i++) {
            b[i] = (byte) Integer.parseInt(parts[i]);
        }
        return b;
    }

    private static byte[] ipv6(String s) {
        if (!s.contains(":") || s.indexOf("::") != s.lastIndexOf("::")) {
            return null;
        }
        byte[] tail4 = null;
        int lastColon = s.lastIndexOf(':');
        if (s.indexOf('.') >= 0) {
            String v4 = s.substring(lastColon + 1);
            if (!IPV4.matcher(v4).matches()) {
                return null;
            }
            tail4 = ipv4(v4);
            s = s.substring(0, lastColon + 1) + "0:0"; // placeholder groups for the embedded IPv4 part
        }
        String[] halves = s.split("::", -1);
        String[] head = halves[0].isEmpty() ? new String[0] : halves[0].split(":", -1);
        String[] tail = halves.length == 2 && !halves[1].isEmpty() ? halves[1].split(":", -1) : new String[0];
        int groups = head.length + tail.length;
        if (halves.length == 1 ? groups != 8 : groups > 7) {
            return null;
        }
        int[] values = new int[8];
        for (int i = 0; i < head.length; i++) {
            if (!HEX_GROUP.matcher(head[i]).matches()) {
                return null;
            }
            values[i] = Integer.parseInt(head[i], 16);
        }
        for (int i = 0; i < tail.length; i++) {
            if (!HEX_GROUP.matcher(tail[i]).matches()) {
                return null;
            }
            values[8 - tail.length + i] = Integer.parseInt(tail[i], 16);
        }
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[2 * i] = (byte) (values[i] >> 8);
            b[2 * i + 1] = (byte) values[i];
        }
        if (tail4 != null) {
            System.arraycopy(tail4, 0, b, 12, 4);
        }
        return b;
    }
}
