package io.millrace.examples.generator;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.millrace.examples.events.PageViewEvent;
import io.millrace.examples.events.SearchEvent;
import io.millrace.examples.events.ServiceCallEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.Test;

/** The drawn events have the shapes of real traffic, and a seed draws the same events again. */
public class FrontEndTrafficTest {

    private static final long TIME = 1_700_000_000_000L;
    private static final int DRAWS = 20_000;

    private static FrontEndTraffic traffic(long seed, EventTopic... topics) {
        return new FrontEndTraffic(SiteCatalog.standard(), List.of(topics), new Random(seed));
    }

    @Test
    public void theSameSeedDrawsTheSameEventsAndAnotherSeedOthers() {
        FrontEndTraffic first = traffic(7, EventTopic.values());
        FrontEndTraffic again = traffic(7, EventTopic.values());
        FrontEndTraffic other = traffic(8, EventTopic.values());
        List<Object> drawn = new ArrayList<>();
        List<Object> redrawn = new ArrayList<>();
        List<Object> otherDrawn = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            drawn.add(first.next(TIME));
            redrawn.add(again.next(TIME));
            otherDrawn.add(other.next(TIME));
        }
        assertEquals(drawn, redrawn);
        assertNotEquals(drawn, otherDrawn);
    }

    @Test
    public void pageViewsFollowALongTailOverThousandsOfPages() {
        FrontEndTraffic traffic = traffic(1, EventTopic.PAGE_VIEWS);
        Map<String, Integer> views = new HashMap<>();
        int signedOut = 0;
        int withoutReferrer = 0;
        for (int i = 0; i < DRAWS; i++) {
            FrontEndTraffic.Event event = traffic.next(TIME);
            PageViewEvent view = (PageViewEvent) event.value();
            assertEquals(EventTopic.PAGE_VIEWS, event.topic());
            views.merge(view.getUrl(), 1, Integer::sum);
            signedOut += view.getMemberId() == null ? 1 : 0;
            withoutReferrer += view.getReferrer() == null ? 1 : 0;
            // keyed by the member, or by the tracking id of a visitor who is not signed in
            assertTrue(event.key(), view.getMemberId() == null ? event.key().startsWith("visitor-")
                : event.key().equals("member-" + view.getMemberId()));
            assertEquals(TIME, (long) view.getHeader().getTime());
            assertEquals(FrontEndTraffic.SERVICE, view.getHeader().getService());
        }
        List<Integer> counts = sortedDescending(views.values());
        // about 12% of views go to the home page, a page in the middle of the tail is seen once or twice
        assertEquals(Integer.valueOf(views.get("/")), counts.get(0));
        assertTrue("top page " + counts.get(0), counts.get(0) > DRAWS / 10);
        int median = counts.get(counts.size() / 2);
        assertTrue("top " + counts.get(0) + " vs median " + median, counts.get(0) >= 100 * median);
        assertTrue("distinct pages " + views.size(), views.size() > 2_000);
        assertShare("signed out", signedOut, FrontEndTraffic.SIGNED_OUT_SHARE);
        assertShare("no referrer", withoutReferrer, FrontEndTraffic.NO_REFERRER_SHARE);
    }

    @Test
    public void searchesRepeatPopularQueriesAndSometimesFindNothing() {
        FrontEndTraffic traffic = traffic(2, EventTopic.SEARCHES);
        Map<String, Integer> queries = new HashMap<>();
        int nothingFound = 0;
        for (int i = 0; i < DRAWS; i++) {
            SearchEvent search = (SearchEvent) traffic.next(TIME).value();
            queries.merge(search.getQuery(), 1, Integer::sum);
            nothingFound += search.getResultCount() == 0 ? 1 : 0;
            assertEquals(Math.min(10, search.getResultCount()), search.getShownIds().size());
        }
        List<Integer> counts = sortedDescending(queries.values());
        assertTrue("top " + counts.get(0) + " vs median " + counts.get(counts.size() / 2),
            counts.get(0) >= 20 * counts.get(counts.size() / 2));
        assertTrue("distinct queries " + queries.size(), queries.size() > 1_000);
        assertShare("no results", nothingFound, FrontEndTraffic.NO_RESULTS_SHARE);
    }

    @Test
    public void serviceCallsAreMostlyQuickAndSuccessfulWithALongTailOfSlowAndFailedOnes() {
        FrontEndTraffic traffic = traffic(3, EventTopic.SERVICE_CALLS);
        List<Long> durations = new ArrayList<>();
        int failed = 0;
        Set<String> callees = new HashSet<>();
        for (int i = 0; i < DRAWS; i++) {
            FrontEndTraffic.Event event = traffic.next(TIME);
            ServiceCallEvent call = (ServiceCallEvent) event.value();
            assertNull(event.key());
            durations.add(call.getDurationMs());
            callees.add(call.getCallee());
            boolean ok = call.getStatus() < 300;
            assertEquals(ok, call.getError() == null);
            failed += ok ? 0 : 1;
        }
        Collections.sort(durations);
        long median = durations.get(DRAWS / 2);
        long p99 = durations.get(DRAWS * 99 / 100);
        assertTrue("median " + median, median >= 3 && median <= 60);
        assertTrue("p99 " + p99 + " vs median " + median, p99 >= 5 * median);
        assertTrue("callees " + callees, callees.size() >= 10);
        double failedShare = (double) failed / DRAWS;
        assertTrue("failed share " + failedShare, failedShare > 0.02 && failedShare < 0.08);
    }

    @Test
    public void topicsAreMixedInTheirSharesAndOnlyTheChosenOnes() {
        Map<EventTopic, Integer> drawn = new EnumMap<>(EventTopic.class);
        FrontEndTraffic all = traffic(4, EventTopic.values());
        for (int i = 0; i < DRAWS; i++) {
            drawn.merge(all.next(TIME).topic(), 1, Integer::sum);
        }
        for (EventTopic topic : EventTopic.values()) {
            assertShare(topic.topic(), drawn.get(topic), topic.share() / 10.0);
        }
        FrontEndTraffic two = traffic(5, EventTopic.SEARCHES, EventTopic.SERVICE_CALLS);
        Set<EventTopic> seen = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            seen.add(two.next(TIME).topic());
        }
        assertEquals(Set.of(EventTopic.SEARCHES, EventTopic.SERVICE_CALLS), seen);
    }

    private static List<Integer> sortedDescending(Collection<Integer> values) {
        List<Integer> sorted = new ArrayList<>(values);
        sorted.sort(Collections.reverseOrder());
        return sorted;
    }

    private static void assertShare(String what, int count, double expected) {
        double share = (double) count / DRAWS;
        assertTrue(what + ": " + share + ", expected about " + expected, Math.abs(share - expected) < 0.02);
    }
}
