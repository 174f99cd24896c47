package io.millrace.common.config;

/**
 * A settings table a document carries between two markers, {@code <!-- NAME:start -->} and
 * {@code <!-- NAME:end -->}, generated from a {@link ConfigDef}: the docs tools rewrite it from the code
 * and their tests fail when a checked-in table is stale, so the docs and the declarations never part.
 */
public record GeneratedTable(String name, ConfigDef config) {

    public String start() {
        return "<!-- " + name + ":start -->";
    }

    public String end() {
        return "<!-- " + name + ":end -->";
    }

    /** The generated table with its markers. */
    public String block() {
        return start() + "\n" + config.toMarkdownTable() + end();
    }

    /** Whether {@code document} has this table's markers. */
    public boolean isIn(String document) {
        int start = document.indexOf(start());
        return start >= 0 && document.indexOf(end(), start) > start;
    }

    /** {@code document} with the text between the markers replaced by the current table. */
    public String update(String document) {
        int start = document.indexOf(start());
        int end = start < 0 ? -1 : document.indexOf(end(), start);
        if (end < 0) {
            throw new IllegalArgumentException("The document has no " + start() + " ... " + end() + " block");
        }
        return document.substring(0, start) + block() + document.substring(end + end().length());
    }
}
