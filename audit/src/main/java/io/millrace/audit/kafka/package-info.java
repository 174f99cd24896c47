/**
 * The audit's adapters to Apache Kafka's own clients, for applications that keep them: interceptors
 * that count the producer tier ({@link io.millrace.audit.kafka.AuditProducerInterceptor}) and a consumer
 * group's tier ({@link io.millrace.audit.kafka.AuditConsumerInterceptor}) by being listed in
 * {@code interceptor.classes}. The only package of Millrace's main code that sees Kafka's classes;
 * {@code kafka-clients} comes from the application.
 */
package io.millrace.audit.kafka;
