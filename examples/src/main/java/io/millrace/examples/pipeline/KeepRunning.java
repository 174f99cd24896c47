package io.millrace.examples.pipeline;

import io.millrace.audit.AuditConfig;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bin/millrace demo --keep-running}: after the report the three data centres stay up, with what the
 * demo left in them, for the tools a user already has, until Ctrl-C or SIGTERM stops them.
 */
final class KeepRunning {

    private KeepRunning() {
    }

    /** Prints every address and a line to try with each tool, then waits until the JVM is asked to stop. */
    static void untilStopped(List<DataCentre> dataCentres, PrintStream out) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            dataCentres.forEach(DataCentre::close);
            out.println("Stopped every data centre; deleted their data.");
            stopped.countDown();
        }, "demo-shutdown"));
        DataCentre live = dataCentres.get(0);
        DataCentre offline = dataCentres.get(dataCentres.size() - 1);
        out.println("Everything stays up until Ctrl-C:");
        dataCentres.forEach(dc -> out.println("  " + dc));
        out.println("Try:");
        out.printf("  kcat -b %s -C -t page-views -o beginning -c 5 -s value=avro -r %s%n", offline.bootstrapServers(),
            offline.registryUrl());
        out.printf("  kafka-topics.sh --bootstrap-server %s --describe --topic page-views%n", offline.bootstrapServers());
        out.printf("  curl %s/subjects%n", offline.registryUrl());
        out.printf("  bin/millrace consumer-groups --zookeeper %s --describe --group %s%n", live.zookeeperConnect(),
            MirrorStage.group(live, offline));
        out.printf("  bin/millrace audit-report --bootstrap-server %s --schema-registry %s --audit-topic %s --grace 0s%n",
            offline.bootstrapServers(), offline.registryUrl(), AuditConfig.DEFAULT_TOPIC);
        out.printf("  bin/millrace event-generator --bootstrap-server %s --schema-registry %s --cluster %s --events 1000%n",
            live.bootstrapServers(), live.registryUrl(), live.name());
        stopped.await();
    }
}
