/** JMX export of metrics, shared by the broker and the clients. */
package io.millrace.common.metrics;
