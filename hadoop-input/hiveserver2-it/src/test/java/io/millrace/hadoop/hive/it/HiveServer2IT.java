package io.millrace.hadoop.hive.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.hive.HiveConfig;
import io.millrace.hadoop.hive.HiveRegistration;
import io.millrace.hadoop.load.LoadJob;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.testkit.FreePorts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hive.service.server.HiveServer2;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The load's Hive registration as a user gets it: through Hive's JDBC driver ({@code jdbc:hive2://host:port})
 * to a HiveServer2 listening on a port, here in the test's JVM. The load registers the table and its hours
 * itself ({@code millrace.hadoop.hive.jdbc.url}); the same server then counts what was produced.
 */
public class HiveServer2IT {

    private static final String TOPIC = "page-views";
    private static final Map<Instant, Integer> PRODUCED = Map.of(Instant.parse("2026-12-31T22:00:00Z"), 300,
        Instant.parse("2026-12-31T23:00:00Z"), 200, Instant.parse("2027-01-01T00:00:00Z"), 100);

    private static HiveServer2 server;
    private static String url;
    private static LoadSummary loaded;
    private static HiveRegistration registration;

    @BeforeClass
    public static void startHiveServer2ThenLoad() throws Exception {
        Path dir = Path.of(System.getProperty("hive.it.dir", "target/hive-it")).toAbsolutePath();
        HiveTablesIT.delete(dir);
        int port = FreePorts.loopback();
        HiveConf conf = EmbeddedHive.conf(dir.resolve("hive"));
        conf.set("hive.server2.thrift.bind.host", "127.0.0.1");
        conf.setInt("hive.server2.thrift.port", port);
        conf.set("hive.server2.transport.mode", "binary");
        conf.set("hive.server2.authentication", "NONE");
        conf.setBoolean("hive.server2.enable.doAs", false);
        conf.setInt("hive.server2.webui.port", 0);
        server = new HiveServer2();
        server.init(conf);
        server.start();
        awaitPort(port);
        url = "jdbc:hive2://127.0.0.1:" + port + "/default";

        try (LoadedPageViews source = LoadedPageViews.start(dir.resolve("source"))) {
            source.produce(TOPIC, 2, PRODUCED);
            Map<String, Object> settings = source.loadSettings(TOPIC, "hive");
            settings.put(HiveConfig.JDBC_URL_CONFIG, url);
            Configuration hadoop = new Configuration();
            hadoop.set("mapreduce.framework.name", "local");
            hadoop.set("fs.defaultFS", "file:///");
            hadoop.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
            LoadJob load = new LoadJob(new LoadConfig(settings), hadoop);
            loaded = load.run();
            registration = load.hiveRegistration();
        }
    }

    @AfterClass
    public static void stopHiveServer2() {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    public void theLoadRegistersItsTableAndHoursThroughJdbcAndHiveServer2CountsWhatWasProduced() throws Exception {
        long total = PRODUCED.values().stream().mapToLong(Integer::longValue).sum();
        assertEquals(total, loaded.records());
        assertTrue("registered without failures: " + registration, !registration.anyFailed());
        assertEquals(List.of(TOPIC), registration.registered().stream().map(HiveRegistration.Registered::topic).toList());
        assertEquals(PRODUCED.size(), registration.registered().get(0).hours().size());
        try (Connection connection = DriverManager.getConnection(url);
             Statement statement = connection.createStatement()) {
            assertEquals(PRODUCED.size(), rows(statement, "SHOW PARTITIONS page_views"));
            try (ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM page_views")) {
                assertTrue(count.next());
                assertEquals(total, count.getLong(1));
            }
            try (ResultSet hour = statement.executeQuery(
                    "SELECT COUNT(*) FROM page_views WHERE year = 2027 AND month = 1 AND day = 1 AND hour = 0")) {
                assertTrue(hour.next());
                assertEquals(100, hour.getLong(1));
            }
        }
    }

    private static int rows(Statement statement, String query) throws Exception {
        int rows = 0;
        try (ResultSet result = statement.executeQuery(query)) {
            while (result.next()) {
                rows++;
            }
        }
        return rows;
    }

    private static void awaitPort(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(250);
            }
        }
        throw new AssertionError("HiveServer2 does not listen on " + port);
    }
}
