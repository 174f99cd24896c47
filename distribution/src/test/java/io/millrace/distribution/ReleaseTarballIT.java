package io.millrace.distribution;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.TestRule;

/**
 * The release as a user gets it, unpacked into an empty directory with no sources and no Maven: ZooKeeper,
 * a broker and a schema registry start from it (and the mirror maker answers), a topic is created,
 * Kafka-style console tools send and read records, and SIGTERM stops each.
 */
public class ReleaseTarballIT {

    private final TemporaryFolder temp = new TemporaryFolder();
    private final Release release = new Release(temp);

    @Rule
    public final TestRule rules = RuleChain.outerRule(temp).around(release);

    @Test
    public void theUnpackedReleaseRunsZooKeeperABrokerARegistryAndTheConsoleToolsWithoutMavenOrSources() throws Exception {
        assertTrue("libs/ holds the jars", Files.exists(release.home().resolve("libs")));
        assertFalse("no sources in a release", Files.exists(release.home().resolve("pom.xml")));
        assertTrue("licenses of what it bundles",
            Files.readString(release.home().resolve("licenses/THIRD-PARTY.txt")).contains("zookeeper"));

        Release.Run mirrorHelp = release.run(null, "mirror-maker", "--help");
        assertEquals(mirrorHelp.err(), 0, mirrorHelp.exit());
        assertTrue(mirrorHelp.out(), mirrorHelp.out().contains("--consumer.config"));

        Release.Servers servers = release.startServers();
        assertEquals(0, release.run(null, "topics", "--bootstrap-server", servers.bootstrap(), "--create",
            "--topic", "release", "--partitions", "1").exit());
        assertEquals(0, release.run("one\ntwo\nthree\n", "console-producer", "--bootstrap-server", servers.bootstrap(),
            "--topic", "release").exit());
        Release.Run consumed = release.run(null, "console-consumer", "--bootstrap-server", servers.bootstrap(),
            "--topic", "release", "--from-beginning", "--max-messages", "3");
        assertEquals(consumed.err(), 0, consumed.exit());
        assertEquals(List.of("one", "two", "three"), consumed.out().lines().toList());

        HttpURLConnection subjects = (HttpURLConnection) URI.create(servers.registryUrl() + "/subjects").toURL()
            .openConnection();
        assertEquals(200, subjects.getResponseCode());
        assertEquals("[]", new String(subjects.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim());

        release.stop(servers.registry(), "registry.log");
        release.stop(servers.broker(), "broker.log");
        release.stop(servers.zookeeper(), "zookeeper.log");
        assertFalse("nothing ran Maven", release.mavenWasCalled());
    }
}
