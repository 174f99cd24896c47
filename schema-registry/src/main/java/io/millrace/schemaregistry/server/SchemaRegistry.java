package io.millrace.schemaregistry.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * What the REST API does, apart from HTTP: registering schemas under subjects with the
 * compatibility check, looking them up, soft and permanent deletes, and compatibility levels.
 * State lives in the {@link SchemaStore}; only the id -&gt; schema mapping is cached, because an id
 * never changes its schema. Thread-safe: concurrent registrations race in ZooKeeper, where only
 * one can create a given id or version, and the loser looks again.
 */
public final class SchemaRegistry {

    private static final String LATEST = "latest";

    private final SchemaStore store;
    private final CompatibilityLevel defaultLevel;
    private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();

    public SchemaRegistry(SchemaStore store, CompatibilityLevel defaultLevel) {
        this.store = store;
        this.defaultLevel = defaultLevel;
    }

    /** Registers {@code schemaText} under {@code subject} and returns its id; the same schema gets the same id. */
    public int register(String subject, String schemaText) {
        return register(subject, schemaText, OptionalInt.empty());
    }

    /**
     * {@link #register(String, String)}, or in IMPORT mode the registration of a schema with the id it
     * brings ({@code givenId}), kept as it is: the mirror copies a live registry's schemas so that the
     * ids in mirrored records mean the same schema offline.
     */
    public int register(String subject, String schemaText, OptionalInt givenId) {
        RegistryMode mode = effectiveMode(subject);
        if (mode == RegistryMode.READONLY) {
            throw readOnly();
        }
        if (mode == RegistryMode.IMPORT) {
            return givenId.isPresent() ? importSchema(subject, schemaText, givenId.getAsInt()) : heldAlready(subject, schemaText);
        }
        if (givenId.isPresent()) {
            throw RegistryError.OPERATION_NOT_PERMITTED.exception("A schema id may be given only in IMPORT mode");
        }
        Schema schema = AvroSchemas.parse(schemaText);
        String canonical = AvroSchemas.canonical(schema);
        while (true) {
            List<SubjectVersion> versions = store.versions(subject);
            OptionalInt known = store.idOf(canonical);
            if (known.isPresent() && live(versions).stream().anyMatch(v -> v.id() == known.getAsInt())) {
                return known.getAsInt();
            }
            ensureCompatible(subject, schema, live(versions));
            int id = known.isPresent() ? known.getAsInt() : store.idFor(canonical);
            schemasById.putIfAbsent(id, schema);
            int next = versions.isEmpty() ? 1 : versions.get(versions.size() - 1).version() + 1;
            if (store.createVersion(subject, next, id)) {
                return id;
            }
            // another registration took that version number: look at the subject again
        }
    }

    /**
     * In IMPORT mode, a registration without an id of a schema {@code subject} already holds answers its id,
     * as a lookup would: the offline data centre's own clients (the audit's publishers, with
     * {@code auto.register.schemas}) register schemas that the mirror imported, and nothing new is made. A
     * schema the subject does not hold still needs its id.
     */
    private int heldAlready(String subject, String schemaText) {
        try {
            return lookup(subject, schemaText, false).id();
        } catch (RegistryException notHeld) {
            throw RegistryError.OPERATION_NOT_PERMITTED.exception("The registry is in IMPORT mode: a registration of a "
                + "schema that subject " + subject + " does not hold already must bring its id");
        }
    }

    private int importSchema(String subject, String schemaText, int id) {
        Schema schema = AvroSchemas.parse(schemaText);
        String canonical = AvroSchemas.canonical(schema);
        if (!store.importId(id, canonical)) {
            throw RegistryError.OPERATION_NOT_PERMITTED.exception("Schema id " + id + " already holds a different schema");
        }
        schemasById.putIfAbsent(id, schema);
        while (true) {
            List<SubjectVersion> versions = store.versions(subject);
            if (live(versions).stream().anyMatch(v -> v.id() == id)) {
                return id;
            }
            // no compatibility check: an import copies what other registries accepted, in their order
            int next = versions.isEmpty() ? 1 : versions.get(versions.size() - 1).version() + 1;
            if (store.createVersion(subject, next, id)) {
                return id;
            }
        }
    }

