package io.millrace.schemaregistry.server;

import static io.millrace.schemaregistry.server.TestSchemas.field;
import static io.millrace.schemaregistry.server.TestSchemas.pageView;
import static io.millrace.schemaregistry.server.TestSchemas.record;
import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.junit.Test;

/**
 * Which schema changes each compatibility level lets through, case by case: added and removed
 * fields with and without defaults, type promotions, enum symbols, unions, nested records, and
 * the transitive levels over three versions. Expected answers follow Avro's resolution rules.
 */
public class CompatibilityMatrixTest {

    private static final String Y = "compatible";
    private static final String N = "incompatible";

    /** One change from {@code before} to {@code after}: the verdict of BACKWARD, FORWARD and FULL (and NONE: always yes). */
    private record Change(String name, String before, String after, String backward, String forward, String full) {
    }

    private static final String ENUM_ABC = "{\"type\":\"enum\",\"name\":\"Kind\",\"symbols\":[\"A\",\"B\",\"C\"]}";
    private static final String ENUM_AB = "{\"type\":\"enum\",\"name\":\"Kind\",\"symbols\":[\"A\",\"B\"]}";
    private static final String ENUM_AB_DEFAULT = "{\"type\":\"enum\",\"name\":\"Kind\",\"symbols\":[\"A\",\"B\"],\"default\":\"A\"}";

    private static final List<Change> CHANGES = List.of(
        new Change("add a field with a default", pageView(), pageView(field("ref", "\"string\"", "\"\"")), Y, Y, Y),
        new Change("add a field without a default", pageView(), pageView(field("ref", "\"string\"")), N, Y, N),
        new Change("remove a field that had a default", pageView(field("ref", "\"string\"", "\"\"")), pageView(), Y, Y, Y),
        new Change("remove a field without a default", pageView(field("ref", "\"string\"")), pageView(), Y, N, N),
        new Change("promote int to long", pageView(field("n", "\"int\"")), pageView(field("n", "\"long\"")), Y, N, N),
        new Change("narrow long to int", pageView(field("n", "\"long\"")), pageView(field("n", "\"int\"")), N, Y, N),
        new Change("promote float to double", pageView(field("x", "\"float\"")), pageView(field("x", "\"double\"")), Y, N, N),
        new Change("promote string to bytes", pageView(field("s", "\"string\"")), pageView(field("s", "\"bytes\"")), Y, Y, Y),
        new Change("change int to string", pageView(field("n", "\"int\"")), pageView(field("n", "\"string\"")), N, N, N),
        new Change("add an enum symbol", pageView(field("k", ENUM_AB)), pageView(field("k", ENUM_ABC)), Y, N, N),
        new Change("remove an enum symbol", pageView(field("k", ENUM_ABC)), pageView(field("k", ENUM_AB)), N, Y, N),
        new Change("add an enum symbol, old enum has a default", pageView(field("k", ENUM_AB_DEFAULT)),
            pageView(field("k", ENUM_ABC.replace("]}", "],\"default\":\"A\"}"))), Y, Y, Y),
        new Change("widen a type to a union", pageView(field("s", "\"string\"")),
            pageView(field("s", "[\"null\",\"string\"]")), Y, N, N),
        new Change("narrow a union to one branch", pageView(field("s", "[\"null\",\"string\"]")),
            pageView(field("s", "\"string\"")), N, Y, N),
        new Change("add a branch to a union", pageView(field("v", "[\"null\",\"string\"]", "null")),
            pageView(field("v", "[\"null\",\"string\",\"long\"]", "null")), Y, N, N),
        new Change("add a field with a default in a nested record", pageView(field("ctx", record("Ctx", field("host", "\"string\"")))),
            pageView(field("ctx", record("Ctx", field("host", "\"string\""), field("dc", "\"string\"", "\"\"")))), Y, Y, Y),
        new Change("add a field without a default in a nested record", pageView(field("ctx", record("Ctx", field("host", "\"string\"")))),
            pageView(field("ctx", record("Ctx", field("host", "\"string\""), field("dc", "\"string\"")))), N, Y, N),
        new Change("rename the record", pageView(), record("Visit", field("url", "\"string\"")), N, N, N));

