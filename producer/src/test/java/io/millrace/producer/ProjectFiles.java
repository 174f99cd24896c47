package io.millrace.producer;

import java.nio.file.Files;
import java.nio.file.Path;

/** Files of the project the tests check against: found by walking up to the directory holding docs/. */
final class ProjectFiles {

    private ProjectFiles() {
    }

    static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("docs"))) {
                return dir;
            }
        }
        throw new AssertionError("No docs/ directory above " + Path.of("").toAbsolutePath());
    }

    static Path clientsDoc() {
        return root().resolve("docs").resolve("clients.md");
    }
}