    public RegistryMode mode() {
        return store.mode();
    }

    public void setMode(RegistryMode mode) {
        store.setMode(mode);
    }

    /** The subject's own mode, if it has one. */
    public Optional<RegistryMode> subjectMode(String subject) {
        return store.mode(subject);
    }

    public void setSubjectMode(String subject, RegistryMode mode) {
        store.setMode(subject, mode);
    }

    /** Removes the subject's own mode and returns it. */
    public RegistryMode deleteSubjectMode(String subject) {
        RegistryMode mode = store.mode(subject).orElseThrow(() -> subjectModeNotConfigured(subject));
        store.deleteMode(subject);
        return mode;
    }

    /** What the subject accepts: its own mode, else the registry's. */
    public RegistryMode effectiveMode(String subject) {
        return store.mode(subject).orElseGet(store::mode);
    }

    static RegistryException subjectModeNotConfigured(String subject) {
        return RegistryError.SUBJECT_LEVEL_MODE_NOT_CONFIGURED.exception("Subject '" + subject
            + "' does not have subject-level mode configured");
    }

    private static RegistryException readOnly() {
        return RegistryError.OPERATION_NOT_PERMITTED.exception("The registry is in READONLY mode");
    }

    private void ensureWritable() {
        if (store.mode() == RegistryMode.READONLY) {
            throw readOnly();
        }
    }

    private void ensureWritable(String subject) {
        if (effectiveMode(subject) == RegistryMode.READONLY) {
            throw RegistryError.OPERATION_NOT_PERMITTED.exception("Subject '" + subject + "' is in READONLY mode");
        }
    }

    /** The version of {@code subject} that holds {@code schemaText}. */
    public SubjectSchema lookup(String subject, String schemaText, boolean includeDeleted) {
        String canonical = AvroSchemas.canonical(AvroSchemas.parse(schemaText));
        List<SubjectVersion> versions = visible(store.versions(subject), includeDeleted);
        if (versions.isEmpty()) {
            throw subjectNotFound(subject);
        }
        OptionalInt id = store.idOf(canonical);
        for (int i = versions.size() - 1; i >= 0 && id.isPresent(); i--) {
            if (versions.get(i).id() == id.getAsInt()) {
                return subjectSchema(subject, versions.get(i));
            }
        }
        throw RegistryError.SCHEMA_NOT_FOUND.exception("Schema not found");
    }

    /**
     * The subjects with a version {@code filter} shows, those starting with {@code prefix} (empty for all);
     * with {@link VersionFilter#DELETED_ONLY}, the subjects whose every version is soft-deleted.
     */
    public List<String> subjects(VersionFilter filter, String prefix) {
        List<String> subjects = new ArrayList<>();
        for (String subject : store.subjects()) {
            if (!subject.startsWith(prefix)) {
                continue;
            }
            List<SubjectVersion> versions = store.versions(subject);
            boolean listed = filter == VersionFilter.DELETED_ONLY
                ? !versions.isEmpty() && live(versions).isEmpty()
                : versions.stream().anyMatch(filter::shows);
            if (listed) {
                subjects.add(subject);
            }
        }
        return subjects;
    }

    /**
     * The version numbers {@code filter} shows; SUBJECT_NOT_FOUND when it shows none, unless only the
     * soft-deleted were asked for and the subject has live versions (then none).
     */
    public List<Integer> versions(String subject, VersionFilter filter) {
        List<SubjectVersion> all = store.versions(subject);
        List<Integer> versions = all.stream().filter(filter::shows).map(SubjectVersion::version).toList();
        if (versions.isEmpty() && (filter != VersionFilter.DELETED_ONLY || all.isEmpty())) {
            throw subjectNotFound(subject);
        }
        return versions;
    }

