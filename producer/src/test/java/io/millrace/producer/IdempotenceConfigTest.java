package io.millrace.producer;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.common.config.ConfigException;
import java.util.HashMap;
import java.util.Map;
import org.junit.Test;

/** enable.idempotence and the settings it needs, as Kafka's producer checks them. */
public class IdempotenceConfigTest {

    private static ProducerConfig config(Object... keyValues) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", "localhost:9092");
        for (int i = 0; i < keyValues.length; i += 2) {
            props.put((String) keyValues[i], keyValues[i + 1]);
        }
        return new ProducerConfig(props);
    }

    private static void assertRefused(String expected, Object... keyValues) {
        try {
            config(keyValues);
            fail("accepted " + java.util.Arrays.toString(keyValues));
        } catch (ConfigException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("enable.idempotence"));
            assertTrue(e.getMessage(), e.getMessage().contains(expected));
        }
    }

    @Test
    public void theProducerIsIdempotentByDefaultAsKafkasIs() {
        assertTrue(config().idempotence());
        assertTrue(config("max.in.flight.requests.per.connection", 5, "acks", "-1").idempotence());
    }

    @Test
    public void explicitlyAskedForItRefusesSettingsThatCannotKeepItsPromise() {
        assertRefused("acks=all", "enable.idempotence", true, "acks", "1");
        assertRefused("acks=all", "enable.idempotence", "true", "acks", "0");
        assertRefused("retries", "enable.idempotence", true, "retries", 0);
        assertRefused("max.in.flight.requests.per.connection <= 5", "enable.idempotence", true,
            "max.in.flight.requests.per.connection", 6);
    }

    @Test
    public void leftAtItsDefaultItGivesWayToAcksAndRetriesThatCannotKeepItsPromise() {
        assertFalse(config("acks", "1").idempotence());
        assertFalse(config("retries", 0).idempotence());
    }

    @Test
    public void moreThanFiveRequestsInFlightNeedItTurnedOffAsWithKafkasProducerFrom4() {
        assertRefused("max.in.flight.requests.per.connection <= 5", "max.in.flight.requests.per.connection", 6);
        assertFalse(config("enable.idempotence", false, "max.in.flight.requests.per.connection", 6).idempotence());
    }

    @Test
    public void itCanBeTurnedOff() {
        assertFalse(config("enable.idempotence", false).idempotence());
        assertFalse(config("enable.idempotence", "false", "acks", "1").idempotence());
    }
}
