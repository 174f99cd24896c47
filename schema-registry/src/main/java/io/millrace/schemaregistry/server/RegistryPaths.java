package io.millrace.schemaregistry.server;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Every znode path of the schema registry, and the one place that builds them. All live under
 * {@value #ROOT} (relative to the chroot of {@code zookeeper.connect}, if it has one); all are
 * persistent, and JSON unless said otherwise.
 *
 * <pre>
 * /millrace/schema-registry
 *   id-sequence                     the last schema id handed out, decimal text ("41")
 *   ids/&lt;id&gt;                        {"schema":"&lt;canonical Avro JSON&gt;"}   never changed, never deleted
 *   schemas/&lt;sha-256 of schema&gt;      {"id":41}                             canonical form -&gt; id
 *   subjects/&lt;subject&gt;/versions/&lt;n&gt;  {"id":41,"deleted":false}             n = 1, 2, ...
 *   config                          {"compatibility":"FULL"} or empty      the global level
 *   config/&lt;subject&gt;                 {"compatibility":"NONE"}               a subject's own level
 *   mode                            READWRITE, READONLY or IMPORT (text)    absent: READWRITE
 *   modes/&lt;subject&gt;                  READWRITE, READONLY or IMPORT (text)    a subject's own mode
 * </pre>
 *
 * <p>A new schema gets its id in one ZooKeeper transaction that bumps {@code id-sequence} (at the
 * version read), creates {@code ids/<id>} and {@code schemas/<sha>}: two registries that race
 * for the same schema cannot both win, so it gets one id, and no id is ever half made. A new
 * version is the create of {@code versions/<n>}, which likewise only one racer wins. Subject
 * names are URL-encoded into one znode name (a subject may contain '/').
 */
public final class RegistryPaths {

    public static final String ROOT = "/millrace/schema-registry";
    public static final String ID_SEQUENCE = ROOT + "/id-sequence";
    public static final String IDS = ROOT + "/ids";
    public static final String SCHEMAS = ROOT + "/schemas";
    public static final String SUBJECTS = ROOT + "/subjects";
    public static final String CONFIG = ROOT + "/config";
    public static final String MODE = ROOT + "/mode";
    public static final String MODES = ROOT + "/modes";

    private RegistryPaths() {
    }

    public static String id(int id) {
        return IDS + "/" + id;
    }

    public static String schema(String fingerprint) {
        return SCHEMAS + "/" + fingerprint;
    }

    public static String subject(String subject) {
        return SUBJECTS + "/" + encode(subject);
    }

    public static String versions(String subject) {
        return subject(subject) + "/versions";
    }

    public static String version(String subject, int version) {
        return versions(subject) + "/" + version;
    }

    public static String config(String subject) {
        return CONFIG + "/" + encode(subject);
    }

    public static String mode(String subject) {
        return MODES + "/" + encode(subject);
    }

    /** The subject a child of {@link #SUBJECTS} or {@link #CONFIG} is named for. */
    public static String decode(String nodeName) {
        return URLDecoder.decode(nodeName, StandardCharsets.UTF_8);
    }

    static String encode(String subject) {
        String encoded = URLEncoder.encode(subject, StandardCharsets.UTF_8);
        // "." and ".." are not valid znode names; an encoded '.' decodes back the same
        return encoded.startsWith(".") ? "%2E" + encoded.substring(1) : encoded;
    }
}
