package io.millrace.bench.compare;

/**
 * A ratio the report gives per run pair: the numerator cell's value over the denominator's.
 * {@link #BROKER} compares the brokers with the same (Kafka's) client; {@link #STACK} compares what
 * a user gets picking Millrace for both against picking Apache Kafka for both; {@link #AUDIT} what the
 * audit's producer tier costs Millrace's producer (scenario 1), each audited run against the plain run
 * next to it.
 */
enum Ratio {
    BROKER("broker", "Millrace broker / Kafka broker (Kafka client)", Cell.KAFKA_ON_MILLRACE, Cell.KAFKA_ON_KAFKA),
    STACK("stack", "Millrace client+broker / Kafka client+broker", Cell.MILLRACE_ON_MILLRACE, Cell.KAFKA_ON_KAFKA),
    AUDIT("audit", "Millrace client audited / not audited (Millrace broker)", Cell.AUDITED_MILLRACE_ON_MILLRACE,
        Cell.MILLRACE_ON_MILLRACE);

    final String id;
    final String label;
    final Cell numerator;
    final Cell denominator;

    Ratio(String id, String label, Cell numerator, Cell denominator) {
        this.id = id;
        this.label = label;
        this.numerator = numerator;
        this.denominator = denominator;
    }
}
