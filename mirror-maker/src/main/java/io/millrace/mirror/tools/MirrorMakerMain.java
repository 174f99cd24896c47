package io.millrace.mirror.tools;

import io.millrace.common.config.ConfigException;
import io.millrace.common.config.ServerArguments;
import io.millrace.mirror.MirrorMaker;
import io.millrace.mirror.MirrorMakerConfig;
import io.millrace.mirror.SourceCluster;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bin/millrace mirror-maker --consumer.config FILE [--consumer.config FILE ...] --producer.config FILE
 * --whitelist REGEX [--blacklist REGEX] [--num.streams N] [--message.handler CLASS [--message.handler.args ARGS]]
 * [--config FILE] [--override key=value ...]}, spelled
 * as Kafka's MirrorMaker was. Runs until SIGTERM (then drains, flushes and commits) or until a stream
 * stops on a send that cannot succeed (exit 1).
 */
public final class MirrorMakerMain {

    static final String USAGE = "Usage: millrace mirror-maker --consumer.config FILE [--consumer.config FILE ...] "
        + "--producer.config FILE --whitelist REGEX [--blacklist REGEX] [--num.streams N] "
        + "[--message.handler CLASS [--message.handler.args ARGS]] [--config FILE] [--override key=value ...]";

    private MirrorMakerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
        MirrorMaker mirror;
        try {
            mirror = parse(args);
        } catch (IllegalArgumentException | ConfigException | IOException e) {
            err.println("millrace mirror-maker: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (mirror == null) {
            out.println(USAGE);
            return 0;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            mirror.close();
            stopped.countDown();
        }, "millrace-mirror-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        mirror.start();
        out.println("Millrace mirror maker running");
        while (stopped.getCount() > 0) {
            if (mirror.failure().isPresent()) {
                err.println("millrace mirror-maker: " + mirror.failure().get().getMessage());
                Runtime.getRuntime().removeShutdownHook(hook);
                mirror.close();
                return 1;
            }
            stopped.await(200, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
        return 0;
    }

    /** The mirror the arguments describe; null for --help. */
    static MirrorMaker parse(String[] args) throws IOException {
        List<Path> consumerConfigs = new ArrayList<>();
        Path producerConfig = null;
        List<String> rest = new ArrayList<>();
        Properties mirrorProps = new Properties();
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--consumer.config" -> consumerConfigs.add(Path.of(value(args, ++i, option)));
                case "--producer.config" -> producerConfig = Path.of(value(args, ++i, option));
                case "--whitelist" -> mirrorProps.setProperty(MirrorMakerConfig.WHITELIST_CONFIG, value(args, ++i, option));
                case "--blacklist" -> mirrorProps.setProperty(MirrorMakerConfig.BLACKLIST_CONFIG, value(args, ++i, option));
                case "--num.streams" -> mirrorProps.setProperty(MirrorMakerConfig.NUM_STREAMS_CONFIG, value(args, ++i, option));
                case "--message.handler" ->
                    mirrorProps.setProperty(MirrorMakerConfig.MESSAGE_HANDLER_CONFIG, value(args, ++i, option));
                case "--message.handler.args" ->
                    mirrorProps.setProperty(MirrorMakerConfig.MESSAGE_HANDLER_ARGS_CONFIG, value(args, ++i, option));
                default -> rest.add(option);
            }
        }
        Properties props = ServerArguments.parse(rest.toArray(String[]::new));
        if (props == null) {
            return null;
        }
        props.putAll(mirrorProps);
        if (consumerConfigs.isEmpty() || producerConfig == null) {
            throw new IllegalArgumentException("Give one --consumer.config per live cluster and the --producer.config of "
                + "the offline cluster");
        }
        List<SourceCluster> sources = new ArrayList<>();
        for (Path file : consumerConfigs) {
            Map<String, Object> settings = load(file);
            String name = String.valueOf(settings.getOrDefault(SourceCluster.CLUSTER_NAME_CONFIG,
                file.getFileName().toString().replaceFirst("\\.properties$", "")));
            sources.add(new SourceCluster(name, settings));
        }
        return new MirrorMaker(new MirrorMakerConfig(props), sources, load(producerConfig));
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static Map<String, Object> load(Path file) throws IOException {
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            props.load(in);
        }
        Map<String, Object> settings = new HashMap<>();
        props.stringPropertyNames().forEach(name -> settings.put(name, props.getProperty(name)));
        return settings;
    }
}
