package io.millrace.schemaregistry.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;

import io.millrace.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.Test;

public class SchemaRegistryMainTest {

    @Test
    public void overridesWinOverTheConfigFile() throws Exception {
        Path file = TestDirs.create("registry-config").resolve("registry.properties");
        Files.writeString(file, "listeners=http://0.0.0.0:8081\nzookeeper.connect=zk:2181\n");
        Properties props = SchemaRegistryMain.parse(new String[] {
            "--override", "listeners=http://127.0.0.1:9081", "--config", file.toString()});
        assertEquals("http://127.0.0.1:9081", props.getProperty("listeners"));
        assertEquals("zk:2181", props.getProperty("zookeeper.connect"));
    }

    @Test
    public void badArgumentsAreRefusedAndHelpIsNull() throws Exception {
        assertThrows(IllegalArgumentException.class, () -> SchemaRegistryMain.parse(new String[] {"--bogus"}));
        assertThrows(IllegalArgumentException.class, () -> SchemaRegistryMain.parse(new String[] {"--override"}));
        assertThrows(IllegalArgumentException.class, () -> SchemaRegistryMain.parse(new String[] {"--override", "novalue"}));
        assertNull(SchemaRegistryMain.parse(new String[] {"--help"}));
    }
}