    /** {@code version} is a number or "latest" (also -1). */
    public SubjectSchema version(String subject, String version, boolean includeDeleted) {
        return subjectSchema(subject, find(subject, version, includeDeleted));
    }

    /** The schema of {@code id}, in canonical form. */
    public Schema schemaById(int id) {
        Schema cached = schemasById.get(id);
        if (cached != null) {
            return cached;
        }
        Optional<String> text = store.schemaById(id);
        if (text.isEmpty()) {
            throw RegistryError.SCHEMA_NOT_FOUND.exception("Schema " + id + " not found");
        }
        Schema schema = new Schema.Parser().parse(text.get());
        schemasById.putIfAbsent(id, schema);
        return schema;
    }

    /** Every subject version whose schema is {@code id}: the live ones, and with {@code includeDeleted} the soft-deleted too. */
    public List<SubjectSchema> versionsOfId(int id, boolean includeDeleted) {
        Schema schema = schemaById(id);
        List<SubjectSchema> found = new ArrayList<>();
        for (String subject : store.subjects()) {
            for (SubjectVersion version : visible(store.versions(subject), includeDeleted)) {
                if (version.id() == id) {
                    found.add(new SubjectSchema(subject, version.version(), id, AvroSchemas.canonical(schema)));
                }
            }
        }
        return found;
    }

    /** Soft-deletes every live version of {@code subject}, or, when {@code permanent}, removes its soft-deleted ones. */
    public List<Integer> deleteSubject(String subject, boolean permanent) {
        ensureWritable(subject);
        List<SubjectVersion> versions = store.versions(subject);
        if (versions.isEmpty()) {
            throw subjectNotFound(subject);
        }
        List<SubjectVersion> live = live(versions);
        if (permanent) {
            if (!live.isEmpty()) {
                throw RegistryError.SUBJECT_NOT_SOFT_DELETED.exception("Subject '" + subject
                    + "' was not deleted first before being permanently deleted");
            }
            versions.forEach(v -> store.deleteVersion(subject, v.version()));
            return versions.stream().map(SubjectVersion::version).toList();
        }
        if (live.isEmpty()) {
            throw RegistryError.SUBJECT_SOFT_DELETED.exception("Subject '" + subject + "' was soft deleted. "
                + "Set permanent=true to delete permanently");
        }
        live.forEach(v -> store.markDeleted(subject, v));
        return live.stream().map(SubjectVersion::version).toList();
    }

    /** Soft-deletes one version, or, when {@code permanent}, removes a soft-deleted one. */
    public int deleteVersion(String subject, String version, boolean permanent) {
        ensureWritable(subject);
        SubjectVersion found = find(subject, version, true);
        if (permanent) {
            if (!found.deleted()) {
                throw RegistryError.VERSION_NOT_SOFT_DELETED.exception("Subject '" + subject + "' Version "
                    + found.version() + " was not deleted first before being permanently deleted");
            }
            store.deleteVersion(subject, found.version());
        } else if (found.deleted()) {
            throw RegistryError.VERSION_SOFT_DELETED.exception("Subject '" + subject + "' Version " + found.version()
                + " was soft deleted. Set permanent=true to delete permanently");
        } else {
            store.markDeleted(subject, found);
        }
        return found.version();
    }

    /**
     * Why {@code schemaText} could not be registered under {@code subject}: checked against
     * {@code version} alone, or, when it is null, against the versions the subject's level asks for.
     */
    public List<String> incompatibilities(String subject, String version, String schemaText) {
        Schema schema = AvroSchemas.parse(schemaText);
        CompatibilityLevel level = effectiveLevel(subject);
        if (version == null) {
            return level.incompatibilities(schema, schemas(live(store.versions(subject))));
        }
        SubjectVersion against = find(subject, version, false);
        return level.incompatibilities(schema, List.of(schemaById(against.id())));
    }

