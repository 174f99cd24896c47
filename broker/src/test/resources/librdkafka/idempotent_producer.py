"""librdkafka's idempotent producer against a Millrace broker: every record is acknowledged once, at
the offset that follows the one before it, and a consumer reads them back in the order produced.
The caller may damage the first Produce request on the way, so that its batch is refused as
CORRUPT_MESSAGE; librdkafka must send it again and still store each record once, in order.

Usage: idempotent_producer.py BOOTSTRAP TOPIC COUNT
Prints one JSON line with what it saw; exits non-zero with a reason on stderr when a check fails.
"""
import json
import sys
import time

from confluent_kafka import Consumer, Producer, TopicPartition


def fail(reason):
    print(reason, file=sys.stderr)
    sys.exit(1)


def produce(bootstrap, topic, count):
    """Sends every record without waiting, then checks each was acknowledged at the next offset."""
    producer = Producer({
        "bootstrap.servers": bootstrap,
        "enable.idempotence": True,
        "linger.ms": 5,
        "batch.num.messages": 50,
        "max.in.flight.requests.per.connection": 5,
        "retry.backoff.ms": 20,
        "message.timeout.ms": 30000,
    })
    offsets = {}
    errors = []

    def delivered(err, msg):
        if err is not None:
            errors.append(str(err))
        else:
            offsets[int(msg.value().decode().split()[1])] = msg.offset()

    for n in range(count):
        producer.produce(topic, value=("record %d" % n).encode(), partition=0, on_delivery=delivered)
    if producer.flush(60) != 0 or errors:
        fail("produce failed: %s" % errors[:3])
    if [offsets.get(n) for n in range(count)] != list(range(count)):
        fail("acknowledged offsets out of order: %s" % sorted(offsets.items(), key=lambda e: e[1])[:20])


def consume(bootstrap, topic, count):
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "idempotent-check",
                         "enable.auto.commit": False, "auto.offset.reset": "earliest"})
    consumer.assign([TopicPartition(topic, 0, 0)])
    values = []
    deadline = time.time() + 60
    while len(values) < count and time.time() < deadline:
        message = consumer.poll(0.2)
        if message is not None and message.error() is None:
            values.append(message.value().decode())
    consumer.close()
    if values != ["record %d" % n for n in range(count)]:
        fail("read back %d records, not each once in order; first differences: %s" % (
            len(values), [(i, v) for i, v in enumerate(values) if v != "record %d" % i][:5]))


def main():
    bootstrap, topic, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    produce(bootstrap, topic, count)
    consume(bootstrap, topic, count)
    print(json.dumps({"records": count, "in order": True}))


if __name__ == "__main__":
    main()
