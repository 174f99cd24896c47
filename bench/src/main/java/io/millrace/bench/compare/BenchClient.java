package io.millrace.bench.compare;

import io.millrace.bench.compare.Scenarios.ConsumerMode;
import io.millrace.bench.compare.Scenarios.Measurement;
import io.millrace.bench.compare.Scenarios.ProducerMode;

/** The two clients a scenario can run with, the same workload and settings through either. */
enum BenchClient {
    MILLRACE("millrace") {
        @Override
        Measurement produce(String bootstrap, String topic, ProducerMode mode, long count) throws Exception {
            return MillraceClients.produce(bootstrap, topic, mode, count);
        }

        @Override
        Measurement consume(String bootstrap, String topic, ConsumerMode mode, long count) {
            return MillraceClients.consume(bootstrap, topic, mode, count);
        }
    },
    KAFKA("kafka") {
        @Override
        Measurement produce(String bootstrap, String topic, ProducerMode mode, long count) throws Exception {
            return Scenarios.produce(bootstrap, topic, mode, count);
        }

        @Override
        Measurement consume(String bootstrap, String topic, ConsumerMode mode, long count) {
            return Scenarios.consume(bootstrap, topic, mode, count);
        }
    };

    final String name;

    BenchClient(String name) {
        this.name = name;
    }

    abstract Measurement produce(String bootstrap, String topic, ProducerMode mode, long count) throws Exception;

    abstract Measurement consume(String bootstrap, String topic, ConsumerMode mode, long count);
}
