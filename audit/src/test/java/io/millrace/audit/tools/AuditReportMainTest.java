package io.millrace.audit.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.audit.AuditConfig;
import io.millrace.audit.AuditPublisher;
import io.millrace.audit.WindowDelta;
import io.millrace.broker.tools.LocalCluster;
import io.millrace.schemaregistry.server.SchemaRegistryConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The report command against a real audit topic: exit 1 with the missing count named, 0 when complete, 2 on misuse. */
public class AuditReportMainTest {

    private static final long W = 600_000;

    @Rule
    public final TemporaryFolder temp = new TemporaryFolder();

    @Test
    public void theReportNamesWhatIsMissingWhereAndExitsOneThenZeroOnceTheCountsAgree() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(1, Map.of());
             SchemaRegistryServer registry = new SchemaRegistryServer(new SchemaRegistryConfig(Map.of(
                 SchemaRegistryConfig.LISTENERS_CONFIG, "http://127.0.0.1:0",
                 SchemaRegistryConfig.ZOOKEEPER_CONNECT_CONFIG, cluster.zookeeperConnect()))).start()) {
            long start = 1_800_000_000_000L - 1_800_000_000_000L % W;
            try (AuditPublisher publisher = new AuditPublisher(settings(cluster, registry))) {
                publisher.publish(publisher.source("producer", "dc1"), List.of(delta(start, 100)));
                publisher.publish(publisher.source("live", "dc1"), List.of(delta(start, 100)));
                publisher.publish(publisher.source("offline", "dc1"), List.of(delta(start, 97)));
            }
            String[] args = {"--bootstrap-server", cluster.bootstrapServers(), "--schema-registry", registry.urls().get(0),
                "--grace", "10m", "--json", temp.getRoot().toPath().resolve("report.json").toString()};
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int status = AuditReportMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), System.err,
                start + 10 * W);
            String table = out.toString(StandardCharsets.UTF_8);
            assertEquals(table, 1, status);
            assertTrue(table, table.contains("INCOMPLETE"));
            String json = Files.readString(temp.getRoot().toPath().resolve("report.json"));
            assertTrue(json, json.contains("\"tier\":\"offline\",\"cluster\":\"dc1\",\"produced\":100,\"counted\":97,"
                + "\"missing\":3,\"status\":\"INCOMPLETE\""));

            try (AuditPublisher publisher = new AuditPublisher(settings(cluster, registry))) {
                publisher.publish(publisher.source("offline", "dc1"), List.of(delta(start, 3)));   // the late rest
                // a mirror that copied the audit topic itself counted those records: not events, no producers
                WindowDelta copiedAuditRecords = new WindowDelta(AuditConfig.DEFAULT_TOPIC, start, start + W, 4, 400, 0, 0, 0,
                    5, 9, 12);
                publisher.publish(publisher.source("live", "dc1"), List.of(copiedAuditRecords));
                publisher.publish(publisher.source("offline", "dc1"), List.of(copiedAuditRecords));
            }
            ByteArrayOutputStream complete = new ByteArrayOutputStream();
            assertEquals(0, AuditReportMain.run(args, new PrintStream(complete, true, StandardCharsets.UTF_8), System.err,
                start + 10 * W));
            assertTrue("the audit topic's own counts are left out", !complete.toString(StandardCharsets.UTF_8)
                .contains(AuditConfig.DEFAULT_TOPIC) && !Files.readString(temp.getRoot().toPath().resolve("report.json"))
                .contains("\"" + AuditConfig.DEFAULT_TOPIC + "\""));
            assertEquals("inside the grace period: pending, not failed", 0, AuditReportMain.run(new String[] {
                "--bootstrap-server", cluster.bootstrapServers(), "--schema-registry", registry.urls().get(0), "--grace",
                "1d"}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err, start + 10 * W));
        }
    }

    @Test
    public void misuseExitsTwo() {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(2, AuditReportMain.run(new String[] {"--grace", "10m"}, quiet, quiet, 0));
        assertEquals(2, AuditReportMain.run(new String[] {"--bootstrap-server", "b:1", "--grace", "ten"}, quiet, quiet, 0));
        assertEquals(2, AuditReportMain.run(new String[] {"--bootstrap-server", "b:1", "--nope", "x"}, quiet, quiet, 0));
    }

    private static WindowDelta delta(long start, long count) {
        return new WindowDelta("views", start, start + W, count, count * 10, 0, 0, 0, 5, 9, 12);
    }

    static Map<String, Object> settings(LocalCluster cluster, SchemaRegistryServer registry) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("bootstrap.servers", cluster.bootstrapServers());
        settings.put("schema.registry.url", registry.urls().get(0));
        settings.put(AuditConfig.AUDIT_TIER_CONFIG, "producer");
        settings.put(AuditConfig.AUDIT_CLUSTER_CONFIG, "dc1");
        settings.put(AuditConfig.AUDIT_APPLICATION_CONFIG, "report-test");
        return settings;
    }
}
