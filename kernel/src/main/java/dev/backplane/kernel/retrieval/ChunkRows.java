package dev.backplane.kernel.retrieval;

import java.nio.ByteBuffer;

/**
 * How a vector travels in the retrieval rows ({@code real[]} columns, written by {@link ChunkStore} and
 * {@link TextVectorStore}): read from {@code array_send} bytes without a boxed Float per element, written
 * as a {@code float4} array.
 */
final class ChunkRows {

    private ChunkRows() {
    }

    /**
     * The length of a vector sent as {@code array_send} bytes (the binary array format: a 20-byte header
     * for one dimension, then a length and a big-endian float per element).
     */
    static int length(ByteBuffer sent) {
        return sent.getInt(0) == 0 ? 0 : sent.getInt(12);
    }

    /** Reads a vector sent as {@code array_send} bytes into {@code into} from {@code offset} — no boxed Float. */
    static void read(ByteBuffer sent, float[] into, int offset) {
        int length = length(sent);
        sent.position(12 + 8 * sent.getInt(0));
        for (int i = 0; i < length; i++) {
            sent.getInt(); // the element's length: 4 for every float4
            into[offset + i] = sent.getFloat();
        }
    }

    /** A vector from its {@code array_send} bytes. */
    static float[] floats(ByteBuffer sent) {
        float[] out = new float[length(sent)];
        read(sent, out, 0);
        return out;
    }

    static Float[] boxed(float[] v) {
        Float[] out = new Float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i];
        }
        return out;
    }
}