    public CompatibilityLevel globalLevel() {
        return store.compatibility(null).orElse(defaultLevel);
    }

    public void setGlobalLevel(CompatibilityLevel level) {
        ensureWritable();
        store.setCompatibility(null, level);
    }

    /** The subject's own level, if it has one. */
    public Optional<CompatibilityLevel> subjectLevel(String subject) {
        return store.compatibility(subject);
    }

    public void setSubjectLevel(String subject, CompatibilityLevel level) {
        ensureWritable(subject);
        store.setCompatibility(subject, level);
    }

    /** Removes the global level set by PUT /config, returning it; the configured default applies again. */
    public CompatibilityLevel deleteGlobalLevel() {
        ensureWritable();
        CompatibilityLevel level = globalLevel();
        store.deleteCompatibility(null);
        return level;
    }

    /** Removes the subject's own level and returns it. */
    public CompatibilityLevel deleteSubjectLevel(String subject) {
        CompatibilityLevel level = store.compatibility(subject).orElseThrow(() -> subjectNotFound(subject));
        store.deleteCompatibility(subject);
        return level;
    }

    public CompatibilityLevel effectiveLevel(String subject) {
        return store.compatibility(subject).orElseGet(this::globalLevel);
    }

    private void ensureCompatible(String subject, Schema schema, List<SubjectVersion> live) {
        List<String> reasons = effectiveLevel(subject).incompatibilities(schema, schemas(live));
        if (!reasons.isEmpty()) {
            throw RegistryError.INCOMPATIBLE_SCHEMA.exception("Schema being registered is incompatible with an earlier "
                + "schema for subject \"" + subject + "\", details: " + reasons);
        }
    }

    private SubjectVersion find(String subject, String version, boolean includeDeleted) {
        int number = parseVersion(version);
        List<SubjectVersion> all = store.versions(subject);
        List<SubjectVersion> versions = visible(all, includeDeleted);
        if (live(all).isEmpty() && (versions.isEmpty() || number < 0)) {
            throw subjectNotFound(subject);
        }
        if (number < 0) {
            List<SubjectVersion> live = live(all);
            return live.get(live.size() - 1);
        }
        return versions.stream().filter(v -> v.version() == number).findFirst().orElseThrow(() ->
            RegistryError.VERSION_NOT_FOUND.exception("Version " + number + " not found."));
    }

    /** A version number, or -1 for the latest; INVALID_VERSION (42202) for anything else. */
    static int parseVersion(String version) {
        if (LATEST.equalsIgnoreCase(version) || "-1".equals(version)) {
            return -1;
        }
        try {
            int number = Integer.parseInt(version);
            if (number > 0) {
                return number;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw RegistryError.INVALID_VERSION.exception("The specified version '" + version + "' is not a valid version id. "
            + "Allowed values are between [1, 2^31-1] and the string \"latest\"");
    }

    private SubjectSchema subjectSchema(String subject, SubjectVersion version) {
        return new SubjectSchema(subject, version.version(), version.id(), AvroSchemas.canonical(schemaById(version.id())));
    }

    private List<Schema> schemas(List<SubjectVersion> versions) {
        return versions.stream().map(v -> schemaById(v.id())).toList();
    }

    private static List<SubjectVersion> live(List<SubjectVersion> versions) {
        return versions.stream().filter(v -> !v.deleted()).toList();
    }

    private static List<SubjectVersion> visible(List<SubjectVersion> versions, boolean includeDeleted) {
        return includeDeleted ? versions : live(versions);
    }

    private static RegistryException subjectNotFound(String subject) {
        return RegistryError.SUBJECT_NOT_FOUND.exception("Subject '" + subject + "' not found.");
    }
}
