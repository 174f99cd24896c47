package io.millrace.examples.hive;

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
 * Hive in this JVM: one session and one {@code Driver}, the metastore an embedded Derby database created on
 * first use, queries run as MapReduce jobs on the LocalJobRunner, everything Hive keeps under one directory.
 * Not thread-safe.
 */
final class EmbeddedHive implements AutoCloseable {

    private final SessionState session;
    private final IDriver driver;

    EmbeddedHive(Path dir) throws IOException {
        HiveConf conf = conf(dir);
        this.session = SessionState.start(conf);
        this.driver = DriverFactory.newDriver(conf);
    }

    private static HiveConf conf(Path dir) throws IOException {
        Files.createDirectories(dir);
        HiveConf conf = new HiveConf();
        conf.set("fs.defaultFS", "file:///");
        conf.set("mapreduce.framework.name", "local");
        conf.set("hive.execution.engine", "mr");
        // the jobs run in this JVM, not in a child Hive would start with its own launcher
        conf.set("hive.exec.submitviachild", "false");
        // an empty URI list: the metastore runs in this JVM, over Derby, its tables made on first use
        conf.set("hive.metastore.uris", "");
        conf.set("javax.jdo.option.ConnectionURL", "jdbc:derby:;databaseName=" + dir.resolve("metastore_db") + ";create=true");
        conf.set("datanucleus.schema.autoCreateAll", "true");
        conf.set("hive.metastore.schema.verification", "false");
        // statistics of re-executed queries stay with the query instead of going to a metastore table
        conf.set("hive.query.reexecution.stats.persist.scope", "query");
        conf.set("hive.metastore.warehouse.dir", dir.resolve("warehouse").toUri().toString());
        conf.set("hive.metastore.warehouse.external.dir", dir.resolve("external").toUri().toString());
        conf.set("hive.exec.scratchdir", dir.resolve("scratch").toString());
        conf.set("hive.exec.local.scratchdir", dir.resolve("local-scratch").toString());
        conf.set("hive.downloaded.resources.dir", dir.resolve("resources").toString());
        conf.set("hive.querylog.location", dir.resolve("query-log").toString());
        conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
        // one session and no transactional tables: no lock manager needed
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

    @Override
    public void close() throws IOException {
        try {
            driver.close();
            driver.destroy();
        } finally {
            session.close();
        }
    }
}
