package io.millrace.examples.generator;

import java.util.ArrayList;
import java.util.List;

/**
 * What the simulated site consists of: its pages, the queries people type into its search box, the
 * sites that link to it and the back-end services its front-ends call. Built the same way every time
 * (no randomness), most popular first, so that a rank drawn from a {@link ZipfDistribution} names the
 * same page or query in every run: the top page is always the home page. Immutable.
 */
final class SiteCatalog {

    /** One page of the site: its URL path and the kind of page it is (the page view's {@code pageKey}). */
    record Page(String path, String pageKey) {
    }

    /** An operation of a back-end service and its typical (median) duration. */
    record Operation(String callee, String method, double medianMs) {
    }

    private static final List<Page> HUB_PAGES = List.of(new Page("/", "home"), new Page("/feed", "feed"),
        new Page("/jobs", "jobs-home"), new Page("/messaging", "messaging"), new Page("/notifications", "notifications"),
        new Page("/mynetwork", "my-network"), new Page("/search/results", "search-results"), new Page("/me", "own-profile"),
        new Page("/settings", "settings"), new Page("/help", "help"));

    private static final List<String> ROLES = List.of("software engineer", "data scientist", "product manager", "nurse",
        "accountant", "designer", "sales manager", "teacher", "recruiter", "data engineer", "project manager",
        "marketing manager", "mechanical engineer", "analyst", "consultant", "devops engineer", "lawyer", "pharmacist",
        "electrician", "architect", "customer success", "hr manager", "financial analyst", "site reliability engineer",
        "java developer", "frontend developer", "researcher", "operations manager", "copywriter", "chef");

    private static final List<String> PLACES = List.of("london", "new york", "san francisco", "berlin", "paris",
        "bangalore", "toronto", "sydney", "amsterdam", "dublin", "singapore", "remote", "chicago", "seattle", "madrid",
        "stockholm", "zurich", "austin", "boston", "tokyo");

    private static final List<String> COMPANIES = List.of("acme", "globex", "initech", "umbrella", "hooli", "stark",
        "wayne", "wonka", "tyrell", "cyberdyne", "soylent", "aperture", "massive dynamic", "vandelay", "pied piper",
        "dunder mifflin", "oceanic", "monarch", "gringotts", "blue sun");

    private static final List<String> REFERRERS = List.of("https://www.google.com/", "https://www.bing.com/",
        "https://duckduckgo.com/", "https://news.ycombinator.com/", "https://twitter.com/", "https://www.facebook.com/",
        "https://www.reddit.com/", "https://mail.example.com/");

    private static final List<Operation> OPERATIONS = List.of(
        new Operation("profile-service", "GET /profiles/{id}", 8),
        new Operation("feed-service", "GET /feed/{memberId}", 35),
        new Operation("connection-service", "GET /connections/{memberId}", 12),
        new Operation("search-service", "GET /search", 60),
        new Operation("auth-service", "GET /tokens/{token}", 3),
        new Operation("jobs-service", "GET /jobs/{id}", 15),
        new Operation("messaging-service", "GET /threads/{memberId}", 20),
        new Operation("ads-service", "POST /ads/select", 25),
        new Operation("profile-service", "PUT /profiles/{id}", 30),
        new Operation("messaging-service", "POST /threads/{id}/messages", 40),
        new Operation("notification-service", "GET /notifications/{memberId}", 10),
        new Operation("company-service", "GET /companies/{id}", 9),
        new Operation("recommendation-service", "GET /people-you-may-know/{memberId}", 80),
        new Operation("jobs-service", "POST /jobs/{id}/applications", 55),
        new Operation("media-service", "POST /media", 150));

    private final List<Page> pages;
    private final List<String> queries;

    private SiteCatalog(List<Page> pages, List<String> queries) {
        this.pages = List.copyOf(pages);
        this.queries = List.copyOf(queries);
    }

    /** A site of {@code pageCount} pages (the ten hub pages, then profiles, jobs, companies, articles and groups). */
    static SiteCatalog of(int pageCount) {
        return new SiteCatalog(pages(pageCount), vocabulary());
    }

    /** The standard site: about three thousand pages. */
    static SiteCatalog standard() {
        return of(3_000);
    }

    List<Page> pages() {
        return pages;
    }

    List<String> queries() {
        return queries;
    }

    List<String> referrers() {
        return REFERRERS;
    }

    List<Operation> operations() {
        return OPERATIONS;
    }

    // the kinds take turns, so that the tail of the distribution holds every kind of page
    private static List<Page> pages(int count) {
        List<Page> pages = new ArrayList<>(HUB_PAGES.subList(0, Math.min(count, HUB_PAGES.size())));
        for (int i = 0; pages.size() < count; i++) {
            pages.add(tailPage(i % 5, i / 5));
        }
        return pages;
    }

    /** The {@code n}th page of one of the five kinds beyond the hubs; every path differs from every other. */
    private static Page tailPage(int kind, int n) {
        return switch (kind) {
            case 0 -> new Page("/in/member-" + (1000 + n * 37), "profile");
            case 1 -> new Page("/jobs/view/" + (400_000 + n * 13), "job-posting");
            case 2 -> new Page("/company/" + COMPANIES.get(n % COMPANIES.size()).replace(' ', '-')
                + (n < COMPANIES.size() ? "" : "-" + (n / COMPANIES.size() + 1)), "company");
            case 3 -> new Page("/pulse/article-" + (20_000 + n), "article");
            default -> new Page("/groups/" + (7_000 + n * 3), "group");
        };
    }

    // roles alone are the most typed, then roles in a place, then employers, then roles at an employer
    private static List<String> vocabulary() {
        List<String> queries = new ArrayList<>(ROLES);
        for (String place : PLACES) {
            for (String role : ROLES) {
                queries.add(role + " " + place);
            }
        }
        queries.addAll(COMPANIES);
        for (String company : COMPANIES) {
            for (String role : ROLES) {
                queries.add(role + " " + company);
            }
        }
        return queries;
    }
}
