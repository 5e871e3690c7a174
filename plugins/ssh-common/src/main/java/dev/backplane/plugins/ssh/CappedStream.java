package dev.backplane.plugins.ssh;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Collects a command's output up to a cap; beyond it, bytes are dropped and the overflow is noted. */
final class CappedStream extends OutputStream {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final int cap;
    private volatile boolean exceeded;

    CappedStream(int cap) {
        this.cap = cap;
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        int room = cap - bytes.size();
        if (len > room) {
            exceeded = true;
            bytes.write(b, off, Math.max(room, 0));
            return;
        }
        bytes.write(b, off, len);
    }

    boolean exceeded() {
        return exceeded;
    }

    String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
