"""librdkafka's balanced consumer (what kcat -G and every confluent-kafka consumer use) against
Millrace brokers: three members of a group read a topic exactly once, a member leaves and the
other two take its partitions over, and the group shows up in librdkafka's admin calls.

Usage: balanced_consumers.py BOOTSTRAP TOPIC PARTITIONS ASSIGNMENT_STRATEGY
(ASSIGNMENT_STRATEGY "consumer": the consumer group protocol, group.protocol=consumer)
Prints one JSON line with what it saw; exits non-zero with a reason on stderr when a check fails.
"""
import json
import sys
import time

from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from confluent_kafka.admin import AdminClient


def fail(reason):
    print(reason, file=sys.stderr)
    sys.exit(1)


def produce(bootstrap, topic, partitions, first, count):
    """Spreads the records over every partition (librdkafka's default partitioner sticks keyless
    records to one partition at a time), so that every member has some to read."""
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    errors = []
    for i in range(first, first + count):
        producer.produce(topic, value=("event-%d" % i).encode(), partition=i % partitions,
                         on_delivery=lambda err, msg: err is not None and errors.append(err))
        producer.poll(0)
    if producer.flush(30) != 0 or errors:
        fail("produce failed: %s" % errors[:3])


def consumer(bootstrap, group, strategy, name):
    """A member with a client-side assignment strategy on the classic protocol, or with
    group.protocol=consumer (strategy "consumer"), where the coordinator assigns and sets the
    session and heartbeat times."""
    config = {
        "bootstrap.servers": bootstrap,
        "group.id": group,
        "client.id": name,
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
    }
    if strategy == "consumer":
        config["group.protocol"] = "consumer"
    else:
        config.update({"partition.assignment.strategy": strategy, "session.timeout.ms": 6000,
                       "heartbeat.interval.ms": 300})
    return Consumer(config)


def await_assignments(members, partitions, timeout_s=60):
    """Polls every member until their assignments together cover the topic, each partition once."""
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        for c in members:
            message = c.poll(0.05)
            if message is not None and message.error() is None:
                fail("a record arrived before any was produced")
        owned = [tp.partition for c in members for tp in c.assignment()]
        if sorted(owned) == list(range(partitions)) and all(c.assignment() for c in members):
            return {c: sorted(tp.partition for tp in c.assignment()) for c in members}
    fail("the group never settled: %s" % [[tp.partition for tp in c.assignment()] for c in members])


def read_exactly(members, expected, seen, timeout_s=60):
    """Reads until `expected` records in all, committing each batch before the next poll."""
    deadline = time.time() + timeout_s
    per_member = {c: 0 for c in members}
    read = 0
    while read < expected and time.time() < deadline:
        for c in members:
            batch = c.consume(num_messages=500, timeout=0.05)
            records = [m for m in batch if m.error() is None]
            for m in batch:
                if m.error() is not None and m.error().code() != KafkaError._PARTITION_EOF:
                    fail("consume error: %s" % m.error())
            for m in records:
                key = (m.partition(), m.offset())
                if key in seen:
                    fail("record %s was read twice" % (key,))
                seen[key] = m.value()
            if records:
                c.commit(asynchronous=False)
                per_member[c] += len(records)
                read += len(records)
    if read != expected:
        fail("read %d of %d records" % (read, expected))
    return per_member


def main():
    bootstrap, topic, partitions, strategy = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    group = "librdkafka-" + strategy.replace(",", "-")
    members = [consumer(bootstrap, group, strategy, "member-%d" % i) for i in range(3)]
    for c in members:
        c.subscribe([topic])
    first_assignment = await_assignments(members, partitions)

    seen = {}
    produce(bootstrap, topic, partitions, 0, 3000)
    first_round = read_exactly(members, 3000, seen)
    if min(first_round.values()) == 0:
        fail("a member read nothing: %s" % list(first_round.values()))

    leaver = members.pop()
    leaver.close()
    second_assignment = await_assignments(members, partitions)
    produce(bootstrap, topic, partitions, 3000, 1500)
    read_exactly(members, 1500, seen)

    admin = AdminClient({"bootstrap.servers": bootstrap})
    listed = admin.list_consumer_groups().result(30)
    group_ids = [g.group_id for g in listed.valid]
    if group not in group_ids:
        fail("list_consumer_groups does not show %s: %s" % (group, group_ids))
    description = admin.describe_consumer_groups([group])[group].result(30)
    described = sorted(m.client_id for m in description.members)
    if described != ["member-0", "member-1"]:
        fail("describe_consumer_groups shows members %s" % described)

    committed = members[0].committed([TopicPartition(topic, p) for p in range(partitions)], timeout=30)
    ends = [members[0].get_watermark_offsets(TopicPartition(topic, p), timeout=30)[1] for p in range(partitions)]
    if [tp.offset for tp in committed] != ends:
        fail("committed offsets %s differ from the log end offsets %s" % ([tp.offset for tp in committed], ends))
    for c in members:
        c.close()

    print(json.dumps({
        "group": group,
        "records": len(seen),
        "first_assignment": sorted(first_assignment.values()),
        "after_leave": sorted(second_assignment.values()),
        "state": str(description.state),
        "committed": sum(ends),
    }))


if __name__ == "__main__":
    main()
