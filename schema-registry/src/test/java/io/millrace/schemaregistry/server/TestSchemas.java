package io.millrace.schemaregistry.server;

/** Avro schemas the tests register: a record that grows, field by field. */
public final class TestSchemas {

    private TestSchemas() {
    }

    public static String record(String name, String... fields) {
        return "{\"type\":\"record\",\"name\":\"" + name + "\",\"namespace\":\"io.millrace.test\",\"fields\":["
            + String.join(",", fields) + "]}";
    }

    public static String field(String name, String type) {
        return "{\"name\":\"" + name + "\",\"type\":" + type + "}";
    }

    public static String field(String name, String type, String defaultValue) {
        return "{\"name\":\"" + name + "\",\"type\":" + type + ",\"default\":" + defaultValue + "}";
    }

    /** PageView with the fields given after "url". */
    public static String pageView(String... moreFields) {
        String[] fields = new String[moreFields.length + 1];
        fields[0] = field("url", "\"string\"");
        System.arraycopy(moreFields, 0, fields, 1, moreFields.length);
        return record("PageView", fields);
    }
}
