package io.millrace.bench.profile;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stack samples merged into a tree: each node is a frame reached by one path from the root and
 * counts the samples whose stack passes through it. A flame graph is this tree drawn with widths
 * proportional to the counts; {@link #selfTimes()} is the flat view, the frames samples stopped in.
 */
public final class CallTree {

    /** One frame on one path. Its children are the frames it called, keyed by their names. */
    public static final class Node {
        private final String frame;
        private long samples;
        private final Map<String, Node> children = new LinkedHashMap<>();

        Node(String frame) {
            this.frame = frame;
        }

        public String frame() {
            return frame;
        }

        public long samples() {
            return samples;
        }

        /** Samples that stopped in this frame rather than in one it called. */
        public long selfSamples() {
            long inChildren = 0;
            for (Node child : children.values()) {
                inChildren += child.samples;
            }
            return samples - inChildren;
        }

        /** The callees, the busiest first. */
        public List<Node> children() {
            List<Node> sorted = new ArrayList<>(children.values());
            sorted.sort(Comparator.comparingLong(Node::samples).reversed().thenComparing(Node::frame));
            return sorted;
        }

        Node child(String name) {
            return children.computeIfAbsent(name, Node::new);
        }
    }

    private final Node root;

    public CallTree(String rootName) {
        this.root = new Node(rootName);
    }

    /** Counts one sample whose stack is {@code framesFromRoot}, outermost frame first. */
    public void add(List<String> framesFromRoot) {
        add(framesFromRoot, 1);
    }

    public void add(List<String> framesFromRoot, long samples) {
        Node node = root;
        node.samples += samples;
        for (String frame : framesFromRoot) {
            node = node.child(frame);
            node.samples += samples;
        }
    }

    public Node root() {
        return root;
    }

    public long totalSamples() {
        return root.samples;
    }

    /** Each frame's self samples over the whole tree, the largest first. */
    public List<Map.Entry<String, Long>> selfTimes() {
        Map<String, Long> self = new HashMap<>();
        collectSelf(root.children.values(), self);
        List<Map.Entry<String, Long>> sorted = new ArrayList<>(self.entrySet());
        sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        return sorted;
    }

    private static void collectSelf(Collection<Node> nodes, Map<String, Long> self) {
        for (Node node : nodes) {
            long s = node.selfSamples();
            if (s > 0) {
                self.merge(node.frame, s, Long::sum);
            }
            collectSelf(node.children.values(), self);
        }
    }
}
