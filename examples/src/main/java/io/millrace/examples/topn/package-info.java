/**
 * The rolling top-N of URLs by page views over a sliding window, counted by event time. Each counting
 * instance keeps a {@link io.millrace.examples.topn.RollingUrlCounter} of the URLs whose page views it
 * receives and ranks them (the intermediate ranking); {@link io.millrace.examples.topn.UrlRanking#merge}
 * combines the instances' rankings of one window into the total ranking. The merge is exact only when every
 * URL is counted by one instance, that is when page views are partitioned by URL.
 */
package io.millrace.examples.topn;
