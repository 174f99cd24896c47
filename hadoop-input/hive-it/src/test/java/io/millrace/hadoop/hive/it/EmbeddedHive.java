package io.millrace.hadoop.hive.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.DriverFactory;
import org.apache.hadoop.hive.ql.IDriver;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.apache.hadoop.hive.ql.session.SessionState;

/**
 * Hive in the test's JVM: one session and one {@code Driver}, its metastore an embedded Derby database,
 * MapReduce on the LocalJobRunner, everything under one directory. Not thread-safe.
 */
final class EmbeddedHive implements AutoCloseable {

    private final IDriver driver;
    private final SessionState session;

    EmbeddedHive(Path dir) throws IOException {
        HiveConf conf = conf(dir);
        this.session = SessionState.start(conf);
        this.driver = DriverFactory.newDriver(conf);
    }

    /** Hive's settings for a metastore, warehouse and scratch space under {@code dir}, MapReduce local. */
    static HiveConf conf(Path dir) throws IOException {
        Files.createDirectories(dir);
        HiveConf conf = new HiveConf();
        conf.set("fs.defaultFS", "file:///");
        conf.set("mapreduce.framework.name", "local");
        conf.set("hive.execution.engine", "mr");
        conf.set("hive.exec.submitviachild", "false");
        // the metastore in this JVM, over Derby, its tables made on first use
        conf.set("hive.metastore.uris", "");
        conf.set("javax.jdo.option.ConnectionURL", "jdbc:derby:;databaseName=" + dir.resolve("metastore_db") + ";create=true");
        conf.set("datanucleus.schema.autoCreateAll", "true");
        conf.set("hive.metastore.schema.verification", "false");
        // runtime statistics of re-executed queries stay in the session, not in a metastore table
        conf.set("hive.query.reexecution.stats.persist.scope", "query");
        conf.set("hive.metastore.warehouse.dir", dir.resolve("warehouse").toUri().toString());
        conf.set("hive.metastore.warehouse.external.dir", dir.resolve("external").toUri().toString());
        conf.set("hive.exec.scratchdir", dir.resolve("scratch").toString());
        conf.set("hive.exec.local.scratchdir", dir.resolve("local-scratch").toString());
        conf.set("hive.downloaded.resources.dir", dir.resolve("resources").toString());
        conf.set("hive.querylog.location", dir.resolve("query-log").toString());
        conf.set("hive.support.concurrency", "false");
        conf.set("hive.txn.manager", "org.apache.hadoop.hive.ql.lockmgr.DummyTxnManager");
        return conf;
    }

    /** Runs one statement; the rows it returns, each a tab-separated line. */
    List<String> run(String statement) throws CommandProcessorException, IOException {
        driver.run(statement);
        List<String> rows = new ArrayList<>();
        List<String> batch = new ArrayList<>();
        while (driver.getResults(batch)) {
            rows.addAll(batch);
            batch.clear();
        }
        return rows;
    }

    /** The one value a statement returns, as a number. */
    long count(String query) throws CommandProcessorException, IOException {
        List<String> rows = run(query);
        if (rows.size() != 1) {
            throw new AssertionError(query + " returned " + rows);
        }
        return Long.parseLong(rows.get(0).trim());
    }

    @Override
    public void close() throws IOException {
        driver.close();
        driver.destroy();
        session.close();
    }
}
