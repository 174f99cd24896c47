package io.millrace.testkit;

import static org.junit.Assume.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Python virtual environment of a test's own, with packages from PyPI: how tests check Millrace
 * with clients nobody here wrote (Confluent's Python client and librdkafka inside it). Without
 * python3 and its venv module, or with PyPI out of reach, {@link #install} skips the test with the
 * reason, as the check cannot be made.
 */
public final class PythonEnvironment {

    /** What a process printed (standard output and error together) and how it exited; -1 if it did not. */
    public record Result(int exit, String output) {
    }

    private final Path python;

    private PythonEnvironment(Path python) {
        this.python = python;
    }

    /**
     * Creates the environment in {@code dir} unless it exists, then installs {@code packages}
     * (pip requirement specifiers, pinned so that builds repeat). Call from {@code @BeforeClass}.
     */
    public static PythonEnvironment install(Path dir, String... packages) throws IOException, InterruptedException {
        Path python = dir.toAbsolutePath().resolve("bin").resolve("python");
        if (!Files.isExecutable(python)) {
            Result created = exec(List.of("python3", "-m", "venv", dir.toAbsolutePath().toString()), 120);
            assumeTrue("python3 with venv is needed: " + created.output(), created.exit() == 0);
        }
        List<String> pip = new ArrayList<>(List.of(python.toString(), "-m", "pip", "install", "-q",
            "--disable-pip-version-check"));
        pip.addAll(List.of(packages));
        Result installed = exec(pip, 600);
        assumeTrue("pip could not install " + List.of(packages) + ": " + installed.output(), installed.exit() == 0);
        return new PythonEnvironment(python);
    }

    /** Runs {@code script} with {@code args} in this environment, for at most {@code timeoutSeconds}. */
    public Result run(Path script, List<String> args, long timeoutSeconds) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(python.toString(), "-W", "ignore", script.toString()));
        command.addAll(args);
        return exec(command, timeoutSeconds);
    }

    private static Result exec(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        // output to a file, not a pipe: a chatty process cannot block on a full pipe nobody reads yet
        Path output = Files.createTempFile("python", ".out");
        try {
            Process process;
            try {
                process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            } catch (IOException e) {
                return new Result(-1, e.getMessage());
            }
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Result(-1, "timed out after " + timeoutSeconds + " s: " + command + "\n"
                    + Files.readString(output, StandardCharsets.UTF_8));
            }
            return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8).trim());
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
