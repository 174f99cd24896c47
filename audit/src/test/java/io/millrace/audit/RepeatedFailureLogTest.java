package io.millrace.audit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.audit.RepeatedFailureLog.Report;
import java.util.ArrayList;
import java.util.List;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.slf4j.LoggerFactory;

/** A failure every round meets again is logged when it begins, now and then while it lasts, and when it ends. */
public class RepeatedFailureLogTest {

    private static final String NAME = RepeatedFailureLogTest.class.getName() + ".log";

    private final List<Level> levels = new ArrayList<>();
    private final AppenderSkeleton appender = new AppenderSkeleton() {
        @Override
        protected void append(LoggingEvent event) {
            levels.add(event.getLevel());
        }

        @Override
        public void close() {
        }

        @Override
        public boolean requiresLayout() {
            return false;
        }
    };
    private final RepeatedFailureLog log = new RepeatedFailureLog(LoggerFactory.getLogger(NAME), 60_000);

    @Before
    public void capture() {
        Logger.getLogger(NAME).setLevel(Level.DEBUG);
        Logger.getLogger(NAME).addAppender(appender);
    }

    @After
    public void release() {
        Logger.getLogger(NAME).removeAppender(appender);
    }

    @Test
    public void aRunOfFailuresIsWarnedOfOnceThenRemindedOfEveryReminderInterval() {
        assertEquals(Report.FIRST, log.failed(1_000, "the audit topic cannot be reached"));
        assertEquals(Report.AGAIN, log.failed(2_000, "the audit topic cannot be reached"));
        assertEquals(Report.AGAIN, log.failed(60_999, "the audit topic cannot be reached"));
        assertEquals(Report.REMINDER, log.failed(61_000, "the audit topic cannot be reached"));
        assertEquals(Report.AGAIN, log.failed(62_000, "the audit topic cannot be reached"));
        assertEquals(Report.REMINDER, log.failed(121_000, "the audit topic cannot be reached"));
        assertEquals(List.of(Level.WARN, Level.DEBUG, Level.DEBUG, Level.WARN, Level.DEBUG, Level.WARN), levels);
    }

    @Test
    public void aSuccessEndsTheRunAndTheNextFailureIsWarnedOfAgain() {
        assertFalse("nothing failed yet", log.succeeded(500));
        log.failed(1_000, "cannot send");
        log.failed(2_000, "cannot send");
        assertTrue(log.succeeded(3_000));
        assertFalse("the run already ended", log.succeeded(4_000));
        assertEquals(Report.FIRST, log.failed(5_000, "cannot send"));
        assertEquals(Report.AGAIN, log.failed(6_000, "cannot send"));
        assertEquals(List.of(Level.WARN, Level.DEBUG, Level.INFO, Level.WARN, Level.DEBUG), levels);
    }

    @Test
    public void aFailureExpectedAtFirstIsReportedAtInfoThenRemindedOfAsAnyOther() {
        assertEquals(Report.FIRST, log.failed(1_000, "the registry takes no new schema", true));
        assertEquals(Report.AGAIN, log.failed(2_000, "the registry takes no new schema", true));
        assertEquals(Report.REMINDER, log.failed(61_000, "the registry takes no new schema", true));
        assertTrue(log.succeeded(62_000));
        assertEquals(List.of(Level.INFO, Level.DEBUG, Level.WARN, Level.INFO), levels);
    }
}
