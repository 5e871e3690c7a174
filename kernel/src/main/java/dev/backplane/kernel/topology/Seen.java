package dev.backplane.kernel.topology;

/** An edge a discovery saw, between nodes named by kind and name. */
record Seen(Node from, String kind, Node to) {

    /** A node as discovery names it. */
    record Node(String kind, String name) {
    }
}
