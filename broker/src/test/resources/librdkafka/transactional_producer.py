"""librdkafka's transactional producer against a Millrace broker: one transaction committed, one
aborted, one more committed, then a read-committed consumer must read exactly the committed
records, each once, and a read-uncommitted one every record written.

Usage: transactional_producer.py BOOTSTRAP TOPIC
Prints one JSON line with what it saw; exits non-zero with a reason on stderr when a check fails.
"""
import json
import sys
import time

from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition

TIMEOUT_S = 30
PARTITIONS = 2


def fail(reason):
    print(reason, file=sys.stderr)
    sys.exit(1)


def transaction(producer, topic, prefix, count, commit):
    producer.begin_transaction()
    for n in range(count):
        producer.produce(topic, key=("%s-%d" % (prefix, n)).encode(), value=("%s-%d" % (prefix, n)).encode(),
                         partition=n % PARTITIONS)
    producer.flush(TIMEOUT_S)
    if commit:
        producer.commit_transaction(TIMEOUT_S)
    else:
        producer.abort_transaction(TIMEOUT_S)


def read(bootstrap, topic, isolation):
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "txn-check-" + isolation,
                         "isolation.level": isolation, "enable.auto.commit": False,
                         "enable.partition.eof": True})
    consumer.assign([TopicPartition(topic, p, 0) for p in range(PARTITIONS)])
    values, at_end = [], set()
    deadline = time.time() + TIMEOUT_S
    while len(at_end) < PARTITIONS:
        if time.time() > deadline:
            fail("%s: read %d records, partitions at their end: %s" % (isolation, len(values), sorted(at_end)))
        msg = consumer.poll(0.5)
        if msg is None:
            continue
        if msg.error():
            if msg.error().code() == -191:  # _PARTITION_EOF
                at_end.add(msg.partition())
                continue
            fail("%s: %s" % (isolation, msg.error()))
        values.append(msg.value().decode())
    consumer.close()
    return values


def main():
    bootstrap, topic = sys.argv[1], sys.argv[2]
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": "librdkafka-payments"})
    try:
        producer.init_transactions(TIMEOUT_S)
        transaction(producer, topic, "first", 100, True)
        transaction(producer, topic, "aborted", 50, False)
        transaction(producer, topic, "second", 30, True)
    except KafkaException as e:
        fail("a transaction failed: %s" % e.args[0])
    committed = read(bootstrap, topic, "read_committed")
    expected = {"first-%d" % n for n in range(100)} | {"second-%d" % n for n in range(30)}
    if len(committed) != len(expected) or set(committed) != expected:
        fail("read committed %d records, %d of them expected, where %d were committed"
             % (len(committed), len(set(committed) & expected), len(expected)))
    uncommitted = read(bootstrap, topic, "read_uncommitted")
    if len(uncommitted) != 180:
        fail("read uncommitted %d records of the 180 written" % len(uncommitted))
    print(json.dumps({"committed": len(committed), "uncommitted": len(uncommitted)}))


if __name__ == "__main__":
    main()
