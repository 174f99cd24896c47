package io.millrace.examples.generator;

import io.millrace.events.EventHeader;
import io.millrace.examples.events.PageViewEvent;
import io.millrace.examples.events.SearchEvent;
import io.millrace.examples.events.SearchVertical;
import io.millrace.examples.events.ServiceCallEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.avro.specific.SpecificRecord;

/**
 * The events a site's front-ends log, drawn at random with the shape of real traffic: pages, queries,
 * members, referrers and services from long-tailed distributions over a {@link SiteCatalog}, a share of
 * visitors not signed in, service calls that mostly take a few milliseconds but sometimes far longer, and
 * mostly succeed. The same {@link Random} seed gives the same events. Every event's header carries the
 * time it is given and the service {@code frontend}; the producer fills in the server and the id.
 *
 * <p>Not thread-safe: one sending thread draws every event.
 */
final class FrontEndTraffic {

    /** One event, the topic it goes to, and its key: the member, or the tracking id of a visitor; none for calls. */
    record Event(EventTopic topic, String key, SpecificRecord value) {
    }

    static final String SERVICE = "frontend";
    static final double SIGNED_OUT_SHARE = 0.2;
    static final double NO_REFERRER_SHARE = 0.65;
    static final double NO_RESULTS_SHARE = 0.04;
    private static final int MEMBERS = 200_000;
    private static final int VISITORS = 50_000;
    private static final int RESULTS_SHOWN = 10;
    private static final long CALL_TIMEOUT_MS = 1_000;

    private final SiteCatalog site;
    private final Random random;
    private final List<EventTopic> mix = new ArrayList<>();
    private final ZipfDistribution pages;
    private final ZipfDistribution queries;
    private final ZipfDistribution members = new ZipfDistribution(MEMBERS, 0.7);
    private final ZipfDistribution referrers;
    private final ZipfDistribution operations;

    FrontEndTraffic(SiteCatalog site, List<EventTopic> topics, Random random) {
        this.site = site;
        this.random = random;
        topics.forEach(topic -> {
            for (int i = 0; i < topic.share(); i++) {
                mix.add(topic);
            }
        });
        this.pages = new ZipfDistribution(site.pages().size(), 1.0);
        this.queries = new ZipfDistribution(site.queries().size(), 0.9);
        this.referrers = new ZipfDistribution(site.referrers().size(), 1.2);
        this.operations = new ZipfDistribution(site.operations().size(), 1.0);
    }

    /** The next event, of one of the topics in their shares, happening at {@code timeMs}. */
    Event next(long timeMs) {
        EventTopic topic = mix.get(random.nextInt(mix.size()));
        return switch (topic) {
            case PAGE_VIEWS -> pageView(timeMs);
            case SEARCHES -> search(timeMs);
            case SERVICE_CALLS -> serviceCall(timeMs);
        };
    }

    Event pageView(long timeMs) {
        Long member = member();
        SiteCatalog.Page page = site.pages().get(pages.sample(random));
        String referrer = random.nextDouble() < NO_REFERRER_SHARE ? null : site.referrers().get(referrers.sample(random));
        return new Event(EventTopic.PAGE_VIEWS, key(member),
            new PageViewEvent(header(timeMs), member, page.pageKey(), page.path(), referrer));
    }

    Event search(long timeMs) {
        Long member = member();
        int rank = queries.sample(random);
        SearchVertical vertical = vertical();
        // a popular query is a broad one: it finds more
        int found = random.nextDouble() < NO_RESULTS_SHARE ? 0
            : (int) Math.max(1, Math.min(1_000_000, logNormal(20_000 / Math.sqrt(rank + 1.0), 1.0)));
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < Math.min(RESULTS_SHOWN, found); i++) {
            shown.add(resultId(vertical));
        }
        return new Event(EventTopic.SEARCHES, key(member),
            new SearchEvent(header(timeMs), member, site.queries().get(rank), vertical, found, shown));
    }

    Event serviceCall(long timeMs) {
        SiteCatalog.Operation operation = site.operations().get(operations.sample(random));
        long durationMs = Math.max(1, Math.round(logNormal(operation.medianMs(), 0.8)));
        double outcome = random.nextDouble();
        int status = operation.method().startsWith("POST") ? 201 : 200;
        String error = null;
        if (outcome >= 0.995 || durationMs >= CALL_TIMEOUT_MS) {
            status = 504;
            durationMs = CALL_TIMEOUT_MS + random.nextInt(20);
            error = "timed out after " + CALL_TIMEOUT_MS + " ms";
        } else if (outcome >= 0.99) {
            status = 503;
            error = operation.callee() + " is unavailable";
        } else if (outcome >= 0.98) {
            status = 500;
            error = "internal error in " + operation.callee();
        } else if (outcome >= 0.96) {
            status = 404;
            error = "not found";
        }
        return new Event(EventTopic.SERVICE_CALLS, null, new ServiceCallEvent(header(timeMs), operation.callee(),
            operation.method(), durationMs, status, error));
    }

    private static EventHeader header(long timeMs) {
        return new EventHeader(timeMs, null, SERVICE, null);
    }

    /** A member, the more active ones more often, or null for a visitor who is not signed in. */
    private Long member() {
        if (random.nextDouble() < SIGNED_OUT_SHARE) {
            return null;
        }
        // scatter the ranks over the id space, as activity has nothing to do with when a member joined
        return 100_000L + members.sample(random) * 7_919L % 1_000_003L;
    }

    private String key(Long member) {
        return member != null ? "member-" + member : "visitor-" + random.nextInt(VISITORS);
    }

    private SearchVertical vertical() {
        double p = random.nextDouble();
        return p < 0.5 ? SearchVertical.ALL : p < 0.75 ? SearchVertical.PEOPLE : p < 0.95 ? SearchVertical.JOBS
            : SearchVertical.COMPANIES;
    }

    private String resultId(SearchVertical vertical) {
        SearchVertical kind = vertical != SearchVertical.ALL ? vertical
            : List.of(SearchVertical.PEOPLE, SearchVertical.JOBS, SearchVertical.COMPANIES).get(random.nextInt(3));
        return switch (kind) {
            case JOBS -> "job-" + (400_000 + random.nextInt(100_000));
            case COMPANIES -> "company-" + (1 + random.nextInt(5_000));
            default -> "member-" + (100_000 + random.nextInt(1_000_003));
        };
    }

    /** A draw whose logarithm is normal: a median, and a long tail to the right that grows with sigma. */
    private double logNormal(double median, double sigma) {
        return median * Math.exp(sigma * random.nextGaussian());
    }
}
