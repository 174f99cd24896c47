package io.millrace.hadoop.hive;

import io.millrace.schemaregistry.serde.EventHeaders;
import org.apache.avro.Schema;

/** Event schemas for the tests: a page view with the event header, and the fields a test adds. */
final class EventSchemas {

    private EventSchemas() {
    }

    /** {@code PageViewEvent {header, pageKey, url, <extra fields>}}, each extra field a JSON object. */
    static Schema pageViewWithDoc(String doc, String... extraFields) {
        StringBuilder json = new StringBuilder("{\"type\": \"record\", \"name\": \"PageViewEvent\", ")
            .append("\"namespace\": \"io.millrace.test.events\", \"doc\": ").append(quote(doc)).append(", \"fields\": [")
            .append("{\"name\": \"header\", \"type\": ").append(EventHeaders.SCHEMA).append("}, ")
            .append("{\"name\": \"pageKey\", \"type\": \"string\"}, {\"name\": \"url\", \"type\": \"string\"}");
        for (String field : extraFields) {
            json.append(", ").append(field);
        }
        return new Schema.Parser().parse(json.append("]}").toString());
    }

    static Schema pageView(String... extraFields) {
        return pageViewWithDoc("A member viewed a page, e.g. 'profile'.", extraFields);
    }

    static String field(String name, String type) {
        return "{\"name\": " + quote(name) + ", \"type\": " + type + "}";
    }

    static String field(String name, String type, String defaultValue) {
        return "{\"name\": " + quote(name) + ", \"type\": " + type + ", \"default\": " + defaultValue + "}";
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\t", "\\t") + "\"";
    }
}
