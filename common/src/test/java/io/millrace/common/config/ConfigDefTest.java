package io.millrace.common.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import io.millrace.common.config.ConfigDef.ValidString;
import java.util.List;
import java.util.Map;
import org.junit.Test;

public class ConfigDefTest {

    private final ConfigDef def = new ConfigDef()
        .define("segment.bytes", Type.INT, 1024, Range.atLeast(14), Importance.HIGH, "Segment size.")
        .define("retention.ms", Type.LONG, 7L * 24 * 3600 * 1000, Importance.MEDIUM, "Retention.")
        .define("flush", Type.BOOLEAN, false, Importance.LOW, "Flush.")
        .define("dirs", Type.LIST, "a,b", Importance.HIGH, "Dirs.")
        .define("codec", Type.STRING, "none", ValidString.in("none", "gzip"), Importance.LOW, "Codec.")
        .define("id", Type.INT, ConfigDef.NO_DEFAULT, Importance.HIGH, "Id.");

    @Test
    public void parsesStringsIntoDeclaredTypesAndFillsDefaults() {
        Map<String, Object> values = def.parse(Map.of("segment.bytes", " 2048 ", "flush", "TRUE", "id", "3", "dirs", "x, y ,z"));
        assertEquals(2048, values.get("segment.bytes"));
        assertEquals(604_800_000L, values.get("retention.ms"));
        assertEquals(true, values.get("flush"));
        assertEquals(List.of("x", "y", "z"), values.get("dirs"));
        assertEquals("none", values.get("codec"));
        assertEquals(3, values.get("id"));
    }

    @Test
    public void acceptsTypedValuesAndWidensIntToLong() {
        Map<String, Object> values = def.parse(Map.of("retention.ms", 5, "id", 1));
        assertEquals(5L, values.get("retention.ms"));
    }

    @Test
    public void rejectsOutOfRangeValueNamingTheSetting() {
        ConfigException e = assertThrows(ConfigException.class, () -> def.parse(Map.of("segment.bytes", "13", "id", "1")));
        assertTrue(e.getMessage(), e.getMessage().contains("segment.bytes") && e.getMessage().contains("at least 14"));
    }

    @Test
    public void rejectsUnparsableNumberAndBadBoolean() {
        assertThrows(ConfigException.class, () -> def.parse(Map.of("segment.bytes", "big", "id", "1")));
        assertThrows(ConfigException.class, () -> def.parse(Map.of("flush", "yes", "id", "1")));
    }

    @Test
    public void rejectsStringOutsideAllowedSet() {
        assertThrows(ConfigException.class, () -> def.parse(Map.of("codec", "brotli", "id", "1")));
    }

    @Test
    public void requiresSettingsWithoutDefault() {
        ConfigException e = assertThrows(ConfigException.class, () -> def.parse(Map.of()));
        assertTrue(e.getMessage().contains("id"));
    }

    @Test
    public void rejectsInvalidDefaultAtDeclaration() {
        assertThrows(ConfigException.class,
            () -> new ConfigDef().define("x", Type.INT, 0, Range.atLeast(1), Importance.LOW, "X."));
    }

    @Test
    public void refusesUndescribedLambdaValidatorsAndRendersDescribedOnes() {
        assertThrows(IllegalArgumentException.class,
            () -> new ConfigDef().define("x", Type.INT, 1, (n, v) -> { }, Importance.LOW, "X."));
        ConfigDef described = new ConfigDef().define("x", Type.INT, 1,
            ConfigDef.Validator.described("odd numbers", (n, v) -> {
                if ((Integer) v % 2 == 0) {
                    throw new ConfigException(n, v, "must be odd");
                }
            }), Importance.LOW, "X.");
        assertTrue(described.toMarkdownTable().contains("| odd numbers |"));
        assertThrows(ConfigException.class, () -> described.parse(Map.of("x", "2")));
    }

    @Test
    public void rendersEverySettingInDocsAndPropertiesFile() {
        String table = def.toMarkdownTable();
        String props = def.toPropertiesFile();
        for (ConfigDef.ConfigKey key : def.keys()) {
            assertTrue(key.name, table.contains("`" + key.name + "`"));
            assertTrue(key.name, props.contains(key.name + "="));
        }
        assertTrue(props.contains("#segment.bytes=1024"));
        assertTrue(props.contains("\nid=\n"));
        assertTrue(table.contains("[14,...]"));
    }
}
