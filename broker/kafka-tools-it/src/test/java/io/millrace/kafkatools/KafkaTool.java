package io.millrace.kafkatools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One of Apache Kafka's command-line tools, run as its shell script runs it: its main class in a
 * JVM of its own (the tools end with System.exit), on this test's classpath, which holds Kafka's
 * tools jar and core jar.
 */
final class KafkaTool {

    static final String TOPICS = "org.apache.kafka.tools.TopicCommand";
    static final String CONSUMER_GROUPS = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand";
    static final String DELETE_RECORDS = "org.apache.kafka.tools.DeleteRecordsCommand";
    static final String CONFIGS = "kafka.admin.ConfigCommand";
    static final String VERIFIABLE_PRODUCER = "org.apache.kafka.tools.VerifiableProducer";
    static final String VERIFIABLE_CONSUMER = "org.apache.kafka.tools.VerifiableConsumer";
    static final String LOG_DIRS = "org.apache.kafka.tools.LogDirsCommand";
    static final String LEADER_ELECTION = "org.apache.kafka.tools.LeaderElectionCommand";
    static final String GET_OFFSETS = "org.apache.kafka.tools.GetOffsetShell";
    static final String CONSOLE_PRODUCER = "org.apache.kafka.tools.ConsoleProducer";
    static final String CONSOLE_CONSUMER = "org.apache.kafka.tools.consumer.ConsoleConsumer";
    static final String PRODUCER_PERFORMANCE = "org.apache.kafka.tools.ProducerPerformance";
    static final String CONSUMER_PERFORMANCE = "org.apache.kafka.tools.ConsumerPerformance";
    static final String END_TO_END_LATENCY = "org.apache.kafka.tools.EndToEndLatency";
    static final String CLIENT_COMPATIBILITY = "org.apache.kafka.tools.ClientCompatibilityTest";
    static final String ACLS = "org.apache.kafka.tools.AclCommand";
    static final String TRANSACTIONS = "org.apache.kafka.tools.TransactionsCommand";
    static final String TRANSACTIONAL_MESSAGE_COPIER = "org.apache.kafka.tools.TransactionalMessageCopier";
    static final String REASSIGN_PARTITIONS = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand";

    /** What a tool printed (standard output and error together) and how it exited. */
    record Run(List<String> command, int exit, String output) {

        Run expectSuccess() {
            if (exit != 0) {
                throw new AssertionError(String.join(" ", command) + " exited with " + exit + ":\n" + output);
            }
            return this;
        }

        List<String> lines() {
            return output.lines().toList();
        }
    }

    private KafkaTool() {
    }

    static Run run(String mainClass, List<String> args) throws IOException, InterruptedException {
        return run(mainClass, args, null);
    }

    /** As above with {@code input}, when not null, as the tool's standard input. */
    static Run run(String mainClass, List<String> args, Path input) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        // a file, not a pipe: the verifiable clients print a line per record
        Path output = Files.createTempFile("kafka-tool", ".out");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
            if (input != null) {
                builder.redirectInput(input.toFile());
            }
            Process process = builder.start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(mainClass + " " + args + " did not end within 120 s:\n"
                    + Files.readString(output, StandardCharsets.UTF_8));
            }
            return new Run(List.of(mainClass.substring(mainClass.lastIndexOf('.') + 1), String.join(" ", args)),
                process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
