/**
 * The rolling top-N of URLs by page views over a sliding window of event time, {@code bin/millrace example
 * top-urls}, built as the Storm starter's rolling top words is (counters grouped by word, intermediate rankers,
 * one total ranker) but from plain group consumers and topics. Each
 * {@link io.millrace.examples.topn.CountingInstance} reads every partition of the page views, counts the URLs of
 * its share ({@link io.millrace.examples.topn.UrlShare}, the fields grouping) in a
 * {@link io.millrace.examples.topn.RollingUrlCounter}, and publishes the ranking of each window its
 * {@link io.millrace.examples.topn.EventTimeWatermark} has closed to {@code top-urls-partials}; the
 * {@link io.millrace.examples.topn.TotalRanker} merges every instance's ranking of a window
 * ({@link io.millrace.examples.topn.RankingMerger}) into {@code top-urls}. The merge is exact because each URL is
 * counted whole by one instance.
 *
 * <p>The URLs are shared out where they are read rather than by a stage that writes the page views again keyed
 * by URL: such a topic would mix, in each of its partitions, views read from all the source partitions at
 * whatever speed each was read, so one partition read ahead (a re-keyer catching up) would make views of the
 * others late for whole windows. Reading the source partitions directly, an instance's watermark waits for the
 * slowest of them, and all instances see the same event time and rank the same windows. The price is that every
 * instance reads every view; the counting, the state and the ranking are what is shared out.
 */
package io.millrace.examples.topn;