    @Test
    public void everyChangeGetsTheVerdictOfEachLevel() {
        List<String> wrong = new ArrayList<>();
        for (Change change : CHANGES) {
            Schema before = parse(change.before());
            Schema after = parse(change.after());
            check(wrong, change, CompatibilityLevel.BACKWARD, before, after, change.backward());
            check(wrong, change, CompatibilityLevel.FORWARD, before, after, change.forward());
            check(wrong, change, CompatibilityLevel.FULL, before, after, change.full());
            check(wrong, change, CompatibilityLevel.NONE, before, after, Y);
            // with a single earlier version, a transitive level decides as its plain one
            check(wrong, change, CompatibilityLevel.BACKWARD_TRANSITIVE, before, after, change.backward());
            check(wrong, change, CompatibilityLevel.FORWARD_TRANSITIVE, before, after, change.forward());
            check(wrong, change, CompatibilityLevel.FULL_TRANSITIVE, before, after, change.full());
        }
        assertEquals(String.join("\n", wrong), 0, wrong.size());
    }

    @Test
    public void backwardTransitiveLooksAtEveryEarlierVersion() {
        // v3 reads v2's data (ref is there) but not v1's (ref is missing and has no default)
        List<Schema> history = List.of(parse(pageView()), parse(pageView(field("ref", "\"string\"", "\"\""))));
        Schema v3 = parse(pageView(field("ref", "\"string\"")));
        assertEquals(List.of(), CompatibilityLevel.BACKWARD.incompatibilities(v3, history));
        assertEquals(List.of(), CompatibilityLevel.FULL.incompatibilities(v3, history));
        assertEquals(1, CompatibilityLevel.BACKWARD_TRANSITIVE.incompatibilities(v3, history).size());
        assertEquals(1, CompatibilityLevel.FULL_TRANSITIVE.incompatibilities(v3, history).size());
    }

    @Test
    public void forwardTransitiveLooksAtEveryEarlierVersion() {
        // v2 reads v3's data (ref has a default there) but v1 does not (no default)
        List<Schema> history = List.of(parse(pageView(field("ref", "\"string\""))), parse(pageView(field("ref", "\"string\"", "\"\""))));
        Schema v3 = parse(pageView());
        assertEquals(List.of(), CompatibilityLevel.FORWARD.incompatibilities(v3, history));
        assertEquals(1, CompatibilityLevel.FORWARD_TRANSITIVE.incompatibilities(v3, history).size());
        assertEquals(1, CompatibilityLevel.FULL_TRANSITIVE.incompatibilities(v3, history).size());
    }

    @Test
    public void theReasonNamesTheDirectionAndTheField() {
        List<String> reasons = CompatibilityLevel.BACKWARD.incompatibilities(parse(pageView(field("ref", "\"string\""))),
            List.of(parse(pageView())));
        assertEquals(1, reasons.size());
        String reason = reasons.get(0);
        assertEquals(reason, true, reason.contains("READER_FIELD_MISSING_DEFAULT_VALUE") && reason.contains("ref")
            && reason.startsWith("the new schema cannot read"));
    }

    @Test
    public void levelsAreFoundByNameInAnyCase() {
        assertEquals(CompatibilityLevel.FULL_TRANSITIVE, CompatibilityLevel.forName("full_transitive"));
        assertEquals(null, CompatibilityLevel.forName("SIDEWAYS"));
        assertEquals(7, CompatibilityLevel.names().length);
    }

    private static void check(List<String> wrong, Change change, CompatibilityLevel level, Schema before, Schema after, String expected) {
        List<String> reasons = level.incompatibilities(after, List.of(before));
        String verdict = reasons.isEmpty() ? Y : N;
        if (!verdict.equals(expected)) {
            wrong.add(change.name() + " under " + level + ": expected " + expected + ", was " + verdict + " " + reasons);
        }
    }

    private static Schema parse(String schema) {
        return new Schema.Parser().parse(schema);
    }
}
