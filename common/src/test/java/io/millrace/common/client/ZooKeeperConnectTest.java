package io.millrace.common.client;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import org.apache.curator.framework.CuratorFrameworkFactory;
import org.junit.Test;

public class ZooKeeperConnectTest {

    @Test
    public void theChrootBecomesTheNamespaceAndTheServersTheConnectString() throws Exception {
        CuratorFrameworkFactory.Builder builder = ZooKeeperConnect.curatorBuilder("zk1:2181,zk2:2181/millrace/dc1/");

        assertEquals("zk1:2181,zk2:2181", builder.getEnsembleProvider().getConnectionString());
        assertEquals("millrace/dc1", builder.getNamespace());
        assertArrayEquals("no host address in new znodes", new byte[0], builder.getDefaultData());
    }

    @Test
    public void withoutAChrootThereIsNoNamespace() throws Exception {
        CuratorFrameworkFactory.Builder builder = ZooKeeperConnect.curatorBuilder("127.0.0.1:2181");

        assertEquals("127.0.0.1:2181", builder.getEnsembleProvider().getConnectionString());
        assertNull(builder.getNamespace());
    }
}
